"""Parquet row groups of the ``events/2`` (or ``events/1``) layout to :class:`~hearts_analysis.fastpath.block.Block`.

The reference reader (:mod:`hearts_analysis.records.parquet`) turns every row
into Python records; here the columns stay numpy arrays and the game and hand
values are looked at one by one only where they are not the usual ones (a
distinct rules text, game meta or hand meta is judged once, by the reference
reader's own checks). Of an ``events/2`` pair of row groups only the card
columns the screen needs are read from the card rows. The file is opened,
split into units and read exactly as the reference reader does, so that a
damaged file or row group gives the same error items.

>>> import pathlib, tempfile
>>> from hearts_analysis.records.parquet import write_parquet
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> write_parquet(simulate_games(3, Rules.preset("standard", target=30)), path)
3
>>> [unit] = open_units(path)
>>> block = decode_unit(unit, Judgements(None))
>>> block.games, block.hands
(3, 8)

A hand meta with only unknown keys keeps the fast path; one that carries
points does not (the reference reader decides what it means):

>>> judge_hand_meta('{"note": "kept"}', 4).readable, judge_hand_meta('{"points": [1, 2, 3, 4]}', 4).readable
(True, False)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from ..records.errors import Item
from ..records.model import DIRECTION_CODES, GAME_FIELDS, MOON_CODES, REFERENCE_ONLY
from ..records.parquet import arrays, decode as parquet_decode, read as parquet_read
from ..records.parquet.layout import (CARD_CODES, CARD_NAMES, COLUMNS, EVENT_CODES, EVENTS, GAME_COLUMNS, HAND_COLUMNS,
                                      HEADER_COLUMNS, SCHEMA)
from ..rules import Rules
from .block import NULL, UNKNOWN, Block

TEXT_COLUMNS = ("rules", "game_meta", "hand_meta")
"""Sparse text columns read as dictionaries: cheaper to read, and each distinct text is judged once."""
ABSENT = -1000
"""Stands for a null while integer columns are read; outside every int8 value."""
SCREENED_COLUMNS = ("game", "hand", "event", "seat", "card", "index")
"""The card columns the screen reads."""


@dataclass(frozen=True)
class Unit:
    """Whole games read from one file: an ``events/2`` pair of row groups, or an ``events/1`` row group
    (row groups joined where a game ran across)."""

    table: pa.Table
    """The card rows (``events/1``: with the game and hand values on their first rows)."""
    path: str
    number: int
    first_row: int
    headers: pa.Table | None = None
    """``events/2``: the header rows of the same games, the first at file row ``header_row``."""
    header_row: int = 0


def open_units(path: Path, rules: Rules | None = None, groups: range | None = None,
               first_row: int = 0, threads: bool = False) -> Iterator[Item | Unit]:
    """Row groups of one file (``groups``: some of them, starting at row ``first_row``), joined and
    split as :func:`parquet_read.iter_row_groups` does, with the same error :class:`Item` for a file or
    row group that cannot be read. A file the fast path cannot open is read by the reference reader.
    ``threads``: decode the columns of a row group on several threads.
    """
    name = str(path)
    try:
        parquet, problems = _open(path)
    except (OSError, pa.ArrowException, ValueError):
        problems = ["unreadable"]
    if problems:
        if groups is None or groups.start == 0:
            yield from parquet_read.read_parquet_items(path, rules)
        return
    if parquet_read.is_paired(parquet):
        for number, header_row, card_row in parquet_read.pairs(parquet, groups, first_row):
            try:
                headers, cards = parquet_read.read_pair(parquet, number, list(SCREENED_COLUMNS), threads, TEXT_COLUMNS)
            except (OSError, pa.ArrowException, ValueError) as error:
                yield parquet_read.group_error(parquet, name, number, error, paired=True)
                continue
            if not headers.num_rows and not cards.num_rows:
                continue  # an empty pair holds no game (as in the reference reader)
            yield Unit(cards, name, number, card_row, headers, header_row)
            del headers, cards  # not kept while the next pair is read
        return
    columns = [c for c in COLUMNS if c in parquet.schema_arrow.names]
    groups = range(parquet.num_row_groups) if groups is None else groups
    for part in parquet_read.whole_games(parquet, name, groups, first_row, columns, threads, TEXT_COLUMNS):
        if isinstance(part, Item):
            yield part
        else:
            table, number, first = part
            yield Unit(table, name, number, first)
            del part, table  # not kept while the next row group is read


def _open(path: Path) -> tuple[pq.ParquetFile, list[str]]:
    stat = os.stat(path)
    return _opened(str(path), stat.st_size, stat.st_mtime_ns, os.getpid())


@lru_cache(maxsize=4)
def _opened(name: str, size: int, modified: int, process: int) -> tuple[pq.ParquetFile, list[str]]:
    """A file opened for the fast path, and why it cannot be read as the layout (empty if it can); kept
    open while its parts are read one after another (keyed by its size and time, and by process)."""
    return parquet_read.open_parquet(name)


def file_segments(path: Path) -> list[tuple[range, int]]:
    """The file's row groups cut where no game can run across, with the first row of each part.

    Parts can be audited independently (each by :func:`open_units`); a file
    that cannot be opened is one part, left for :func:`open_units` to report.
    """
    try:
        parquet = _open(path)[0]
        total = parquet.num_row_groups
        if parquet_read.is_paired(parquet):
            return [(range(number, number + 2), header_row) for number, header_row, _ in parquet_read.pairs(parquet)]
    except (OSError, pa.ArrowException, ValueError):
        return [(range(0, 1), 0)]
    parts: list[tuple[range, int]] = []
    start = row = first_row = 0
    metadata = parquet.metadata
    for number in range(total):
        row += metadata.row_group(number).num_rows
        if number + 1 == total or not parquet_read.may_continue(parquet, number):
            parts.append((range(start, number + 1), first_row))
            start, first_row = number + 1, row
    return parts or [(range(0, 0), 0)]


# -- columns -----------------------------------------------------------------
# Arrow arrays become numpy through their buffers: in pyarrow 26, to_numpy, fill_null
# and pa.array look for pandas, and loading it would cost every run 0.17 s and 37 MB.
def _chunk(table: pa.Table, name: str) -> pa.Array:
    column = table[name]
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


_valid = arrays.valid


def _numpy(array: pa.Array, null: int = NULL) -> np.ndarray:
    """The values of an integer array (its buffer, no copy where it has no nulls); ``null`` where null."""
    dtype = _DTYPES[array.type.id]
    data = np.frombuffer(array.buffers()[1], dtype, array.offset + len(array))[array.offset:]
    if not array.null_count:
        return data
    return np.where(_valid(array), data, np.array(null).astype(dtype))


_DTYPES = {pa.int8().id: np.int8, pa.int16().id: np.int16, pa.int32().id: np.int32, pa.int64().id: np.int64}


def _coded(array: pa.Array, names: tuple[str, ...], codes: dict[str, int]) -> np.ndarray:
    """int8 codes of a dictionary column; the indices themselves when its dictionary is ``names``."""
    indices = _numpy(array.indices)
    dictionary = array.dictionary.to_pylist()
    if dictionary == list(names[:len(dictionary)]):
        return indices
    lookup = np.array([codes.get(name, UNKNOWN) for name in dictionary] + [NULL], np.int8)
    return lookup[np.where(indices < 0, len(dictionary), indices)]


@dataclass(frozen=True)
class At:
    """Some values of a column: those at ``rows`` (null where a row is -1), read through the column's
    buffers rather than with Arrow's ``take`` (whose compute module alone costs every run 40 ms)."""

    array: pa.Array
    rows: np.ndarray

    def valid(self) -> np.ndarray:
        return _valid(self.array)[self.rows] & (self.rows >= 0)

    def ints(self, null: int) -> np.ndarray:
        """int64 values, ``null`` where null."""
        return np.where(self.valid(), _numpy(self.array, 0)[self.rows].astype(np.int64), null)

    def indices(self) -> np.ndarray:
        """Dictionary indices, -1 where null."""
        return np.where(self.valid(), _numpy(self.array.indices, 0)[self.rows].astype(np.int64), -1)

    def codes(self, codes: dict[str, int]) -> np.ndarray:
        """int64 codes of a dictionary column's values (NULL where null, UNKNOWN if not a known name)."""
        lookup = np.array([codes.get(name, UNKNOWN) for name in self.array.dictionary.to_pylist()] + [NULL],
                          np.int64)
        return lookup[self.indices()]

    def offsets(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(present, start, length)`` of each value of a list column (0 where null)."""
        array = self.array
        bounds = np.frombuffer(array.buffers()[1], np.int32, array.offset + len(array) + 1)[array.offset:]
        present = self.valid()
        start = np.where(present, bounds[:-1][self.rows], 0).astype(np.int64)
        return present, start, np.where(present, bounds[1:][self.rows] - start, 0)

    def to_pylist(self) -> list:
        if pa.types.is_dictionary(self.array.type):   # each distinct value made a Python object once
            values = self.array.dictionary.to_pylist() + [None]
            return [values[index] for index in self.indices().tolist()]
        values = self.array.to_pylist()
        return [values[row] if row >= 0 else None for row in self.rows.tolist()]


def _lists_at(column: At, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values (len, 7), present, well_formed)`` of a list<int32> column."""
    present, start, lengths = column.offsets()
    items = column.array.values
    flat = np.append(_numpy(items, 0), 0).astype(np.int64)     # a 0 to point at beyond each list's end
    well_formed = ~present | (lengths == seats)
    if items.null_count:  # a null inside a list: the reader keeps it, the screen cannot compare it
        holes = ~_valid(items)
        well_formed &= ~np.array([holes[a:a + n].any() for a, n in zip(start.tolist(), lengths.tolist())], bool)
    seat = np.arange(7)
    at = np.where(seat < lengths[:, None], start[:, None] + seat, len(flat) - 1)
    return flat[at], present, well_formed


@lru_cache(maxsize=16)
def _fits(schema: pa.Schema, names: tuple[str, ...]) -> bool:
    """Every column ``names`` is in ``schema``, of exactly the layout's type (dictionaries for the sparse text;
    dictionary indices of any width)."""
    for name in names:
        if name not in schema.names:
            return False
        expected, found = SCHEMA.field(name).type, schema.field(name).type
        if name in TEXT_COLUMNS:
            expected = pa.dictionary(pa.int32(), pa.string())
        if pa.types.is_dictionary(expected) and pa.types.is_dictionary(found):
            if found.value_type != expected.value_type or found.index_type.id not in _DTYPES:
                return False  # the index width may differ (events/1 files wrote int8)
        elif found != expected:
            return False
    return True


# -- game and hand values ------------------------------------------------------
class Judgements:
    """Game headers judged once per distinct rules text, game meta and table size, by the reference
    reader's own checks (``parquet_decode.game_headers``)."""

    def __init__(self, rules: Rules | None):
        self.rules = rules
        self.headers: dict[tuple, tuple[Rules, bool] | None] = {}
        self.tables: dict[tuple[Rules, int], int] = {}
        self.table_list: list[tuple[Rules, int]] = []

    def header(self, seats: int, id_is_null: bool, rules_text: str | None,
               meta_text: str | None) -> tuple[int, bool] | None:
        """``(table index, complete)`` of a header the reader accepts; ``None`` where it would not.

        The table index numbers each distinct ``(rules, seats)`` in :attr:`table_list`.
        """
        key = (seats, id_is_null, rules_text, meta_text)
        known = self.headers.get(key, False)
        if known is False:
            known = self._judge(seats, id_is_null, rules_text, meta_text)
            if len(self.headers) > 65536:
                self.headers.clear()
            self.headers[key] = known
        if known is None:
            return None
        rules, complete = known
        index = self.tables.get((rules, seats))
        if index is None:
            index = self.tables[(rules, seats)] = len(self.table_list)
            self.table_list.append((rules, seats))
        return index, complete

    def _judge(self, seats: int, id_is_null: bool, rules_text: str | None, meta_text: str | None):
        names = [f"p{i}" for i in range(seats)]
        strings = arrays.strings
        sample = {"game_id": strings([None if id_is_null else "g"]), "rules": strings([rules_text]),
                  "game_meta": strings([meta_text])}
        header = parquet_decode.game_headers(sample, [names], self.rules, {})[0]
        if header is None or _lists_unmodelled(meta_text) or not header.rules.table(seats).models("screen"):
            return None
        return header.rules, header.complete is True


_JUDGES: dict[Rules | None, Judgements] = {}


def judgements_for(rules: Rules | None) -> Judgements:
    """The one :class:`Judgements` of this process for ``rules``: validation and statistics share it, so a
    header judged by one is not judged again by the other."""
    judge = _JUDGES.get(rules)
    if judge is None:
        judge = _JUDGES[rules] = Judgements(rules)
    return judge


def _lists_unmodelled(meta_text: str | None) -> bool:
    """The game's meta sets a field only the reference replay reads (``unmodelled``): it reports it."""
    if not meta_text or not any(key in meta_text for key in _GAME_REFERENCE_ONLY):
        return False
    try:
        meta = orjson.loads(meta_text)
    except orjson.JSONDecodeError:
        return True
    return not isinstance(meta, dict) or any(key in meta for key in _GAME_REFERENCE_ONLY)


_GAME_REFERENCE_ONLY = tuple(f.key for f in GAME_FIELDS if f.reference_only)


def _paired_values(headers: pa.Table, games: np.ndarray, hands: np.ndarray,
                   hand_game: np.ndarray) -> tuple[dict[str, At], np.ndarray] | None:
    """The game and hand values from ``events/2`` header rows, and the header rows of each game
    (offsets, games + 1); ``None`` where they are not exactly as the reference reader expects."""
    if (not _fits(headers.schema, HEADER_COLUMNS) or headers["game"].null_count or headers["hand"].null_count
            or not headers.num_rows):
        return None
    kind = _coded(_chunk(headers, "event"), EVENTS, EVENT_CODES)
    found = parquet_decode.header_positions(kind, _numpy(_chunk(headers, "game")), _numpy(_chunk(headers, "hand")),
                                           games, hands, hand_game)
    if isinstance(found, str) or found[2].any():
        return None
    game_at, hand_at, _ = found
    values = {name: At(_chunk(headers, name), game_at) for name in GAME_COLUMNS}
    values.update((name, At(_chunk(headers, name), hand_at)) for name in HAND_COLUMNS)
    return values, np.append(game_at, headers.num_rows)


def _players(players: At) -> tuple[np.ndarray, np.ndarray]:
    """``(seats, readable)`` of each game's ``players`` list: 3 to 7 names, none empty."""
    present, start, seats = players.offsets()
    names = players.array.values
    name_offsets = np.frombuffer(names.buffers()[1], np.int32, names.offset + len(names) + 1)[names.offset:]
    bad_name = ~_valid(names) | (np.diff(name_offsets) == 0)
    readable = present & (seats >= 3) & (seats <= 7)
    if bad_name.any():
        bad_at = np.cumsum(np.concatenate([[0], bad_name]))          # bad names before each name
        readable &= bad_at[start + seats] == bad_at[start]
    return seats, readable


def _dictionary_keys(column: At) -> tuple[np.ndarray, list]:
    """Per value: an index into the returned list of distinct texts (0 for null)."""
    return column.indices() + 1, [None] + column.array.dictionary.to_pylist()


@dataclass(frozen=True)
class MetaVerdict:
    """What a hand meta means for the fast path (see ``parquet_decode._HandColumns._check``)."""

    readable: bool
    """The reference reader accepts it and reads the hand as the columns say (no points or totals in it)."""
    null_columns: tuple[str, ...]
    """Columns the meta names, which must then be null on the hand's row."""
    hold_only: bool
    """It gives the passes (or a seat's) as null: clean only on a hand without pass rows."""


_COLUMN_KEYS = ("dealer", "pass_direction", "moon", "points", "totals")


@lru_cache(maxsize=4096)
def judge_hand_meta(text: str, seats: int) -> MetaVerdict:
    """A hand meta as the reference reader takes it: readable with the hand's columns as they are
    (explicit nulls, unknown fields, empty or null passes), or not (then the game is doubtful)."""
    unreadable = MetaVerdict(False, (), False)
    try:
        meta = orjson.loads(text)
    except orjson.JSONDecodeError:
        return unreadable
    if not isinstance(meta, dict):
        return unreadable
    hold_only = False
    for key, value in meta.items():
        if key in ("deal", "plays") or key in REFERENCE_ONLY or (key in _COLUMN_KEYS and value is not None):
            return unreadable
        if key == "passes":  # null: the hand is read without passes, whatever its pass rows
            if value is not None and (not isinstance(value, list) or len(value) != seats
                                      or any(v not in (None, []) for v in value)):
                return unreadable
            # an empty pass, like a missing one, leaves no pass rows: such a hand is not read from its rows alone
            hold_only = value is None or None in value or [] in value
    return MetaVerdict(True, tuple(key for key in _COLUMN_KEYS if key in meta), hold_only)


def decode_unit(unit: Unit, judge: Judgements) -> Block | None:
    """The unit's games for the screen; ``None`` when the fast path cannot read the unit at all."""
    table = unit.table
    if (not _fits(table.schema, COLUMNS if unit.headers is None else SCREENED_COLUMNS)
            or table["game"].null_count or table["hand"].null_count):
        return None
    rows = table.num_rows
    game = _numpy(_chunk(table, "game"))
    hand = _numpy(_chunk(table, "hand"))
    event = _coded(_chunk(table, "event"), EVENTS, EVENT_CODES).astype(np.int8, copy=False)
    card = _coded(_chunk(table, "card"), CARD_NAMES, CARD_CODES).astype(np.int8, copy=False)
    seat = _numpy(_chunk(table, "seat")).astype(np.int8, copy=False)
    index = _numpy(_chunk(table, "index")).astype(np.int16, copy=False)

    new_hand = np.empty(rows, bool)
    new_hand[0] = True
    np.not_equal(hand[1:], hand[:-1], out=new_hand[1:])
    new_hand[1:] |= game[1:] != game[:-1]
    hand_starts = np.flatnonzero(new_hand)
    first_of_game = np.ones(len(hand_starts), bool)
    first_of_game[1:] = game[hand_starts[1:]] != game[hand_starts[:-1]]
    game_rows = hand_starts[first_of_game]
    game_hands = np.append(np.flatnonzero(first_of_game), len(hand_starts))
    games = len(game_rows)

    game_doubt = np.zeros(games, bool)
    game_doubt[1:] = game[game_rows[1:]] < game[game_rows[:-1]]
    hand_game = np.repeat(np.arange(games), np.diff(game_hands))
    if unit.headers is None:
        values = {name: At(_chunk(table, name), game_rows) for name in GAME_COLUMNS}
        values.update((name, At(_chunk(table, name), hand_starts)) for name in HAND_COLUMNS)
        header_rows = None
    else:
        paired = _paired_values(unit.headers, game[game_rows], hand[hand_starts], hand_game)
        if paired is None or game_doubt.any():
            return None
        values, header_rows = paired
    seats, readable = _players(values["players"])
    seats = np.where(readable, seats, 0)
    hand_seats = seats[hand_game]
    headers = HeaderValues(
        seats=seats, rules=_dictionary_keys(values["rules"]), game_meta=_dictionary_keys(values["game_meta"]),
        id_is_null=~values["game_id"].valid(), dealer=values["dealer"].ints(ABSENT),
        direction=values["pass_direction"].codes(DIRECTION_CODES), moon=values["moon"].codes(MOON_CODES),
        points=_lists_at(values["points"], hand_seats), totals=_lists_at(values["totals"], hand_seats),
        hand_meta=_dictionary_keys(values["hand_meta"]), players=values["players"], game_ids=values["game_id"])
    return judged_block(headers, judge, game_doubt, unit.path, header_rows, event=event, seat=seat, card=card,
                        index=index, hand_rows=np.append(hand_starts, rows),
                        hand_number=hand[hand_starts].astype(np.int64), game_hands=game_hands,
                        game_rows=np.append(game_rows, rows), game_number=game[game_rows].astype(np.int64))


class HeaderValues(NamedTuple):
    """The game and hand values of a unit's games, as arrays: read from a file's columns (:func:`decode_unit`), or
    collected by an encoder (JSON Lines)."""

    seats: np.ndarray
    """(games,) players, 0 where the ``players`` are not 3 to 7 names, none empty."""
    rules: tuple[np.ndarray, list]
    """Per game an index into the distinct ``rules`` texts, which start with ``None`` (0: no rules)."""
    game_meta: tuple[np.ndarray, list]
    id_is_null: np.ndarray
    dealer: np.ndarray
    """(hands,) int64 recorded dealer, :data:`ABSENT` where none is recorded."""
    direction: np.ndarray
    """(hands,) pass direction code, :data:`NULL` where none, :data:`UNKNOWN` where not a direction."""
    moon: np.ndarray
    points: tuple[np.ndarray, np.ndarray, np.ndarray]
    """``(values (hands, 7) zero-padded, present, one whole number per seat)``."""
    totals: tuple[np.ndarray, np.ndarray, np.ndarray]
    hand_meta: tuple[np.ndarray, list]
    players: Any
    """What :attr:`Block.players_column` holds."""
    game_ids: Any


def judged_block(values: HeaderValues, judge: Judgements, game_doubt: np.ndarray, path: str,
                 header_rows: np.ndarray | None = None, block: type[Block] = Block, **rows: np.ndarray) -> Block:
    """The ``block`` of a unit's values and card ``rows`` (:class:`Block`'s arrays of the card rows and where hands
    and games begin, by name), with each game's rules and meta and each hand's values judged as the reference
    reader would read them (each distinct header once)."""
    seats = values.seats
    game_doubt = game_doubt | (seats == 0)
    rules_key, rules_texts = values.rules
    meta_key, meta_texts = values.game_meta
    header_key = ((rules_key * len(meta_texts) + meta_key) * 8 + seats) * 2 + values.id_is_null
    distinct, inverse = np.unique(header_key, return_inverse=True)
    table_of = np.full(len(distinct), -1, np.int64)
    complete_of = np.zeros(len(distinct), bool)
    for i, key in enumerate(distinct.tolist()):
        rest, id_is_null = divmod(key, 2)
        rest, n = divmod(rest, 8)
        rules_at, meta_at = divmod(rest, len(meta_texts))
        if not 3 <= n <= 7:
            continue
        header = judge.header(n, bool(id_is_null), rules_texts[rules_at], meta_texts[meta_at])
        if header is not None:
            table_of[i], complete_of[i] = header
    table_index = table_of[inverse.ravel()]
    game_doubt |= table_index < 0
    complete = complete_of[inverse.ravel()]

    hands = len(rows["hand_rows"]) - 1
    hand_seats = np.repeat(seats, np.diff(rows["game_hands"]))
    recorded_dealer = values.dealer
    dealer = np.where(recorded_dealer == ABSENT, NULL, recorded_dealer)
    direction, moon = values.direction, values.moon
    points, has_points, points_ok = values.points
    totals, has_totals, totals_ok = values.totals
    hand_doubt = (~points_ok | ~totals_ok | (direction == UNKNOWN) | (moon == UNKNOWN)
                  | ((recorded_dealer < 0) & (recorded_dealer != ABSENT)) | (dealer >= hand_seats))
    hold_only = np.zeros(hands, bool)
    meta_key, meta_texts = values.hand_meta
    if meta_key.any():
        present = {"dealer": dealer >= 0, "pass_direction": direction != NULL, "moon": moon != NULL,
                   "points": has_points, "totals": has_totals}
        for k in np.flatnonzero(meta_key).tolist():
            verdict = judge_hand_meta(meta_texts[meta_key[k]], int(hand_seats[k]))
            hand_doubt[k] |= not verdict.readable or any(present[key][k] for key in verdict.null_columns)
            hold_only[k] = verdict.hold_only
    return block(**rows, dealer=dealer, direction=direction, moon=moon, points=points, has_points=has_points,
                 totals=totals, has_totals=has_totals, hand_doubt=hand_doubt, hold_only=hold_only,
                 table_index=table_index, tables=judge.table_list, players_column=values.players,
                 game_id_column=values.game_ids, complete=complete, game_doubt=game_doubt, path=path,
                 game_meta=values.game_meta, header_rows=header_rows)
