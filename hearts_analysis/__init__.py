"""Audit, re-score and review recorded games of Hearts."""

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
