"""The reference engine on JSON Lines, end to end on one core, against decoding alone, in the same run.

Times separate processes pinned to one core (``taskset``, where it exists), best
of ``--repeat``:

- ``hearts validate --engine reference --format json`` on a cached simulated
  corpus (``benchmarks/out/``, made by ``bench_validate.py``), start-up included;
- the baseline: the same lines decoded by orjson and nothing else (start-up of
  Python and orjson included), the floor of any JSON reader;
- start-up alone: ``hearts validate --engine reference`` on one small game.

Then one process reads the corpus game by game and times each stage of the
reference path (decode, records, replay, report and its JSON), in microseconds
per hand.

    python benchmarks/bench_reference.py                  # 400,000 hands
    python benchmarks/bench_reference.py --hands 100000 --repeat 5
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench_validate import corpus

ROOT = Path(__file__).resolve().parent.parent

DECODE_ONLY = """
import sys, orjson
with open(sys.argv[1], "rb", buffering=1 << 20) as stream:
    for line in stream:
        if line and not line.isspace():
            orjson.loads(line)
"""

STAGES = """
import gc, sys, time, orjson
from hearts_analysis.corpus_audit import game_report
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.records.json import game_from_dict
clock = time.perf_counter
spent = [0.0, 0.0, 0.0, 0.0]
hands = 0
with open(sys.argv[1], "rb", buffering=1 << 20) as stream:
    for number, line in enumerate(stream, 1):
        gc.disable()  # as jsonl_item reads a line
        t0 = clock()
        obj = orjson.loads(line)
        t1 = clock()
        game = game_from_dict(obj)
        t2 = clock()
        del obj
        gc.enable()
        result = replay_game(game)
        t3 = clock()
        orjson.dumps(game_report(result, f"corpus.jsonl:{number}"))
        t4 = clock()
        spent[0] += t1 - t0; spent[1] += t2 - t1; spent[2] += t3 - t2; spent[3] += t4 - t3
        hands += len(game.hands)
print(hands, *spent)
"""


def pinned(command: list[str]) -> list[str]:
    """``command`` on one core, where ``taskset`` exists."""
    return ["taskset", "-c", "0", *command] if shutil.which("taskset") else command


def best_time(command: list[str], repeat: int) -> float:
    """The shortest wall time of ``repeat`` runs of a process (its output discarded)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(pinned(command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit(done.stderr.decode())
    return best


def stages(jsonl: Path) -> tuple[int, list[float]]:
    """Hands, and seconds in each stage of the reference path, from one pinned process."""
    done = subprocess.run(pinned([sys.executable, "-c", STAGES, str(jsonl)]), capture_output=True, cwd=ROOT,
                          check=True)
    hands, *spent = done.stdout.split()
    return int(hands), [float(s) for s in spent]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jsonl, _, games, hands = corpus(args.hands, "standard", 4)
    validate = [sys.executable, "-m", "hearts_analysis", "validate", "--engine", "reference"]
    print(f"{jsonl.name}: {games:,} games, {hands:,} hands; one core, best of {args.repeat}")
    start_up = best_time(validate + [str(ROOT / "examples" / "clean-4p-standard.json")], args.repeat)
    decode = best_time([sys.executable, "-c", DECODE_ONLY, str(jsonl)], args.repeat)
    reference = best_time(validate + ["--format", "json", str(jsonl)], args.repeat)
    print(f"  orjson decoding alone   {hands / decode:>10,.0f} hands/s  (the baseline)")
    print(f"  reference, end to end   {hands / reference:>10,.0f} hands/s  x{decode / reference:.3f} of the baseline"
          f"  ({reference:.2f} s, of which start-up {start_up:.2f} s)")
    counted, spent = stages(jsonl)
    names = ("decode (orjson)", "records (game_from_dict)", "replay (replay_game)", "report + JSON")
    print("  stages, in one process:")
    for name, seconds in zip(names, spent):
        print(f"    {name:<26} {seconds / counted * 1e6:6.2f} us/hand")
    print(f"    {'total':<26} {sum(spent) / counted * 1e6:6.2f} us/hand")


if __name__ == "__main__":
    main()
