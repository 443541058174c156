"""How fast the simulator plays, as hands/second on one core, with ratios to baselines of the same run.

Baselines: the hand state machine with a bot that plays its lowest legal card (the floor
any bot adds to), and the reference replay engine on the simulated games. The heuristic
bots are timed twice: their plays on the compiled kernel (what ``hearts simulate`` does)
and in Python (the bots' own ``choose_play``); the two must give the same games, and the
last line is the kernel's speed-up. The kernel is loaded (or compiled) before the timing.

    python benchmarks/simulate_speed.py --games 2000 --players 4
"""

from __future__ import annotations

import argparse
import random
import time

from hearts_analysis.engine import replay_game
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import HeuristicBot, RandomBot, game, simulate_games


class LowestBot:
    """The cheapest legal player: the floor of the simulator's own cost."""

    def __init__(self, rng: random.Random):
        pass

    def choose_pass(self, view, count):
        hand, chosen = view.hand, 0
        for _ in range(count):
            low = hand & -hand
            chosen |= low
            hand ^= low
        return chosen

    def choose_play(self, view, legal):
        return (legal & -legal).bit_length() - 1


def measure(run) -> tuple[float, int, int]:
    start = time.process_time()
    games, hands = run()
    seconds = time.process_time() - start
    return seconds, games, hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="standard")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)

    corpora = {}

    def simulate(label, bot, on_kernel):
        def run():
            game.KERNEL = on_kernel   # a table of HeuristicBots on the kernel from its first hand, or never
            try:
                corpus = corpora[label] = list(simulate_games(args.games, rules, args.players, seed=1, bot=bot))
            finally:
                game.KERNEL = None
            return len(corpus), sum(len(g.hands) for g in corpus)
        return run

    game.KERNEL = True   # load the kernel (compiled once, then cached) before the timing
    next(simulate_games(1, rules, args.players, seed=0))
    rows = {}
    for label, bot, on_kernel in (("floor (lowest card)", LowestBot, None), ("random bots", RandomBot, None),
                                  ("heuristic, kernel", HeuristicBot, True),
                                  ("heuristic, Python", HeuristicBot, False)):
        rows[label] = measure(simulate(label, bot, on_kernel))
    heuristic_games = corpora["heuristic, kernel"]
    rows["reference replay"] = measure(lambda: (
        sum(1 for g in heuristic_games if replay_game(g).valid), sum(len(g.hands) for g in heuristic_games)))

    floor = rows["floor (lowest card)"]
    floor_rate = floor[2] / floor[0]
    print(f"{args.games} games, {args.players} players, rules {args.rules}; CPU time of one process")
    print(f"{'':22} {'games/s':>9} {'hands/s':>9} {'vs floor':>10}")
    for label, (seconds, games, hands) in rows.items():
        rate = hands / seconds
        print(f"{label:22} {games / seconds:9,.0f} {rate:9,.0f} {rate / floor_rate:10.2f}")
    kernel, python = (rows[label][2] / rows[label][0] for label in ("heuristic, kernel", "heuristic, Python"))
    same = corpora["heuristic, kernel"] == corpora["heuristic, Python"]
    print(f"heuristic bots' hands on the kernel: {kernel / python:.2f}x the Python play "
          f"({kernel:,.0f} against {python:,.0f} hands/s; {'the same' if same else 'DIFFERENT'} games)")


if __name__ == "__main__":
    main()
