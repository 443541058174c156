"""Games to Arrow tables of the ``events/2`` layout (and ``events/1``), fast enough for corpora of millions of hands.

Every game is encoded from its ``hearts-game/1`` JSON object, so records
(through :func:`game_to_dict`) and JSON read straight from a file take one
path. Reading a JSON object the usual way (:func:`game_from_dict`) costs tens
of microseconds a hand in Python; :mod:`.shred` takes a game apart at
speed instead, and declines whatever it does not recognise: that game goes
through :func:`game_from_dict`, which either raises the :class:`RecordError`
naming the field or gives the canonical record, encoded the fast way. Games
are collected as per-game and per-hand lists; the tables are built a batch at
a time with numpy, from buffers (:mod:`.arrays`).

A card spelled ``6c`` is declined by the fast lane and read the usual way,
so it is stored as the canonical ``6C`` and the record reads back unchanged:

>>> from hearts_analysis.records import game_to_dict
>>> from hearts_analysis.records.parquet.decode import decode_table
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> games = list(simulate_games(2, Rules.preset("standard", target=30)))
>>> encoder = EventEncoder()
>>> first = game_to_dict(games[0])
>>> first["hands"][0]["deal"][0][0]
'6C'
>>> first["hands"][0]["deal"][0][0] = "6c"
>>> encoder.add_json(first), encoder.add_record(games[1])
(2, 4)
>>> headers, cards = encoder.take_batch().tables()
>>> headers.column("event").to_pylist()
['game', 'hand', 'hand', 'game', 'hand', 'hand', 'hand', 'hand']
>>> cards.column("card")[0].as_py()
'6C'
>>> [item.game for item in decode_table(cards, "corpus.parquet", headers=headers).items()] == games
True
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Any, Callable, NamedTuple

import numpy as np
import orjson
import pyarrow as pa

from ...rules import MOON_CHOICES, PASS_DIRECTIONS, RuleError, Rules
from ..errors import RecordError
from ..json import game_from_dict, game_to_dict
from ..model import DIRECTION_CODES, FORMAT, MOON_CODES, GameRecord, is_score_sheet
from .layout import (CARD_NAMES, DEAL, EVENTS, GAME_COLUMNS, GAME_ROW, HAND_COLUMNS, HAND_ROW, LAYOUT_V1,
                     META_LAYOUT, NONE, PASS, PLAY, SCHEMA)
from . import arrays as arrow
from .shred import Declined, Shredded, any_hands, card_codes, decline, game_meta, plain_hands

_STR = {str}
_TEXT = (str, type(None))
_FLAG = (bool, type(None))
_RULES_SEEN_MAX = 1024
MAX_HANDS = np.iinfo(np.int16).max
"""Hands a game may have in the layout (the ``hand`` column is int16)."""
MAX_TRICKS = np.iinfo(np.int8).max
"""Tricks' worth of plays a hand may have in the layout (the ``trick`` column, ``index // players + 1``, is
int8): a hand of ``players`` seats holds at most ``MAX_TRICKS * players`` plays."""
MAX_CARDS = np.iinfo(np.int16).max + 1
"""Cards a seat's deal or pass list may hold (the ``index`` column, its position in the list, is int16)."""

SCHEMA_V1 = SCHEMA.with_metadata({**SCHEMA.metadata, META_LAYOUT.encode(): LAYOUT_V1.encode()})


class EventEncoder:
    """Collects whole games; :meth:`take_batch` hands them over as an :class:`EventBatch` (``events/2``
    tables), :meth:`take` as one ``events/1`` table.

    ``next_game`` is the ``game`` value of the next game added (the index in its file). A ``bounded`` encoder,
    one that writes files, refuses a game its columns cannot number (:func:`check_sizes`); in memory such a game
    is still read, as its plays stay in order whatever the columns say.
    """

    def __init__(self, next_game: int = 0, *, bounded: bool = False) -> None:
        self.next_game = next_game
        self.bounded = bounded
        self._rules_seen: dict[tuple[bytes, int], bool] = {}
        self._clear()

    def _clear(self) -> None:
        self._batch = EventBatch()

    @property
    def games(self) -> int:
        return self._batch.games

    @property
    def hands(self) -> int:
        return self._batch.hands

    # -- adding games ------------------------------------------------------
    def add_json(self, obj: Any) -> int:
        """Add a parsed ``hearts-game/1`` object; raise :class:`RecordError` if it is not a valid record.

        Returns the game's number of hands.
        """
        try:
            return self._add(obj)
        except Declined:
            return self.add_record(game_from_dict(obj))

    def add_record(self, game: GameRecord) -> int:
        """Add a record; returns its number of hands. A score sheet is refused: the layout keeps a hand's cards."""
        if is_score_sheet(game):
            raise RecordError("a score sheet (points without cards) cannot be written to Parquet, whose layout "
                              "keeps each hand's cards: write it as JSON (.json, .jsonl)", "hands")
        obj = game_to_dict(game)
        try:
            return self._add(obj)
        except Declined as why:
            game_from_dict(obj)  # raises the RecordError of a record that is not valid hearts-game/1
            raise RuntimeError(f"events/1 encoder declined a valid record ({why})") from None

    def add_shredded(self, obj: Any, shred: Callable[[list, int], Shredded]) -> int:
        """Add a game object whose hands another reader turns into rows (``shred(hands, players)``, e.g. from
        their text), the rest checked as :meth:`add_json` checks it. Raises :class:`Declined` (or what
        ``shred`` raises) where :meth:`add_json` would read the object itself."""
        return self._add(obj, shred)

    def _add(self, obj: Any, shred: Callable[[list, int], Shredded] | None = None) -> int:
        """Encode one game object exactly as :func:`game_from_dict` would read it, or decline.

        The hands, where the time goes, are read in :meth:`_hands`.
        """
        header = self.game_header(obj)
        hands = (shred or self._hands)(header.hands, header.seats)
        if self.bounded:
            check_sizes(hands, header.seats)
        self.commit_games([header], hands, [self.next_game])
        return len(header.hands)

    def game_header(self, obj: Any) -> "GameHeader":
        """The game-level fields of a game object, checked as :func:`game_from_dict` checks them, or decline.

        The rule set is read once per distinct ``rules`` text and player count (reading it costs tens of
        microseconds).
        """
        hands = obj.get("hands", []) if type(obj) is dict else None
        if type(hands) is not list:
            decline("not a game object with a list of hands")
        players = obj.get("players")
        if (type(players) is not list or not 3 <= len(players) <= 7 or set(map(type, players)) != _STR
                or "" in players or obj.get("format", FORMAT) != FORMAT
                or type(obj.get("game_id", "")) not in _TEXT or type(obj.get("played_at", "")) not in _TEXT
                or type(obj.get("complete", True)) not in _FLAG):
            decline("game-level fields")
        if len(hands) > MAX_HANDS:
            raise RecordError(f"{len(hands):,} hands; a Parquet corpus numbers at most {MAX_HANDS:,} hands a game",
                              "hands")
        for number, hand in enumerate(hands):
            deal = hand.get("deal") if type(hand) is dict else None
            if type(deal) is list and None in deal:
                raise RecordError("a seat's view (its deal leaves other seats unknown): Parquet keeps whole deals "
                                  "only; keep views in JSON", f"hands[{number}].deal[{deal.index(None)}]")
        rules_spec = obj.get("rules")
        self._check_rules(rules_spec, len(players))
        try:
            rules_json = None if rules_spec is None else orjson.dumps(rules_spec).decode()
            meta = game_meta(obj)
        except orjson.JSONEncodeError:  # nested too deep: the reader names the field
            decline("a value orjson cannot write")
        return GameHeader(list(players), obj.get("game_id"), rules_json, meta, len(players), hands)

    def _check_rules(self, spec: Any, n: int) -> None:
        """Decline a rule set :func:`game_from_dict` would refuse; each distinct one is read once."""
        try:
            key = (orjson.dumps(spec), n)
        except orjson.JSONEncodeError:
            decline("rules")
        known = self._rules_seen.get(key)
        if known is None:
            if len(self._rules_seen) >= _RULES_SEEN_MAX:
                self._rules_seen.clear()
            try:
                Rules.from_spec(spec).table(n)
                known = True
            except RuleError:
                known = False
            self._rules_seen[key] = known
        if not known:
            decline("rules")

    def _hands(self, hands: list, n: int) -> Shredded:
        """The rows of a game's hands: per-hand values, segment lengths, and the checked card text."""
        try:
            encoded = plain_hands(hands, n)
        except (TypeError, KeyError, IndexError, orjson.JSONEncodeError):
            encoded = None
        return encoded if encoded is not None else any_hands(hands, n)

    def commit_games(self, headers: list["GameHeader"], hands: Shredded, numbers: list[int]) -> None:
        """Add games whose headers :meth:`game_header` checked, their hands one after another in ``hands``
        (each game's rows numbered from 1, or its one placeholder row numbered 0), the ``game`` value of each
        in ``numbers``; ``next_game`` follows the last."""
        b = self._batch
        first = len(b.g_index)
        b.g_index.extend(numbers)
        b.g_id.extend(header.game_id for header in headers)
        b.g_players.extend(header.players for header in headers)
        b.g_rules.extend(header.rules for header in headers)
        b.g_meta.extend(header.meta for header in headers)
        rows = hands.numbers
        starts = [i for i, number in enumerate(rows) if number <= 1]  # each game's first row
        b.g_first_hand.extend(len(b.h_number) + start for start in starts)
        ends = starts[1:] + [len(rows)]
        for game, (start, end, header) in enumerate(zip(starts, ends, headers), first):
            b.h_game.extend(repeat(game, end - start))
            b.h_players.extend(repeat(header.seats, end - start))
        b.h_number.extend(rows)
        b.h_plays.extend(hands.plays)
        b.h_dealer.extend(hands.dealer)
        b.h_direction.extend(hands.pass_direction)
        b.h_moon.extend(hands.moon)
        b.h_points.extend(hands.points)
        b.h_totals.extend(hands.totals)
        b.h_meta.extend(hands.hand_meta)
        b.h_passed.extend(hands.passed)
        b.deal_lens.extend(hands.deal_lens)
        b.pass_lens.extend(hands.pass_lens)
        b.deal_ranks.append(hands.dealt[0])
        b.deal_suits.append(hands.dealt[1])
        b.pass_ranks.append(hands.passed_text[0])
        b.pass_suits.append(hands.passed_text[1])
        b.play_seats.append(hands.played[0])
        b.play_ranks.append(hands.played[1])
        b.play_suits.append(hands.played[2])
        self.next_game = numbers[-1] + 1
        b.games += len(headers)
        b.hands += hands.hands

    # -- batches -----------------------------------------------------------
    def take_batch(self) -> "EventBatch | None":
        """The games added since the last call (``None`` if none); :meth:`EventBatch.table` builds their rows."""
        if not self._batch.games:
            return None
        batch, self._batch = self._batch, EventBatch()
        return batch

    def take(self) -> pa.Table | None:
        """The games added since the last call as one table in layout order (``None`` if none)."""
        batch = self.take_batch()
        return None if batch is None else batch.table()


def check_sizes(hands: Shredded, players: int) -> None:
    """Raise the :class:`RecordError` of a hand whose plays, or a seat's dealt or passed cards, are more than the
    layout's columns number (:data:`MAX_TRICKS`, :data:`MAX_CARDS`): written, they would wrap round to wrong
    values that every reader of the file would take at their word. No game played by the rules comes near."""
    most = MAX_TRICKS * players
    if hands.plays and max(hands.plays) > most:
        k = next(k for k, plays in enumerate(hands.plays) if plays > most)
        raise RecordError(f"{hands.plays[k]:,} plays; a Parquet corpus numbers at most {most:,} plays in a hand of "
                          f"{players} players ({MAX_TRICKS} tricks)", f"hands[{hands.numbers[k] - 1}].plays")
    for kind, lengths in (("deal", hands.deal_lens), ("passes", hands.pass_lens)):
        if lengths and max(lengths) > MAX_CARDS:
            k = next(k for k, length in enumerate(lengths) if length > MAX_CARDS)
            hand = k // players if kind == "deal" else _passing_hand(hands.passed, k // players)
            raise RecordError(f"{lengths[k]:,} cards; a Parquet corpus numbers at most {MAX_CARDS:,} cards in a "
                              f"seat's list", f"hands[{hands.numbers[hand] - 1}].{kind}[{k % players}]")


def _passing_hand(passed: list[bool], k: int) -> int:
    """The index of the ``k``-th hand (0-based) that has a ``passes`` list."""
    return [hand for hand, has in enumerate(passed) if has][k]


class CardRows(NamedTuple):
    """A batch's card rows as arrays: layout event codes, seats (-1: none), card codes (-1: none) and positions."""

    event: np.ndarray
    seat: np.ndarray
    card: np.ndarray
    index: np.ndarray
    hand_rows: np.ndarray
    """Rows of each hand (a placeholder hand of a game without hands has one)."""
    placeholders: bool
    """Whether any hand is a placeholder."""


class GameHeader(NamedTuple):
    """A game's fields other than its hands, as the encoder keeps them."""

    players: list[str]
    game_id: str | None
    rules: str | None
    """The rule set as JSON text (``None``: not given)."""
    meta: str | None
    """What of the game has no column, as JSON text (:func:`~.shred.game_meta`)."""
    seats: int
    hands: list
    """The game's hands as given (not kept in the batch)."""


class EventBatch:
    """Whole games collected as per-game and per-hand lists; the table is built on demand (in any thread)."""

    def __init__(self) -> None:
        self.games = 0
        self.hands = 0
        self.g_index: list[int] = []
        self.g_id: list[str | None] = []
        self.g_players: list[list[str]] = []
        self.g_rules: list[str | None] = []
        self.g_meta: list[str | None] = []
        self.g_first_hand: list[int] = []
        self.h_game: list[int] = []
        self.h_number: list[int] = []
        self.h_players: list[int] = []
        self.h_plays: list[int] = []
        self.h_dealer: list[int | None] = []
        self.h_direction: list[str | None] = []
        self.h_moon: list[str | None] = []
        self.h_points: list[list | None] = []
        self.h_totals: list[list | None] = []
        self.h_meta: list[str | None] = []
        self.h_passed: list[bool] = []
        self.deal_lens: list[int] = []
        self.pass_lens: list[int] = []
        self.deal_ranks: list[bytes] = []
        self.deal_suits: list[bytes] = []
        self.pass_ranks: list[bytes] = []
        self.pass_suits: list[bytes] = []
        self.play_seats: list[bytes] = []
        self.play_ranks: list[bytes] = []
        self.play_suits: list[bytes] = []

    def table(self) -> pa.Table:
        """The games as one ``events/1`` table: card rows only, game and hand values on their first rows."""
        columns, hand_rows = self._card_columns()
        rows = len(columns["game"])
        hand_first = np.cumsum(hand_rows) - hand_rows
        by_hand = _Placed(rows, hand_first)
        by_game = _Placed(rows, hand_first[self.g_first_hand])
        id_codes, id_names = self._game_ids()
        columns["game_id"] = arrow.codes(id_codes[np.repeat(np.array(self.h_game, np.int64), hand_rows)], id_names)
        columns.update((name, by_game(value)) for name, value in self._game_values().items() if name != "game_id")
        columns.update((name, by_hand(value)) for name, value in self._hand_values().items())
        return pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA_V1)

    def tables(self) -> tuple[pa.Table, pa.Table]:
        """The games as ``events/2``: ``(header rows, card rows)``, each with every column of the schema."""
        columns, _ = self._card_columns()
        rows = len(columns["game"])
        columns.update((name, _nulls(name, rows)) for name in GAME_COLUMNS + HAND_COLUMNS)
        cards = pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA)
        return self._header_table(), cards

    def card_rows(self) -> "CardRows":
        """The card rows as arrays, placeholders included: what the JSON Lines fast path screens as it is."""
        players = np.array(self.h_players, np.int32)
        segments = 2 * players + 1                      # deal by seat, pass by seat, then plays (or none)
        seg_end = np.cumsum(segments, dtype=np.int32)
        seg_start = seg_end - segments
        play_seg = seg_end - 1
        seg_lens = np.zeros(int(seg_end[-1]), np.int32)
        position = np.arange(len(seg_lens), dtype=np.int32) - np.repeat(seg_start, segments)
        seg_players = np.repeat(players, segments)
        is_deal, is_pass = position < seg_players, position < 2 * seg_players
        seg_lens[is_deal] = self.deal_lens
        seg_lens[is_pass & ~is_deal & np.repeat(np.array(self.h_passed, bool), segments)] = self.pass_lens
        seg_lens[play_seg] = self.h_plays
        hand_rows = np.add.reduceat(seg_lens, seg_start)
        none = hand_rows == 0
        seg_lens[play_seg[none]] = 1
        hand_rows[none] = 1
        seg_event = np.where(is_deal, DEAL, np.where(is_pass, PASS, PLAY)).astype(np.int8)
        seg_event[play_seg[none]] = NONE
        seg_seat = np.where(is_deal, position, np.where(is_pass, position - seg_players, -1)).astype(np.int8)

        event = np.repeat(seg_event, seg_lens)
        rows = len(event)
        seat = np.repeat(seg_seat, seg_lens)
        is_play = event == PLAY
        seat[is_play] = np.frombuffer(b"".join(self.play_seats), np.uint8) - ord("0")
        card = np.full(rows, -1, np.int8)
        card[event == DEAL] = card_codes(b"".join(self.deal_ranks), b"".join(self.deal_suits))
        card[event == PASS] = card_codes(b"".join(self.pass_ranks), b"".join(self.pass_suits))
        card[is_play] = card_codes(b"".join(self.play_ranks), b"".join(self.play_suits))
        seg_first = np.cumsum(seg_lens, dtype=np.int32) - seg_lens
        index = (np.arange(rows, dtype=np.int32) - np.repeat(seg_first, seg_lens)).astype(np.int16)
        return CardRows(event, seat, card, index, hand_rows, none.any())

    def _card_columns(self) -> tuple[dict[str, pa.Array], np.ndarray]:
        """The card rows' columns, and the number of rows of each hand (placeholders included)."""
        event, seat, card, index, hand_rows, placeholders = self.card_rows()
        is_play = event == PLAY
        trick = np.zeros(len(event), np.int8)
        trick[is_play] = index[is_play] // np.repeat(np.array(self.h_players, np.int16), self.h_plays) + 1
        game_of_hand = np.array(self.h_game, np.int32)
        columns = {
            "game": arrow.numbers(np.repeat(np.array(self.g_index, np.int32)[game_of_hand], hand_rows), pa.int32()),
            "hand": arrow.numbers(np.repeat(np.array(self.h_number, np.int16), hand_rows), pa.int16()),
            "event": arrow.codes(event.astype(np.int32), _EVENT_VALUES),
            "seat": arrow.numbers(seat, pa.int8(), event != NONE if placeholders else None),
            "card": arrow.codes(card.astype(np.int32), _CARD_VALUES),
            "index": arrow.numbers(index, pa.int16()),
            "trick": arrow.numbers(trick, pa.int8(), is_play),
        }
        return columns, hand_rows

    def _game_ids(self) -> tuple[np.ndarray, pa.Array]:
        """Each game's code in the ``game_id`` dictionary (-1: none), and the dictionary."""
        id_codes: dict[str, int] = {}
        for game_id in self.g_id:
            if game_id is not None:
                id_codes.setdefault(game_id, len(id_codes))
        codes = np.array([-1 if i is None else id_codes[i] for i in self.g_id], np.int32)
        return codes, arrow.strings(list(id_codes))

    def players_array(self) -> pa.Array:
        """The ``players`` of each game, as the column holds them."""
        player_counts = np.fromiter(map(len, self.g_players), np.int32, len(self.g_players))
        return arrow.lists(self.g_players, arrow.strings(list(chain.from_iterable(self.g_players))), player_counts)

    def _game_values(self) -> dict[str, pa.Array]:
        """One value per game for each game column."""
        codes, dictionary = self._game_ids()
        return {"game_id": arrow.codes(codes, dictionary),
                "players": self.players_array(),
                "rules": arrow.strings(self.g_rules),
                "game_meta": arrow.strings(self.g_meta)}

    def _hand_values(self) -> dict[str, pa.Array]:
        """One value per hand (placeholders of games without hands included) for each hand column."""
        players = np.array(self.h_players, np.int32)
        dealers, known = arrow.small_ints(self.h_dealer, np.int8)
        return {"dealer": arrow.numbers(dealers, pa.int8(), known),
                "pass_direction": arrow.codes(_coded(DIRECTION_CODES, self.h_direction), _DIRECTION_VALUES_ARRAY),
                "moon": arrow.codes(_coded(MOON_CODES, self.h_moon), _MOON_VALUES_ARRAY),
                "points": arrow.int_lists(self.h_points, players),
                "totals": arrow.int_lists(self.h_totals, players),
                "hand_meta": arrow.strings(self.h_meta)}

    def _header_table(self) -> pa.Table:
        """A game row for each game, followed by a hand row for each of its hands."""
        real = np.array(self.h_number, np.int64) > 0
        hand_game = np.array(self.h_game, np.int64)[real]
        hands_before = np.searchsorted(hand_game, np.arange(self.games))   # real hands of earlier games
        game_at = np.arange(self.games) + hands_before                       # header row of each game
        rows = self.games + len(hand_game)
        hand_at = np.arange(len(hand_game)) + hand_game + 1
        game_of_row = np.zeros(rows, np.int64)
        game_of_row[game_at] = 1
        game_of_row = np.cumsum(game_of_row) - 1
        number = np.zeros(rows, np.int16)
        number[hand_at] = np.array(self.h_number, np.int16)[real]
        event = np.full(rows, HAND_ROW, np.int8)
        event[game_at] = GAME_ROW
        by_game, by_hand = _Placed(rows, game_at), _Placed(rows, hand_at)
        columns = {name: by_game(value) for name, value in self._game_values().items()}
        if real.all():
            columns.update((name, by_hand(value)) for name, value in self._hand_values().items())
        else:  # placeholders of games without hands have no header row
            real_hands = arrow.numbers(np.flatnonzero(real), pa.int64())
            columns.update((name, by_hand(value.take(real_hands))) for name, value in self._hand_values().items())
        columns.update({
            "game": arrow.numbers(np.array(self.g_index, np.int32)[game_of_row], pa.int32()),
            "hand": arrow.numbers(number, pa.int16()),
            "event": arrow.codes(event.astype(np.int32), _EVENT_VALUES),
        })
        for name in ("seat", "card", "trick"):
            columns[name] = _nulls(name, rows)
        columns["index"] = arrow.numbers(np.zeros(rows, np.int16), pa.int16())
        return pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA)


# -- Arrow arrays from buffers: ``pa.array`` imports pandas (a fifth of a second) on first use -------------
_EVENT_VALUES = arrow.strings(list(EVENTS))
_CARD_VALUES = arrow.strings(list(CARD_NAMES))
_DIRECTION_VALUES_ARRAY = arrow.strings(list(PASS_DIRECTIONS))
_MOON_VALUES_ARRAY = arrow.strings(list(MOON_CHOICES))
_DICTIONARIES = {"card": _CARD_VALUES, "pass_direction": _DIRECTION_VALUES_ARRAY, "moon": _MOON_VALUES_ARRAY}


def _coded(codes: dict, names: list) -> np.ndarray:
    """int8 codes of ``names`` (-1 for ``None``)."""
    return np.array(list(map(codes.get, names, repeat(-1))), np.int8)


def _nulls(name: str, rows: int) -> pa.Array:
    """A column of nulls; a dictionary column keeps its dictionary, the same in every row group.

    Slices of one cached column: allocating fresh all-null buffers for every row group cost more
    than building the card columns themselves.
    """
    column = _NULL_COLUMNS.get(name)
    if column is None or len(column) < rows:
        size = max(rows, 2 * len(column) if column is not None else 1 << 20)
        dictionary = _DICTIONARIES.get(name)
        if dictionary is None:
            column = pa.nulls(size, SCHEMA.field(name).type)
        else:
            column = pa.DictionaryArray.from_arrays(pa.nulls(size, SCHEMA.field(name).type.index_type),
                                                    dictionary)
        _NULL_COLUMNS[name] = column
    return column.slice(0, rows)


_NULL_COLUMNS: dict[str, pa.Array] = {}


class _Placed:
    """Columns of ``rows`` nulls except value ``i`` on row ``at[i]`` (``at`` increasing): the game and hand
    values on their rows. Built from the values' buffers, without Arrow's compute module (a twentieth of
    a second to load)."""

    def __init__(self, rows: int, at: np.ndarray) -> None:
        self.rows, self.at = rows, at
        valid = np.zeros(rows, bool)
        valid[at] = True
        self.placed_by = np.cumsum(valid)                   # values placed on rows up to each row
        self.all_valid = arrow.validity(valid)

    def __call__(self, small: pa.Array) -> pa.Array:
        if pa.types.is_dictionary(small.type):
            return pa.DictionaryArray.from_arrays(self(small.indices), small.dictionary)
        count = len(small)
        buffers = small.buffers()
        if small.null_count:
            known = np.unpackbits(np.frombuffer(buffers[0], np.uint8), bitorder="little")[small.offset:][:count]
            valid = np.zeros(self.rows, bool)
            valid[self.at[known.astype(bool)]] = True
            bitmap = arrow.validity(valid)
        else:
            bitmap = self.all_valid
        if pa.types.is_list(small.type) or pa.types.is_string(small.type):
            starts = np.frombuffer(buffers[1], np.int32)[small.offset:][:count + 1]
            offsets = pa.py_buffer(np.concatenate([starts[:1], starts[self.placed_by]]))
            if pa.types.is_string(small.type):
                return pa.StringArray.from_buffers(self.rows, offsets, buffers[2], *bitmap)
            return pa.ListArray.from_buffers(small.type, self.rows, [bitmap[0], offsets], null_count=bitmap[1],
                                             children=[small.values])
        dtype = small.type.to_pandas_dtype()
        values = np.zeros(self.rows, dtype)
        values[self.at] = np.frombuffer(buffers[1], dtype)[small.offset:][:count]
        return pa.Array.from_buffers(small.type, self.rows, [bitmap[0], pa.py_buffer(values)],
                                     null_count=bitmap[1])
