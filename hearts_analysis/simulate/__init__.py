"""Seeded simulation of legal games, for examples, tests, benchmarks and the review's rollouts."""

from .bots import Blunder, BlunderBot, Bot, BotFactory, HeuristicBot, RandomBot, mixed_bot
from .game import choose_moon, deal, play_hand, played_at, simulate_game, simulate_games
from .knowledge import PublicInfo, SeatView
from .play import BotError, HandPlay
from .pool import BOT_KINDS, BOTS_FIELD, PoolPlayer, make_pool, parse_mix, pool_bots, simulate_pool

__all__ = ["BOTS_FIELD", "BOT_KINDS", "Blunder", "BlunderBot", "Bot", "BotError", "BotFactory", "HandPlay", "HeuristicBot",
           "PoolPlayer", "PublicInfo", "RandomBot", "SeatView", "choose_moon", "deal", "make_pool", "mixed_bot",
           "parse_mix", "play_hand", "played_at", "pool_bots", "simulate_game", "simulate_games", "simulate_pool"]
