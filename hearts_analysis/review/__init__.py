"""Post-game review: the cost of every play and pass in expected points, judged on what the seat knew.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=1)
>>> review = review_game(game, Settings(samples=50), seats=[0], hands=[1])
>>> sorted({d.kind for d in review.decisions})
['pass', 'play']
"""

from .classes import BLUNDER, INACCURACY, MISTAKE, classify
from .decision import Decision, Option
from .settings import Settings
from .game import GameReview, accuracy, review_game
from ..callable_module import make_callable
from .report import decision_dict, game_dict, summarise

__all__ = ["BLUNDER", "INACCURACY", "MISTAKE", "Decision", "GameReview", "Option", "Settings", "accuracy",
           "classify", "decision_dict", "game_dict", "review_game", "summarise"]

make_callable(__name__, ".batch:review_one")  # hearts_analysis.review(...), the façade's review (callable_module)
