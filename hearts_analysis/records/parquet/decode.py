"""Arrow tables of the ``events/2`` (and ``events/1``) layout back to games, checking whatever a file from
elsewhere may get wrong.

A table is decoded once into numpy columns and checked with whole-array
operations; each game that fails a check gets one :class:`RecordError` naming
the record field (``hands[2].plays[17][0]``) and the file row, and the other
games are unaffected. :class:`RowGroup` is the shared product: records for the
reference engine (:meth:`RowGroup.items`), plain arrays for vectorised readers
(the fast validator, :mod:`hearts_analysis.corpus`).

A seat out of range in the first game's first play is that game's error, with
its field and file row; the second game still reads:

>>> import pyarrow as pa
>>> from hearts_analysis.records.parquet.encode import EventEncoder
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> encoder = EventEncoder()
>>> for game in simulate_games(2, Rules.preset("standard", target=30)):
...     _ = encoder.add_record(game)
>>> headers, cards = encoder.take_batch().tables()
>>> seats = cards.column("seat").to_pylist()
>>> seats[cards.column("event").to_pylist().index("play")] = 7
>>> cards = cards.set_column(cards.schema.get_field_index("seat"), "seat", pa.array(seats, pa.int8()))
>>> [(item.source, item.error and item.error.text()) for item in decode_table(cards, "corpus.parquet",
...                                                                          headers=headers).items()]
[('corpus.parquet:#1', 'hands[0].plays[0][0]: seat 7 is out of range 0..3 (file row 65)'), ('corpus.parquet:#2', None)]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np
import orjson
import pyarrow as pa

from ...cards import CardError, parse_card
from ...rules import MOON_CHOICES, PASS_DIRECTIONS, Rules
from ...text import shown
from ..errors import Item, RecordError
from ..json import game_from_dict
from ..json.decode import reference_fields
from ..model import (COLUMN, DIRECTION_CODES, FORMAT, GAME_FIELDS, HAND_KEYS, META, MOON_CODES, REFERENCE_ONLY,
                     GameRecord, HandRecord)
from .layout import (CARD_COLUMNS, CARD_EVENTS, COLUMNS, DEAL, EVENT_CODES, GAME_COLUMNS, GAME_ROW, HAND_COLUMNS,
                     HAND_ROW, LAYOUT, LAYOUT_V1, META_FORMAT, META_LAYOUT, NONE, PASS, PLAY, REQUIRED, SCHEMA)

_HAND_KEY_SET = frozenset(HAND_KEYS)
_GAME_COLUMN_KEYS = tuple(f.key for f in GAME_FIELDS if f.parquet != META)
"""Game fields kept elsewhere than in ``game_meta``; it may only name those in a column as nulls."""
_GAME_COLUMN_NULLABLE = tuple(f.key for f in GAME_FIELDS if f.parquet == COLUMN and not f.required)
_MISSING = object()
_NO_EXTRA: dict = {}
_PLAY_PAIRS = tuple((seat, card) for seat in range(7) for card in range(52))
"""Every ``(seat, card)`` play, made once and shared by the records (no tuple per play to build and collect)."""
_NO_NULLS: frozenset = frozenset()
_SLOTS = 16
"""Row slots of a hand: deal seats 0-6, pass seats 7-13, plays 14, none 15."""

# Row problems, in increasing priority: a row showing several is reported by the last.
_ORDER, _HAND_NUMBER, _NONE_ROW, _NO_CARD, _BAD_CARD, _NO_SEAT, _BAD_SEAT, _BAD_EVENT = range(1, 9)


# -- the schema --------------------------------------------------------------
def _is_text(type_: pa.DataType) -> bool:
    return pa.types.is_string(type_) or pa.types.is_large_string(type_)


def _is_coded(type_: pa.DataType) -> bool:
    """A column of names: plain or dictionary-encoded text."""
    return _is_text(type_) or (pa.types.is_dictionary(type_) and _is_text(type_.value_type))


def _is_int_list(type_: pa.DataType) -> bool:
    return (pa.types.is_list(type_) or pa.types.is_large_list(type_)) and pa.types.is_integer(type_.value_type)


_KINDS = {"int": (pa.types.is_integer, "an integer"), "coded": (_is_coded, "text (plain or dictionary)"),
          "text": (_is_text, "text"), "ints": (_is_int_list, "a list of integers"),
          "names": (lambda t: (pa.types.is_list(t) or pa.types.is_large_list(t)) and _is_text(t.value_type),
                    "a list of text")}
_COLUMN_KIND = {"game": "int", "game_id": "coded", "hand": "int", "event": "coded", "seat": "int",
                "card": "coded", "index": "int", "trick": "int", "players": "names", "rules": "text",
                "game_meta": "text", "dealer": "int", "pass_direction": "coded", "moon": "coded",
                "points": "ints", "totals": "ints", "hand_meta": "text"}


def schema_problems(schema: pa.Schema, metadata: dict[bytes, bytes] | None = None) -> list[str]:
    """Why a file with this schema cannot be read as ``events/2`` or ``events/1`` (empty when it can)."""
    metadata = metadata or {}
    problems = []
    layout = metadata.get(META_LAYOUT.encode())
    if layout is not None and layout.decode(errors="replace") not in (LAYOUT, LAYOUT_V1):
        problems.append(f"layout {shown(layout.decode(errors='replace'))} is not {shown(LAYOUT)} (nor {shown(LAYOUT_V1)})")
    fmt = metadata.get(META_FORMAT.encode())
    if fmt is not None and fmt.decode(errors="replace") != FORMAT:
        problems.append(f"format {shown(fmt.decode(errors='replace'))} is not {shown(FORMAT)}")
    for name in REQUIRED:
        if name not in schema.names:
            problems.append(f"missing column {shown(name)}")
    for name in COLUMNS:
        if name in schema.names:
            check, wanted = _KINDS[_COLUMN_KIND[name]]
            found = schema.field(name).type
            if not check(found):
                problems.append(f"column {shown(name)} is {found}, expected {wanted}")
    return problems


def _conform(table: pa.Table, names: tuple[str, ...] = COLUMNS) -> dict[str, pa.Array]:
    """The columns ``names`` of :data:`SCHEMA` as single arrays, all-null where the file has none."""
    columns = {}
    for name in names:
        if name in table.column_names:
            column = table[name]
            columns[name] = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
        else:
            columns[name] = pa.nulls(table.num_rows, SCHEMA.field(name).type)
    return columns


def _ints(column: pa.Array, null: int) -> np.ndarray:
    """An integer column as numpy in its own width (int64 when it has no values to tell)."""
    values = column.fill_null(null).to_numpy(zero_copy_only=False)
    return values if values.dtype.kind in "iu" else values.astype(np.int64)


def _codes(column: pa.Array, code_of: Callable[[str], int], null: int) -> np.ndarray:
    """Per-row codes of a column of names, through its (small) dictionary."""
    if not pa.types.is_dictionary(column.type):
        column = column.dictionary_encode()
    names = column.dictionary.to_pylist()
    lookup = np.array([code_of(name) if name is not None else null for name in names] + [null], np.int64)
    indices = column.indices.cast(pa.int32()).fill_null(len(names)).to_numpy(zero_copy_only=False)
    return lookup[indices]


def _card_code(name: str) -> int:
    """The code of a card in any notation :func:`parse_card` reads; -2 for a name it does not."""
    try:
        return parse_card(name)
    except CardError:
        return -2


def _event_code(name: str) -> int:
    """The code of a card row's event; -2 for any other (header rows have no place among card rows)."""
    code = EVENT_CODES.get(name, -2)
    return code if code <= NONE else -2


def _header_code(name: str) -> int:
    return EVENT_CODES.get(name, -2)


def header_kinds(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The event code of each header row (``GAME_ROW``, ``HAND_ROW``; -2 for any other), read through the
    column's dictionary: its texts are never written out per row."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    return _codes(column, _header_code, -2)


# -- the decoded row group ---------------------------------------------------
@dataclass(frozen=True, eq=False)
class RowGroup:
    """Whole games from a Parquet file as checked numpy columns, rows in layout order.

    ``games[g]`` is game ``g``'s record without its hands (``hands == ()``) or the
    :class:`RecordError` that makes it unreadable; an unreadable game's rows are
    still in the arrays, so vectorised readers select games with :attr:`readable`.
    Per-hand arrays count every hand, including the placeholder (hand 0) of a game
    without hands.
    """

    path: str
    number: int
    """0-based row group number in the file (the first, when a game ran across several)."""
    first_row: int
    """0-based row number in the file of row 0."""
    table: dict[str, pa.Array]
    """The card rows' columns by name, as read (in ``events/1``, every column of :data:`SCHEMA`)."""
    game_columns: dict[str, pa.Array]
    """The game-level columns (:data:`GAME_COLUMNS`), one value per game."""
    game: np.ndarray
    """``game`` per row (in the file's integer type: int32 as this toolkit writes it)."""
    hand: np.ndarray
    """``hand`` per row (int16 as written)."""
    event: np.ndarray
    """Event code per row (int8): ``DEAL``, ``PASS``, ``PLAY``, ``NONE`` of :mod:`.layout`."""
    seat: np.ndarray
    """Seat per row (int8); -1 on placeholder rows (and on the faulty rows of unreadable games)."""
    card: np.ndarray
    """Card code 0-51 per row (int8); -1 as for ``seat``."""
    index: np.ndarray
    """``index`` per row (int16 as written)."""
    game_rows: np.ndarray
    """First row of each game, then the row count (length games + 1)."""
    hand_rows: np.ndarray
    """First row of each hand, then the row count (length hands + 1)."""
    hand_game: np.ndarray
    """The game (0-based within this group) of each hand."""
    hand_slots: np.ndarray
    """Row bounds of each hand's deal seats 0-6, pass seats 0-6, plays and placeholder: shape (hands, 17)."""
    dealer: np.ndarray
    """Recorded dealer per hand (int8), -1 where not recorded."""
    pass_direction: np.ndarray
    """Recorded pass direction per hand as an index into ``PASS_DIRECTIONS`` (int8), -1 where not recorded."""
    moon: np.ndarray
    """Recorded moon choice per hand as an index into ``MOON_CHOICES`` (int8), -1 where not recorded."""
    points: pa.Array
    """Recorded points per hand (list of ints or null)."""
    totals: pa.Array
    """Recorded running totals per hand (list of ints or null)."""
    hand_meta: dict[int, dict]
    """The parsed ``hand_meta`` of the hands that have one, by hand number in this group."""
    games: tuple[GameRecord | RecordError, ...]

    @property
    def readable(self) -> np.ndarray:
        """Per game: True unless it has an error."""
        return np.array([not isinstance(g, RecordError) for g in self.games], bool)

    def source(self, game: int) -> str:
        """``file.parquet:#k``: the file and the 1-based game number within it."""
        return f"{self.path}:#{int(self.game[self.game_rows[game]]) + 1}"

    def items(self) -> Iterator[Item]:
        """Every game as an :class:`Item`: the record, or the error that makes it unreadable."""
        build = _HandBuilder(self)
        hands_of = np.searchsorted(self.hand_game, np.arange(len(self.games) + 1)).tolist()
        numbers = self.hand[self.hand_rows[:-1]].tolist()
        for g, header in enumerate(self.games):
            source = self.source(g)
            if isinstance(header, RecordError):
                yield Item(source, error=header.at(source))
                continue
            n = header.seats
            hands = tuple(build(k, n) for k in range(hands_of[g], hands_of[g + 1]) if numbers[k])
            yield Item(source, dataclasses.replace(header, hands=hands))


class _HandBuilder:
    """Hand records of a row group: the per-row values become Python objects once, in bulk."""

    def __init__(self, group: RowGroup) -> None:
        cards = group.card.tolist()
        slots = group.hand_slots
        players = np.array([0 if isinstance(h, RecordError) else h.seats for h in group.games], np.int64)
        n_hand = players[group.hand_game]
        # one tuple per deal seat and per pass seat of every hand, seats 0..n-1
        seat = np.arange(7)
        wanted = seat[None, :] < n_hand[:, None]
        starts = np.concatenate([slots[:, 0:7][wanted], slots[:, 7:14][wanted]])
        ends = np.concatenate([slots[:, 1:8][wanted], slots[:, 8:15][wanted]])
        order = np.argsort(np.concatenate([np.repeat(np.arange(len(n_hand)), n_hand) * 2,
                                           np.repeat(np.arange(len(n_hand)), n_hand) * 2 + 1]), kind="stable")
        self.segments = [tuple(cards[a:b]) for a, b in zip(starts[order].tolist(), ends[order].tolist())]
        self.first_segment = np.concatenate([[0], np.cumsum(2 * n_hand)]).tolist()
        self.has_passes = (slots[:, 14] > slots[:, 7]).tolist()
        play_rows = group.event == PLAY
        pair = group.seat[play_rows].astype(np.intp) * 52 + group.card[play_rows]
        self.plays = list(map(_PLAY_PAIRS.__getitem__, pair.tolist()))
        self.first_play = np.concatenate([[0], np.cumsum(slots[:, 15] - slots[:, 14])]).tolist()
        self.dealer = [None if d < 0 else d for d in group.dealer.tolist()]
        self.direction = [None if d < 0 else PASS_DIRECTIONS[d] for d in group.pass_direction.tolist()]
        self.moon = [None if m < 0 else MOON_CHOICES[m] for m in group.moon.tolist()]
        self.points = _tuples(group.points)
        self.totals = _tuples(group.totals)
        self.meta = group.hand_meta

    def __call__(self, k: int, n: int) -> HandRecord:
        i = self.first_segment[k]
        deal = tuple(self.segments[i:i + n])
        passes = tuple(self.segments[i + n:i + 2 * n]) if self.has_passes[k] else None
        plays = tuple(self.plays[self.first_play[k]:self.first_play[k + 1]])
        if k not in self.meta:
            return HandRecord.checked(deal=deal, plays=plays, passes=passes, dealer=self.dealer[k],
                                      pass_direction=self.direction[k], moon=self.moon[k], points=self.points[k],
                                      totals=self.totals[k], extra=_NO_EXTRA, nulls=_NO_NULLS)
        meta = self.meta[k]
        shape = meta.get("passes", _MISSING)
        if shape is None:
            passes = None
        elif shape is not _MISSING:
            passes = tuple(None if entry is None else self.segments[i + n + s] for s, entry in enumerate(shape))
        points, totals = self.points[k], self.totals[k]
        if meta.get("points") is not None:
            points = tuple(meta["points"])
        if meta.get("totals") is not None:
            totals = tuple(meta["totals"])
        return HandRecord(deal=deal, plays=plays, passes=passes, dealer=self.dealer[k],
                          pass_direction=self.direction[k], moon=self.moon[k], points=points, totals=totals,
                          **reference_fields(meta, n, f"hands[{k}]"),  # checked by _HandColumns._check
                          extra={key: v for key, v in meta.items() if key not in _HAND_KEY_SET},
                          nulls=frozenset(key for key, v in meta.items() if v is None and key in _HAND_KEY_SET))


def _tuples(lists: pa.Array) -> list[tuple | None]:
    """A list array as Python tuples (None where null), without a Python object per Arrow scalar."""
    offsets = lists.offsets.to_numpy().tolist()
    values = lists.values.to_numpy(zero_copy_only=False).tolist() if len(lists.values) else []
    valid = lists.is_valid().to_numpy(zero_copy_only=False).tolist()
    return [tuple(values[offsets[k]:offsets[k + 1]]) if valid[k] else None for k in range(len(lists))]


# -- decoding ----------------------------------------------------------------
def decode_table(table: pa.Table, path: str, number: int = 0, first_row: int = 0,
                 rules: Rules | None = None, headers: pa.Table | None = None, header_row: int = 0) -> RowGroup:
    """Check and decode whole games of one table; raises :class:`RecordError` only when no game can be read.

    ``table`` holds card rows; ``headers`` (``events/2``) their games' header rows, the
    first of them at file row ``header_row``; without it (``events/1``) the game and
    hand values are read from the first card row of each game and hand.
    ``rules`` (if given) replaces each record's own rule set, as in :func:`game_from_dict`.
    """
    table = _conform(table, COLUMNS if headers is None else CARD_COLUMNS)
    rows = len(table["game"])
    if table["game"].null_count or table["hand"].null_count:
        raise RecordError("the game and hand columns must have a value on every row")
    game = _ints(table["game"], 0)
    hand = _ints(table["hand"], 0)
    event = _codes(table["event"], _event_code, -2)
    card = _codes(table["card"], _card_code, -1)
    seat = _ints(table["seat"], 0)
    seat_missing = ~table["seat"].is_valid().to_numpy(zero_copy_only=False)
    index = _ints(table["index"], -1)

    new_game = np.ones(rows, bool)
    new_game[1:] = game[1:] != game[:-1]
    new_hand = new_game.copy()
    new_hand[1:] |= hand[1:] != hand[:-1]
    game_rows = np.append(np.flatnonzero(new_game), rows)
    hand_rows = np.append(np.flatnonzero(new_hand), rows)
    game_of_row = np.repeat(np.arange(len(game_rows) - 1), np.diff(game_rows))
    hand_of_row = np.repeat(np.arange(len(hand_rows) - 1), np.diff(hand_rows))
    hand_game = game_of_row[hand_rows[:-1]]
    header_errors: dict[int, RecordError] = {}
    if headers is None:
        game_values = {name: table[name].take(pa.array(game_rows[:-1])) for name in GAME_COLUMNS}
        hand_values = {name: table[name].take(pa.array(hand_rows[:-1])) for name in HAND_COLUMNS}
    else:
        game_values, hand_values, header_errors = _header_values(_conform(headers), header_row, game[game_rows[:-1]],
                                                                 hand[hand_rows[:-1]], hand_game)
    players = game_values["players"].to_pylist()
    seats_of_game = np.array([len(p) if isinstance(p, list) else 0 for p in players], np.int64)
    n_row = np.repeat(seats_of_game, np.diff(game_rows))

    problem = _row_problems(game, hand, event, seat, seat_missing, card, index, n_row, new_game, new_hand,
                            game_rows, hand_rows)
    slot = np.where(event == DEAL, seat, np.where(event == PASS, 7 + seat, np.where(event == PLAY, 14, 15)))
    slot = np.clip(slot, 0, _SLOTS - 1)
    hand_count = len(hand_rows) - 1
    counts = np.bincount(hand_of_row * _SLOTS + slot, minlength=hand_count * _SLOTS).reshape(hand_count, _SLOTS)
    hand_slots = np.zeros((hand_count, _SLOTS + 1), np.int64)
    np.cumsum(counts, axis=1, out=hand_slots[:, 1:])
    hand_slots += hand_rows[:-1, None]

    errors: dict[int, RecordError] = {}
    records = game_headers(game_values, players, rules, errors)
    bad_rows = np.flatnonzero(problem)
    if len(bad_rows):
        bad_games, first = np.unique(game_of_row[bad_rows], return_index=True)
        for g, row in zip(bad_games.tolist(), bad_rows[first].tolist()):
            errors.setdefault(g, _row_error(int(problem[row]), row, first_row, hand[row], event[row], seat[row],
                                            card[row], index[row], int(seats_of_game[g]), table))
    for g, error in header_errors.items():
        errors.setdefault(g, error)
    hands = _HandColumns(hand_values, hand[hand_rows[:-1]], hand_game, seats_of_game, counts, errors)
    return RowGroup(path=path, number=number, first_row=first_row, table=table, game_columns=game_values,
                    game=game, hand=hand,
                    event=event.astype(np.int8), seat=np.where(problem == 0, seat, -1).astype(np.int8),
                    card=np.where(problem == 0, card, -1).astype(np.int8), index=index, game_rows=game_rows,
                    hand_rows=hand_rows, hand_game=hand_game, hand_slots=hand_slots, dealer=hands.dealer,
                    pass_direction=hands.direction, moon=hands.moon, points=hands.points, totals=hands.totals,
                    hand_meta=hands.meta,
                    games=tuple(errors.get(g, records[g]) for g in range(len(players))))


def _row_problems(game, hand, event, seat, seat_missing, card, index, n_row, new_game, new_hand, game_rows,
                  hand_rows):
    """A problem code per row (0: fine), found with whole-array comparisons of each row with the one before."""
    rows = len(game)
    problem = np.zeros(rows, np.int8)
    same_game = ~new_game[1:]
    step = hand[1:] - hand[:-1]
    same_hand = same_game & (step == 0)
    same_event = same_hand & (event[1:] == event[:-1])
    by_seat = event[1:] < PLAY
    same_segment = same_event & (~by_seat | (seat[1:] == seat[:-1]))
    out_of_order = np.zeros(rows, bool)
    out_of_order[1:] = ((same_hand & (event[1:] < event[:-1]))
                        | (same_event & by_seat & (seat[1:] < seat[:-1]))
                        | (index[1:] != np.where(same_segment, index[:-1] + 1, 0))
                        | (~same_game & (game[1:] < game[:-1])))
    if rows:
        out_of_order[0] = index[0] != 0
    problem[out_of_order] = _ORDER

    numbering = np.zeros(rows, bool)
    numbering[1:] = same_game & ((step < 0) | (step > 1))
    starts, lengths = game_rows[:-1], np.diff(game_rows)
    numbering[starts] = ~((hand[starts] == 1) | ((hand[starts] == 0) & (lengths == 1)))
    problem[numbering] = _HAND_NUMBER

    placeholder = event == NONE
    hand_length = np.repeat(np.diff(hand_rows), np.diff(hand_rows))
    problem[(placeholder & (hand_length != 1)) | ((hand == 0) & ~placeholder)] = _NONE_ROW
    cards_expected = ~placeholder & (event >= 0)
    problem[cards_expected & (card == -1)] = _NO_CARD
    problem[cards_expected & (card == -2)] = _BAD_CARD
    problem[cards_expected & ~seat_missing & ((seat < 0) | (seat >= n_row))] = _BAD_SEAT
    problem[cards_expected & seat_missing] = _NO_SEAT
    problem[event < 0] = _BAD_EVENT
    return problem


def _field_of_row(hand: int, event: int, seat: int, index: int, part: str = "") -> str:
    where = f"hands[{hand - 1}]"
    if event == DEAL:
        return f"{where}.deal[{seat}][{index}]"
    if event == PASS:
        return f"{where}.passes[{seat}][{index}]"
    if event == PLAY:
        return f"{where}.plays[{index}]{part}"
    return where


def _row_error(problem: int, row: int, first_row: int, hand: int, event: int, seat: int, card: int, index: int,
               players: int, table: dict[str, pa.Array]) -> RecordError:
    at = f"(file row {first_row + row + 1})"
    if problem == _BAD_EVENT:
        name = table["event"][row].as_py()
        return RecordError(f"unknown event {shown(name)} {at} (expected one of {', '.join(CARD_EVENTS)})",
                           f"hands[{hand - 1}]")
    if problem == _BAD_SEAT:
        return RecordError(f"seat {seat} is out of range 0..{players - 1} {at}",
                           _field_of_row(hand, event, seat, index, "[0]"))
    if problem == _NO_SEAT:
        return RecordError(f"missing seat {at}", _field_of_row(hand, event, seat, index, "[0]"))
    if problem == _BAD_CARD:
        name = table["card"][row].as_py()
        return RecordError(f"unknown card {shown(name)} {at}", _field_of_row(hand, event, seat, index, "[1]"))
    if problem == _NO_CARD:
        return RecordError(f"missing card {at}", _field_of_row(hand, event, seat, index, "[1]"))
    if problem == _NONE_ROW:
        return RecordError(f"a 'none' row must be the only row of its hand, and hand 0 only a game's "
                           f"placeholder {at}", f"hands[{max(hand, 1) - 1}]")
    if problem == _HAND_NUMBER:
        return RecordError(f"hand numbers must run 1, 2, 3, ... within a game; found {hand} {at}",
                           f"hands[{max(hand, 1) - 1}]")
    return RecordError(f"rows out of layout order {at}: a game's rows run hand by hand, deal rows, then pass "
                       f"rows (each by seat, then index 0, 1, ...), then play rows (index 0, 1, ...)",
                       f"hands[{max(hand, 1) - 1}]")


def _json_object(text: str | None, field: str) -> dict | None:
    if text is None:
        return None
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise RecordError(f"bad JSON: {error.msg}", field) from None
    if not isinstance(value, dict):
        raise RecordError("expected a JSON object", field)
    return value


def _header_values(headers: dict[str, pa.Array], first_row: int, games: np.ndarray, hands: np.ndarray,
                   hand_game: np.ndarray) -> tuple[dict[str, pa.Array], dict[str, pa.Array], dict[int, RecordError]]:
    """The game and hand columns, one value per game and per hand of the card rows, from ``events/2`` header rows."""
    if headers["game"].null_count or headers["hand"].null_count:
        raise RecordError("the game and hand columns must have a value on every row")
    kind = header_kinds(headers["event"])
    found = header_positions(kind, _ints(headers["game"], 0), _ints(headers["hand"], 0), games, hands, hand_game,
                             first_row)
    if isinstance(found, str):
        raise RecordError(f"header rows: {found}")
    game_at, hand_at, mismatched = found
    hand_rows = pa.array(hand_at, pa.int64(), mask=hand_at < 0)
    errors = {g: RecordError(f"its header rows (from file row {first_row + int(game_at[g]) + 1}) do not match its "
                             f"card rows (a game row, then one hand row per hand, in the order of the card rows)",
                             "hands") for g in np.flatnonzero(mismatched).tolist()}
    return ({name: headers[name].take(pa.array(game_at)) for name in GAME_COLUMNS},
            {name: headers[name].take(hand_rows) for name in HAND_COLUMNS}, errors)


def header_positions(kind: np.ndarray, number: np.ndarray, hand: np.ndarray, games: np.ndarray,
                     hands: np.ndarray, hand_game: np.ndarray,
                     first_row: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray] | str:
    """Where the header rows hold each game's and each hand's values: ``(game row of each game, hand row of
    each hand or -1, mismatched)``, ``mismatched`` marking the games whose header rows do not match their
    card rows (their hands get -1: one bad value costs its game, not its row group); or, when the game rows
    themselves do not line up with the card rows' games, why (header row 0 being file row ``first_row``).

    Header rows: a ``game`` row for each game, in order, each followed by a ``hand`` row for each of
    its hands. ``kind``, ``number`` and ``hand`` are the header rows' event codes, ``game`` and
    ``hand`` columns; ``games`` the ``game`` of each game of the card rows, ``hands`` the ``hand`` of
    each of their hands (0: a game's placeholder), ``hand_game`` the game of each hand.
    """
    is_game = kind == GAME_ROW
    game_at = np.flatnonzero(is_game)
    if len(game_at) != len(games) or (len(kind) and not is_game[0]):
        return (f"{len(game_at)} game rows for {len(games)} games"
                + ("" if len(game_at) != len(games) else " (the first header row is not a game row)"))
    owner = np.cumsum(is_game) - 1                          # the game row each header row follows
    mismatched = (number[game_at] != games) | (hand[game_at] != 0)
    hand_at = np.flatnonzero(~is_game)
    np.logical_or.at(mismatched, owner[hand_at], kind[hand_at] != HAND_ROW)
    real = hands != 0
    counted = np.bincount(owner[hand_at], minlength=len(games)) != np.bincount(hand_game[real],
                                                                             minlength=len(games))
    mismatched |= counted
    headed = hand_at[~counted[owner[hand_at]]]              # hand rows of games with as many as they have hands
    carded = np.flatnonzero(real & ~counted[hand_game])
    np.logical_or.at(mismatched, owner[headed], (number[headed] != games[owner[headed]])
                     | (hand[headed] != hands[carded]))
    pick = np.full(len(hands), -1, np.int64)
    pick[carded] = headed
    pick[mismatched[hand_game]] = -1
    return game_at, pick, mismatched


def game_headers(game_values: dict[str, pa.Array], players: list, rules: Rules | None,
             errors: dict[int, RecordError]) -> list[GameRecord | None]:
    """Each game's record without hands, read by :func:`game_from_dict` from its game-level columns."""
    ids = game_values["game_id"].to_pylist()
    specs = game_values["rules"].to_pylist()
    metas = game_values["game_meta"].to_pylist()
    headers: list[GameRecord | None] = []
    for g, (game_id, spec, meta_text, names) in enumerate(zip(ids, specs, metas, players)):
        try:
            obj: dict[str, Any] = {}
            if game_id is not None:
                obj["game_id"] = game_id
            if spec is not None:
                try:
                    obj["rules"] = orjson.loads(spec)
                except orjson.JSONDecodeError as error:
                    raise RecordError(f"bad JSON in the rules column: {error.msg}", "rules") from None
            if names is None:
                raise RecordError("missing: the player at each seat (on the game's row)", "players")
            obj["players"] = names
            meta = _json_object(meta_text, "game_meta")
            if meta:
                for key in _GAME_COLUMN_KEYS:
                    if key in meta and (key in obj or key not in _GAME_COLUMN_NULLABLE or meta[key] is not None):
                        raise RecordError(f"{shown(key)} belongs in its own column", "game_meta")
                obj.update(meta)
            headers.append(game_from_dict(obj, rules))
        except RecordError as error:
            headers.append(None)
            error.__traceback__ = None  # a kept traceback would hold this row group's columns alive
            errors.setdefault(g, error)
    return headers


class _HandColumns:
    """The hand-level columns of a table, one value per hand, checked like the JSON reader checks them."""

    def __init__(self, values: dict[str, pa.Array], numbers: np.ndarray, hand_game: np.ndarray,
                 seats_of_game: np.ndarray, counts: np.ndarray, errors: dict[int, RecordError]) -> None:
        players = seats_of_game[hand_game]
        real = numbers != 0
        dealer_column = values["dealer"]
        dealer = _ints(dealer_column, -1)
        known = dealer_column.is_valid().to_numpy(zero_copy_only=False)
        self.dealer = np.where(known & real, dealer, -1)
        self.direction = np.where(real, _codes(values["pass_direction"], _direction_code, -1), -1)
        self.moon = np.where(real, _codes(values["moon"], _moon_code, -1), -1)
        self.points = _per_hand_lists(values["points"], real)
        self.totals = _per_hand_lists(values["totals"], real)
        lengths = {name: _ints(getattr(self, name).value_lengths(), -1) for name in ("points", "totals")}
        bad = ((known & real & ((dealer < 0) | (dealer >= players))) | (self.direction == -2) | (self.moon == -2)
               | ((lengths["points"] >= 0) & (lengths["points"] != players))
               | ((lengths["totals"] >= 0) & (lengths["totals"] != players)))
        metas = values["hand_meta"]
        with_meta = np.flatnonzero(metas.is_valid().to_numpy(zero_copy_only=False) & real)
        self.meta: dict[int, dict] = {}
        games = hand_game.tolist()
        numbers = numbers.tolist()
        for k in sorted(set(np.flatnonzero(bad).tolist()) | set(with_meta.tolist())):
            g = games[k]
            if g in errors:
                continue
            try:
                meta = self._check(k, numbers[k] - 1, int(players[k]), values, metas[k].as_py(),
                                   counts[k, 7:14].tolist())
            except RecordError as error:
                errors[g] = error
                continue
            if meta:
                self.meta[k] = meta
        self.dealer = np.where(self.dealer < 128, self.dealer, -1).astype(np.int8)  # beyond int8: errors anyway
        self.direction = self.direction.astype(np.int8)
        self.moon = self.moon.astype(np.int8)

    def _check(self, k: int, number: int, n: int, values, meta_text, pass_rows) -> dict | None:
        where = f"hands[{number}]"
        if self.dealer[k] >= n:
            raise RecordError(f"{self.dealer[k]} is out of range 0..{n - 1}", f"{where}.dealer")
        if values["dealer"][k].as_py() is not None and self.dealer[k] < 0:
            raise RecordError(f"{values['dealer'][k].as_py()} is out of range 0..{n - 1}", f"{where}.dealer")
        if self.direction[k] == -2:
            raise RecordError(f"unknown direction {shown(values['pass_direction'][k].as_py())} "
                              f"(allowed: {', '.join(PASS_DIRECTIONS)})", f"{where}.pass_direction")
        if self.moon[k] == -2:
            raise RecordError(f"unknown moon choice {shown(values['moon'][k].as_py())} "
                              f"(allowed: {', '.join(MOON_CHOICES)})", f"{where}.moon")
        for name in ("points", "totals"):
            value = getattr(self, name)[k].as_py()
            if value is not None and len(value) != n:
                raise RecordError(f"expected one number per seat ({n}), got {len(value)}", f"{where}.{name}")
        meta = _json_object(meta_text, f"{where}.hand_meta")
        if not meta:
            return None
        in_column = {"dealer": self.dealer[k] >= 0, "pass_direction": self.direction[k] >= 0,
                     "moon": self.moon[k] >= 0, "points": self.points[k].is_valid,
                     "totals": self.totals[k].is_valid}
        reference_fields(meta, n, f"{where}.hand_meta")
        for key, value in meta.items():
            if key in ("deal", "plays"):
                raise RecordError(f"{shown(key)} belongs in the card rows", f"{where}.hand_meta")
            if in_column.get(key):
                raise RecordError(f"{shown(key)} is both in its column and in hand_meta", f"{where}.hand_meta")
            if value is None or key not in _HAND_KEY_SET or key in REFERENCE_ONLY:
                continue
            if key in ("points", "totals"):
                if (not isinstance(value, list) or len(value) != n
                        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
                    raise RecordError(f"expected one whole number per seat ({n})", f"{where}.hand_meta.{key}")
            elif key == "passes":
                if not isinstance(value, list) or len(value) != n or any(v not in (None, []) for v in value):
                    raise RecordError(f"expected one entry per seat ({n}), each null or []",
                                      f"{where}.hand_meta.passes")
                for seat, entry in enumerate(value):
                    if entry is None and pass_rows[seat]:
                        raise RecordError(f"pass rows for seat {seat}, whose passes entry is null",
                                          f"{where}.passes[{seat}]")
            else:
                raise RecordError(f"{shown(key)} belongs in its own column", f"{where}.hand_meta")
        return meta


def _per_hand_lists(column: pa.Array, real: np.ndarray) -> pa.Array:
    """A list column as int64 lists, null on placeholder hands."""
    column = column.cast(pa.list_(pa.int64()))
    if real.all():
        return column
    import pyarrow.compute  # here: loading it costs every run 40 ms, and the fast path never needs it
    return pyarrow.compute.if_else(pa.array(real), column, pa.nulls(len(column), column.type))


def _direction_code(name: str) -> int:
    return DIRECTION_CODES.get(name, -2)


def _moon_code(name: str) -> int:
    return MOON_CODES.get(name, -2)
