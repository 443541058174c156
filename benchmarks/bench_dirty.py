"""Validation speed on dirty corpora: every fault a record can carry, dirty against clean in one run.

Simulates a corpus (cached under ``benchmarks/out/``, as ``bench_validate.py`` does),
then writes one Parquet corpus per fault kind with one game in ten given that fault,
and one ``mixed`` corpus whose faulty games draw a kind each, evenly. The faults are
written as another program's wrong record would carry them, with their knock-on
effects: a card not held is still played later by its holder (played twice) and the
card the seat did hold is left at the end; a wrong deal keeps the real plays; a pass
of a card not dealt keeps the real plays; a wrong running total is carried into the
later totals. Every planted game is checked to draw its kind's code from the
reference engine (the share is printed).

Each corpus is timed as a whole ``hearts validate FILE -q`` process (the fast path,
one worker, pinned to one core; start-up included), the clean corpus in the same
run, and the result is the ratio of the dirty rate to the clean rate per kind.

    python benchmarks/bench_dirty.py                        # 20,000 hands, every kind and mixed
    python benchmarks/bench_dirty.py --hands 5000 --kinds revoke,deal-invalid,mixed
    python benchmarks/bench_dirty.py --baseline ../base     # the same runs of another checkout, interleaved

Codes left out: ``charge-invalid`` (only under rules with charges) and ``unmodelled``
(a note of the log, not a fault of play).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Callable

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate import OUT, _convert, compile_package, corpus, current, measure  # noqa: E402

RANKS = "23456789TJQKA"


# -- the faults, on a game's JSON (a dict), each returning False where it does not apply -------------
def _played(game: dict) -> list[dict]:
    return [hand for hand in game["hands"] if hand.get("plays")]


def deal_invalid(game: dict, rng: random.Random) -> bool:
    """A card of one seat's deal recorded as a card of another seat's (dealt twice, one card missing);
    the plays stay the real ones, so the seat then plays the card its deal lacks."""
    hand = rng.choice(_played(game))
    a, b = rng.sample(range(len(hand["deal"])), 2)
    i = rng.randrange(len(hand["deal"][a]))
    hand["deal"][a][i] = rng.choice(hand["deal"][b])
    return True


def pass_invalid(game: dict, rng: random.Random) -> bool:
    """A seat recorded as passing a card another seat was dealt (and does not pass); the plays stay real."""
    hands = [hand for hand in _played(game) if hand.get("passes")]
    if not hands:
        return False
    hand = rng.choice(hands)
    a, b = rng.sample(range(len(hand["deal"])), 2)
    others = [card for card in hand["deal"][b] if card not in hand["passes"][b]]
    hand["passes"][a][rng.randrange(len(hand["passes"][a]))] = rng.choice(others)
    return True


def wrong_first_lead(game: dict, rng: random.Random) -> bool:
    """Trick 1 of a hand recorded as led by the next seat (the record of who led is off by one)."""
    hand = rng.choice(_played(game))
    hand["plays"][0][0] = (hand["plays"][0][0] + 1) % len(game["players"])
    return True


def out_of_turn(game: dict, rng: random.Random) -> bool:
    """Two followers of a trick recorded in each other's place (seat and card)."""
    n = len(game["players"])
    hand = rng.choice(_played(game))
    plays = hand["plays"]
    t = rng.randrange(1, len(plays) // n)
    i = t * n + rng.randrange(1, n - 1)
    plays[i], plays[i + 1] = plays[i + 1], plays[i]
    return True


def card_not_held(game: dict, rng: random.Random) -> bool:
    """A seat plays a card another seat plays later: that card is played twice, and the card the seat did
    play is left in its hand at the end."""
    hand = rng.choice(_played(game))
    plays = hand["plays"]
    i = rng.randrange(len(plays) - 1)
    later = [j for j in range(i + 1, len(plays)) if plays[j][0] != plays[i][0]]
    if not later:
        return False
    plays[i][1] = plays[rng.choice(later)][1]
    return True


def _swap_later(game: dict, rng: random.Random, want: Callable[[int, int, list, str], bool]) -> bool:
    """Swap the cards of two plays of one seat, the earlier (trick ``t``, position ``pos``) chosen by
    ``want(t, pos, plays, later_card)``."""
    n = len(game["players"])
    hands = _played(game)
    for hand in rng.sample(hands, len(hands)):
        plays = hand["plays"]
        choices = [(i, j) for i in range(len(plays)) for j in range(i + 1, len(plays))
                   if plays[j][0] == plays[i][0] and want(i // n, i % n, plays, plays[j][1], i)]
        if choices:
            i, j = rng.choice(choices)
            plays[i][1], plays[j][1] = plays[j][1], plays[i][1]
            return True
    return False


def revoke(game: dict, rng: random.Random) -> bool:
    """A seat that followed suit plays instead a card of another suit it played later."""
    def want(t, pos, plays, other, i):
        led = plays[i - pos][1][-1]
        return pos > 0 and plays[i][1][-1] == led and other[-1] != led
    return _swap_later(game, rng, want)


def points_on_first_trick(game: dict, rng: random.Random) -> bool:
    """A follower of trick 1, void in its suit, plays a heart or QS it played later instead of another card."""
    return _swap_later(game, rng, lambda t, pos, plays, other, i: t == 0 and pos > 0 and plays[i][1][-1] not in "CH"
                       and plays[i][1] != "QS" and (other[-1] == "H" or other == "QS"))


def hearts_not_broken(game: dict, rng: random.Random) -> bool:
    """A heart led before hearts are broken: a lead's card and a later heart of the same seat swapped."""
    n = len(game["players"])

    def want(t, pos, plays, other, i):
        return (t > 0 and pos == 0 and other[-1] == "H" and plays[i][1][-1] != "H"
                and not any(card[-1] == "H" or card == "QS" for _, card in plays[:i]))
    return _swap_later(game, rng, want) if n else False


def hand_incomplete(game: dict, rng: random.Random) -> bool:
    """One play left out of the record."""
    hand = rng.choice(_played(game))
    del hand["plays"][rng.randrange(len(hand["plays"]))]
    return True


def points_mismatch(game: dict, rng: random.Random) -> bool:
    """One seat of one hand recorded with a point too many (its running totals carried right)."""
    hand = rng.choice(game["hands"])
    hand["points"][rng.randrange(len(hand["points"]))] += 1
    return True


def totals_mismatch(game: dict, rng: random.Random) -> bool:
    """One seat's running total off by one from a hand on, the error carried into every later total."""
    if not all(hand.get("totals") for hand in game["hands"]):
        return False
    seat, start = rng.randrange(len(game["players"])), rng.randrange(len(game["hands"]))
    for hand in game["hands"][start:]:
        hand["totals"][seat] += 1
    return True


def game_over_early(game: dict, rng: random.Random) -> bool:
    """The last hand of a complete game left out; the game is still marked complete."""
    if len(game["hands"]) < 2 or not game.get("complete"):
        return False
    del game["hands"][-1]
    return True


def game_continued(game: dict, rng: random.Random) -> bool:
    """A hand recorded after the game ended (the last hand again, its totals carried on)."""
    if not game.get("complete"):
        return False
    extra = orjson.loads(orjson.dumps(game["hands"][-1]))
    if extra.get("totals"):
        extra["totals"] = [a + b for a, b in zip(extra["totals"], extra["points"])]
    game["hands"].append(extra)
    return True


def moon_choice_invalid(game: dict, rng: random.Random) -> bool:
    """A moon choice recorded on a hand nobody shot the moon in."""
    hands = [hand for hand in game["hands"] if "moon" not in hand]
    if not hands:
        return False
    rng.choice(hands)["moon"] = "subtract_from_shooter"
    return True


FAULTS: dict[str, Callable[[dict, random.Random], bool]] = {
    "deal-invalid": deal_invalid, "pass-invalid": pass_invalid, "wrong-first-lead": wrong_first_lead,
    "out-of-turn": out_of_turn, "card-not-held": card_not_held, "revoke": revoke,
    "points-on-first-trick": points_on_first_trick, "hearts-not-broken": hearts_not_broken,
    "hand-incomplete": hand_incomplete, "points-mismatch": points_mismatch, "totals-mismatch": totals_mismatch,
    "game-over-early": game_over_early, "game-continued": game_continued, "moon-choice-invalid": moon_choice_invalid}
"""Each kind of fault, named by the violation code it plants (the catalogue's, hearts_analysis/violations.py)."""
KINDS = [*FAULTS, "mixed"]


def spoil(line: bytes, number: int, kind: str) -> tuple[bytes, str | None]:
    """Game ``number`` (a JSON line) with one fault of ``kind`` (``mixed``: a kind drawn evenly), and the code
    planted; the line unchanged and ``None`` if no fault applies in 20 tries."""
    rng = random.Random(number)
    for _ in range(20):
        code = rng.choice(list(FAULTS)) if kind == "mixed" else kind
        game = orjson.loads(line)
        if FAULTS[code](game, rng):
            return orjson.dumps(game) + b"\n", code
    return line, None


def planted(jsonl: Path, kind: str) -> tuple[Path, float]:
    """The corpus with one game in ten given a fault of ``kind`` (a Parquet file, cached), and the share of the
    planted games whose reference report has the planted code."""
    from hearts_analysis.engine.replay import replay_game
    from hearts_analysis.records.json.decode import game_from_dict
    target = jsonl.with_name(f"{jsonl.stem}-dirty-{kind}.parquet")
    share_file = target.with_suffix(".share")
    if target.exists() and current(target) and share_file.exists():
        return target, float(share_file.read_text())
    source = target.with_suffix(".jsonl")
    hits = tries = 0
    with open(jsonl, "rb") as lines, open(source, "wb") as out:
        for number, line in enumerate(lines):
            if number % 10:
                out.write(line)
                continue
            line, code = spoil(line, number, kind)
            out.write(line)
            if code is not None:
                tries += 1
                codes = {v.code for v in replay_game(game_from_dict(orjson.loads(line))).violations}
                hits += code in codes
    _convert(source, target)
    source.unlink()
    share = hits / max(tries, 1)
    share_file.write_text(str(share))
    return target, share


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        from bench_validate import child
        return child(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands in the corpus")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each corpus; the fastest counts")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma separated, from {', '.join(KINDS)}")
    parser.add_argument("--baseline", type=Path, help="another checkout of the project, timed in the same run")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        parser.error(f"--kinds: unknown {', '.join(unknown)}; choose from {', '.join(KINDS)}")
    compile_package()
    jsonl, parquet, games, hands = corpus(args.hands, args.preset, args.players)
    corpora, shares = {"clean": parquet}, {}
    for kind in kinds:
        corpora[kind], shares[kind] = planted(jsonl, kind)
    codes = {"this code": Path(__file__).resolve().parents[1]}
    if args.baseline is not None:
        import compileall
        compileall.compile_dir(args.baseline / "hearts_analysis", quiet=1)
        codes["baseline"] = args.baseline.resolve()
    hearts = [sys.executable, "-m", "hearts_analysis", "validate"]
    best: dict[tuple[str, str], dict] = {}
    for _ in range(args.repeat):
        for label, code in codes.items():
            for kind, path in corpora.items():
                run = measure(hearts + [str(path), "-q"], True, code)
                key = (label, kind)
                best[key] = {clock: min(best.get(key, run)[clock], run[clock]) for clock in ("seconds", "cpu_seconds")}
    print(f"{hands:,} hands, {games:,} games ({args.preset}, {args.players} players); one game in ten with a fault; "
          f"whole `hearts validate FILE -q` processes, 1 worker on 1 core; the fastest of {args.repeat} run(s)")
    print(f"{'':10} {'kind':>22} {'planted':>8} {'wall s':>7} {'CPU s':>7} {'hands/s':>9} {'dirty/clean wall':>17} "
          f"{'CPU':>5}")
    for label in codes:
        clean = best[label, "clean"]
        for kind in corpora:
            row = best[label, kind]
            share = "" if kind == "clean" else f"{shares[kind]:.0%}"
            print(f"{label:10} {kind:>22} {share:>8} {row['seconds']:7.2f} {row['cpu_seconds']:7.2f} "
                  f"{hands / row['seconds']:9,.0f} {clean['seconds'] / row['seconds']:17.2f} "
                  f"{clean['cpu_seconds'] / row['cpu_seconds']:5.2f}")


if __name__ == "__main__":
    main()
