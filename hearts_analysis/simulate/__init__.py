"""Seeded simulation of legal games, for examples, tests, benchmarks and the review's rollouts.

Game ``i`` of a run depends only on the seed and ``i``, so a test, a benchmark or
a worker process can ask for the same game again, and every game is legal:

>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.records import game_to_dict
>>> from hearts_analysis.rules import Rules
>>> rules = Rules.preset("standard", target=30)
>>> games = list(simulate_games(3, rules, seed=7))
>>> [(game.game_id, replay_game(game).valid) for game in games]
[('sim-7-1', True), ('sim-7-2', True), ('sim-7-3', True)]
>>> game_to_dict(list(simulate_games(3, rules, seed=7))[2]) == game_to_dict(games[2])
True

A long run (:data:`~.game.KERNEL_GAMES` games) plays its tables of
:class:`HeuristicBot` seats on the compiled kernel
(:mod:`hearts_analysis.kernel.heuristic`): the Python bots' plays were most of a
hand's time, and their play is deterministic for what a seat sees, so the kernel
plays the same cards; the deal, the pass and each bot's one draw for its plan
stay here, on the same random streams, and the records are the same. Other
seats, and short runs (numba would cost more to load than they save), play in
Python.
"""

from .bots import Blunder, BlunderBot, Bot, BotFactory, HeuristicBot, RandomBot, mixed_bot
from .game import choose_moon, deal, play_hand, played_at, simulate_game, simulate_games
from .knowledge import PublicInfo, SeatView
from .play import BotError, HandPlay
from ..callable_module import make_callable
from .pool import BOT_KINDS, BOTS_FIELD, PoolPlayer, make_pool, parse_mix, pool_bots, simulate_pool

__all__ = ["BOTS_FIELD", "BOT_KINDS", "Blunder", "BlunderBot", "Bot", "BotError", "BotFactory", "HandPlay", "HeuristicBot",
           "PoolPlayer", "PublicInfo", "RandomBot", "SeatView", "choose_moon", "deal", "make_pool", "mixed_bot",
           "parse_mix", "play_hand", "played_at", "pool_bots", "simulate_game", "simulate_games", "simulate_pool"]

make_callable(__name__, ".game:simulate_preset")  # hearts_analysis.simulate(...), the façade's (callable_module)
