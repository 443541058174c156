"""What the match harness costs: hands a second of ``hearts match random random`` against ``hearts simulate
--bot random``, both in this process, timed in one run (the goal: the match at least half as fast).

The match plays one-hand deals, once per seating, times every decision, keeps every game's record and
tallies the paired results; the simulator plays whole games of random bots and keeps their records.

    python benchmarks/match_speed.py --hands 4000
"""

from __future__ import annotations

import argparse
import time

from hearts_analysis.match import MatchConfig, Tally, players_of, run_match
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import RandomBot, simulate_games


def simulate_rate(hands: int, rules: Rules) -> float:
    started, played, games = time.perf_counter(), 0, 0
    for game in simulate_games(10 ** 9, rules, 4, seed=1, bot=RandomBot):
        played += len(game.hands)
        games += 1
        if played >= hands:
            break
    return played / (time.perf_counter() - started)


def match_rate(hands: int, rules: Rules) -> float:
    config = MatchConfig(players_of(["random", "random"]), rules, seed=1)
    tally = Tally([p.name for p in config.players])
    started = time.perf_counter()
    for deal in run_match(config, hands // 2):
        tally.add(deal)
    tally.summary()
    return tally.hands / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3, help="alternate the two this many times; best of each")
    args = parser.parse_args()
    rules = Rules.preset("standard")
    sim, mat = [], []
    for _ in range(args.repeats):
        sim.append(simulate_rate(args.hands, rules))
        mat.append(match_rate(args.hands, rules))
    print(f"simulate (random bots): {max(sim):,.0f} hands/s")
    print(f"match random random:    {max(mat):,.0f} hands/s")
    print(f"ratio match / simulate: {max(mat) / max(sim):.2f} (goal: at least 0.5)")


if __name__ == "__main__":
    main()
