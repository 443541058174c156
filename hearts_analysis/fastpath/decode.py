"""Parquet row groups of the ``events/1`` layout to :class:`~hearts_analysis.fastpath.block.Block`.

The reference reader (:mod:`hearts_analysis.records.parquetio`) turns every row
into Python records; here the columns stay numpy arrays and only the values on
the first row of a game or hand are looked at one by one, and only where they
are not the usual ones (a distinct rules text, game meta or hand meta is
judged once, by the reference reader's own checks). The file is opened, split
into row groups and read exactly as the reference reader does, so that a
damaged file or row group gives the same error items.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from ..records import events_decode, parquetio
from ..records.events_layout import CARD_NAMES, COLUMNS, EVENTS, SCHEMA
from ..records.jsonio import Item, RecordError
from ..rules import Rules
from .block import NULL, UNKNOWN, Block
from .params import DIRECTION_CODES, MOON_CODES

TEXT_COLUMNS = ("rules", "game_meta", "hand_meta")
"""Sparse text columns read as dictionaries: cheaper to read, and each distinct text is judged once."""
_ABSENT = -1000
"""Stands for a null while integer columns are read; outside every int8 value."""
_EVENT_CODES = {name: code for code, name in enumerate(EVENTS)}
_CARD_CODES = {name: code for code, name in enumerate(CARD_NAMES)}


@dataclass(frozen=True)
class Unit:
    """Whole games read from one file: a row group, or row groups joined where a game ran across."""

    table: pa.Table
    path: str
    number: int
    first_row: int


def open_units(path: Path, rules: Rules | None = None, groups: range | None = None,
               first_row: int = 0) -> Iterator[Item | Unit]:
    """Row groups of one file (``groups``: some of them, starting at row ``first_row``), joined and
    split as :func:`parquetio.iter_row_groups` does, with the same error :class:`Item` for a file or
    row group that cannot be read. A file the fast path cannot open is read by the reference reader.
    """
    name = str(path)
    try:
        plain = pq.ParquetFile(path, page_checksum_verification=True)
        problems = events_decode.schema_problems(plain.schema_arrow, plain.metadata.metadata)
        parquet = pq.ParquetFile(path, metadata=plain.metadata, page_checksum_verification=True,
                                 read_dictionary=[c for c in TEXT_COLUMNS if c in plain.schema_arrow.names])
    except (OSError, pa.ArrowException, ValueError):
        problems = ["unreadable"]
    if problems:
        if groups is None or groups.start == 0:
            yield from parquetio.read_parquet_items(path, rules)
        return
    columns = [c for c in COLUMNS if c in parquet.schema_arrow.names]
    total = parquet.num_row_groups
    groups = range(total) if groups is None else groups
    carry: Unit | None = None
    row = first_row
    for number in groups:
        size = parquet.metadata.row_group(number).num_rows
        try:
            table = parquet.read_row_group(number, columns=columns, use_threads=False)
        except (OSError, pa.ArrowException, ValueError) as error:
            if carry is not None:
                yield carry
                carry = None
            source = f"{name}:row group {number + 1}"
            yield Item(source, error=RecordError(
                f"row group {number + 1} of {total} cannot be read{parquetio._games_of(parquet, number)}: "
                f"{parquetio._reason(error)}", source=source))
            row += size
            continue
        unit = Unit(table, name, number, row)
        if carry is not None:
            unit = Unit(pa.concat_tables([carry.table, table]), name, carry.number, carry.first_row)
            carry = None
        if number + 1 < total and unit.table.num_rows and parquetio._may_continue(parquet, number):
            cut = parquetio._last_game_start(unit.table["game"])
            carry = Unit(unit.table.slice(cut), name, unit.number, unit.first_row + cut)
            unit = Unit(unit.table.slice(0, cut), name, unit.number, unit.first_row)
        if unit.table.num_rows:
            yield unit
        row += size
    if carry is not None:
        yield carry


def file_segments(path: Path) -> list[tuple[range, int]]:
    """The file's row groups cut where no game can run across, with the first row of each part.

    Parts can be audited independently (each by :func:`open_units`); a file
    that cannot be opened is one part, left for :func:`open_units` to report.
    """
    try:
        parquet = pq.ParquetFile(path)
        total = parquet.num_row_groups
    except (OSError, pa.ArrowException, ValueError):
        return [(range(0, 1), 0)]
    parts: list[tuple[range, int]] = []
    start = row = first_row = 0
    for number in range(total):
        row += parquet.metadata.row_group(number).num_rows
        if number + 1 == total or not parquetio._may_continue(parquet, number):
            parts.append((range(start, number + 1), first_row))
            start, first_row = number + 1, row
    return parts or [(range(0, 0), 0)]


# -- columns -----------------------------------------------------------------
def _chunk(table: pa.Table, name: str) -> pa.Array:
    column = table[name]
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def _filled(array: pa.Array, null: int) -> pa.Array:
    return array.fill_null(null) if array.null_count else array


def _numpy(array: pa.Array, null: int = NULL) -> np.ndarray:
    return _filled(array, null).to_numpy(zero_copy_only=False)


def _coded(array: pa.Array, names: tuple[str, ...], codes: dict[str, int]) -> np.ndarray:
    """int8 codes of a dictionary column; the indices themselves when its dictionary is ``names``."""
    indices = _numpy(array.indices)
    dictionary = array.dictionary
    if len(dictionary) <= len(names) and dictionary.equals(pa.array(names[:len(dictionary)], pa.string())):
        return indices.astype(np.int8, copy=False)
    lookup = np.array([codes.get(name, UNKNOWN) for name in dictionary.to_pylist()] + [NULL], np.int8)
    return lookup[np.where(indices < 0, len(dictionary), indices)]


def _codes_at(array: pa.Array, rows: pa.Array, codes: dict[str, int]) -> np.ndarray:
    """int64 codes of a dictionary column's values at ``rows`` (NULL where null, UNKNOWN if not a known name)."""
    taken = array.take(rows)
    lookup = np.array([codes.get(name, UNKNOWN) for name in taken.dictionary.to_pylist()] + [NULL], np.int64)
    indices = _numpy(taken.indices).astype(np.int64)
    return lookup[np.where(indices < 0, len(lookup) - 1, indices)]


def _lists_at(array: pa.Array, rows: pa.Array, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values (len, 7), present, well_formed)`` of a list<int32> column at ``rows``."""
    taken = array.take(rows)
    count = len(taken)
    present = _numpy(taken.is_valid(), False).astype(bool)
    lengths = _numpy(taken.value_lengths(), 0).astype(np.int64)
    values = np.zeros((count, 7), np.int64)
    flat = _numpy(taken.flatten(), 0).astype(np.int64)
    well_formed = ~present | (lengths == seats)
    offsets = np.concatenate([[0], np.cumsum(lengths)])[:-1]
    for seat in range(7):
        has = present & (lengths > seat)
        values[has, seat] = flat[offsets[has] + seat]
    return values, present, well_formed


def _all_of_type(table: pa.Table) -> bool:
    """Every column of the layout, of exactly the layout's type (dictionaries for the sparse text)."""
    for field in SCHEMA:
        if field.name not in table.column_names:
            return False
        expected = field.type
        if field.name in TEXT_COLUMNS:
            expected = pa.dictionary(pa.int32(), pa.string())
        if table.schema.field(field.name).type != expected:
            return False
    return True


# -- game and hand values ------------------------------------------------------
class Judgements:
    """Game headers and hand metas judged once per distinct text, by the reference reader's checks."""

    def __init__(self, rules: Rules | None):
        self.rules = rules
        self.headers: dict[tuple, tuple[Rules, bool | None] | None] = {}

    def header(self, players: list | None, game_id: str | None, rules_text: str | None,
               meta_text: str | None) -> tuple[Rules, bool | None] | None:
        """``(rules, complete)`` of a game header the reader accepts; ``None`` where it would not."""
        if (type(players) is not list or not 3 <= len(players) <= 7
                or not all(type(name) is str and name for name in players)):
            return None
        key = (len(players), game_id is None, rules_text, meta_text)
        known = self.headers.get(key, False)
        if known is False:
            known = self._judge(len(players), game_id, rules_text, meta_text)
            if len(self.headers) > 65536:
                self.headers.clear()
            self.headers[key] = known
        return known

    def _judge(self, seats: int, game_id: str | None, rules_text: str | None, meta_text: str | None):
        names = [f"p{i}" for i in range(seats)]
        sample = {"game_id": pa.array([game_id], pa.string()), "rules": pa.array([rules_text], pa.string()),
                  "game_meta": pa.array([meta_text], pa.string()), "players": pa.array([names])}
        header = events_decode._headers(sample, pa.array([0]), [names], self.rules, {})[0]
        if header is None:
            return None
        return header.rules, header.complete


@dataclass(frozen=True)
class MetaVerdict:
    """What a hand meta means for the fast path (see ``events_decode._HandColumns._check``)."""

    readable: bool
    """The reference reader accepts it and reads the hand as the columns say (no points or totals in it)."""
    null_columns: tuple[str, ...]
    """Columns the meta names, which must then be null on the hand's row."""
    hold_only: bool
    """It gives a seat's passes as null, which is only readable when no seat has pass rows."""


_COLUMN_KEYS = ("dealer", "pass_direction", "moon", "points", "totals")


@lru_cache(maxsize=4096)
def judge_hand_meta(text: str, seats: int) -> MetaVerdict:
    unreadable = MetaVerdict(False, (), False)
    try:
        meta = orjson.loads(text)
    except orjson.JSONDecodeError:
        return unreadable
    if not isinstance(meta, dict):
        return unreadable
    hold_only = False
    for key, value in meta.items():
        if key in ("deal", "plays") or (key in _COLUMN_KEYS and value is not None):
            return unreadable
        if key == "passes" and value is not None:
            if not isinstance(value, list) or len(value) != seats or any(v not in (None, []) for v in value):
                return unreadable
            hold_only = None in value
    return MetaVerdict(True, tuple(key for key in _COLUMN_KEYS if key in meta), hold_only)


def decode_unit(unit: Unit, judge: Judgements) -> Block | None:
    """The unit's games for the screen; ``None`` when the fast path cannot read the unit at all."""
    table = unit.table
    if not _all_of_type(table) or table["game"].null_count or table["hand"].null_count:
        return None
    rows = table.num_rows
    game = _chunk(table, "game").to_numpy()
    hand = _chunk(table, "hand").to_numpy()
    event = _coded(_chunk(table, "event"), EVENTS, _EVENT_CODES)
    card = _coded(_chunk(table, "card"), CARD_NAMES, _CARD_CODES)
    seat = _numpy(_chunk(table, "seat")).astype(np.int8, copy=False)
    index = _numpy(_chunk(table, "index")).astype(np.int16, copy=False)

    new_game = np.empty(rows, bool)
    new_game[0] = True
    np.not_equal(game[1:], game[:-1], out=new_game[1:])
    new_hand = new_game.copy()
    new_hand[1:] |= hand[1:] != hand[:-1]
    game_rows = np.flatnonzero(new_game)
    hand_starts = np.flatnonzero(new_hand)
    hand_rows = np.append(hand_starts, rows)
    game_hands = np.append(np.searchsorted(hand_starts, game_rows), len(hand_starts))
    games, hands = len(game_rows), len(hand_starts)

    game_doubt = np.zeros(games, bool)
    game_doubt[1:] = game[game_rows[1:]] < game[game_rows[:-1]]
    starts_at = pa.array(game_rows)
    players = _chunk(table, "players").take(starts_at).to_pylist()
    game_ids = _chunk(table, "game_id").take(starts_at).to_pylist()
    rules_texts = _chunk(table, "rules").take(starts_at).to_pylist()
    metas = _chunk(table, "game_meta").take(starts_at).to_pylist()
    seats = np.zeros(games, np.int64)
    rule_sets: list[Rules | None] = []
    complete = np.zeros(games, bool)
    for g, (names, game_id, rules_text, meta) in enumerate(zip(players, game_ids, rules_texts, metas)):
        header = judge.header(names, game_id, rules_text, meta)
        if header is None:
            game_doubt[g] = True
            rule_sets.append(None)
            continue
        rule_sets.append(header[0])
        complete[g] = header[1] is True
        seats[g] = len(names)

    hand_at = pa.array(hand_starts)
    hand_game = np.repeat(np.arange(games), np.diff(game_hands))
    hand_seats = seats[hand_game]
    recorded_dealer = _numpy(_chunk(table, "dealer").take(hand_at).cast(pa.int64()), _ABSENT)
    dealer = np.where(recorded_dealer == _ABSENT, NULL, recorded_dealer)
    direction = _codes_at(_chunk(table, "pass_direction"), hand_at, DIRECTION_CODES)
    moon = _codes_at(_chunk(table, "moon"), hand_at, MOON_CODES)
    points, has_points, points_ok = _lists_at(_chunk(table, "points"), hand_at, hand_seats)
    totals, has_totals, totals_ok = _lists_at(_chunk(table, "totals"), hand_at, hand_seats)
    hand_doubt = (~points_ok | ~totals_ok | (direction == UNKNOWN) | (moon == UNKNOWN)
                  | ((recorded_dealer < 0) & (recorded_dealer != _ABSENT)) | (dealer >= hand_seats))
    hold_only = np.zeros(hands, bool)
    metas = _chunk(table, "hand_meta").take(hand_at)
    if metas.null_count < hands:
        present = {"dealer": dealer >= 0, "pass_direction": direction != NULL, "moon": moon != NULL,
                   "points": has_points, "totals": has_totals}
        for k in np.flatnonzero(_numpy(metas.is_valid(), False)).tolist():
            verdict = judge_hand_meta(metas[k].as_py(), int(hand_seats[k]))
            hand_doubt[k] |= not verdict.readable or any(present[key][k] for key in verdict.null_columns)
            hold_only[k] = verdict.hold_only
    return Block(event=event, seat=seat, card=card, index=index, hand_rows=hand_rows,
                 hand_number=hand[hand_starts].astype(np.int64), dealer=dealer, direction=direction, moon=moon,
                 points=points, has_points=has_points, totals=totals, has_totals=has_totals,
                 hand_doubt=hand_doubt, hold_only=hold_only, game_hands=game_hands, players=players, rules=rule_sets,
                 game_id=game_ids, complete=complete, game_doubt=game_doubt,
                 game_number=game[game_rows].astype(np.int64), game_rows=np.append(game_rows, rows),
                 path=unit.path, origin=unit)
