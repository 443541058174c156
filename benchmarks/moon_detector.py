"""Precision and recall of the moon-attempt detector on simulated corpora with known attempts.

Two families of players run for the moon and write down when they do: the
simulator's :class:`HeuristicBot` (which runs on hands of high hearts and
control) and :class:`moon_bots.MoonBot` (looser runs, passing low cards, and
runs that start in mid-hand). A seat-hand is a true attempt when its bot ran
or when it shot the moon; the detector's verdicts are compared with that.

Failed attempts are the hard part (every shot is found by definition), so the
figures are given for all attempts and for failed ones alone, and again with
the detector's control-play requirement switched off, to show what it buys,
and raised by one, to show what that would cost. Tables of random players
(who never run, but play high at random) show the detector's limit: it
assumes purposeful play.

    python benchmarks/moon_detector.py [--games 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from moon_bots import labelled_factory, runs_of  # noqa: E402

from hearts_analysis.analysis import analyze_game  # noqa: E402
from hearts_analysis.analysis import moons  # noqa: E402
from hearts_analysis.rules import Rules  # noqa: E402
from hearts_analysis.simulate import simulate_game  # noqa: E402

SETTINGS = [
    ("heuristic", "standard", 4), ("moonbot", "standard", 4), ("moonbot", "omnibus", 4), ("moonbot", "standard", 5),
    ("random", "standard", 4), ("mixed", "standard", 4),
]


@dataclass
class Confusion:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, truth: bool, found: bool) -> None:
        self.tp += truth and found
        self.fp += found and not truth
        self.fn += truth and not found

    def row(self) -> str:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else float("nan")
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")
        return f"{self.tp:>5} {self.fp:>5} {self.fn:>5}  {precision:9.3f} {recall:6.3f}"


def corpus(kind: str, preset: str, players: int, games: int, seed: int):
    rules = Rules.preset(preset)
    names = [f"p{i}" for i in range(players)]
    for index in range(games):
        bots: list = []
        game = simulate_game(rules, names, random.Random(f"{seed}:{kind}:{preset}:{players}:{index}"),
                             labelled_factory(kind, bots), game_id=f"{kind}-{index}")
        yield game, runs_of(bots)


def measure(games: list, control_plays: int) -> tuple[Confusion, Confusion, dict[str, int]]:
    moons.MIN_CONTROL_PLAYS = control_plays
    every, failed = Confusion(), Confusion()
    outcomes: dict[str, int] = {}
    for game, runs in games:
        for hand in analyze_game(game).hands:
            shooter = None if hand.result.moon is None else hand.result.moon.seat
            for seat in range(game.seats):
                truth = (hand.number, seat) in runs or shooter == seat
                found = hand.moon is not None and hand.moon.seat == seat
                every.add(truth, found)
                if shooter != seat:
                    failed.add(truth, found)
            if hand.moon is not None:
                outcomes[hand.moon.outcome] = outcomes.get(hand.moon.outcome, 0) + 1
    return every, failed, outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    default = moons.MIN_CONTROL_PLAYS
    print(f"{'players':<10} {'rules':<9} {'n':>2} {'hands':>6} {'attempts':<9} {'control':>7}"
          f"    tp    fp    fn  precision recall")
    for kind, preset, players in SETTINGS:
        games = list(corpus(kind, preset, players, args.games, args.seed))
        hands = sum(len(game.hands) for game, _ in games)
        for control in (default, default + 1, 0):
            every, failed, outcomes = measure(games, control)
            for label, confusion in (("all", every), ("failed", failed)):
                print(f"{kind:<10} {preset:<9} {players:>2} {hands:>6} {label:<9} {control:>7} {confusion.row()}")
            if control == default:
                print(f"{'':<30} outcomes found: {outcomes}")
    moons.MIN_CONTROL_PLAYS = default


if __name__ == "__main__":
    main()
