"""How fast the simulator plays, as hands/second on one core, with ratios to baselines of the same run.

Baselines: the hand kernel with a bot that plays its lowest legal card (the floor
any bot adds to), and the reference replay engine on the simulated games.

    python benchmarks/simulate_speed.py --games 2000 --players 4
"""

from __future__ import annotations

import argparse
import random
import time

from hearts_analysis.engine import replay_game
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import HeuristicBot, RandomBot, simulate_games


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

    def simulate(bot):
        def run():
            corpus = list(simulate_games(args.games, rules, args.players, seed=1, bot=bot))
            simulate.last = corpus
            return len(corpus), sum(len(g.hands) for g in corpus)
        return run

    rows = {}
    for label, bot in (("kernel (lowest card)", LowestBot), ("random bots", RandomBot),
                       ("heuristic bots", HeuristicBot)):
        rows[label] = measure(simulate(bot))
    heuristic_games = simulate.last
    rows["reference replay"] = measure(lambda: (
        sum(1 for g in heuristic_games if replay_game(g).valid), sum(len(g.hands) for g in heuristic_games)))

    floor = rows["kernel (lowest card)"]
    floor_rate = floor[2] / floor[0]
    print(f"{args.games} games, {args.players} players, rules {args.rules}; CPU time of one process")
    print(f"{'':22} {'games/s':>9} {'hands/s':>9} {'vs kernel':>10}")
    for label, (seconds, games, hands) in rows.items():
        rate = hands / seconds
        print(f"{label:22} {games / seconds:9,.0f} {rate:9,.0f} {rate / floor_rate:10.2f}")


if __name__ == "__main__":
    main()
