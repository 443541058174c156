"""The columnar layout of ``hearts-game/1`` games: one row per card event, one per game and per hand.

Card rows (deal, then pass, then play, hand after hand and game after game)
can be filtered and grouped straight from pandas or DuckDB. In ``events/2``,
which this toolkit writes, the game- and hand-level values are on rows of
their own, ``game`` and ``hand`` *header rows*, kept in a row group of their
own just before the card rows of the same games: a reader of the cards never
touches the sparse columns, and a reader of the headers reads a hundredth of
the rows. ``events/1`` (read, for files from other writers) has no header rows
and keeps those values on the first card row of each game or hand. JSON
columns keep whatever has no column (unknown fields, explicit nulls), so that
nothing of a record is lost. ``schemas/parquet-layout.md`` documents it for
users; the fast validator reads the same columns.
"""

from __future__ import annotations

import pyarrow as pa

from ...cards import card_name
from ..model import COLUMN, FORMAT, GAME_FIELDS, HAND_FIELDS

LAYOUT = "events/2"
"""The layout this toolkit writes."""
LAYOUT_V1 = "events/1"
"""The layout without header rows, still read."""

EVENTS = ("deal", "pass", "play", "none", "game", "hand")
"""Values of the ``event`` column; a row's event code is its index here."""
DEAL, PASS, PLAY, NONE, GAME_ROW, HAND_ROW = range(len(EVENTS))
EVENT_CODES = {name: code for code, name in enumerate(EVENTS)}
CARD_EVENTS = EVENTS[:NONE + 1]
"""The events of card rows (``none``: the placeholder of a hand or game without cards)."""

CARD_NAMES = tuple(card_name(card) for card in range(52))
"""The ``card`` dictionary as written: dictionary index == card code (0-51)."""
CARD_CODES = {name: code for code, name in enumerate(CARD_NAMES)}
"""The code of each canonical card name (other spellings: :func:`hearts_analysis.cards.parse_card`)."""

META_LAYOUT, META_FORMAT, META_GAMES, META_HANDS = "hearts.layout", "hearts.format", "hearts.games", "hearts.hands"

ROW_GROUP_HANDS = 16384
"""Hands per card row group (rounded up to whole games): large enough for vectorised readers, small
enough to stream in bounded memory."""


def _dictionary(indices: pa.DataType) -> pa.DataType:
    """Text as a dictionary; the card rows' ``event`` and ``card`` take int32 indices, which Parquet readers
    decode to without a cast (the same bytes in the file, read half again as fast)."""
    return pa.dictionary(indices, pa.string())


def _field(name: str, type_: pa.DataType, description: str, nullable: bool = True) -> pa.Field:
    return pa.field(name, type_, nullable=nullable, metadata={"description": description})


SCHEMA = pa.schema([
    _field("game", pa.int32(), "0-based index of the game within the file", nullable=False),
    _field("game_id", _dictionary(pa.int32()), "game rows: the record's game_id"),
    _field("hand", pa.int16(), "1-based hand number; 0 on game rows and on the placeholder row of a game with no hands",
           nullable=False),
    _field("event", _dictionary(pa.int32()), "deal | pass | play | none (placeholder of a hand or game "
           "without card events) | game | hand (header rows)", nullable=False),
    _field("seat", pa.int8(), "deal: the seat dealt the card; pass: the passer; play: the player"),
    _field("card", _dictionary(pa.int32()), "canonical card name such as QS; dictionary index = card code 0-51"),
    _field("index", pa.int16(), "deal/pass: position in that seat's list; play: 0-based play number in the hand; "
           "0 on none and header rows", nullable=False),
    _field("trick", pa.int8(), "plays only: index // players + 1"),
    _field("players", pa.list_(pa.string()), "game rows: the player at each seat"),
    _field("rules", pa.string(), "game rows: JSON of the record's rules value as written"),
    _field("game_meta", pa.string(), "game rows: JSON object of the game's other fields "
           "(played_at, complete, unknown fields, explicit nulls of game_id and rules)"),
    _field("dealer", pa.int8(), "hand rows: the recorded dealer"),
    _field("pass_direction", _dictionary(pa.int8()), "hand rows: the recorded pass direction"),
    _field("moon", _dictionary(pa.int8()), "hand rows: the shooter's recorded moon choice"),
    _field("points", pa.list_(pa.int32()), "hand rows: recorded points per seat"),
    _field("totals", pa.list_(pa.int32()), "hand rows: recorded running totals per seat"),
    _field("hand_meta", pa.string(), "hand rows: JSON object of the hand's fields without a column "
           "(unknown fields, explicit nulls, the shape of passes when the pass rows cannot tell it, "
           "numbers too large for the int32 columns)"),
], metadata={META_LAYOUT: LAYOUT, META_FORMAT: FORMAT})

COLUMNS = tuple(SCHEMA.names)
CARD_COLUMNS = ("game", "hand", "event", "seat", "card", "index", "trick")
"""The columns of card rows; the others are null there (in ``events/2``)."""
GAME_COLUMNS = tuple(name for name in COLUMNS if name in {f.key for f in GAME_FIELDS if f.parquet == COLUMN}) + (
    "game_meta",)
"""The columns of game rows (besides ``game``, ``hand`` 0 and ``event``): the game fields kept in a
column (:data:`~hearts_analysis.records.model.GAME_FIELDS`), then the JSON of the others."""
HAND_COLUMNS = tuple(name for name in COLUMNS if name in {f.key for f in HAND_FIELDS if f.parquet == COLUMN}) + (
    "hand_meta",)
"""The columns of hand rows (besides ``game``, ``hand`` and ``event``), as for :data:`GAME_COLUMNS`."""
_FIELD_COLUMNS = [f.key for f in GAME_FIELDS + HAND_FIELDS if f.parquet == COLUMN]
assert len(GAME_COLUMNS) + len(HAND_COLUMNS) - 2 == len(_FIELD_COLUMNS), \
    f"every field kept in a column has one in SCHEMA: {sorted(set(_FIELD_COLUMNS) - set(COLUMNS))} have none"
assert set(CARD_COLUMNS + GAME_COLUMNS + HAND_COLUMNS) == set(COLUMNS), "every column is a card, game or hand column"
HEADER_COLUMNS = ("game", "hand", "event") + GAME_COLUMNS + HAND_COLUMNS
REQUIRED = ("game", "hand", "event", "seat", "card", "index", "players")
"""Columns a file must have to be read; the others are taken as all-null when absent."""

INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1
