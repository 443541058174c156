"""An independent judge of the review's flagged passes: does the better pass it names really lose fewer points?

Each flagged pass (``class`` set, not ``unclear``; with ``--all``, every pass whose better pass differs from the
played one) is played out from its hand's **true deal** twice: once with the seat passing what it passed, once
with the review's better pass; the other seats pass what they passed. All four seats are played by a player the
review does not model: ``classic`` (:class:`~outside_bots.ClassicBot`, its ties between equal cards broken by a
random stream: ``--repeats R`` streams, the same for both passes) or ``ismcts`` (OpenSpiel's ISMCTS bot,
``--sims`` simulations a card, shown each seat's view only; needs ``pip install 'hearts-analysis[bench]'``).
The seat's points are its hand's points as the rules score them (a moon by another seat included).

With ``--deals N`` each pass is judged instead on N deals the seat could not tell from the true one at its pass:
its own dealt cards kept, the other cards dealt at random (from ``--seed``). On each, the other seats pass what
the player chooses (ClassicBot's own pass, or ISMCTS's), and the played and the better pass are played out on
the same deal, with the same others' passes and the same streams (one a deal unless ``--repeats`` is given).

Reported: flags judged; the share where the better pass gives the seat fewer points (a tie counts half; the
mean over repeats), and of the play-outs where the two passes score differently, the share the better pass
wins; the mean gain (played minus better) with its standard error over flags; the mean claimed
``cost``; calibration (gain over claim, with its error) for ``cost``, ``other_cost`` and their minimum as the
claim.

    python benchmarks/pass_judge.py /tmp/real.jsonl --repeats 8
    python benchmarks/pass_judge.py /tmp/real.jsonl --review review.json --players ismcts --sims 300
    python benchmarks/pass_judge.py --simulate 200 --repeats 4 --json
    python benchmarks/pass_judge.py /tmp/real.jsonl --review review.json --deals 200

The records are ``hearts-game/1`` (``hearts import openspiel LOG -o real.jsonl``). Without ``--review`` the
passes are reviewed here (the library's pass review at the deep level, ``--seed``); ``--review`` reads
``hearts review FILE -f json``. ``--simulate N`` makes N hands of games of ``--bot`` (standard rules) instead.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Iterable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hearts_analysis.atomic import atomic_open  # noqa: E402
from hearts_analysis.cards import HEARTS_MASK, QS_MASK, mask_of, parse_card  # noqa: E402
from hearts_analysis.engine.replay import replay_game  # noqa: E402
from hearts_analysis.match.results import mean_se  # noqa: E402
from hearts_analysis.records import GameRecord, read_games  # noqa: E402
from hearts_analysis.review.levels import settings_at  # noqa: E402
from hearts_analysis.review.game import hand_starts  # noqa: E402
from hearts_analysis.review.pass_review import review_pass  # noqa: E402
from hearts_analysis.review.report import decision_dict  # noqa: E402
from hearts_analysis.review.sampling import InconsistentKnowledge  # noqa: E402
from hearts_analysis.rules import Rules  # noqa: E402
from hearts_analysis.simulate import BOT_KINDS, simulate_games  # noqa: E402
from hearts_analysis.simulate.bits import HIGH_SPADES, RANK  # noqa: E402
from hearts_analysis.simulate.game import hand_points  # noqa: E402
from hearts_analysis.simulate.play import HandPlay  # noqa: E402

from judge_strength import calibration  # noqa: E402
from outside_bots import OUTSIDE_BOTS, ClassicBot  # noqa: E402


class TieClassic(ClassicBot):
    """ClassicBot with its ties broken by its random stream: a lead among the lowest cards of equal rank, a
    discard among the highest of equal rank (ClassicBot takes the lowest card number). Every other choice is
    ClassicBot's own."""

    __slots__ = ()

    def choose_play(self, view, legal):
        card = ClassicBot.choose_play(self, view, legal)
        public = view.public
        if not public.led:
            pool = legal & ~HEARTS_MASK & ~QS_MASK & ~(HIGH_SPADES if view.unseen & QS_MASK else 0)
            pool = pool or legal & ~QS_MASK or legal
        elif legal & public.led or legal & (QS_MASK | HEARTS_MASK) or (view.unseen & QS_MASK and legal & HIGH_SPADES):
            return card  # one suit to choose in: no ties
        else:
            pool = legal
        ties = [c for c in range(52) if pool >> c & 1 and RANK[c] == RANK[card]]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)


def player_maker(players: str, rules: Rules, sims: int):
    """A maker of one seat's player from a random stream."""
    if players == "classic":
        return TieClassic
    if players == "ismcts":
        from hearts_analysis.match.openspiel_player import OpenSpielBot
        return functools.partial(OpenSpielBot, f"ismcts:{sims}", rules)
    if players in BOT_KINDS or players in OUTSIDE_BOTS:
        return BOT_KINDS.get(players) or OUTSIDE_BOTS[players]
    raise ValueError(f"unknown players {players!r} (classic, ismcts, {', '.join(BOT_KINDS)})")


@dataclass(frozen=True)
class Hand:
    """What playing a hand again needs: the true deal, the passes as made, the dealer, direction, totals."""

    game: GameRecord
    number: int
    dealt: tuple[int, ...]
    passed: tuple[int, ...]
    dealer: int
    direction: str
    totals: tuple[int, ...]


def hands_of(game: GameRecord) -> dict[int, Hand]:
    result = replay_game(game)
    totals = (0,) * game.seats
    found = {}
    for record, hand in zip(game.hands, result.hands):
        found[hand.number] = Hand(game, hand.number, tuple(mask_of(c) for c in record.deal), tuple(hand.passed),
                                  hand.dealer, hand.pass_direction, totals)
        totals = hand.totals
    return found


def seat_points(hand: Hand, seat: int, given: int, make, stream: str) -> int:
    """The points ``seat`` scores in ``hand`` played again from its true deal with ``seat`` passing ``given``
    (the others as recorded), every seat played by ``make(random.Random(stream:seat))``."""
    game = hand.game
    table = game.rules.table(game.seats)
    play = HandPlay(table, hand.dealt, hand.number, hand.dealer, hand.totals, hand.direction)
    passes = list(hand.passed)
    passes[seat] = given
    play.exchange(passes, table.pass_offset(hand.direction))
    play.start()
    play.play_out([make(random.Random(f"{stream}:{s}")) for s in range(game.seats)])
    return hand_points(table, play.taken, play.tricks_won, hand.totals)[0][seat]


@dataclass
class Flag:
    game_id: str | None
    hand: int
    seat: int
    played: list
    best: list
    cost: float
    other_cost: float | None
    category: str | None
    played_points: list
    best_points: list

    @property
    def gain(self) -> float:
        return sum(self.played_points) / len(self.played_points) - sum(self.best_points) / len(self.best_points)

    @property
    def win(self) -> float:
        """The share of repeats where the better pass scored fewer points (a tie half)."""
        return sum(1.0 if b < p else 0.5 if b == p else 0.0
                   for p, b in zip(self.played_points, self.best_points)) / len(self.played_points)


def judged(decision: dict, every: bool = False) -> bool:
    """A pass the judge plays out: flagged (a class, not unclear), or with ``every`` any pass whose better pass
    differs from the played one."""
    if decision.get("kind") != "pass":
        return False
    if every:
        return sorted(decision["best"]) != sorted(decision["played"])
    return decision.get("class") is not None and not decision.get("unclear")


def judge_pass(hand: Hand, decision: dict, make, repeats: int, seed: int) -> Flag:
    """Play ``decision``'s hand out ``repeats`` times with the played pass and with the better one (the same
    streams for both)."""
    seat = decision["seat"]
    options = [mask_of(parse_card(c) for c in decision[key]) for key in ("played", "best")]
    points = [[seat_points(hand, seat, option, make, f"{seed}:{hand.game.game_id}:{hand.number}:{seat}:{r}")
               for r in range(repeats)] for option in options]
    return Flag(hand.game.game_id, hand.number, seat, decision["played"], decision["best"], decision["cost"],
                decision.get("other_cost"), decision.get("class"), points[0], points[1])


def sampled_deals(hand: Hand, seat: int, count: int, seed: int) -> list[tuple[int, ...]]:
    """``count`` deals ``seat`` could not tell from ``hand``'s true one at its pass: its own dealt cards kept, the
    other cards of the deck shuffled and dealt to the other seats (all it knows before the pass is its hand)."""
    table = hand.game.rules.table(len(hand.dealt))
    mine = hand.dealt[seat]
    rest = [c for c in range(52) if table.deck >> c & 1 and not mine >> c & 1]
    rng = random.Random(f"{seed}:deals:{hand.game.game_id}:{hand.number}:{seat}")
    size, deals = table.hand_size, []
    for _ in range(count):
        rng.shuffle(rest)
        parts = [mask_of(rest[start:start + size]) for start in range(0, len(rest), size)]
        parts.insert(seat, mine)
        deals.append(tuple(parts))
    return deals


def others_passes(hand: Hand, seat: int, make, stream: str) -> tuple[int, ...]:
    """The passes the other seats choose on ``hand``'s deal, each by ``make(random.Random(stream:pass:s))``
    (``seat``'s own entry is left as it is in ``hand``)."""
    table = hand.game.rules.table(len(hand.dealt))
    play = HandPlay(table, hand.dealt, hand.number, hand.dealer, hand.totals, hand.direction)
    count = table.rules.pass_count
    return tuple(hand.passed[s] if s == seat else
                 make(random.Random(f"{stream}:pass:{s}")).choose_pass(play.views[s], count)
                 for s in range(len(hand.dealt)))


def judge_pass_deals(hand: Hand, decision: dict, make, deals: int, repeats: int, seed: int) -> Flag:
    """Judge ``decision`` on ``deals`` sampled deals (:func:`sampled_deals`) instead of the true one: on each, the
    other seats pass what ``make``'s player chooses, the seat passes the played or the better pass, and the hand
    is played out ``repeats`` times; both passes get the same deal, the same others' passes and the same
    streams. The flag's points hold one entry a deal and repeat."""
    seat = decision["seat"]
    options = [mask_of(parse_card(c) for c in decision[key]) for key in ("played", "best")]
    points: list[list[int]] = [[], []]
    base = f"{seed}:{hand.game.game_id}:{hand.number}:{seat}"
    for index, dealt in enumerate(sampled_deals(hand, seat, deals, seed)):
        sampled = replace(hand, dealt=dealt)
        sampled = replace(sampled, passed=others_passes(sampled, seat, make, f"{base}:d{index}"))
        for option, out in zip(options, points):
            out.extend(seat_points(sampled, seat, option, make, f"{base}:d{index}:{r}") for r in range(repeats))
    return Flag(hand.game.game_id, hand.number, seat, decision["played"], decision["best"], decision["cost"],
                decision.get("other_cost"), decision.get("class"), points[0], points[1])


def review_passes(game: GameRecord, settings) -> list[dict]:
    """The review's pass decisions of ``game`` (the library's pass review, as ``review_game`` runs it), as in
    its JSON."""
    decisions = []
    for start in hand_starts(game):
        if start.skip is not None or not start.passing:
            continue
        for seat in range(game.seats):
            try:
                decision = review_pass(start.position, seat, start.dealt[seat], start.passed[seat], start.direction,
                                       start.dealer, settings)
            except InconsistentKnowledge:
                continue
            decisions.append(decision_dict(decision, game.players))
    return decisions


def judge(games: Iterable[GameRecord], reviews: dict, players: str = "classic", repeats: int = 4, seed: int = 0,
          sims: int = 300, every: bool = False, deals: int = 0) -> list[Flag]:
    """Every judged pass of ``games`` (``reviews``: game id to its review's decisions, as in the JSON), from the
    true deal, or with ``deals`` on that many deals the seat could not tell from it (:func:`judge_pass_deals`)."""
    flags = []
    for game in games:
        chosen = [d for d in reviews.get(game.game_id, ()) if judged(d, every)]
        if not chosen:
            continue
        make = player_maker(players, game.rules, sims)
        hands = hands_of(game)
        for d in chosen:
            problem = unfit(d, hands)
            if problem:
                print(f"skipped: game {game.game_id}, the pass of seat {d.get('seat')} in hand {d.get('hand')}: "
                      f"{problem}", file=sys.stderr)
                continue
            flags.append(judge_pass_deals(hands[d["hand"]], d, make, deals, repeats, seed) if deals else
                         judge_pass(hands[d["hand"]], d, make, repeats, seed))
    return flags


def unfit(decision: dict, hands: dict[int, Hand]) -> str | None:
    """Why a review's pass cannot be played out on its game (a field missing or wrong), or ``None``."""
    missing = [key for key in ("hand", "seat", "played", "best", "cost") if key not in decision]
    if missing:
        return f"no field {', '.join(missing)}"
    hand = hands.get(decision["hand"])
    if hand is None:
        return f"hand: the game has no hand {decision['hand']}"
    if not isinstance(decision["seat"], int) or not 0 <= decision["seat"] < len(hand.dealt):
        return f"seat: {decision['seat']!r} is not a seat"
    for key in ("played", "best"):
        try:
            cards = mask_of(parse_card(c) for c in decision[key])
        except (ValueError, TypeError):
            return f"{key}: not a list of card names ({decision[key]!r})"
        if cards.bit_count() != len(decision[key]) or cards & ~hand.dealt[decision["seat"]]:
            return f"{key}: {' '.join(decision[key])} are not cards of the seat's deal"
    return None


def summary(flags: list[Flag]) -> dict:
    gains = [f.gain for f in flags]
    gain, gain_se = mean_se(gains)
    win, win_se = mean_se([f.win for f in flags])
    pairs = [(p, b) for f in flags for p, b in zip(f.played_points, f.best_points)]
    untied = [b < p for p, b in pairs if p != b]
    out = {"flags": len(flags), "win_share": win, "win_share_se": win_se,
           "ties": sum(p == b for p, b in pairs) / len(pairs) if pairs else math.nan,
           "win_share_untied": sum(untied) / len(untied) if untied else math.nan,
           "better_on_average": sum(g > 0 for g in gains) / len(gains) if gains else math.nan,
           "gain": gain, "gain_se": gain_se, "claimed": mean_se([f.cost for f in flags])[0]}
    out["calibration"], out["calibration_se"] = calibration([f.cost for f in flags], gains)
    both = [f for f in flags if f.other_cost is not None]
    out["with_other_cost"] = len(both)
    out["claimed_other"] = mean_se([f.other_cost for f in both])[0]
    out["calibration_other"], out["calibration_other_se"] = calibration([f.other_cost for f in both],
                                                                        [f.gain for f in both])
    out["claimed_min"] = mean_se([min(f.cost, f.other_cost) for f in both])[0]
    out["calibration_min"], out["calibration_min_se"] = calibration([min(f.cost, f.other_cost) for f in both],
                                                                    [f.gain for f in both])
    return out


def text(s: dict, flags: list[Flag], verbose: bool) -> str:
    def pm(key):
        return f"{s[key]:.2f} ± {s[key + '_se']:.2f}"
    lines = ["| flags | better pass saves points on average | better pass fewer points (ties half) "
             "| where the points differ | gain (played - better) "
             "| claimed cost | calibration (cost) | calibration (other_cost) | calibration (min) |",
             "|---|---|---|---|---|---|---|---|---|",
             f"| {s['flags']} | {100 * s['better_on_average']:.0f}% | {100 * s['win_share']:.0f}% ± "
             f"{100 * s['win_share_se']:.0f} "
             f"| {100 * s['win_share_untied']:.0f}% ({100 * s['ties']:.0f}% tied) | {pm('gain')} "
             f"| {s['claimed']:.2f} | {pm('calibration')} | {pm('calibration_other')} (of {s['with_other_cost']}, "
             f"claimed {s['claimed_other']:.2f}) | {pm('calibration_min')} (claimed {s['claimed_min']:.2f}) |"]
    if verbose:
        lines += ["", "game hand seat | played -> better | class | cost / other | played pts, better pts | gain"]
        for f in flags:
            lines.append(f"{f.game_id} {f.hand} {f.seat} | {' '.join(f.played)} -> {' '.join(f.best)} | {f.category} "
                         f"| {f.cost:.2f} / {f.other_cost} | {sum(f.played_points) / len(f.played_points):.2f}, "
                         f"{sum(f.best_points) / len(f.best_points):.2f} | {f.gain:+.2f}")
    return "\n".join(lines)


def read_records(path: str) -> list[GameRecord]:
    games = []
    for item in read_games(path):
        if item.error is not None:
            print(f"skipped: {item.error.text()} ({item.source})", file=sys.stderr)
        else:
            games.append(item.game)
    return games


def read_review(path: str) -> dict:
    """``hearts review FILE -f json``: game id to its decisions."""
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    if not isinstance(document, dict) or not isinstance(document.get("games"), list):
        raise ValueError('no "games" list at the top')
    return {g.get("game_id"): g.get("decisions", []) for g in document.get("games", [])}


def simulated(hands: int, bot: str, seed: int) -> list[GameRecord]:
    """Games of ``bot`` (standard rules, seed ``seed``) cut to ``hands`` hands in all."""
    make = OUTSIDE_BOTS.get(bot) or BOT_KINDS[bot]
    games, count = [], 0
    for game in simulate_games(10 ** 6, Rules.preset("standard"), 4, seed=seed, bot=make):
        take = min(len(game.hands), hands - count)
        games.append(game if take == len(game.hands) else
                     GameRecord(players=game.players, hands=game.hands[:take], rules=game.rules,
                                rules_spec=game.rules_spec, game_id=game.game_id, complete=False))
        count += take
        if count >= hands:
            return games
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="?", help="hearts-game/1 records (JSON Lines or JSON)")
    parser.add_argument("--review", help="the review's JSON of the records (hearts review FILE -f json); "
                                         "default: review the passes here, at the deep level")
    parser.add_argument("--simulate", type=int, default=0, metavar="N",
                        help="judge N hands of simulated games of --bot instead of records")
    parser.add_argument("--bot", default="classic", help="the bot of --simulate's games (classic, or a simulator bot)")
    parser.add_argument("--players", default="classic", choices=("classic", "ismcts"),
                        help="the player of all four seats when a hand is played out")
    parser.add_argument("--repeats", type=int, default=None,
                        help="random streams per pass (ties of classic; ismcts's); default 16, with --deals 1 a deal")
    parser.add_argument("--deals", type=int, default=0, metavar="N",
                        help="judge each pass on N deals the seat could not tell from the true one (its own "
                             "cards kept, the rest dealt at random from --seed; the others pass as the players "
                             "choose); 0: the true deal with the recorded passes")
    parser.add_argument("--sims", type=int, default=300, help="ismcts: simulations a card")
    parser.add_argument("--seed", type=int, default=0, help="the review's seed, and of the play-outs' streams")
    parser.add_argument("--all", action="store_true", help="every pass whose better pass differs, not only flags")
    parser.add_argument("--save-review", metavar="FILE",
                        help="also write the review made here, in the shape --review reads (atomically)")
    parser.add_argument("--json", action="store_true", help="print the summary and every flag as JSON")
    parser.add_argument("--verbose", action="store_true", help="list every judged pass")
    args = parser.parse_args()
    if bool(args.records) == bool(args.simulate):
        parser.exit(2, "give a records file or --simulate N (one of them)\n")
    if args.repeats is None:
        args.repeats = 1 if args.deals else 16
    if args.repeats < 1:
        parser.exit(2, "--repeats: at least 1\n")
    if args.deals < 0:
        parser.exit(2, "--deals: 0 or more\n")
    if args.bot not in OUTSIDE_BOTS and args.bot not in BOT_KINDS:
        parser.exit(2, f"--bot: unknown {args.bot!r}\n")
    started = time.perf_counter()
    games = simulated(args.simulate, args.bot, args.seed) if args.simulate else read_records(args.records)
    if not games:
        parser.exit(2, f"{args.records}: no game read\n")
    if args.review:
        try:
            reviews = read_review(args.review)
        except (OSError, ValueError, AttributeError) as error:
            parser.exit(2, f"{args.review}: not a review's JSON ({error})\n")
    else:
        settings = settings_at("deep", seed=args.seed)
        reviews = {game.game_id: review_passes(game, settings) for game in games}
        if args.save_review:
            with atomic_open(args.save_review) as out:
                json.dump({"games": [{"game_id": k, "decisions": v} for k, v in reviews.items()]}, out)
    reviewed = time.perf_counter()
    flags = judge(games, reviews, args.players, args.repeats, args.seed, args.sims, args.all, args.deals)
    s = summary(flags)
    seconds = {"review": round(reviewed - started, 1), "judge": round(time.perf_counter() - reviewed, 1)}
    if args.json:
        print(json.dumps({**s, "seconds": seconds, "players": args.players, "repeats": args.repeats,
                          "deals": args.deals,
                          "passes": [{**asdict(f), "gain": f.gain, "win": f.win} for f in flags]}, indent=1))
    else:
        print(text(s, flags, args.verbose))
        where = f"{args.deals} sampled deals, " if args.deals else ""
        print(f"\n({args.players}, {where}{args.repeats} repeats; review {seconds['review']} s, judge {seconds['judge']} s)")


if __name__ == "__main__":
    main()
