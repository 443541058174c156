"""Throughput of the analysis and of ``hearts stats``, as ratios to the reference replay.

Simulates a corpus to a temporary JSON Lines file, then times, from the file:
the replay alone (the baseline), the analysis of every game, and the streamed
player statistics with one and two worker processes. Each figure is hands per
second and its ratio to the baseline measured in the same run; peak memory is
the process's maximum resident size after each step (it stays flat because
games stream). Run it at two sizes to see the cost grow linearly.

    python benchmarks/analysis_throughput.py [--games 400] [--seed 3]
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from hearts_analysis.analysis.game import analyze_paths
from hearts_analysis.analysis.stats import tally_paths
from hearts_analysis.corpus_audit import audit_paths
from hearts_analysis.records.json import write_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(label: str, run, hands: int, baseline: float | None) -> float:
    started = time.perf_counter()
    run()
    rate = hands / (time.perf_counter() - started)
    ratio = "" if baseline is None else f"  x{rate / baseline:.2f} of the replay"
    print(f"{label:<28} {rate:>9,.0f} hands/s{ratio}   peak {peak_mb():,.0f} MB")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "corpus.jsonl"
        write_games(simulate_games(args.games, Rules(), 4, seed=args.seed), path)
        hands = sum(len(report["hands"]) for _, report in audit_paths([path]) if report)
        print(f"{args.games:,} games, {hands:,} hands")
        baseline = timed("replay (audit)", lambda: sum(1 for _ in audit_paths([path])), hands, None)
        timed("analysis of every game", lambda: sum(1 for _ in analyze_paths([path])), hands, baseline)
        timed("hearts stats, 1 worker", lambda: tally_paths([path]), hands, baseline)
        timed("hearts stats, 2 workers", lambda: tally_paths([path], workers=2), hands, baseline)


if __name__ == "__main__":
    main()
