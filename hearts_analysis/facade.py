"""The package's one-call entry points: what each command does, for a Python caller.

Each is a thin door onto the library module that does the work (the commands call the same
modules), so that ``hearts_analysis.audit(...)`` and ``hearts validate`` cannot drift apart. The
package root loads this module only when one of them is first used, so ``import hearts_analysis``
stays light.

>>> import tempfile, pathlib
>>> from hearts_analysis.records import write_games
>>> games = simulate(3, "standard", seed=7, target=30)
>>> [game.complete for game in games], games[0].players
([True, True, True], ('bot1', 'bot2', 'bot3', 'bot4'))
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_games(games, path)
3
>>> audit([path], engine="reference")["summary"]
{'games': 3, 'hands': 10, 'invalid_games': 0, 'violations': 0, 'errors': 0, 'by_code': {}}
>>> tally = stats([path], workers=1)
>>> tally.games, sorted(row["player"] for row in tally.player_rows())
(3, ['bot1', 'bot2', 'bot3', 'bot4'])
>>> from hearts_analysis.review import Settings
>>> reviewed = review(games[0], "bot1", hands=[1], settings=Settings(samples=20, budget=64))
>>> sorted({d.kind for d in reviewed.decisions}), {d.seat for d in reviewed.decisions}
(['pass', 'play'], {0})
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from .records.model import GameRecord
from .rules import Rules

if TYPE_CHECKING:
    from .analysis.stats import Tally
    from .review import GameReview, Settings


def audit(paths: Iterable[str | Path], rules: Rules | None = None, *, engine: str = "fast", workers: int = 1,
          scheduler: str | None = None) -> dict[str, Any]:
    """The audit of every game of ``paths`` (files, folders, logs): the ``hearts validate --format json``
    document (``games``, ``errors``, ``summary``). ``rules`` judges every game under other rules than the
    ones it names; ``engine`` is ``reference``, ``fast`` or ``dask``. For a corpus too large to hold, stream
    it with :class:`~hearts_analysis.fastpath.audit_api.CorpusAudit`."""
    from .fastpath.audit_api import audit_document
    return audit_document(paths, rules, engine, workers, scheduler)


def stats(paths: Iterable[str | Path], rules: Rules | None = None, *, workers: int | None = None,
          details: bool = True) -> "Tally":
    """The player statistics of every game of ``paths`` (what ``hearts stats`` prints), as a
    :class:`~hearts_analysis.analysis.stats.Tally`: ``player_rows()``, ``leaderboard_rows()``,
    ``leak_rows()``, ``players_frame()``... ``workers``: processes (default one per CPU where the input
    has several parts)."""
    from .analysis.count import count_corpus
    return count_corpus(paths, rules, workers=workers, details=details)


def review(game: GameRecord | dict, player: str | None = None, *, hands: Iterable[int] | None = None,
           settings: "Settings | None" = None) -> "GameReview":
    """The review of one game (a record, or a ``hearts-game/1`` dict): each decision of ``player`` (default:
    every seat) in ``hands`` (1-based; default: all), with its cost in expected points. For a corpus on
    workers, with the cache, see :func:`~hearts_analysis.review.batch.review_items`."""
    from .review.batch import review_one
    return review_one(game, player, hands=hands, settings=settings)


def simulate(games: int, rules: Rules | str = "standard", *, players: int = 4, seed: int = 0,
             **overrides: Any) -> list[GameRecord]:
    """``games`` complete legal games played by the seeded heuristic bots (``hearts simulate``); ``rules``
    a :class:`~hearts_analysis.rules.Rules` or a preset name, with rule fields as ``overrides``. Game ``i``
    depends only on ``seed`` and ``i``."""
    from .simulate.game import simulate_preset
    return simulate_preset(games, rules, players=players, seed=seed, **overrides)
