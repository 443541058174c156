"""Replay, legality and scoring: the reference engine every other lane is checked against.

A record is judged by replaying it, so a recorded figure the cards do not give
is named with the seat and the hand:

>>> import dataclasses
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> result = replay_game(game)
>>> result.valid, result.totals, result.winners
(True, (37, 5, 9, 1), (3,))
>>> game.hands[0].points
(17, 1, 8, 0)
>>> first = dataclasses.replace(game.hands[0], points=(0, 1, 8, 0))
>>> [v.message for v in replay_game(dataclasses.replace(game, hands=(first, *game.hands[1:]))).violations]
['seat 0 (bot1) is recorded with 0 points for hand 1; the tricks give 17']
"""

from .replay import GameResult, HandResult, replay_game
from .scoring import Moon, score_hand
from .state import Exclusion, HandState

__all__ = ["Exclusion", "GameResult", "HandResult", "HandState", "Moon", "replay_game", "score_hand"]
