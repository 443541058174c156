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

:func:`advise` is the analysis board: the judge's verdict on a hand in progress, for the seat to
move, best choice first (here the winner of the first trick of the last hand leads the second):

>>> from hearts_analysis import advise
>>> in_progress = dataclasses.replace(game, hands=game.hands[:-1] + (dataclasses.replace(
...     game.hands[-1], plays=game.hands[-1].plays[:4], points=None, totals=None),), complete=None)
>>> advice = advise(in_progress)
>>> advice.kind, advice.seat == game.hands[-1].plays[4][0], advice.best == tuple(advice.to_dict()["best"])
('play', True, True)

The façade does what each command does, in one call: :func:`simulate` plays games, :func:`audit` is
``hearts validate``'s document, :func:`stats` the players' statistics, :func:`review` the cost of each
decision (see :mod:`hearts_analysis.facade`):

>>> import hearts_analysis as ha, pathlib, tempfile
>>> from hearts_analysis.records import write_games
>>> games = ha.simulate(2, "standard", seed=4, target=30)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_games(games, path)
2
>>> ha.audit([path], engine="reference")["summary"]["games"], ha.stats([path], workers=1).games
(2, 2)
>>> sorted({d.kind for d in ha.review(games[0], "bot2", hands=[1], settings=ha.review.Settings(samples=20)).decisions})
['pass', 'play']
"""

from .cards import Card, Mask, card_name, parse_card
from .engine import GameResult, HandResult, HandState, replay_game
from . import interop  # noqa: F401  (registers the log formats: every reader of games recognises them)
from .records import GameRecord, HandRecord, RecordError, read_games
from .rules import PRESETS, RuleError, Rules
from .violations import CATALOGUE, Code, Violation

__version__ = "0.1.0"

__all__ = ["Advice", "CATALOGUE", "Card", "Code", "Corpus", "GameRecord", "GameResult", "HandRecord", "HandResult",
           "HandState", "Mask", "PRESETS", "RecordError", "RuleError", "Rules", "Violation", "advise", "audit",
           "card_name", "parse_card", "read_corpus", "read_games", "replay_game", "review", "simulate", "stats", "view_of"]

_LAZY = {"read_corpus": "corpus", "Corpus": "corpus", "advise": "review.board", "Advice": "review.board",
         "audit": "facade", "stats": "facade",
         "view_of": "records.views"}
_CALLABLE_PACKAGES = ("review", "simulate")
"""Packages that are also the façade's function of their name (:mod:`.callable_module`)."""


def __getattr__(name: str):
    """The façade, ``read_corpus`` (and ``Corpus``), ``advise`` (and ``Advice``) on first use, so that importing
    the package loads neither pandas, numpy nor the review."""
    import importlib
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name in _CALLABLE_PACKAGES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_CALLABLE_PACKAGES))
