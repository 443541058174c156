"""The first ``hearts advise`` after install: how long it waits, and which compiled functions it waits for.

    python benchmarks/first_use.py              # two advise commands on an empty numba cache: cold, then warm
    python benchmarks/first_use.py --foreground # the same with the background compile off
    python benchmarks/first_use.py --breakdown  # one advise in this process, each function's compile timed

A fresh install has no compiled kernel on disk; an empty ``NUMBA_CACHE_DIR`` (a temporary folder)
stands for it. The first advise starts the background compile and answers without the kernel
(``hearts_analysis.review.uncompiled``); the second waits for that compile to end, then loads it. ``--breakdown`` lists every function numba compiles for the advice, with its own
compile time (``self``, its callees' compiles taken out) and the time with the callees it compiled.
``--warm-up`` first runs the background warm-up to its end (``hearts_analysis.review.warmup``), as
a first ``hearts report examples/`` would have, then times the advise.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ADVISE = ["advise", "--hand", "AS KS 3S 9H 6H 3C 5C 8D JD QD 4H TH 7S", "--plays", "A:2C B:9C", "--seat", "C",
          "--pass", "hold"]


def _timed(arguments: list[str], environment: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "hearts_analysis", *arguments], env=environment,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"hearts {' '.join(arguments)} failed:\n{done.stderr}")
    return time.perf_counter() - started, done.stderr


def cold_then_warm(warm_up: bool, foreground: bool) -> None:
    """Two advise commands on an empty numba cache and a fresh cache folder (no background compile has
    run). The first starts the background compile and answers without the kernel; the second runs once
    that compile is done. ``foreground``: the background compile off, so the first compiles itself."""
    with tempfile.TemporaryDirectory(prefix="hearts-first-use-") as cache:
        environment = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(cache, "numba"),
                           XDG_CACHE_HOME=os.path.join(cache, "xdg"))
        environment.pop("HEARTS_NO_WARMUP", None)
        if foreground:
            environment["HEARTS_NO_WARMUP"] = "1"
        started = time.perf_counter()
        if warm_up:
            subprocess.run([sys.executable, "-m", "hearts_analysis.review.warmup", "--now"], env=environment,
                           check=True)
            print(f"warm-up (background, run here to its end): {time.perf_counter() - started:.1f} s")
        seconds, stderr = _timed(ADVISE, environment)
        print(f"first advise: {seconds:.1f} s" + (f"   stderr: {stderr.strip()}" if stderr.strip() else ""))
        if not foreground:   # wait for the background compile the first advise started as it exited
            waited = ("import time; from hearts_analysis.kernel.warmup import marker\n"
                      "while not marker().exists(): time.sleep(0.5)")
            subprocess.run([sys.executable, "-c", waited], env=environment, check=True)
            print(f"background compile done {time.perf_counter() - started:.1f} s after the first advise began")
        seconds, stderr = _timed(ADVISE, environment)
        print(f"second advise: {seconds:.1f} s" + (f"   stderr: {stderr.strip()}" if stderr.strip() else ""))


def breakdown() -> None:
    with tempfile.TemporaryDirectory(prefix="hearts-first-use-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache
        os.environ["HEARTS_NO_WARMUP"] = "1"
        from numba.core import event

        stack: list[list] = []
        rows: list[tuple[str, float, float]] = []

        class Compiles(event.Listener):
            def on_start(self, ev):
                stack.append([ev.data["dispatcher"].py_func.__qualname__, time.perf_counter(), 0.0])

            def on_end(self, ev):
                name, started, inner = stack.pop()
                total = time.perf_counter() - started
                rows.append((name, total - inner, total))
                if stack:
                    stack[-1][2] += total

        event.register("numba:compile", Compiles())
        from hearts_analysis.cli import app
        started = time.perf_counter()
        try:
            app(ADVISE)
        except SystemExit:
            pass
        whole = time.perf_counter() - started
        print(f"\nadvise: {whole:.1f} s; compiled {len(rows)} functions in {sum(r[1] for r in rows):.1f} s")
        print(f"{'function':<28} {'self s':>7} {'with callees s':>15}")
        for name, own, total in sorted(rows, key=lambda r: -r[1]):
            print(f"{name:<28} {own:7.1f} {total:15.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--breakdown", action="store_true", help="time each function's compile, in this process")
    parser.add_argument("--warm-up", action="store_true", help="run the background warm-up first, to its end")
    parser.add_argument("--foreground", action="store_true",
                        help="the background compile off (HEARTS_NO_WARMUP=1): the first advise compiles itself")
    options = parser.parse_args()
    breakdown() if options.breakdown else cold_then_warm(options.warm_up, options.foreground)
