"""Statistics, JSON Lines and one-hand records at corpus scale: three ratios measured in one run.

Simulates a corpus (``hearts simulate``, cached under ``benchmarks/out/``) as
Parquet and JSON Lines, and the same hands as one-hand records (each hand a
game of its own, as OpenSpiel corpora and most bot-research logs hold them),
then times separate processes, start-up included:

- ``hearts stats x.parquet`` against ``hearts validate x.parquet`` (goal: at least 0.5x its hands/s);
- ``hearts validate x.jsonl`` against a bare orjson parse of every line (goal: at least 0.5x); by default on a
  process per CPU, and also with ``--workers 1``;
- ``hearts validate`` of the one-hand records against the full games, both Parquet (goal: at least 0.5x).

    python benchmarks/bench_stats.py                   # 10,000 games (about 111,000 hands)
    python benchmarks/bench_stats.py --games 1000      # a quick look
    python benchmarks/bench_stats.py --repeat 3        # the fastest of three runs of each (a loaded machine)
    python benchmarks/bench_stats.py --source ../other # the same, with another checkout's code
    python benchmarks/bench_stats.py --only stats      # only the Parquet statistics / validate pair
    python benchmarks/bench_stats.py --against ../main # each command from both checkouts, in turn, in one run
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
import time
from pathlib import Path

import orjson

from hearts_analysis.cpus import cpu_count

OUT = Path(__file__).resolve().parent / "out"
GOAL = 0.5
BARE_PARSE = "import orjson, sys\nfor line in open(sys.argv[1], 'rb'):\n    orjson.loads(line)\n"


FROM_SOURCE = ("import runpy, sys\n"
               "sys.meta_path = [f for f in sys.meta_path if 'editable' not in getattr(f, '__module__', '')]\n"
               "sys.path.insert(0, sys.argv.pop(1))\n"
               "runpy.run_module('hearts_analysis', run_name='__main__', alter_sys=True)\n")
"""Runs ``hearts`` from another checkout, ahead of an editable install of this one."""
SOURCE: str | None = None
AGAINST = " (against)"
"""Suffix of the commands run from the ``--against`` checkout."""

RATIOS = {"stats / validate (parquet)": ("stats parquet", "validate parquet"),
          "validate jsonl / bare parse": ("validate jsonl", "bare orjson parse"),
          "the same, 1 process": ("validate jsonl, 1 process", "bare orjson parse"),
          "one-hand / full games": ("validate one-hand parquet", "validate parquet")}
"""Each ratio: ``(the command measured, its baseline)``."""
PAIRS = {"stats": RATIOS["stats / validate (parquet)"], "jsonl": RATIOS["validate jsonl / bare parse"],
         "one-hand": RATIOS["one-hand / full games"]}
"""``--only``: a ratio's two commands."""


def hearts(*args: str, source: str | None = None) -> list[str]:
    source = source or SOURCE
    if source is None:
        return [sys.executable, "-m", "hearts_analysis", *args]
    return [sys.executable, "-c", FROM_SOURCE, source, *args]


def corpus(games: int, seed: int) -> tuple[Path, Path, Path, int]:
    """``(parquet, jsonl, one-hand parquet, hands)`` of a simulated 4-player corpus (cached)."""
    OUT.mkdir(parents=True, exist_ok=True)
    stem = OUT / f"stats-{games}-{seed}"
    parquet, jsonl = stem.with_suffix(".parquet"), stem.with_suffix(".jsonl")
    single_jsonl, single = OUT / f"{stem.name}-hands.jsonl", OUT / f"{stem.name}-hands.parquet"
    if not parquet.exists():
        print(f"simulating {games:,} games (cached in {OUT}) ...", file=sys.stderr)
        subprocess.run(hearts("simulate", "--games", str(games), "--players", "4", "--seed", str(seed),
                              "-o", str(parquet)), check=True, stdout=subprocess.DEVNULL)
    if not jsonl.exists():
        subprocess.run(hearts("convert", str(parquet), str(jsonl), "--quiet"), check=True)
    if not single.exists():
        tmp = single_jsonl.with_suffix(".tmp")
        with open(jsonl, "rb") as source, open(tmp, "wb") as out:
            for line in source:
                for record in one_hand_records(orjson.loads(line)):
                    out.write(orjson.dumps(record) + b"\n")
        tmp.replace(single_jsonl)
        subprocess.run(hearts("convert", str(single_jsonl), str(single), "--quiet"), check=True)
    hands = sum(1 for _ in open(single_jsonl, "rb"))
    return parquet, jsonl, single, hands


def one_hand_records(game: dict) -> list[dict]:
    """Each hand of a game as a valid game of one hand: its dealer and pass direction stated (the pass cycle
    reads them from the record), its totals its points, not complete."""
    rules = game.get("rules") or {}
    if isinstance(rules, str):
        rules = {"preset": rules}
    n = len(game["players"])
    cycle = ["left", "right", "across", "hold"] if n == 4 else ["left", "right"]
    out = []
    for number, hand in enumerate(game["hands"]):
        one = dict(hand)
        one.setdefault("dealer", number % n)
        one.setdefault("pass_direction", cycle[number % len(cycle)])
        if "points" in one:
            one["totals"] = one["points"]
        out.append({"format": game.get("format", "hearts-game/1"), "game_id": f"{game.get('game_id')}-{number + 1}",
                    "rules": {**rules, "pass_cycle": ["any"]}, "players": game["players"], "hands": [one],
                    "complete": False})
    return out


def timed(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr.decode()}")
    return seconds


def commands(parquet: Path, jsonl: Path, single: Path, source: str | None = None) -> dict[str, list[str]]:
    """The commands timed, by name; ``source``: ``hearts`` from that checkout."""
    return {
        "validate parquet": hearts("validate", str(parquet), source=source),
        "stats parquet": hearts("stats", str(parquet), source=source),
        "validate jsonl": hearts("validate", str(jsonl), source=source),
        "validate jsonl, 1 process": hearts("validate", str(jsonl), "--workers", "1", source=source),
        "bare orjson parse": [sys.executable, "-c", BARE_PARSE, str(jsonl)],
        "validate one-hand parquet": hearts("validate", str(single), source=source),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1,
                        help="run every command this many times, in turn, and keep its fastest (a loaded machine)")
    parser.add_argument("--source", help="time hearts_analysis from this checkout (to compare before and after)")
    parser.add_argument("--only", choices=sorted(PAIRS), help="time only this ratio's two commands")
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="also time every command from this checkout, in turn with this one's (before and after "
                             "in one run, so that both see the same load)")
    args = parser.parse_args()
    parquet, jsonl, single, hands = corpus(args.games, args.seed)
    global SOURCE
    SOURCE = str(Path(args.source).resolve()) if args.source else None
    env = dict(os.environ)
    where = args.source or str(Path(__file__).resolve().parents[1])
    runs = commands(parquet, jsonl, single)
    if args.only:
        runs = {name: runs[name] for name in PAIRS[args.only]}
    compileall.compile_dir(Path(where) / "hearts_analysis", quiet=1)  # as pip install does: no run compiles it
    if args.against:
        other = commands(parquet, jsonl, single, str(Path(args.against).resolve()))
        runs.update({name + AGAINST: other[name] for name in runs if name != "bare orjson parse"})
        compileall.compile_dir(Path(args.against) / "hearts_analysis", quiet=1)
    print(f"{args.games:,} games, {hands:,} hands; code: {where}; {cpu_count()} CPUs"
          + (f"; against: {args.against}" if args.against else ""))
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, command in runs.items():
            best[name] = min(best.get(name, float("inf")), timed(command, env))
    rate = {}
    for name, seconds in best.items():
        rate[name] = hands / seconds
        print(f"  {name:<36} {seconds:7.2f} s {rate[name]:>10,.0f} hands/s")
    for name, (part, base) in RATIOS.items():
        for suffix in ("", AGAINST):
            measured, baseline = part + suffix, base + suffix if base + suffix in rate else base
            if measured not in rate or baseline not in rate:
                continue
            ratio = rate[measured] / rate[baseline]
            print(f"  {name + suffix:<38} x{ratio:.2f}  ({'meets' if ratio >= GOAL else 'below'} the goal of x{GOAL})")


if __name__ == "__main__":
    main()
