"""Games to Arrow tables of the ``events/1`` layout, fast enough for corpora of millions of hands.

Every game is encoded from its ``hearts-game/1`` JSON object, so records
(through :func:`game_to_dict`) and JSON read straight from a file take one
path. Reading a JSON object the usual way (:func:`game_from_dict`) costs tens
of microseconds a hand in Python; here the card lists are instead re-serialised
with orjson (about a microsecond a hand) and the compact text is checked and
decoded with byte slices and numpy. Whatever is not in the exact shape that
check recognises (``"10h"``, a seat written as ``"1"``, a wrong field) goes
through :func:`game_from_dict`, which either raises the :class:`RecordError`
naming the field or gives the canonical record, encoded the fast way.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np
import orjson
import pyarrow as pa

from ..rules import MOON_CHOICES, PASS_DIRECTIONS, RuleError, Rules
from .events_layout import (CARD_NAMES, DEAL, EVENTS, GAME_COLUMNS, GAME_ROW, HAND_COLUMNS, HAND_ROW, INT32_MAX,
                            INT32_MIN, LAYOUT_V1, META_LAYOUT, NONE, PASS, PLAY, SCHEMA)
from .jsonio import _GAME_KEYS, _HAND_KEYS, game_from_dict, game_to_dict
from .model import FORMAT, GameRecord

_HAND_KEY_SET = frozenset(_HAND_KEYS)
_GAME_KEY_SET = frozenset(_GAME_KEYS)
_HAND_META_KEYS = tuple(k for k in _HAND_KEYS if k not in ("deal", "plays"))
"""Hand fields a ``hand_meta`` object may name (as explicit nulls), in record order."""

_RANKS, _SUITS = "23456789TJQKA", "CDHS"
_RANK_BYTES = (_RANKS + _RANKS.lower()).encode()
_SUIT_BYTES = (_SUITS + _SUITS.lower()).encode()
_RANK_VALUE = np.zeros(256, np.int8)
_SUIT_VALUE = np.zeros(256, np.int8)
for _i, _c in enumerate(_RANKS):
    _RANK_VALUE[ord(_c)] = _RANK_VALUE[ord(_c.lower())] = _i
for _i, _c in enumerate(_SUITS):
    _SUIT_VALUE[ord(_c)] = _SUIT_VALUE[ord(_c.lower())] = 13 * _i
_SEAT_DIGITS = {n: bytes(range(ord("0"), ord("0") + n)) for n in range(3, 8)}
_ZEROS = {n: (0,) * n for n in range(3, 8)}
_DIRECTION_CODE = {name: code for code, name in enumerate(PASS_DIRECTIONS)}
_MOON_CODE = {name: code for code, name in enumerate(MOON_CHOICES)}
_INT = {int}
_LIST = {list}
_STR = {str}
_TEXT = (str, type(None))
_FLAG = (bool, type(None))
_RULES_SEEN_MAX = 1024
_DIRECTION_VALUES = frozenset(PASS_DIRECTIONS) | {None}
_MOON_VALUES = frozenset(MOON_CHOICES) | {None}

# plain lists, made Arrow arrays where used: pa.array at import time would load pandas
_EVENT_DICTIONARY = list(EVENTS)
_CARD_DICTIONARY = list(CARD_NAMES)
_DIRECTION_DICTIONARY = list(PASS_DIRECTIONS)
_MOON_DICTIONARY = list(MOON_CHOICES)
SCHEMA_V1 = SCHEMA.with_metadata({**SCHEMA.metadata, META_LAYOUT.encode(): LAYOUT_V1.encode()})
_DICTIONARIES = {"card": _CARD_DICTIONARY, "pass_direction": _DIRECTION_DICTIONARY, "moon": _MOON_DICTIONARY}


class _Declined(Exception):
    """The object is not in the shape the fast path reads; :func:`game_from_dict` decides."""


def _decline(why: str) -> None:
    raise _Declined(why)


def _cards_text(text: bytes, count: int) -> tuple[bytes, bytes]:
    """Ranks and suits of ``["QS","2C",...]`` as written by orjson, or decline."""
    if not count:
        return b"", b""
    if (len(text) != 5 * count + 1 or text[1::5] != b'"' * count or text[4::5] != b'"' * count
            or text[5::5] != b"," * (count - 1) + b"]"):
        _decline("cards not all two-character names")
    ranks, suits = text[2::5], text[3::5]
    if ranks.translate(None, _RANK_BYTES) or suits.translate(None, _SUIT_BYTES):
        _decline("card names outside the canonical letters")
    return ranks, suits


def _plays_text(text: bytes, count: int, players: int) -> tuple[bytes, bytes, bytes]:
    """Seats, ranks and suits of ``[[0,"QS"],...]`` as written by orjson, or decline."""
    if not count:
        return b"", b"", b""
    if (len(text) != 9 * count + 1 or text[1::9] != b"[" * count or text[3::9] != b"," * count
            or text[4::9] != b'"' * count or text[7::9] != b'"' * count or text[8::9] != b"]" * count
            or text[9::9] != b"," * (count - 1) + b"]"):
        _decline("plays not all [seat, two-character card]")
    seats, ranks, suits = text[2::9], text[5::9], text[6::9]
    if (seats.translate(None, _SEAT_DIGITS[players]) or ranks.translate(None, _RANK_BYTES)
            or suits.translate(None, _SUIT_BYTES)):
        _decline("seat or card out of range")
    return seats, ranks, suits


def _card_codes(ranks: bytes, suits: bytes) -> np.ndarray:
    return _RANK_VALUE[np.frombuffer(ranks, np.uint8)] + _SUIT_VALUE[np.frombuffer(suits, np.uint8)]


def _game_meta(obj: dict) -> str | None:
    """What of a game has no column: played_at, complete, unknown fields, explicit nulls (JSON, record order)."""
    meta: dict[str, Any] = {}
    for key in ("game_id", "played_at", "rules", "complete"):
        if key in obj and obj[key] is None:
            meta[key] = None
        elif key in ("played_at", "complete") and obj.get(key) is not None:
            meta[key] = obj[key]
    meta.update((key, value) for key, value in obj.items() if key not in _GAME_KEY_SET)
    return orjson.dumps(meta).decode() if meta else None


def _hand_meta(hand: dict, pass_shape: list | None) -> dict:
    """What of a hand has no column: explicit nulls, the shape of ``passes``, unknown fields."""
    meta: dict[str, Any] = {}
    for key in _HAND_META_KEYS:
        if key == "passes" and pass_shape is not None:
            meta[key] = pass_shape
        elif key in hand and hand[key] is None:
            meta[key] = None
    meta.update((k, v) for k, v in hand.items() if k not in _HAND_KEY_SET)
    return meta


def _check_dealers(dealers: list, players: int) -> None:
    known = [d for d in dealers if d is not None]
    if known and (set(map(type, known)) != _INT or min(known) < 0 or max(known) >= players):
        _decline("dealer")


def _check_numbers(points: list, totals: list, metas: list, players: int) -> None:
    """Points and totals: one whole number per seat; those too wide for int32 move to the hand's meta."""
    numbers = [v for v in chain(points, totals) if v is not None]
    if not numbers:
        return
    if set(map(type, numbers)) != _LIST or set(map(len, numbers)) != {players}:
        _decline("points or totals not one number per seat")
    flat = list(chain.from_iterable(numbers))
    if set(map(type, flat)) != _INT:
        _decline("points or totals not whole numbers")
    if min(flat) >= INT32_MIN and max(flat) <= INT32_MAX:
        return
    for k, (hand_points, hand_totals) in enumerate(zip(points, totals)):
        for key, values, column in (("points", hand_points, points), ("totals", hand_totals, totals)):
            if values is not None and (min(values) < INT32_MIN or max(values) > INT32_MAX):
                meta = dict(metas[k] or {})
                meta[key] = values
                metas[k] = {name: meta[name] for name in _HAND_META_KEYS if name in meta} | {
                    name: value for name, value in meta.items() if name not in _HAND_META_KEYS}
                column[k] = None


class EventEncoder:
    """Collects whole games as ``events/1`` rows; :meth:`take` hands them over as one table.

    ``next_game`` is the ``game`` value of the next game added (the index in its file).
    """

    def __init__(self, next_game: int = 0) -> None:
        self.next_game = next_game
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
        except _Declined:
            return self.add_record(game_from_dict(obj))

    def add_record(self, game: GameRecord) -> int:
        """Add a record; returns its number of hands."""
        obj = game_to_dict(game)
        try:
            return self._add(obj)
        except _Declined as why:
            game_from_dict(obj)  # raises the RecordError of a record that is not valid hearts-game/1
            raise RuntimeError(f"events/1 encoder declined a valid record ({why})") from None

    def _add(self, obj: Any) -> int:
        """Encode one game object exactly as :func:`game_from_dict` would read it, or decline.

        The game-level fields are checked as :func:`game_from_dict` checks them, the rule set
        once per distinct ``rules`` text and player count (reading it costs tens of
        microseconds); the hands, where the time goes, are read in :meth:`_hands`.
        """
        hands = obj.get("hands", []) if type(obj) is dict else None
        if type(hands) is not list:
            _decline("not a game object with a list of hands")
        players = obj.get("players")
        if (type(players) is not list or not 3 <= len(players) <= 7 or set(map(type, players)) != _STR
                or "" in players or obj.get("format", FORMAT) != FORMAT
                or type(obj.get("game_id", "")) not in _TEXT or type(obj.get("played_at", "")) not in _TEXT
                or type(obj.get("complete", True)) not in _FLAG):
            _decline("game-level fields")
        rules_spec = obj.get("rules")
        n = len(players)
        self._check_rules(rules_spec, n)
        encoded = self._hands(hands, n)
        self._commit(list(players), obj.get("game_id"), None if rules_spec is None else orjson.dumps(rules_spec).decode(),
                     _game_meta(obj), n, *encoded)
        return len(hands)

    def _check_rules(self, spec: Any, n: int) -> None:
        """Decline a rule set :func:`game_from_dict` would refuse; each distinct one is read once."""
        try:
            key = (orjson.dumps(spec), n)
        except orjson.JSONEncodeError:
            _decline("rules")
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
            _decline("rules")

    def _hands(self, hands: list, n: int) -> tuple:
        """The rows of a game's hands: per-hand values, row counts, and the checked card text.

        Per hand only what cannot wait is done; the checks run once per game over all its hands.
        """
        per_hand, seg_lens, card_lists, plays_lists = [], [], [], []
        zeros = _ZEROS[n]
        try:
            for hand in hands:
                if type(hand) is not dict:
                    _decline("hand")
                values = list(map(hand.get, _HAND_KEYS))
                dealer, direction, deal, passes, plays, moon, points, totals = values
                if type(deal) is not list or len(deal) != n or type(plays) is not list:
                    _decline("deal or plays")
                seg_lens.extend(map(len, deal))
                card_lists.append(deal)
                plays_lists.append(plays)
                pass_shape = None
                if passes is None:
                    seg_lens.extend(zeros)
                else:
                    if type(passes) is not list or len(passes) != n:
                        _decline("passes")
                    if None in passes:
                        pass_shape = [None if cards is None else [] for cards in passes]
                        passes = [[] if cards is None else cards for cards in passes]
                    pass_lens = list(map(len, passes))
                    if pass_shape is None and not any(pass_lens):
                        pass_shape = [[] for _ in passes]
                    seg_lens.extend(pass_lens)
                    card_lists.append(passes)
                # every key known and not null: len(hand) is the count of values that are not None
                meta = None
                if pass_shape is not None or len(hand) + values.count(None) != len(_HAND_KEYS):
                    meta = _hand_meta(hand, pass_shape)
                per_hand.append((len(plays), dealer, direction, moon, points, totals, meta))
            if not hands:  # a placeholder row keeps a game without hands
                per_hand = [(0, None, None, None, None, None, None)]
                seg_lens = list(zeros + zeros)
            plays_counts, dealers, directions, moons, points_l, totals_l, metas = map(list, zip(*per_hand))
            if (set(map(type, chain.from_iterable(card_lists))) - _LIST
                    or not set(directions) <= _DIRECTION_VALUES or not set(moons) <= _MOON_VALUES):
                _decline("hand fields")
            _check_dealers(dealers, n)
            _check_numbers(points_l, totals_l, metas, n)
            dp_cards = list(chain.from_iterable(chain.from_iterable(card_lists)))
            all_plays = list(chain.from_iterable(plays_lists))
            dp = _cards_text(orjson.dumps(dp_cards), len(dp_cards))
            played = _plays_text(orjson.dumps(all_plays), len(all_plays), n)
        except (TypeError, orjson.JSONEncodeError):  # a len() of a number, an unhashable direction, ...
            _decline("hand fields")
        numbers = list(range(1, len(hands) + 1)) if hands else [0]
        return (len(hands), numbers, plays_counts, dealers, directions, moons, points_l, totals_l,
                [None if m is None else orjson.dumps(m).decode() for m in metas], seg_lens, dp, played)

    def _commit(self, players, game_id, rules_json, meta, n, hand_count, numbers, plays_counts, dealers,
                directions, moons, points_l, totals_l, metas, seg_lens, dp, played) -> None:
        b = self._batch
        batch_game = len(b.g_index)
        b.g_index.append(self.next_game)
        b.g_id.append(game_id)
        b.g_players.append(players)
        b.g_rules.append(rules_json)
        b.g_meta.append(meta)
        b.g_first_hand.append(len(b.h_number))
        b.h_game.extend([batch_game] * len(numbers))
        b.h_number.extend(numbers)
        b.h_players.extend([n] * len(numbers))
        b.h_plays.extend(plays_counts)
        b.h_dealer.extend(dealers)
        b.h_direction.extend(directions)
        b.h_moon.extend(moons)
        b.h_points.extend(points_l)
        b.h_totals.extend(totals_l)
        b.h_meta.extend(metas)
        b.seg_lens.extend(seg_lens)
        b.dp_ranks.append(dp[0])
        b.dp_suits.append(dp[1])
        b.play_seats.append(played[0])
        b.play_ranks.append(played[1])
        b.play_suits.append(played[2])
        self.next_game += 1
        b.games += 1
        b.hands += hand_count

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
        self.seg_lens: list[int] = []
        self.dp_ranks: list[bytes] = []
        self.dp_suits: list[bytes] = []
        self.play_seats: list[bytes] = []
        self.play_ranks: list[bytes] = []
        self.play_suits: list[bytes] = []

    def table(self) -> pa.Table:
        """The games as one ``events/1`` table: card rows only, game and hand values on their first rows."""
        columns, hand_rows = self._card_columns()
        rows = len(columns["game"])
        hand_first = np.cumsum(hand_rows) - hand_rows
        by_hand = _Spread(rows, hand_first)
        by_game = _Spread(rows, hand_first[self.g_first_hand])
        games, hands = self._game_values(), self._hand_values()
        ids = games.pop("game_id")
        columns["game_id"] = ids.take(indices_of(np.repeat(np.array(self.h_game, np.int64), hand_rows)))
        columns.update((name, by_game(value)) for name, value in games.items())
        columns.update((name, _dictionary_spread(by_hand, value)) for name, value in hands.items())
        return pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA_V1)

    def tables(self) -> tuple[pa.Table, pa.Table]:
        """The games as ``events/2``: ``(header rows, card rows)``, each with every column of the schema."""
        columns, _ = self._card_columns()
        rows = len(columns["game"])
        columns.update((name, _nulls(name, rows)) for name in GAME_COLUMNS + HAND_COLUMNS)
        cards = pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA)
        return self._header_table(), cards

    def _card_columns(self) -> tuple[dict[str, pa.Array], np.ndarray]:
        """The card rows' columns, and the number of rows of each hand (placeholders included)."""
        players = np.array(self.h_players, np.int32)
        segments = 2 * players + 1                      # deal by seat, pass by seat, then plays (or none)
        seg_end = np.cumsum(segments)
        seg_start = seg_end - segments
        play_seg = seg_end - 1
        seg_lens = np.empty(int(seg_end[-1]), np.int32)
        card_seg = np.ones(len(seg_lens), bool)
        card_seg[play_seg] = False
        seg_lens[card_seg] = self.seg_lens
        seg_lens[play_seg] = self.h_plays
        hand_rows = np.add.reduceat(seg_lens, seg_start)
        none = hand_rows == 0
        seg_lens[play_seg[none]] = 1
        hand_rows[none] = 1
        position = np.arange(len(seg_lens), dtype=np.int32) - np.repeat(seg_start, segments)
        seg_players = np.repeat(players, segments)
        is_deal, is_pass = position < seg_players, position < 2 * seg_players
        seg_event = np.where(is_deal, DEAL, np.where(is_pass, PASS, PLAY)).astype(np.int8)
        seg_event[play_seg[none]] = NONE
        seg_seat = np.where(is_deal, position, np.where(is_pass, position - seg_players, -1)).astype(np.int8)

        event = np.repeat(seg_event, seg_lens)
        rows = len(event)
        seat = np.repeat(seg_seat, seg_lens)
        is_play = event == PLAY
        seat[is_play] = np.frombuffer(b"".join(self.play_seats), np.uint8) - ord("0")
        card = np.full(rows, -1, np.int8)
        card[event < PLAY] = _card_codes(b"".join(self.dp_ranks), b"".join(self.dp_suits))
        card[is_play] = _card_codes(b"".join(self.play_ranks), b"".join(self.play_suits))
        index = np.arange(rows, dtype=np.int32)
        index -= np.repeat(np.cumsum(seg_lens) - seg_lens, seg_lens)
        index = index.astype(np.int16)
        trick = np.zeros(rows, np.int8)
        trick[is_play] = index[is_play] // np.repeat(players.astype(np.int16), self.h_plays) + 1
        game_of_hand = np.array(self.h_game, np.int32)
        columns = {
            "game": pa.array(np.repeat(np.array(self.g_index, np.int32)[game_of_hand], hand_rows)),
            "hand": pa.array(np.repeat(np.array(self.h_number, np.int16), hand_rows)),
            "event": pa.DictionaryArray.from_arrays(pa.array(event), _EVENT_DICTIONARY),
            "seat": pa.array(seat, mask=event == NONE) if none.any() else pa.array(seat),
            "card": pa.DictionaryArray.from_arrays(pa.array(card, mask=card < 0), _CARD_DICTIONARY),
            "index": pa.array(index),
            "trick": pa.array(trick, mask=~is_play),
        }
        return columns, hand_rows

    def _game_values(self) -> dict[str, pa.Array]:
        """One value per game for each game column."""
        id_codes: dict[str, int] = {}
        for game_id in self.g_id:
            if game_id is not None:
                id_codes.setdefault(game_id, len(id_codes))
        codes = np.array([-1 if i is None else id_codes[i] for i in self.g_id], np.int32)
        return {"game_id": pa.DictionaryArray.from_arrays(pa.array(codes, mask=codes < 0),
                                                          pa.array(list(id_codes), pa.string())),
                "players": pa.array(self.g_players, pa.list_(pa.string())),
                "rules": pa.array(self.g_rules, pa.string()),
                "game_meta": pa.array(self.g_meta, pa.string())}

    def _hand_values(self) -> dict[str, pa.Array]:
        """One value per hand (placeholders of games without hands included) for each hand column."""
        directions = [None if d is None else _DIRECTION_CODE[d] for d in self.h_direction]
        moons = [None if m is None else _MOON_CODE[m] for m in self.h_moon]
        return {"dealer": pa.array(self.h_dealer, pa.int8()),
                "pass_direction": pa.DictionaryArray.from_arrays(pa.array(directions, pa.int8()),
                                                                 _DIRECTION_DICTIONARY),
                "moon": pa.DictionaryArray.from_arrays(pa.array(moons, pa.int8()), _MOON_DICTIONARY),
                "points": pa.array(self.h_points, pa.list_(pa.int32())),
                "totals": pa.array(self.h_totals, pa.list_(pa.int32())),
                "hand_meta": pa.array(self.h_meta, pa.string())}

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
        game_pick = np.full(rows, -1, np.int64)
        game_pick[game_at] = np.arange(self.games)
        hand_pick = np.full(rows, -1, np.int64)
        hand_pick[hand_at] = np.flatnonzero(real)
        at_games, at_hands = indices_of(game_pick), indices_of(hand_pick)
        columns = {name: value.take(at_games) for name, value in self._game_values().items()}
        columns.update((name, value.take(at_hands)) for name, value in self._hand_values().items())
        columns.update({
            "game": pa.array(np.array(self.g_index, np.int32)[game_of_row]),
            "hand": pa.array(number),
            "event": pa.DictionaryArray.from_arrays(pa.array(event), _EVENT_DICTIONARY),
        })
        for name in ("seat", "card", "trick"):
            columns[name] = _nulls(name, rows)
        columns["index"] = pa.array(np.zeros(rows, np.int16))
        return pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA)


def _nulls(name: str, rows: int) -> pa.Array:
    """A column of nulls; a dictionary column keeps its dictionary, the same in every row group."""
    dictionary = _DICTIONARIES.get(name)
    if dictionary is None:
        return pa.nulls(rows, SCHEMA.field(name).type)
    indices = pa.nulls(rows, SCHEMA.field(name).type.index_type)
    return pa.DictionaryArray.from_arrays(indices, dictionary)


def indices_of(rows: np.ndarray) -> pa.Array:
    """Arrow ``take`` indices: null where ``rows`` is negative."""
    return pa.array(rows, pa.int64(), mask=rows < 0)


def _dictionary_spread(spread: "_Spread", values: pa.Array) -> pa.Array:
    if pa.types.is_dictionary(values.type):
        return pa.DictionaryArray.from_arrays(spread(values.indices), values.dictionary)
    return spread(values)


class _Spread:
    """Columns of ``rows`` nulls except value ``i`` on row ``first[i]`` (the first row of a game or hand)."""

    def __init__(self, rows: int, first: np.ndarray) -> None:
        self.rows, self.first = rows, first
        self.gaps = np.diff(np.append(first, rows))          # rows from each first row to the next
        valid = np.zeros(rows, bool)
        valid[first] = True
        self.all_valid = pa.py_buffer(np.packbits(valid, bitorder="little"))

    def __call__(self, small: pa.Array) -> pa.Array:
        if small.null_count:
            valid = np.zeros(self.rows, bool)
            valid[self.first[small.is_valid().to_numpy(zero_copy_only=False)]] = True
            validity = pa.py_buffer(np.packbits(valid, bitorder="little"))
        else:
            validity = self.all_valid
        if pa.types.is_list(small.type) or pa.types.is_string(small.type):
            starts = np.frombuffer(small.buffers()[1], np.int32)[:len(small) + 1]
            offsets = pa.py_buffer(np.concatenate([starts[:1], np.repeat(starts[1:], self.gaps)]))
            if pa.types.is_string(small.type):
                return pa.StringArray.from_buffers(self.rows, offsets, small.buffers()[2], validity)
            return pa.ListArray.from_buffers(small.type, self.rows, [validity, offsets], children=[small.values])
        values = np.repeat(small.fill_null(0).to_numpy(), self.gaps)
        return pa.Array.from_buffers(small.type, self.rows, [validity, pa.py_buffer(values)])
