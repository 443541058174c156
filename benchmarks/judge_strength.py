"""How strong the review's judge plays: duplicate matches against each of the simulator's bots.

The games are a match of :mod:`hearts_analysis.match` in its ``one`` seating (``hearts match judge
BASELINE --seating one``): deal ``k`` is played twice, with the same cards and the same random
streams for every seat, once with the judge (:class:`~hearts_analysis.review.judge_bot.JudgeBot`, at
the settings below) in one seat against three of the baseline bot, once with the baseline bot itself
in that seat. The pass direction turns one step a deal (left, right, across, hold) and the seat one
step a turn of the cycle (:func:`hearts_analysis.match.focus_seat`), so 16 deals pass every way from
every seat. Standard rules, a moon +26 to the others, each hand on its own (totals 0).

Reported per baseline: points per hand of the seat (judge, baseline, the paired difference with
its standard error), QS taken, moons shot and suffered, CPU seconds per judge decision, and
**calibration**: the cost the review (at the judge's settings) claims for the baseline's decisions in each hand (its
``Decision.cost``, summed over the seat's pass and plays) against the points the judge really
saves there (baseline minus judge), as the ratio of the two sums with its standard error (1 is
a review whose claims come true); and the same for the costs of the flagged decisions alone (an
unclear or unflagged decision's cost is an estimate the review does not stand behind; half the
claims, ``benchmarks/calibration_breakdown.py``).

    python benchmarks/judge_strength.py --hands 400 --baselines heuristic
    python benchmarks/judge_strength.py --hands 200 --mode passes --no-calibration
    python benchmarks/judge_strength.py --hands 400 --baselines heuristic --model guard
    python benchmarks/judge_strength.py --hands 250 --game-hands 4 --baselines classic --no-calibration
    python benchmarks/judge_strength.py --hands 100 --baselines ismcts --no-calibration

``ismcts`` is OpenSpiel's ISMCTS bot (``hearts_analysis.match.openspiel_player``, 2000 simulations a card
unless ``--ismcts-simulations N``; it needs ``pip install 'hearts-analysis[bench]'``), shown each
seat's view only, as in ``hearts match``. The ``ms/decision`` columns are wall-clock milliseconds per
decision of the seat (the judge's, then the baseline's, a pass counted as one decision).

With ``--game-hands N`` each deal is a game of N hands (the pass cycle from the deal's direction on),
played twice as above by the same bots (a bot that learns from the hands it has seen can show it), and
every figure is per hand. A match's deal is one hand, so these games are played here, not by the match,
on the same seats and streams (the first hand is the match's deal).

``--subject BOT`` puts a simulator bot in the seat instead of the judge: ``--subject heuristic
--baselines random`` gives, deal by deal, the points of ``hearts match heuristic random --seating one``
with the same seed (``tests/test_match_seating_one.py``).

``--moons`` records, at each unforced play of the judge, the chance its advice claims that another seat shoots
the moon after the card it chose, and that the judge itself does (:func:`moon_claims`), and reports them binned
against whether it happened in that hand (``benchmarks/moon_calibration.py``; the standard error is taken over
hands, whose decisions share one outcome):

    python benchmarks/judge_strength.py --hands 120 --baselines classic --seed 7 --no-calibration --moons

``--dump FILE`` appends one JSON line a deal (a hand, with ``--game-hands``): ``baseline_bot`` and the
fields of :class:`Deal` (``plays`` and ``passes``: the judge's CPU seconds a decision; ``judge_seconds``
and ``judge_decisions``, ``baseline_seconds`` and ``baseline_decisions``: the seat's wall clock; ``moons``: the
claims of ``--moons``, ``null`` without it).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import functools
import importlib.util
import json
import random
import time
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Callable

from hearts_analysis.cards import QS
from hearts_analysis.engine.scoring import moon_shooter
from hearts_analysis.match import MatchConfig, bot_player, focus_seat, named, parse_player, play_deal
from hearts_analysis.match.openspiel_player import OpenSpielBot
from hearts_analysis.match.play import taken_masks
from hearts_analysis.match.players import Clock
from hearts_analysis.match.results import mean_se
from hearts_analysis.match.players import Timed as PlayerTimed
from hearts_analysis.match.seating import deal_rules, deal_stream, seat_stream
from hearts_analysis.records.model import GameRecord
from hearts_analysis.review import Settings, review_game
from hearts_analysis.review.judge_bot import JudgeBot
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import BOT_KINDS
from hearts_analysis.simulate.game import play_hand

from moon_calibration import table as moon_table
from outside_bots import OUTSIDE_BOTS

BASELINES = {**BOT_KINDS, **OUTSIDE_BOTS, "ismcts": None}
"""The opponents a judge can be measured against: the simulator's bots, and players from outside them
(``ismcts``: OpenSpiel's, the match's ``openspiel:ismcts:N``)."""
STANDARD = Rules.preset("standard")
PLAYERS = ("north", "east", "south", "west")


_JUDGE_CLOCK: dict[str, list[float]] = {"pass": [], "play": []}
"""CPU seconds of the judge's unforced decisions in this process, drained by each deal (:func:`one_deal`)."""

_MOON_CLAIMS: list[tuple[int, float, float]] = []
"""Per unforced play of the judge in this process: ``(hand number, chance another seat shoots, chance the judge
shoots)`` after the card it chose, as its advice claims; drained by each deal (``--moons``)."""


def moon_claims(advice) -> tuple[float, float]:
    """The chances the advice claims, after its best choice, that another seat shoots the moon and that the
    seat itself does (the ``shoot`` part of the option's points)."""
    option = advice.options[0].option
    own = next((rate for cause, _, rate in option.parts if cause == "shoot"), 0.0)
    return option.moon_against, own


class Timed:
    """The judge (or the judge for one kind of decision, the baseline for the other), its CPU time kept."""

    def __init__(self, judge: JudgeBot, baseline, mode: str, clock: dict):
        self.judge, self.baseline, self.mode, self.clock = judge, baseline, mode, clock

    def choose_pass(self, view, count):
        if self.mode == "plays":
            return self.baseline.choose_pass(view, count)
        started = time.process_time()
        chosen = self.judge.choose_pass(view, count)
        self.clock["pass"].append(time.process_time() - started)
        return chosen

    def choose_play(self, view, legal):
        if self.mode == "passes":
            return self.baseline.choose_play(view, legal)
        started = time.process_time()
        card = self.judge.choose_play(view, legal)
        if legal & (legal - 1):
            self.clock["play"].append(time.process_time() - started)
            _MOON_CLAIMS.append((view.public.hand_number, *moon_claims(self.judge.advice)))
        return card


@dataclass(frozen=True)
class Subject:
    """The maker of the player in the one seat: the judge at ``settings`` (with the baseline ``other`` for the
    decisions ``mode`` leaves it), or the simulator's bot ``bot`` (``--subject``)."""

    settings: Settings | None
    mode: str = "all"
    other: Callable | None = None
    bot: str = ""

    def __call__(self, rng: random.Random):
        if self.settings is None:
            return BASELINES[self.bot](rng)
        other = None if self.other is None else self.other(rng)
        return Timed(JudgeBot(random.Random(0), self.settings), other, self.mode, _JUDGE_CLOCK)


@functools.lru_cache(maxsize=16)
def match_config(subject: Subject, baseline: str, seed: int, simulations: int) -> MatchConfig:
    """The match of one baseline: the subject in one seat against three of the baseline, then the baseline in
    that seat (``hearts match SUBJECT BASELINE --seating one``); ``ismcts`` is ``openspiel:ismcts:N``."""
    name = subject.bot or "judge"
    against = (parse_player(f"openspiel:ismcts:{simulations}") if baseline == "ismcts"
               else bot_player(baseline, BASELINES[baseline]))
    players = named([bot_player(name, subject), against])
    return MatchConfig(tuple(players), STANDARD, 4, seed, seating="one")


@dataclass
class Deal:
    k: int
    seat: int
    direction: str
    judge: int
    baseline: int
    judge_queen: bool
    baseline_queen: bool
    judge_shot: bool
    baseline_shot: bool
    judge_suffered: bool
    baseline_suffered: bool
    claimed: float | None
    flagged: float | None
    """The part of ``claimed`` on decisions the review flags (unclear and unflagged ones are the rest)."""
    plays: list
    passes: list
    hand: int = 1
    """The hand of deal ``k``'s game (``--game-hands``)."""
    moons: list | None = None
    """With ``--moons``: per unforced play of the judge this hand, ``[chance another seat shoots, chance the judge
    shoots]`` its advice claimed after the card it chose (what happened: ``judge_suffered``, ``judge_shot``)."""
    judge_seconds: float = 0.0
    judge_decisions: int = 0
    baseline_seconds: float = 0.0
    baseline_decisions: int = 0
    """Wall-clock seconds and decisions of the seat, in the judged game and in the baseline's (the match's
    clocks; on the game's first hand, for the whole game)."""


def _rows(game: GameRecord, seat: int) -> list[tuple]:
    """Per hand of ``game``: ``(points, QS taken, moon shot, moon suffered)`` of ``seat``."""
    table = game.rules.table(4)
    rows = []
    for hand in game.hands:
        taken = taken_masks(table, hand.plays)
        shooter = moon_shooter(table, taken)
        rows.append((hand.points[seat], bool(taken[seat] >> QS & 1), shooter == seat, shooter not in (None, seat)))
    return rows


def _played(rules: Rules, k: int, bots, seed: int, hands: int) -> GameRecord:
    """The game of deal ``k`` (``--game-hands`` over 1): ``hands`` hands in a row by the same bots, the first on
    the match's stream of the deal."""
    table = rules.table(4)
    records, totals = [], (0, 0, 0, 0)
    for h in range(hands):
        rng = deal_stream(seed, k) if h == 0 else random.Random(f"{seed}:{k}:{h}")
        records.append(play_hand(table, h + 1, bots, rng, totals))
        totals = records[-1].totals
    return GameRecord(players=PLAYERS, hands=tuple(records), rules=rules, rules_spec=rules.to_spec(),
                      game_id=f"duplicate-{seed}-{k}")


def _games(k: int, subject: Subject, baseline: str, seed: int, hands: int, simulations: int):
    """Deal ``k``'s two games (the subject in the seat, then the baseline) and the seat's clocks in them."""
    if hands == 1:
        result = play_deal(match_config(subject, baseline, seed, simulations), k)
        return result.games, result.clocks
    rules = deal_rules(STANDARD, 4, k)
    seat = focus_seat(k, 4, len(STANDARD.table(4).pass_cycle))
    make = (functools.partial(OpenSpielBot, f"ismcts:{simulations}", rules) if baseline == "ismcts"
            else BASELINES[baseline])
    clocks = [Clock(), Clock()]
    games = []
    for judged in (True, False):
        bots = [make(seat_stream(seed, k, s)) for s in range(4)]
        bots[seat] = PlayerTimed(subject(seat_stream(seed, k, seat)) if judged else bots[seat], clocks[not judged])
        games.append(_played(rules, k, bots, seed, hands))
    return games, clocks


def one_deal(job) -> list[Deal]:
    k, baseline, mode, seed, calibrate, settings, hands, simulations, subject_bot, *more = job
    moons = bool(more and more[0])
    seat = focus_seat(k, 4, len(STANDARD.table(4).pass_cycle))
    rules = deal_rules(STANDARD, 4, k)
    other = None
    if mode != "all":
        other = BASELINES[baseline]
    subject = Subject(None, bot=subject_bot) if subject_bot else Subject(settings, mode, other)
    for times in _JUDGE_CLOCK.values():
        times.clear()
    _MOON_CLAIMS.clear()
    (judged_game, game), clocks = _games(k, subject, baseline, seed, hands, simulations)
    clock = {kind: list(times) for kind, times in _JUDGE_CLOCK.items()}
    claims = [[[a, o] for n, a, o in _MOON_CLAIMS if n == h + 1] if moons else None for h in range(hands)]
    judged, played = _rows(judged_game, seat), _rows(game, seat)
    claimed: list = [None] * hands
    flagged: list = [None] * hands
    if calibrate:
        decisions = [d for d in review_game(game, settings, seats=[seat]).decisions
                     if mode == "all" or (d.kind == "pass") == (mode == "passes")]
        claimed = [sum(d.cost for d in decisions if d.hand == h + 1) for h in range(hands)]
        flagged = [sum(d.cost for d in decisions if d.hand == h + 1 and d.category) for h in range(hands)]
    table = rules.table(4)
    return [Deal(k, seat, table.pass_direction(h + 1), j[0], b[0], j[1], b[1], j[2], b[2], j[3], b[3], claimed[h],
                 flagged[h], clock["play"] if h == 0 else [], clock["pass"] if h == 0 else [], h + 1,
                 claims[h], *((clocks[0].seconds, clocks[0].decisions, clocks[1].seconds, clocks[1].decisions)
                               if h == 0 else (0.0, 0, 0.0, 0)))
            for h, (j, b) in enumerate(zip(judged, played))]


def calibration(claimed: list[float], saved: list[float]) -> tuple[float, float]:
    """Sum of the points saved over the sum of the costs claimed, and its standard error (delta method);
    NaN where nothing is claimed."""
    n = len(claimed)
    mean_claimed = sum(claimed) / n if n else 0.0
    if mean_claimed <= 0:
        return float("nan"), float("nan")
    ratio = sum(saved) / sum(claimed)
    residual = [s - ratio * c for s, c in zip(saved, claimed)]
    _, se = mean_se(residual)
    return ratio, se / mean_claimed


def report(baseline: str, deals: list[Deal], mode: str) -> str:
    n = len(deals)
    diff, se = mean_se([d.judge - d.baseline for d in deals])
    judge = sum(d.judge for d in deals) / n
    base = sum(d.baseline for d in deals) / n
    plays = [t for d in deals for t in d.plays]
    passes = [t for d in deals for t in d.passes]
    cells = [baseline, mode, str(n), f"{judge:.2f}", f"{base:.2f}", f"{diff:+.2f} \u00b1 {se:.2f}",
             f"{-100 * diff / base:.0f}%" if base else "-",
             f"{sum(d.judge_queen for d in deals) / n:.0%} / {sum(d.baseline_queen for d in deals) / n:.0%}",
             f"{sum(d.judge_shot for d in deals)} / {sum(d.baseline_shot for d in deals)}",
             f"{sum(d.judge_suffered for d in deals)} / {sum(d.baseline_suffered for d in deals)}",
             f"{1000 * sum(plays) / len(plays):.0f}" if plays else "-",
             f"{1000 * sum(passes) / len(passes):.0f}" if passes else "-", _ms(deals, "judge"),
             _ms(deals, "baseline")]
    if deals[0].claimed is not None:
        claimed = [d.claimed for d in deals]
        ratio, ratio_se = calibration(claimed, [d.baseline - d.judge for d in deals])
        cells.append(f"{sum(claimed) / n:.2f}")
        cells.append(f"{ratio:.2f} \u00b1 {ratio_se:.2f}")
        flagged = [d.flagged for d in deals]
        ratio, ratio_se = calibration(flagged, [d.baseline - d.judge for d in deals])
        cells.append(f"{sum(flagged) / n:.2f}")
        cells.append(f"{ratio:.2f} \u00b1 {ratio_se:.2f}")
    return "| " + " | ".join(cells) + " |"


def moon_report(baseline: str, deals: list[Deal]) -> str:
    """``--moons``: the reliability tables of the judge's moon claims against what happened in its hands."""
    against = [((d.k, d.hand), a, d.judge_suffered) for d in deals for a, _ in d.moons or ()]
    own = [((d.k, d.hand), o, d.judge_shot) for d in deals for _, o in d.moons or ()]
    if not against:
        return f"\nmoon claims against {baseline}: no unforced play of the judge"
    return (f"\nmoon claims against {baseline} (each unforced play of the judge, after the card it chose):\n\n"
            + moon_table(against, "another seat shoots") + "\n\n" + moon_table(own, "the judge shoots") + "\n")


def _ms(deals: list[Deal], who: str) -> str:
    decisions = sum(getattr(d, f"{who}_decisions") for d in deals)
    return f"{1000 * sum(getattr(d, f'{who}_seconds') for d in deals) / decisions:.0f}" if decisions else "-"


HEADER = ("| baseline | judge plays | hands | judge pts/hand | baseline pts/hand | judge minus baseline | fewer "
          "| QS taken (judge / baseline) | moons shot | moons suffered | ms/play | ms/pass | judge ms/decision "
          "| baseline ms/decision")


def _field(item: str) -> tuple[str, object]:
    """``FIELD=VALUE`` of ``--set``: the value as a Python literal, else as text."""
    name, _, text = item.partition("=")
    if name not in {f.name for f in dataclasses.fields(Settings)}:
        raise SystemExit(f"--set {item}: Settings has no field {name!r}")
    try:
        return name, ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return name, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="deals per baseline (each played twice)")
    parser.add_argument("--game-hands", type=int, default=1,
                        help="hands in each deal's game, played by the same bots")
    parser.add_argument("--baselines", default="heuristic,random,mixed",
                        help=f"comma-separated opponents ({', '.join(BASELINES)}; classic: benchmarks/outside_bots.py; "
                             "ismcts: OpenSpiel's, needs pip install 'hearts-analysis[bench]')")
    parser.add_argument("--mode", choices=("all", "plays", "passes"), default="all",
                        help="the judge makes every decision, or only its plays, or only its passes")
    parser.add_argument("--ismcts-simulations", type=int, default=2000, metavar="N",
                        help="simulations a card of the ismcts baseline (OpenSpiel's ISMCTS; default 2000)")
    parser.add_argument("--subject", default=None, choices=sorted(BOT_KINDS),
                        help="measure this simulator bot in the seat instead of the judge (with --mode all; "
                             "to check the benchmark against hearts match --seating one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-calibration", action="store_true", help="skip reviewing the baseline's hands")
    parser.add_argument("--moons", action="store_true",
                        help="also record the judge's claimed chances of a moon (by another seat, by itself) after "
                             "each unforced play, and report them binned against what happened")
    parser.add_argument("--dump", default=None, help="also write one JSON line per deal here (to pair runs)")
    parser.add_argument("--identify", default=",".join(Settings.identify),
                        help="the judge's Settings.identify: the rollout players each other seat's is read from "
                             "(none: every other seat plays Settings.model)")
    parser.add_argument("--infer", default="",
                        help="the judge's Settings.infer: a rollout player, or several joined by commas (basic,strong)")
    parser.add_argument("--model", default=Settings.model, help="the judge's Settings.model (its rollout player)")
    parser.add_argument("--samples", type=int, default=Settings.samples, help="the judge's Settings.samples")
    parser.add_argument("--pass-samples", type=int, default=None, help="the judge's Settings.pass_samples")
    parser.add_argument("--exact-tricks", type=int, default=Settings.exact_tricks,
                        help="the judge's Settings.exact_tricks (tricks left at which rollouts search exactly)")
    parser.add_argument("--own-model", default=Settings.own_model,
                        help="the judge's Settings.own_model (the rollout player of its own later plays; none: "
                             "the same as the others')")
    parser.add_argument("--level", choices=("corpus", "deep"),
                        help="start from a review level's settings (hearts_analysis.review.levels) instead of the "
                             "options above; --set still applies")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="any other field of the judge's Settings, e.g. --set pass_finalists=16 (a Python literal)")
    args = parser.parse_args()
    chosen = args.baselines.split(",")
    unknown = [b for b in chosen if b not in BASELINES]
    if unknown:
        parser.exit(2, f"--baselines: unknown {', '.join(unknown)} (known: {', '.join(BASELINES)})\n")
    if "ismcts" in chosen and importlib.util.find_spec("pyspiel") is None:
        parser.exit(2, "--baselines ismcts: OpenSpiel is not installed: pip install 'hearts-analysis[bench]'\n")
    if args.moons and (args.subject or args.mode == "passes"):
        parser.exit(2, "--moons: the judge's plays make the claims (not with --subject nor --mode passes)\n")
    if args.mode != "all" and ("ismcts" in chosen or args.subject):
        parser.exit(2, "--mode plays|passes: the judge's other decisions are the baseline's, a bot of the simulator "
                       "or classic (not ismcts, nor with --subject)\n")
    if args.ismcts_simulations < 1:
        parser.exit(2, "--ismcts-simulations: at least 1\n")
    settings = Settings(model=args.model, samples=args.samples, pass_samples=args.pass_samples,
                        identify=tuple(m for m in args.identify.split(",") if m and args.identify != "none"),
                        infer=(None if not args.infer else args.infer if "," not in args.infer
                               else tuple(args.infer.split(","))), exact_tricks=args.exact_tricks,
                        own_model=None if args.own_model == "none" else args.own_model)
    if args.level:
        from hearts_analysis.review.levels import settings_at
        settings = settings_at(args.level)
    settings = dataclasses.replace(settings, **dict(_field(item) for item in args.set))
    print(f"judge settings: samples={settings.samples}, pass deals={settings.pass_deals}, model={settings.model}, "
          f"identify={settings.identify}, infer={settings.infer}, "
          f"exact tricks={settings.exact_tricks}, own model={settings.own_model}; the review that claims costs: the same "
          f"settings")
    calibrate = not args.no_calibration
    print(HEADER + (" | claimed cost/hand | calibration (saved / claimed) "
                    "| claimed by flags/hand | calibration of the flags |" if calibrate else " |"))
    print("|" + "---|" * (14 + 4 * calibrate))
    started = time.perf_counter()
    moon_text: list[str] = []
    for baseline in chosen:
        jobs = [(k, baseline, args.mode, args.seed, calibrate, settings, args.game_hands, args.ismcts_simulations,
                 args.subject, args.moons) for k in range(args.hands)]
        if args.workers > 1:
            with Pool(args.workers) as pool:
                games = pool.map(one_deal, jobs, chunksize=4)
        else:
            games = [one_deal(job) for job in jobs]
        deals = [deal for game in games for deal in game]
        print(report(baseline, deals, args.mode), flush=True)
        if args.moons:
            moon_text.append(moon_report(baseline, deals))
        if args.dump:
            with open(args.dump, "a", encoding="utf-8") as out:
                for deal in deals:
                    out.write(json.dumps({"baseline_bot": baseline, **dataclasses.asdict(deal)}) + "\n")
    print(f"\n({time.perf_counter() - started:.0f} s wall clock; ms/play and ms/pass are CPU milliseconds per "
          "unforced judge decision, ms/decision wall-clock milliseconds per decision of the seat; moons are counts"
          + (f"; ismcts: {args.ismcts_simulations} simulations a card" if "ismcts" in chosen else "") + ")")
    for text in moon_text:
        print(text)


if __name__ == "__main__":
    main()
