"""Reviews kept on disk, so that a hand reviewed once with the same settings is not reviewed again.

A review takes about a second a hand; a cached one a millisecond. An entry is
keyed by everything the review of one hand depends on: the game record as
canonical JSON (a hand's review depends on the game's earlier hands, its id
and players), the rules in force (a record keeps the rules it names, but
``--rules`` and ``--set`` judge it under others), the hand, the seats, the
settings, and the code of the package itself, so that a new version never
serves an old verdict. Entries are JSON files written atomically; one that
cannot be read, or is not the review of its hand (:mod:`.entry`), is reviewed
again and rewritten.

>>> import dataclasses, tempfile
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.review import Settings, review_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=1, max_hands=1)
>>> cache = ReviewCache(tempfile.mkdtemp())
>>> key = cache.key(game, 1, None, Settings(samples=20))
>>> cache.get(key, game, 1, None) is None
True
>>> review = review_game(game, Settings(samples=20), hands=[1])
>>> cache.put(key, review)
>>> cache.get(key, game, 1, None) == review
True
>>> cache.key(game, 1, None, Settings(samples=20)) == cache.key(
...     dataclasses.replace(game, rules=Rules.preset("omnibus")), 1, None, Settings(samples=20))
False
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict, fields
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import orjson

from ..atomic import atomic_open
from ..records.json import dumps_game
from ..records.model import GameRecord
from .entry import BadEntry, review_from_entry
from .settings import Settings
from .game import GameReview

ENTRY_FORMAT = 1


def default_folder() -> Path:
    """``$XDG_CACHE_HOME/hearts-analysis/review``, else ``~/.cache/hearts-analysis/review``. A relative
    ``XDG_CACHE_HOME`` is ignored, as the XDG Base Directory specification says (it would put the cache
    under whatever folder the command runs in)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "hearts-analysis" / "review"


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of every module of the package: any change to the code makes new keys."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _settings_text(settings: Settings) -> str:
    """The settings as text; a bot factory by its qualified name."""
    parts = []
    for item in fields(settings):
        value = getattr(settings, item.name)
        if callable(value):
            value = f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', repr(value))}"
        parts.append(f"{item.name}={value!r}")
    return ";".join(parts)


class ReviewCache:
    """A folder of reviewed hands."""

    def __init__(self, folder: str | os.PathLike[str]):
        self.folder = Path(folder)
        self._game: tuple[GameRecord, bytes] | None = None
        """The last game keyed and its serialised record: a game's hands are keyed one after another, and
        serialising the whole record for each would cost O(hands²) a game."""

    def key(self, game: GameRecord, hand: int, seats: Iterable[int] | None, settings: Settings) -> str:
        digest = hashlib.sha256()
        for part in (str(ENTRY_FORMAT), code_fingerprint(), _settings_text(settings), str(hand),
                     "all" if seats is None else ",".join(map(str, sorted(seats))),
                     orjson.dumps(game.rules.to_dict()).decode()):
            digest.update(part.encode())
            digest.update(b"\0")
        if self._game is None or self._game[0] is not game:
            self._game = (game, dumps_game(game))
        digest.update(self._game[1])
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str, game: GameRecord, hand: int, seats: Iterable[int] | None) -> GameReview | None:
        """The review filed under ``key`` if it is one of ``hand`` of ``game`` for ``seats``; else ``None``."""
        try:
            return review_from_entry(orjson.loads(self._path(key).read_bytes()), game, hand, seats)
        except (OSError, ValueError, BadEntry):
            return None

    def put(self, key: str, review: GameReview) -> None:
        """Keep ``review``; a cache that cannot be written is only a slower next run."""
        try:
            with atomic_open(self._path(key), "wb") as out:
                out.write(orjson.dumps(asdict(review)))
        except OSError:
            pass

