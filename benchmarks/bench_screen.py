"""Cost per hand of the vectorised screen (``screen_block``) on one core, decoding left out.

Decodes a simulated corpus (the one ``bench_validate.py`` caches, and its
faulty copy: one game in ten with a wrong point) into blocks, then times
``screen_block`` over all of them, after ``keep_freed_memory()`` as the real
runs do. The baseline measured in the same run is the reference engine
(``replay_game``) on a sample of the same games; the ratio is what the screen
saves on the games it finds clean.

    python benchmarks/bench_screen.py                     # 100,000 hands
    python benchmarks/bench_screen.py --hands 20000 --repeat 3
    python benchmarks/bench_screen.py --blocks a.pkl b.pkl   # pickled lists of Block instead
"""

from __future__ import annotations

import argparse
import itertools
import os
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_validate import corpus, faulty  # noqa: E402

from hearts_analysis.engine.replay import replay_game  # noqa: E402
from hearts_analysis.fastpath.block import Block  # noqa: E402
from hearts_analysis.fastpath.decode import Judgements, Unit, decode_unit, open_units  # noqa: E402
from hearts_analysis.memory import keep_freed_memory  # noqa: E402
from hearts_analysis.fastpath.screen import screen_block  # noqa: E402
from hearts_analysis.records.sources import iter_sources  # noqa: E402


def decoded_blocks(parquet: Path) -> list[Block]:
    judge = Judgements(None)
    blocks = (decode_unit(unit, judge) for unit in open_units(parquet) if isinstance(unit, Unit))
    return [block for block in blocks if block is not None]


def screen_seconds(blocks: list[Block], repeat: int) -> float:
    """The fastest of ``repeat`` passes of the screen over every block."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for block in blocks:
            screen_block(block)
        best = min(best, time.perf_counter() - start)
    return best


def reference_per_hand(path: Path, games: int) -> float:
    """Seconds per hand of the reference engine replaying the first ``games`` games of ``path``."""
    records = [item.game for item in itertools.islice(iter_sources([path]), games) if item.game is not None]
    start = time.perf_counter()
    for game in records:
        replay_game(game)
    return (time.perf_counter() - start) / sum(len(game.hands) for game in records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5, help="passes over the blocks; the fastest counts")
    parser.add_argument("--sample", type=int, default=300, help="games the reference engine replays")
    parser.add_argument("--blocks", type=Path, nargs="*", help="pickled lists of Block to time instead")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    keep_freed_memory()
    jsonl, parquet, _, _ = corpus(args.hands, args.preset, args.players)
    if args.blocks:
        cases = {path.name: pickle.loads(path.read_bytes()) for path in args.blocks}
    else:
        cases = {parquet.name: decoded_blocks(parquet), "faulty": decoded_blocks(faulty(jsonl))}
    reference = reference_per_hand(jsonl, args.sample)
    print(f"{'blocks':48} {'hands':>9} {'clean':>7} {'screen us/hand':>15} {'reference us/hand':>18} "
          f"{'reference / screen':>19}")
    for name, blocks in cases.items():
        hands = sum(block.hands for block in blocks)
        clean = sum(int(screen_block(block).clean.sum()) for block in blocks) / max(1, sum(b.games for b in blocks))
        screen = screen_seconds(blocks, args.repeat) / hands
        print(f"{name:48} {hands:9,} {clean:7.1%} {screen * 1e6:15.3f} {reference * 1e6:18.1f} "
              f"{reference / screen:19.0f}")


if __name__ == "__main__":
    main()
