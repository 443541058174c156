"""Validation speed at corpus scale: hands/second and peak memory of each engine, end to end.

Simulates a corpus (cached under ``benchmarks/out/``), then times separate
``hearts`` processes, start-up included: the reference engine on JSON Lines,
the fast path on Parquet with one worker (pinned to one core) and with two,
and the JSON Lines -> Parquet conversion. Each figure is also given as a
ratio to the reference engine measured in the same run, at two corpus sizes
(the second a quarter of the first): the time grows by the same amount per
hand (the marginal cost) above a fixed start-up, and the peak memory stays flat. Peak memory is the
largest resident set of any process of the run,
and of the whole process tree (sampled).

    python benchmarks/bench_validate.py                  # 400,000 hands and 100,000
    python benchmarks/bench_validate.py --hands 40000    # a quick look
    python benchmarks/bench_validate.py --dirty --hands 100000 --baseline ../base   # dirty vs clean, both codes

``--dirty`` times only the fast path (one worker, ``-q``) on the clean corpus and on
the same corpus with one game in ten given a fault, and gives the dirty rate as a
ratio to the clean one; ``--fault`` names the faults, one dirty corpus each
(``points``, a wrong point; the play faults ``swap``, ``renege``, ``not-held``,
``leader``, ``hearts``, ``first-trick``, ``dropped``; ``play``, one of those drawn per game;
``mixed``, one of all). With ``--baseline`` (another checkout of the project) the
same runs of that code are interleaved with these, in one run.

    python benchmarks/bench_validate.py --dirty --hands 100000 --fault points,play,mixed --baseline ../base
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
GOALS = {"fast, 1 worker": 400_000, "reference (JSONL)": 50_000, "reference (Parquet)": 50_000,
         "convert JSONL -> Parquet": 100_000}
"""Hands/second the project aims at (one core, end to end); the fast path also under 300 MB."""


# -- the corpus --------------------------------------------------------------------------------------
def _simulate_chunk(args: tuple[str, int, int, int]) -> list[bytes]:
    from hearts_analysis.records.json import dumps_game
    from hearts_analysis.rules import Rules
    from hearts_analysis.simulate import simulate_games
    preset, players, seed, games = args
    return [dumps_game(game) for game in simulate_games(games, Rules.preset(preset), players, seed=seed)]


def corpus(hands: int, preset: str, players: int) -> tuple[Path, Path, int, int]:
    """``(jsonl, parquet, games, hands)`` of a simulated corpus of at least ``hands`` hands (cached)."""
    stem = OUT / f"corpus-{preset}-{players}p-{hands}"
    jsonl, parquet, counts = stem.with_suffix(".jsonl"), stem.with_suffix(".parquet"), stem.with_suffix(".json")
    if counts.exists() and jsonl.exists() and parquet.exists():
        known = json.loads(counts.read_text())
        if not current(parquet):
            _convert(jsonl, parquet)
        return jsonl, parquet, known["games"], known["hands"]
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"simulating {hands:,} hands ({preset}, {players} players; cached in {OUT}) ...", file=sys.stderr)
    lines: list[bytes] = []
    total = seed = 0
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        while total < hands:
            batches = [(preset, players, seed + i, 200) for i in range(os.cpu_count() or 1)]
            seed += len(batches)
            for batch in pool.map(_simulate_chunk, batches):
                for line in batch:
                    if total >= hands:
                        break
                    lines.append(line)
                    total += line.count(b'"plays"')
    tmp = jsonl.with_suffix(".jsonl.tmp")
    tmp.write_bytes(b"\n".join(lines) + b"\n")
    tmp.replace(jsonl)
    _convert(jsonl, parquet)
    counts.write_text(json.dumps({"games": len(lines), "hands": total}))
    return jsonl, parquet, len(lines), total


def _convert(source: Path, target: Path) -> None:
    subprocess.run([sys.executable, "-m", "hearts_analysis", "convert", str(source), str(target), "--quiet"],
                   check=True)


def current(parquet: Path) -> bool:
    """Whether a cached Parquet file was written by the writer of this version (not older than its code)."""
    import hearts_analysis.records
    writer = Path(hearts_analysis.records.__file__).parent
    newest = max(path.stat().st_mtime for path in writer.glob("*.py"))
    return parquet.stat().st_mtime > newest


def compile_package() -> None:
    """Byte-compile the package, as an installed one is, so that start-up does not include compiling."""
    import compileall
    import hearts_analysis
    compileall.compile_dir(Path(hearts_analysis.__file__).parent, quiet=1)


# -- one measured process ------------------------------------------------------------------------------
def _tree_rss(pid: int) -> int:
    import psutil
    try:
        root = psutil.Process(pid)
        return sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
    except psutil.Error:
        return 0


def measure(command: list[str], one_core: bool, code: Path | None = None) -> dict:
    """Run ``command`` once: wall seconds, CPU seconds, the largest process and the whole tree's peak (MB).

    A small wrapper process runs it, so that its resource usage is that command's alone.
    """
    pin = one_core and hasattr(os, "sched_setaffinity")
    preexec = (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if pin else None
    env = None if code is None else {**os.environ, "PYTHONPATH": str(code)}
    process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--child", *command],
                               stdout=subprocess.PIPE, preexec_fn=preexec, env=env, cwd=code)  # -m puts the working folder first
    tree_peak = [0]

    def sample() -> None:
        while process.poll() is None:
            tree_peak[0] = max(tree_peak[0], _tree_rss(process.pid))
            time.sleep(0.02)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = process.communicate()
    sampler.join()
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed")
    usage = json.loads(out)
    usage["tree_peak_mb"] = tree_peak[0] / 2 ** 20
    return usage


def child(command: list[str]) -> None:
    """The wrapper: run ``command``, print its wall time and resource usage as JSON."""
    start = time.perf_counter()
    process = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if process.returncode not in (0, 1):
        sys.stderr.write(process.stderr.decode()[-2000:])
        raise SystemExit(process.returncode)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"seconds": wall, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                      "peak_mb": usage.ru_maxrss / 1024}))


# -- the faults of a dirty corpus (on a game's JSON, as another program would write it wrongly) -------
def _hands_with_plays(game: dict) -> list[dict]:
    return [hand for hand in game["hands"] if hand.get("plays")]


def _fault_points(game: dict, rng) -> bool:
    """One seat of one hand recorded with a point too many."""
    hand = rng.choice(game["hands"])
    hand["points"][rng.randrange(len(hand["points"]))] += 1
    return True


def _fault_swap(game: dict, rng) -> bool:
    """Two cards of one seat played in each other's place (often legal-looking, or a renege, or the wrong
    leader after a trick changes hands)."""
    hand = rng.choice(_hands_with_plays(game))
    plays = hand["plays"]
    seat = rng.choice(plays)[0]
    own = [i for i, (s, _) in enumerate(plays) if s == seat]
    if len(own) < 2:
        return False
    i, j = rng.sample(own, 2)
    plays[i][1], plays[j][1] = plays[j][1], plays[i][1]
    return True


def _trick_places(plays: list, seats: int) -> list[tuple[int, int]]:
    return [(i // seats, i % seats) for i in range(len(plays))]


def _fault_renege(game: dict, rng) -> bool:
    """A seat that followed suit plays instead a card of another suit it plays later (it still holds the
    card it should have followed with)."""
    n = len(game["players"])
    hand = rng.choice(_hands_with_plays(game))
    plays = hand["plays"]
    choices = []
    for i, (seat, card) in enumerate(plays):
        if i % n and card[-1] == plays[i - i % n][1][-1]:
            later = [j for j in range(i + 1, len(plays)) if plays[j][0] == seat and plays[j][1][-1] != card[-1]]
            if later:
                choices.append((i, rng.choice(later)))
    if not choices:
        return False
    i, j = rng.choice(choices)
    plays[i][1], plays[j][1] = plays[j][1], plays[i][1]
    return True


def _fault_not_held(game: dict, rng) -> bool:
    """A seat plays a card another seat plays later (a card from another hand)."""
    hand = rng.choice(_hands_with_plays(game))
    plays = hand["plays"]
    i = rng.randrange(len(plays) - 1)
    later = [j for j in range(i + 1, len(plays)) if plays[j][0] != plays[i][0]]
    if not later:
        return False
    plays[i][1] = plays[rng.choice(later)][1]
    return True


def _fault_leader(game: dict, rng) -> bool:
    """Trick 1 is led by the wrong seat (the record of who led is off by one)."""
    n = len(game["players"])
    hand = rng.choice(_hands_with_plays(game))
    hand["plays"][0][0] = (hand["plays"][0][0] + 1) % n
    return True


def _fault_hearts(game: dict, rng) -> bool:
    """A heart led before hearts are broken: a later lead's card and a heart of the same seat swapped."""
    n = len(game["players"])
    hand = rng.choice(_hands_with_plays(game))
    plays = hand["plays"]
    for t in range(1, len(plays) // n):
        if any(card[-1] == "H" or card == "QS" for _, card in plays[:t * n]):
            return False
        seat, card = plays[t * n]
        later = [j for j in range(t * n + 1, len(plays)) if plays[j][0] == seat and plays[j][1][-1] == "H"]
        if later:
            j = rng.choice(later)
            plays[t * n][1], plays[j][1] = plays[j][1], plays[t * n][1]
            return True
    return False


def _fault_first_trick(game: dict, rng) -> bool:
    """Points on the first trick: a follower of trick 1 plays a heart or QS it played later."""
    n = len(game["players"])
    hand = rng.choice(_hands_with_plays(game))
    plays = hand["plays"]
    for i in rng.sample(range(1, n), n - 1):
        seat = plays[i][0]
        later = [j for j in range(n, len(plays)) if plays[j][0] == seat and (plays[j][1][-1] == "H"
                                                                               or plays[j][1] == "QS")]
        if later:
            j = rng.choice(later)
            plays[i][1], plays[j][1] = plays[j][1], plays[i][1]
            return True
    return False


def _fault_dropped(game: dict, rng) -> bool:
    """One play left out of the record."""
    hand = rng.choice(_hands_with_plays(game))
    del hand["plays"][rng.randrange(len(hand["plays"]))]
    return True


FAULTS = {"points": [_fault_points], "swap": [_fault_swap], "renege": [_fault_renege],
          "not-held": [_fault_not_held], "leader": [_fault_leader], "hearts": [_fault_hearts],
          "first-trick": [_fault_first_trick], "dropped": [_fault_dropped]}
FAULTS["play"] = [f for name, (f,) in FAULTS.items() if name != "points"]
FAULTS["mixed"] = [f for (f,) in (FAULTS[name] for name in FAULTS if name != "play")]
"""The ``--fault`` modes: the faults one game in ten gets (``play``: one of the play faults, ``mixed``: one of
all), each game's fault drawn with its own seeded generator."""


def spoil(line: bytes, number: int, fault: str) -> bytes:
    """Game ``number`` of a corpus (a JSON line) with one fault of mode ``fault``, or unchanged if none applies."""
    import random

    import orjson
    rng = random.Random(number)
    game = orjson.loads(line)
    faults = list(FAULTS[fault])
    rng.shuffle(faults)
    for attempt in range(20):
        if faults[attempt % len(faults)](game, rng):
            return orjson.dumps(game) + b"\n"
        game = orjson.loads(line)
    return line


def faulty(jsonl: Path, fault: str = "points") -> Path:
    """The corpus with one game in ten given a fault of mode ``fault`` (a Parquet file, cached)."""
    target = jsonl.with_name(f"{jsonl.stem}-faulty-{fault}.parquet")
    if target.exists() and current(target):
        return target
    source = jsonl.with_name(f"{jsonl.stem}-faulty-{fault}.jsonl")
    with open(jsonl, "rb") as lines, open(source, "wb") as out:
        for number, line in enumerate(lines):
            out.write(spoil(line, number, fault) if number % 10 == 0 else line)
    _convert(source, target)
    source.unlink()
    return target


def run_size(hands: int, preset: str, players: int, repeat: int) -> dict:
    jsonl, parquet, games, total = corpus(hands, preset, players)
    spoilt = faulty(jsonl)
    hearts = [sys.executable, "-m", "hearts_analysis"]
    converted = OUT / f"converted-{os.getpid()}.parquet"
    cases = {
        "reference (JSONL)": (hearts + ["validate", str(jsonl), "--engine", "reference", "--quiet"], True),
        "reference (Parquet)": (hearts + ["validate", str(parquet), "--engine", "reference", "--quiet"], True),
        "fast, 1 worker": (hearts + ["validate", str(parquet), "--quiet"], True),
        "fast, 2 workers": (hearts + ["validate", str(parquet), "--workers", "2", "--quiet"], False),
        "fast, 1 worker, JSON report": (hearts + ["validate", str(parquet), "--format", "json"], True),
        "fast, 1 worker, 1 game in 10 wrong": (hearts + ["validate", str(spoilt), "--quiet"], True),
        "convert JSONL -> Parquet": (hearts + ["convert", str(jsonl), str(converted), "--quiet"], True),
    }
    results = {}
    for name, (command, one_core) in cases.items():
        runs = [measure(command, one_core) for _ in range(repeat)]
        best = min(runs, key=lambda r: r["seconds"])
        best["peak_mb"] = max(r["peak_mb"] for r in runs)
        best["tree_peak_mb"] = max(r["tree_peak_mb"] for r in runs)
        best["hands_per_second"] = total / best["seconds"]
        best["hands_per_cpu_second"] = total / best["cpu_seconds"]
        results[name] = best
        print(f"  {name}: {best['seconds']:.2f} s", file=sys.stderr)
    shutil.rmtree(converted, ignore_errors=True) if converted.is_dir() else converted.unlink(missing_ok=True)
    baseline = results["reference (JSONL)"]["hands_per_second"]
    for row in results.values():
        row["ratio_to_reference"] = row["hands_per_second"] / baseline
    return {"hands": total, "games": games, "results": results}


def table(runs: list[dict]) -> str:
    lines = [f"{'':36} {'hands':>9} {'seconds':>8} {'hands/s':>10} {'per CPU s':>10} {'x ref':>6} "
             f"{'peak MB':>8} {'tree MB':>8}  goal"]
    for run in runs:
        for name, row in run["results"].items():
            goal = GOALS.get(name)
            met = "" if goal is None else (f"{goal:,}/s " + ("met" if row["hands_per_second"] >= goal else "NOT met"))
            lines.append(f"{name:36} {run['hands']:>9,} {row['seconds']:>8.2f} {row['hands_per_second']:>10,.0f} "
                         f"{row['hands_per_cpu_second']:>10,.0f} {row['ratio_to_reference']:>6.1f} "
                         f"{row['peak_mb']:>8.0f} {row['tree_peak_mb']:>8.0f}  {met}")
        lines.append("")
    return "\n".join(lines)


def dirty_vs_clean(hands: int, preset: str, players: int, repeat: int, baseline: Path | None,
                   faults: list[str]) -> None:
    """The fast path's rate on the corpus with one game in ten given each fault, as a ratio to its clean rate."""
    jsonl, parquet, games, total = corpus(hands, preset, players)
    corpora = {"clean": parquet, **{fault: faulty(jsonl, fault) for fault in faults}}
    hearts = [sys.executable, "-m", "hearts_analysis", "validate"]
    codes = {"this code": Path(__file__).resolve().parents[1]}
    if baseline is not None:
        codes["baseline"] = baseline.resolve()
    seconds: dict[tuple[str, str, str], float] = {}
    for _ in range(repeat):
        for label, code in codes.items():
            for kind, path in corpora.items():
                run = measure(hearts + [str(path), "--quiet"], True, code)
                for clock in ("seconds", "cpu_seconds"):
                    key = (label, kind, clock)
                    seconds[key] = min(seconds.get(key, run[clock]), run[clock])
    print(f"{total:,} hands, {games:,} games; one game in ten with a fault of each mode; fast path, 1 worker, -q")
    print("(the fastest of the runs of each; CPU seconds are the steadier figure on a busy machine)")
    print(f"{'':18} {'fault':>12} {'clean s':>8} {'dirty s':>8} {'clean h/s':>10} {'dirty h/s':>10} "
          f"{'dirty/clean':>11}")
    for label in codes:
        for clock in ("seconds", "cpu_seconds"):
            clean = seconds[label, "clean", clock]
            for fault in faults:
                dirty = seconds[label, fault, clock]
                print(f"{label + (', wall' if clock == 'seconds' else ', CPU'):18} {fault:>12} {clean:8.2f} "
                      f"{dirty:8.2f} {total / clean:10,.0f} {total / dirty:10,.0f} {clean / dirty:11.2f}")


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        return child(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400_000, help="the larger corpus (the smaller is a quarter)")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each case; the fastest counts")
    parser.add_argument("--output", type=Path, default=OUT / "bench_validate.json")
    parser.add_argument("--dirty", action="store_true", help="only the dirty-vs-clean ratio of the fast path")
    parser.add_argument("--baseline", type=Path, help="with --dirty: another checkout to measure in the same run")
    parser.add_argument("--fault", default="points", help="with --dirty: the faults of the dirty corpora, comma "
                        f"separated, each measured against the clean corpus ({', '.join(FAULTS)})")
    args = parser.parse_args()
    compile_package()
    if args.dirty:
        if args.baseline is not None:
            import compileall
            compileall.compile_dir(args.baseline / "hearts_analysis", quiet=1)
        faults = args.fault.split(",")
        unknown = [fault for fault in faults if fault not in FAULTS]
        if unknown:
            parser.error(f"--fault: unknown {', '.join(unknown)}; choose from {', '.join(FAULTS)}")
        return dirty_vs_clean(args.hands, args.preset, args.players, args.repeat, args.baseline, faults)
    runs = []
    for hands in (args.hands, args.hands // 4):
        print(f"{hands:,} hands:", file=sys.stderr)
        runs.append(run_size(hands, args.preset, args.players, args.repeat))
    print(table(runs))
    large, small = runs
    growth = {}
    for name in large["results"]:
        extra = large["results"][name]["seconds"] - small["results"][name]["seconds"]
        per_hand = extra / (large["hands"] - small["hands"])
        growth[name] = {"seconds_per_100k_hands": per_hand * 100_000,
                        "fixed_seconds": small["results"][name]["seconds"] - per_hand * small["hands"],
                        "peak_mb_small_to_large": [small["results"][name]["peak_mb"],
                                                   large["results"][name]["peak_mb"]]}
    print("linear growth: time = fixed + hands x marginal cost; peak memory does not grow with the corpus")
    for name, row in growth.items():
        print(f"  {name:36} {row['seconds_per_100k_hands']:6.2f} s per 100,000 hands, "
              f"{row['fixed_seconds']:5.2f} s fixed, peak {row['peak_mb_small_to_large'][0]:.0f} -> "
              f"{row['peak_mb_small_to_large'][1]:.0f} MB")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                                       "runs": runs, "linearity": growth, "goals": GOALS}, indent=2))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
