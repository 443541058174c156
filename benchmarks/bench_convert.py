"""Conversion speed on one core: JSON Lines -> Parquet and back, as ratios to ``orjson.loads`` of the same lines.

Runs in this process, pinned to one core, on a corpus cached by
``bench_validate.py`` under ``benchmarks/out/`` (simulated there if missing).
The baseline is the time ``orjson.loads`` takes to parse every line of the
same file, measured in the same run: a conversion can hardly be faster than
parsing its input, so the ratio says how far the rest (encoding, Arrow,
Parquet) is from free. Each case runs ``--repeat`` times; the fastest counts.

    python benchmarks/bench_convert.py                   # 100,000 hands
    python benchmarks/bench_convert.py --hands 20000 --profile
    python benchmarks/bench_convert.py --stages          # microseconds per hand of each stage

``--stages`` times each stage of JSON Lines -> Parquet apart, in the order the
conversion runs them: reading lines, ``orjson.loads``, the encoder, freeing the
parsed object, building the Arrow tables, and Parquet writing.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_validate import corpus  # noqa: E402

GOAL = 100_000
"""Hands/second the project aims at for JSON Lines -> Parquet (one core, end to end)."""


def _best(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def parse_only(jsonl: Path) -> None:
    import orjson
    loads = orjson.loads
    with open(jsonl, "rb") as stream:
        for line in stream:
            loads(line)


def stages(jsonl: Path, parquet: Path) -> dict[str, float]:
    """Seconds spent in each stage of one JSON Lines -> Parquet conversion, timed apart."""
    import orjson
    import pyarrow.parquet as pq
    from hearts_analysis.records.parquet.encode import EventEncoder
    from hearts_analysis.records.parquet.layout import ROW_GROUP_HANDS, SCHEMA
    from hearts_analysis.records.parquet.write import WRITE_OPTIONS

    clock, loads = time.perf_counter, orjson.loads
    spent = dict.fromkeys(("read lines", "orjson.loads", "encode", "free parsed object", "Arrow tables",
                           "Parquet writing"), 0.0)
    encoder, writer = EventEncoder(), pq.ParquetWriter(parquet, SCHEMA, **WRITE_OPTIONS)

    def flush() -> None:
        start = clock()
        tables = encoder.take_batch().tables()
        built = clock()
        for table in tables:
            writer.write_table(table, row_group_size=table.num_rows)
        spent["Arrow tables"] += built - start
        spent["Parquet writing"] += clock() - built

    gc.disable()
    with open(jsonl, "rb") as stream:
        while True:
            start = clock()
            lines = stream.readlines(1 << 22)
            spent["read lines"] += clock() - start
            if not lines:
                break
            for line in lines:
                start = clock()
                obj = loads(line)
                parsed = clock()
                encoder.add_json(obj)
                encoded = clock()
                del obj
                spent["orjson.loads"] += parsed - start
                spent["encode"] += encoded - parsed
                spent["free parsed object"] += clock() - encoded
                if encoder.hands >= ROW_GROUP_HANDS:
                    flush()
    if encoder.hands:
        flush()
    writer.close()
    gc.enable()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile one JSONL -> Parquet run instead")
    parser.add_argument("--stages", action="store_true", help="time each stage of JSONL -> Parquet apart instead")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    args = parser.parse_args()
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    jsonl, _, games, hands = corpus(args.hands, args.preset, args.players)

    from hearts_analysis.records.convert import convert
    with tempfile.TemporaryDirectory() as tmp:
        parquet, back = Path(tmp) / "corpus.parquet", Path(tmp) / "back.jsonl"
        if args.profile:
            import cProfile
            import pstats
            cProfile.runctx("convert([jsonl], parquet)", globals(), locals(), str(Path(tmp) / "profile"))
            pstats.Stats(str(Path(tmp) / "profile")).sort_stats("tottime").print_stats(30)
            return
        if args.stages:
            spent = min((stages(jsonl, parquet) for _ in range(args.repeat)), key=lambda s: sum(s.values()))
            print(f"{hands:,} hands in {games:,} games ({jsonl.name}), one core, stages timed apart")
            for name, secs in spent.items():
                print(f"{name:20} {secs * 1e6 / hands:6.2f} us/hand")
            print(f"{'sum':20} {sum(spent.values()) * 1e6 / hands:6.2f} us/hand "
                  f"(the goal, {GOAL:,} hands/s, is {1e6 / GOAL:.0f} us/hand with start-up)")
            return
        cases = {
            "orjson.loads of every line (baseline)": lambda: parse_only(jsonl),
            "convert JSONL -> Parquet": lambda: convert([jsonl], parquet),
            "convert Parquet -> JSONL": lambda: convert([parquet], back),
        }
        seconds = {name: _best(run, args.repeat) for name, run in cases.items()}
        if back.read_bytes() != jsonl.read_bytes():
            print("warning: the round trip did not give back the same bytes", file=sys.stderr)
    baseline = seconds["orjson.loads of every line (baseline)"]
    print(f"{hands:,} hands in {games:,} games ({jsonl.name}), one core, best of {args.repeat}")
    print(f"{'':40} {'seconds':>8} {'hands/s':>10} {'x parse time':>13}")
    for name, secs in seconds.items():
        print(f"{name:40} {secs:>8.2f} {hands / secs:>10,.0f} {secs / baseline:>13.2f}")
    rate = hands / seconds["convert JSONL -> Parquet"]
    print(f"goal JSONL -> Parquet {GOAL:,} hands/s: {'met' if rate >= GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
