"""A decoded row group: card events as flat arrays, hand and game values as short ones.

This is the one shape the screen reads, whatever it was decoded from. Rows
keep the order of the card rows; a hand is a run of rows, a game a run of hands.
Anything the decoder could not vouch for is marked as doubt, so that the game
goes to the reference engine, read by the reference reader.

>>> import tempfile, pathlib
>>> import numpy as np
>>> from hearts_analysis.records.sources import write_any
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.fastpath.decode import Judgements, decode_unit, open_units
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> write_any(simulate_games(3, Rules.preset("standard", target=30)), path)
3
>>> block = decode_unit(next(open_units(path)), Judgements(None))
>>> block.games, block.hands, np.diff(block.game_hands).tolist()
(3, 8, [2, 4, 2])
>>> block.game_ids(), block.source(1) == f"{path}:#2"
(['sim-0-1', 'sim-0-2', 'sim-0-3'], True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson

from ..rules import Rules

NULL = -1
"""A null in an integer code array (no seat, no card, no recorded value)."""
UNKNOWN = -2
"""A value the fast path does not read (a card name or event it does not know)."""


@dataclass
class Block:
    """The games of one row group, ready for the screen."""

    event: np.ndarray
    """(rows,) int8: ``records.parquet.layout`` event codes, :data:`UNKNOWN` for anything else."""
    seat: np.ndarray
    """(rows,) int8 seat, :data:`NULL` where null."""
    card: np.ndarray
    """(rows,) int8 card code, :data:`NULL` where null, :data:`UNKNOWN` for a name it does not know."""
    index: np.ndarray
    """(rows,) int16: the ``index`` column (position in a seat's list, or play number)."""
    hand_rows: np.ndarray
    """(hands + 1,) row offsets of the hands."""
    hand_number: np.ndarray
    """(hands,) the ``hand`` column of each hand's rows."""
    dealer: np.ndarray
    """(hands,) int64 recorded dealer or :data:`NULL`."""
    direction: np.ndarray
    """(hands,) int64 recorded pass direction code or :data:`NULL`."""
    moon: np.ndarray
    """(hands,) int64 recorded moon choice code or :data:`NULL`."""
    points: np.ndarray
    """(hands, 7) int64 recorded points, zero-padded; read only where ``has_points``."""
    has_points: np.ndarray
    totals: np.ndarray
    """(hands, 7) int64 recorded running totals, zero-padded; read only where ``has_totals``."""
    has_totals: np.ndarray
    hand_doubt: np.ndarray
    """(hands,) bool: something about the hand the fast path does not read."""
    hold_only: np.ndarray
    """(hands,) bool: clean only without pass rows (its meta gives the passes, or a seat's, as null)."""
    game_hands: np.ndarray
    """(games + 1,) offsets of each game's hands."""
    table_index: np.ndarray
    """(games,) index into ``tables`` of the game's rule set and table size; -1: doubt."""
    tables: list[tuple[Rules, int]]
    players_column: Any
    """The ``players`` of each game (an Arrow list array), made Python lists only for reports."""
    game_id_column: Any
    complete: np.ndarray
    """(games,) bool: the record says ``"complete": true``."""
    game_doubt: np.ndarray
    """(games,) bool: the game goes to the reference reader and engine."""
    game_number: np.ndarray
    """(games,) the ``game`` column: the game's index in its file."""
    game_rows: np.ndarray
    """(games + 1,) row offsets of the games."""
    path: str
    game_meta: tuple[np.ndarray, list[str | None]]
    """Each game's meta text, as ``(index per game, distinct texts)``: read only by those who ask
    (:meth:`played_at`), so that validation never parses it."""
    header_rows: np.ndarray | None = None
    """``events/2``: (games + 1,) offsets of each game's header rows (its game row, then its hand rows)."""
    _lists: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    """:meth:`players` and :meth:`game_ids`, made once: each costs the whole column, and a dirty corpus asks
    for them at every clean run and every judged game."""

    @property
    def games(self) -> int:
        return len(self.game_hands) - 1

    @property
    def hands(self) -> int:
        return len(self.hand_rows) - 1

    def players(self) -> list[list[str]]:
        """Each game's players (one list, made once: copy a game's list before changing it)."""
        if "players" not in self._lists:
            self._lists["players"] = self.players_column.to_pylist()
        return self._lists["players"]

    def game_ids(self) -> list[str | None]:
        """Each game's id (one list, made once)."""
        if "game_ids" not in self._lists:
            self._lists["game_ids"] = self.game_id_column.to_pylist()
        return self._lists["game_ids"]

    def played_at(self) -> list[str | None]:
        """Each game's ``played_at``, where its meta text holds one as text."""
        keys, texts = self.game_meta
        of_text = [_played_at(text) for text in texts]
        return [of_text[k] for k in keys.tolist()]

    def source(self, game: int) -> str:
        """``file.parquet:#k``, the label the reference reader gives (``RowGroup.source``)."""
        return f"{self.path}:#{int(self.game_number[game]) + 1}"


def _played_at(meta_text: str | None) -> str | None:
    if meta_text is None or '"played_at"' not in meta_text:
        return None
    try:
        value = orjson.loads(meta_text).get("played_at")
    except (orjson.JSONDecodeError, AttributeError):
        return None
    return value if isinstance(value, str) else None
