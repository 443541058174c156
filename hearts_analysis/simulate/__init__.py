"""Seeded simulation of legal games, for examples, tests, benchmarks and the review's rollouts."""

from .bots import Blunder, BlunderBot, Bot, BotFactory, HeuristicBot, RandomBot, mixed_bot
from .game import choose_moon, deal, play_hand, simulate_game, simulate_games
from .knowledge import PublicInfo, SeatView
from .play import BotError, HandPlay

__all__ = ["Blunder", "BlunderBot", "Bot", "BotError", "BotFactory", "HandPlay", "HeuristicBot",
           "PublicInfo", "RandomBot", "SeatView", "choose_moon", "deal", "mixed_bot", "play_hand",
           "simulate_game", "simulate_games"]
