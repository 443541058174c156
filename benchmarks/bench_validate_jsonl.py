"""Validation of JSON Lines: the reference engine against the fast path, in the same run, end to end.

Times separate ``hearts validate`` processes (start-up included) on one cached
corpus (``benchmarks/out/``, made by ``bench_validate.py``), checks that all
print the same JSON document, and gives hands/second, the ratio to the
reference engine, and the ratio of the fast path (on one worker, and by default: a worker per CPU) to a
bare orjson parse of every line (the goal: at least 0.5).

    python benchmarks/bench_validate_jsonl.py                 # 100,000 hands
    python benchmarks/bench_validate_jsonl.py --hands 20000
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import time

from bench_stats import BARE_PARSE, GOAL
from bench_validate import corpus


def run(command: list[str]) -> tuple[float, str]:
    """Seconds and a digest of the output of one process."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(done.stderr.decode())
    return seconds, hashlib.sha256(done.stdout).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    jsonl, _, games, hands = corpus(args.hands, "standard", 4)
    hearts = [sys.executable, "-m", "hearts_analysis", "validate", str(jsonl), "--format", "json"]
    engines = {"reference": ["--engine", "reference"], "fast, 1 worker": ["--engine", "fast", "--workers", "1"],
               "fast, 2 workers": ["--engine", "fast", "--workers", "2"], "fast, default": ["--engine", "fast"]}
    print(f"{jsonl.name}: {games:,} games, {hands:,} hands")
    results = {name: run(hearts + options) for name, options in engines.items()}
    base = hands / results["reference"][0]
    for name, (seconds, digest) in results.items():
        same = "same output" if digest == results["reference"][1] else "DIFFERENT OUTPUT"
        print(f"  {name:<16} {hands / seconds:>10,.0f} hands/s  x{hands / seconds / base:.2f}  {same}")
    parse, _ = run([sys.executable, "-c", BARE_PARSE, str(jsonl)])
    print(f"  {'bare orjson parse':<16} {hands / parse:>10,.0f} hands/s")
    for name in ("fast, 1 worker", "fast, default"):
        ratio = parse / results[name][0]
        print(f"  {name} / bare parse: x{ratio:.2f} ({'meets' if ratio >= GOAL else 'below'} the goal of x{GOAL})")


if __name__ == "__main__":
    main()
