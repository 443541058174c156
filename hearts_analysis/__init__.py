"""Audit, re-score and review recorded games of Hearts.

The package root names what a caller needs to check a game: the record, the
rules it was played under and the replay that judges it. A record that scores
a hand differently from its tricks is caught, with the seat and hand named:

>>> import dataclasses
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> replay_game(game).valid
True
>>> first = game.hands[0]
>>> first.points
(0, 1, 6, 19)
>>> wrong = dataclasses.replace(game, hands=(dataclasses.replace(first, points=(0, 1, 6, 20)),) + game.hands[1:])
>>> [(v.code, v.location()) for v in replay_game(wrong).violations]
[('points-mismatch', 'hand 1 seat 3')]
"""

from .cards import Card, Mask, card_name, parse_card
from .engine import GameResult, HandResult, HandState, replay_game
from . import interop  # noqa: F401  (registers the log formats: every reader of games recognises them)
from .records import GameRecord, HandRecord, RecordError, read_games
from .rules import PRESETS, RuleError, Rules
from .violations import CATALOGUE, Violation

__version__ = "0.1.0"

__all__ = ["CATALOGUE", "Card", "GameRecord", "GameResult", "HandRecord", "HandResult", "HandState",
           "Mask", "PRESETS", "RecordError", "RuleError", "Rules", "Violation", "card_name",
           "parse_card", "read_games", "replay_game"]


def __getattr__(name: str):
    """``read_corpus`` (and ``Corpus``) on first use, so that importing the package does not load pandas."""
    if name in ("read_corpus", "Corpus"):
        from . import corpus
        return getattr(corpus, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
