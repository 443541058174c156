"""The ``events/1`` columnar layout of ``hearts-game/1`` games: one row per card event.

Deal rows, then pass rows, then play rows, hand after hand and game after
game, so that a plays table can be filtered and grouped straight from pandas
or DuckDB; game- and hand-level values sit on the first row of their game or
hand, and JSON columns keep whatever has no column (unknown fields, explicit
nulls), so that nothing of a record is lost. ``schemas/parquet-layout.md``
documents it for users; the fast validator reads the same columns.
"""

from __future__ import annotations

import pyarrow as pa

from ..cards import card_name
from ..rules import MOON_CHOICES, PASS_DIRECTIONS
from .model import FORMAT

LAYOUT = "events/1"

EVENTS = ("deal", "pass", "play", "none")
"""Values of the ``event`` column; a row's event code is its index here."""
DEAL, PASS, PLAY, NONE = range(len(EVENTS))

CARD_NAMES = tuple(card_name(card) for card in range(52))
"""The ``card`` dictionary as written: dictionary index == card code (0-51)."""

META_LAYOUT, META_FORMAT, META_GAMES, META_HANDS = "hearts.layout", "hearts.format", "hearts.games", "hearts.hands"

ROW_GROUP_HANDS = 8192
"""Hands per row group (rounded up to whole games): large enough for vectorised readers, small
enough to stream in bounded memory."""


def _dictionary(indices: pa.DataType) -> pa.DataType:
    return pa.dictionary(indices, pa.string())


def _field(name: str, type_: pa.DataType, description: str, nullable: bool = True) -> pa.Field:
    return pa.field(name, type_, nullable=nullable, metadata={"description": description})


SCHEMA = pa.schema([
    _field("game", pa.int32(), "0-based index of the game within the file", nullable=False),
    _field("game_id", _dictionary(pa.int32()), "the record's game_id, repeated on every row of the game"),
    _field("hand", pa.int16(), "1-based hand number; 0 only on the placeholder row of a game with no hands",
           nullable=False),
    _field("event", _dictionary(pa.int8()), "deal | pass | play | none (placeholder of a hand or game "
           "without card events)", nullable=False),
    _field("seat", pa.int8(), "deal: the seat dealt the card; pass: the passer; play: the player"),
    _field("card", _dictionary(pa.int8()), "canonical card name such as QS; dictionary index = card code 0-51"),
    _field("index", pa.int16(), "deal/pass: position in that seat's list; play: 0-based play number in the hand",
           nullable=False),
    _field("trick", pa.int8(), "plays only: index // players + 1"),
    _field("players", pa.list_(pa.string()), "first row of a game: the player at each seat"),
    _field("rules", pa.string(), "first row of a game: JSON of the record's rules value as written"),
    _field("game_meta", pa.string(), "first row of a game: JSON object of the game's other fields "
           "(played_at, complete, unknown fields, explicit nulls of game_id and rules)"),
    _field("dealer", pa.int8(), "first row of a hand: the recorded dealer"),
    _field("pass_direction", _dictionary(pa.int8()), "first row of a hand: the recorded pass direction"),
    _field("moon", _dictionary(pa.int8()), "first row of a hand: the shooter's recorded moon choice"),
    _field("points", pa.list_(pa.int32()), "first row of a hand: recorded points per seat"),
    _field("totals", pa.list_(pa.int32()), "first row of a hand: recorded running totals per seat"),
    _field("hand_meta", pa.string(), "first row of a hand: JSON object of the hand's fields without a column "
           "(unknown fields, explicit nulls, the shape of passes when the pass rows cannot tell it, "
           "numbers too large for the int32 columns)"),
], metadata={META_LAYOUT: LAYOUT, META_FORMAT: FORMAT})

COLUMNS = tuple(SCHEMA.names)
REQUIRED = ("game", "hand", "event", "seat", "card", "index", "players")
"""Columns a file must have to be read; the others are taken as all-null when absent."""

DIRECTION_NAMES = PASS_DIRECTIONS
MOON_NAMES = MOON_CHOICES

INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1
