"""A club's season reviewed end to end: wall seconds of whole ``hearts review`` processes, this tree against
another checkout, in one run.

The season is ``hearts simulate --games G --pool 12 --seed 3`` (300 games by default: the issue's season);
each tree reviews it with ``--workers W --no-cache --summary`` at its own defaults for a corpus (a tree with
review levels runs the corpus level; ``--level deep`` here asks this tree for the deep level instead).

    python benchmarks/bench_season.py --games 30                       # this tree alone
    python benchmarks/bench_season.py --games 30 --against /path/to/old/checkout

Both trees are run as ``python -m hearts_analysis`` with ``PYTHONPATH`` set to the tree, on the same season
file, one after the other; each tree's kernel is compiled first by a one-hand review that is not timed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def run(tree: Path, args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "hearts_analysis", *args], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{tree}: hearts {' '.join(args[:2])} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds


def review_season(tree: Path, season: Path, workers: int, extra: list[str]) -> float:
    warm = season.with_name("warm.json")
    run(tree, ["review", str(warm), "--hand", "1", "--samples", "10", "--no-cache"])  # compile, untimed
    return run(tree, ["review", str(season), "--workers", str(workers), "--no-cache", "--summary", *extra])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--against", type=Path, help="another checkout to time on the same season")
    parser.add_argument("--level", choices=("corpus", "deep"), help="this tree's review level (default: its own)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        season = Path(folder) / "season.jsonl"
        run(HERE, ["simulate", "--games", str(args.games), "--pool", "12", "--seed", "3", "-o", str(season)])
        run(HERE, ["simulate", "--games", "1", "--seed", "1", "-o", str(season.with_name("warm.json"))])
        hands = sum(len(__import__("orjson").loads(line)["hands"]) for line in season.read_bytes().splitlines())
        extra = ["--level", args.level] if args.level else []
        mine = review_season(HERE, season, args.workers, extra)
        print(f"this tree: {args.games} games, {hands} hands reviewed in {mine:.1f} s "
              f"({mine / hands * 1000:.0f} ms a hand, --workers {args.workers}{' ' + ' '.join(extra) if extra else ''})")
        if args.against:
            theirs = review_season(args.against.resolve(), season, args.workers, [])
            print(f"{args.against}: {theirs:.1f} s; this tree takes {mine / theirs:.2f}x its time")


if __name__ == "__main__":
    main()
