"""Rollouts per second per core, and a whole 4-seat hand's review time, for this tree and a baseline
tree, in one run, with the ratios; and whether the two trees reach the same outcomes.

Each tree is measured in a process of its own (``PYTHONPATH`` set to the tree), the two alternately
(A B A B ...), so that both meet the same load on a shared machine; times are CPU seconds of the
measuring process. A rollout is one whole hand from its first card: 13 tricks of the rollout player,
the last ``exact_tricks`` searched exactly (``review.rollout.pass_out`` on held hands), on the same
sampled deals in both trees.

    git worktree add /tmp/base main
    python benchmarks/bench_rollouts.py --against /tmp/base
    python benchmarks/bench_rollouts.py --against /tmp/base --deals 20000 --hands 6 --rounds 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]


def _deals(count: int, seed: int):
    """``count`` random 4-seat deals of the whole deck, as ``(count, 4)`` masks (the same in every tree)."""
    import numpy as np

    order = np.argsort(np.random.default_rng(seed).random((count, 52)), axis=1)
    bits = np.left_shift(np.uint64(1), order.astype(np.uint64)).reshape(count, 4, 13)
    return np.bitwise_or.reduce(bits, axis=2)


def _cpu(run):
    start = time.process_time()
    value = run()
    return time.process_time() - start, value


AT_THE_START = {"own_model": None, "look_ahead": False, "identify": (), "pass_samples": 800}
"""The review's settings at the start of the kernel issue, where they have changed since: what the judge
issue spent of the kernel's gain on strength (its own rollout player, reading the other seats, a pass on
16 times a play's deals) taken back, so that the kernel's own gain is timed on the same work."""


def _at_the_start(settings_class, settings):
    """``settings`` with the fields of :data:`AT_THE_START` this tree has."""
    from dataclasses import fields, replace

    names = {f.name for f in fields(settings_class)}
    return replace(settings, **{k: v for k, v in AT_THE_START.items() if k in names})


def worker(deals: int, hands: int, seed: int) -> dict:
    """Measure this interpreter's ``hearts_analysis`` (whichever tree ``PYTHONPATH`` names)."""
    from hearts_analysis.review import Settings, review_game
    from hearts_analysis.review.policy import MODELS
    from hearts_analysis.review.rollout import pass_out
    from hearts_analysis.rules import Rules
    from hearts_analysis.simulate import simulate_games

    table = Rules.preset("standard").table(4)
    dealt = _deals(deals, seed)
    out: dict = {}
    first, _ = _cpu(lambda: [pass_out(table, 0, dealt[:8], "hold", [0], 0, model=MODELS[m]) for m in MODELS])
    out["first_call"] = first
    for name, model in MODELS.items():
        seconds, outcomes = _cpu(lambda: pass_out(table, 0, dealt, "hold", [0], 0, model=model))
        out[f"rollouts_{name}"] = deals / seconds
        digest = hashlib.sha256(outcomes.points.tobytes())
        digest.update(outcomes.taken.tobytes())
        out[f"digest_{name}"] = digest.hexdigest()[:16]

    jobs = []
    for game in simulate_games(50, Rules.preset("standard"), 4, seed=seed):
        for number in range(1, len(game.hands) + 1):
            if len(jobs) < hands:
                jobs.append((game, number))
    settings = Settings(seed=seed)
    per_hand, decisions = [], []
    for game, number in jobs:
        seconds, review = _cpu(lambda: review_game(game, settings, hands=[number]))
        per_hand.append(seconds)
        decisions.extend(review.decisions)
    out["hand_seconds"] = statistics.mean(per_hand)
    start = _at_the_start(Settings, settings)
    out["hand_seconds_start"] = out["hand_seconds"] if start == settings else statistics.mean(
        _cpu(lambda: review_game(game, start, hands=[number]))[0] for game, number in jobs)
    try:
        from hearts_analysis.review.levels import settings_at
    except ImportError:  # a tree without review levels: its corpus is reviewed at its defaults
        out["hand_seconds_corpus"] = out["hand_seconds"]
    else:
        corpus = settings_at("corpus", seed=seed)
        out["hand_seconds_corpus"] = statistics.mean(
            _cpu(lambda: review_game(game, corpus, hands=[number]))[0] for game, number in jobs)
    out["decisions"] = len(decisions)
    fields = [(d.hand, d.seat, d.kind, d.trick, d.played, d.best, round(d.cost, 9), round(d.margin, 9), d.category,
               d.unclear, d.samples) for d in decisions]
    out["review_digest"] = hashlib.sha256(repr(fields).encode()).hexdigest()[:16]
    return out


def _measure(tree: Path, args: argparse.Namespace) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, str(HERE), "--worker", "--deals", str(args.deals), "--hands", str(args.hands),
               "--seed", str(args.seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the measurement of {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="the baseline tree (a worktree of the code at the start)")
    parser.add_argument("--deals", type=int, default=20000, help="sampled deals per rollout measurement")
    parser.add_argument("--hands", type=int, default=6, help="whole hands (all four seats) reviewed")
    parser.add_argument("--rounds", type=int, default=1, help="alternations A B of the two trees")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.deals, args.hands, args.seed)))
        return
    trees = {"new": ROOT} if args.against is None else {"base": args.against.resolve(), "new": ROOT}
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            runs[name].append(_measure(tree, args))
    best = {name: {key: (max(r[key] for r in rs) if key.startswith("rollouts") else
                         min(r[key] for r in rs) if isinstance(rs[0][key], float) else rs[0][key])
                   for key in rs[0]} for name, rs in runs.items()}
    print(f"rollouts: {args.deals:,} sampled held 4-seat deals, standard rules; review: {args.hands} whole hands "
          f"(all four seats) at the default settings; best of {args.rounds} round(s), CPU seconds")
    for name, figures in best.items():
        print(f"{name:5} ({trees[name]}): basic {figures['rollouts_basic']:,.0f}/s, strong "
              f"{figures['rollouts_strong']:,.0f}/s; {figures['hand_seconds']:.3f} s per hand "
              f"({figures['hand_seconds_start']:.3f} s at the settings of the start of the kernel issue, "
              f"{figures['hand_seconds_corpus']:.3f} s at the corpus level) "
              f"({figures['decisions']} decisions); first call {figures['first_call']:.2f} s; "
              f"review digest {figures['review_digest']}")
    if "base" in best:
        base, new = best["base"], best["new"]
        for model in ("basic", "strong"):
            print(f"rollouts per second per core, {model}: {new[f'rollouts_{model}'] / base[f'rollouts_{model}']:.1f}x "
                  f"the baseline's")
        print(f"a whole hand's review: {new['hand_seconds'] / base['hand_seconds']:.2f}x the baseline's time; "
              f"at the settings of the start of the kernel issue (AT_THE_START) "
              f"{new['hand_seconds_start'] / base['hand_seconds_start']:.2f}x; this tree's corpus level against the "
              f"baseline's start settings {new['hand_seconds_corpus'] / base['hand_seconds_start']:.2f}x (the goal: "
              f"at most 0.33x)")
        # A player only one tree has (a model added since) has nothing to be compared with.
        models = [key[len("digest_"):] for key in base if key.startswith("digest_") and key in new]
        for model in models:
            same = base[f"digest_{model}"] == new[f"digest_{model}"]
            print(f"rollout outcomes, {model}: {'identical' if same else 'DIFFERENT'} (points and taken cards)")
        same = base["review_digest"] == new["review_digest"]
        print(f"review outcomes: {'identical' if same else 'different'} (every decision; the judge issue changes "
              f"verdicts on purpose, so only a tree of the same judge must match)")


if __name__ == "__main__":
    main()
