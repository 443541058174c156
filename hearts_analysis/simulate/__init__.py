"""Seeded simulation of legal games, for examples, tests and benchmarks."""

from .bots import HeuristicBot, RandomBot
from .game import simulate_game, simulate_games

__all__ = ["HeuristicBot", "RandomBot", "simulate_game", "simulate_games"]
