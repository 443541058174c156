"""The Parquet encoder's fast lane: a ``hearts-game/1`` game's JSON object shredded into the columns of
the layout, at speed, exactly as the JSON reader reads it.

The card lists of a whole game are re-serialised with orjson (about a
microsecond a hand) and the compact text is checked, by character class,
against the text its shape must have, then decoded with byte slices and numpy.
Whatever is not in a shape that check recognises (``"10h"``, a seat written as
``"1"``, a wrong field) is declined (:class:`Declined`): the encoder then
reads the game with :func:`game_from_dict`, which raises the error naming the
field or gives the canonical record.
"""

from __future__ import annotations

from functools import partial
from itertools import chain, compress, repeat
from operator import is_not, itemgetter
from typing import Any, NamedTuple

import numpy as np
import orjson

from ...rules import MOON_CHOICES, PASS_DIRECTIONS
from ..model import CARD_ROWS, COLUMN, GAME_FIELDS, GAME_KEYS, HAND_FIELDS, LAYOUT, META
from .layout import INT32_MAX, INT32_MIN

_CARRIED = tuple(f.key for f in HAND_FIELDS if f.parquet in (COLUMN, CARD_ROWS))
"""The hand fields with a column or card rows of their own, in record order; any other key of a hand
(a field kept in ``hand_meta``, an unknown field) goes into the hand's meta."""
assert _CARRIED == ("dealer", "pass_direction", "deal", "passes", "plays", "moon", "points", "totals"), \
    "any_hands reads these hand fields, in this order: teach it a field added to or moved in the model"
_CARRIED_SET = frozenset(_CARRIED)
_GAME_KEY_SET = frozenset(GAME_KEYS)
_HAND_META_KEYS = tuple(f.key for f in HAND_FIELDS if not f.required)
"""Hand fields a ``hand_meta`` object may name (as explicit nulls), in record order."""
_GAME_NULLABLE = tuple(f.key for f in GAME_FIELDS if not f.required and f.parquet != LAYOUT)
"""Game fields a record may write as explicit nulls (kept as such in ``game_meta``)."""
_GAME_META = frozenset(f.key for f in GAME_FIELDS if f.parquet == META)

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
_INT = {int}
_LIST = {list}
_DICT = {dict}
_DEAL, _PLAYS = itemgetter("deal"), itemgetter("plays")
_IS_GIVEN = partial(is_not, None)
_NO_PASSES = {n: [[]] * n for n in range(3, 8)}
_DIRECTION_VALUES = frozenset(PASS_DIRECTIONS) | {None}
_MOON_VALUES = frozenset(MOON_CHOICES) | {None}


class Shredded(NamedTuple):
    """A game's hands taken apart for the encoder: per-hand values (a placeholder hand for a game without
    hands), the lengths of the card segments, and the checked card text of the whole game."""

    hands: int
    numbers: list[int]
    """The ``hand`` of each hand (1, 2, ...; 0 for the placeholder)."""
    plays: list[int]
    """Plays per hand."""
    dealer: list[int | None]
    pass_direction: list[str | None]
    moon: list[str | None]
    points: list[list[int] | None]
    totals: list[list[int] | None]
    hand_meta: list[str | None]
    """The JSON of what of each hand has no column."""
    deal_lens: list[int]
    """Cards dealt to each seat of each hand."""
    passed: list[bool]
    """Per hand: whether it has a ``passes`` list."""
    pass_lens: list[int]
    """Cards passed by each seat of each hand that has one."""
    dealt: tuple[bytes, bytes]
    """Ranks and suits of every card dealt, in order."""
    passed_text: tuple[bytes, bytes]
    played: tuple[bytes, bytes, bytes]
    """Seats, ranks and suits of every play."""


class Declined(Exception):
    """The object is not in the shape the fast path reads; :func:`game_from_dict` decides."""


def decline(why: str) -> None:
    raise Declined(why)


def card_codes(ranks: bytes, suits: bytes) -> np.ndarray:
    return _RANK_VALUE[np.frombuffer(ranks, np.uint8)] + _SUIT_VALUE[np.frombuffer(suits, np.uint8)]


def game_meta(obj: dict) -> str | None:
    """What of a game has no column: played_at, complete, unknown fields, explicit nulls (JSON, record order)."""
    meta: dict[str, Any] = {}
    for key in _GAME_NULLABLE:
        if key in obj and obj[key] is None:
            meta[key] = None
        elif key in _GAME_META and obj.get(key) is not None:
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
    meta.update((k, v) for k, v in hand.items() if k not in _CARRIED_SET)
    return meta


def _check_dealers(dealers: list, players: int) -> None:
    known = [d for d in dealers if d is not None]
    if known and (set(map(type, known)) != _INT or min(known) < 0 or max(known) >= players):
        decline("dealer")


def _check_numbers(points: list, totals: list, metas: list, players: int) -> None:
    """Points and totals: one whole number per seat; those too wide for int32 move to the hand's meta."""
    numbers = [v for v in chain(points, totals) if v is not None]
    if not numbers:
        return
    if set(map(type, numbers)) != _LIST or set(map(len, numbers)) != {players}:
        decline("points or totals not one number per seat")
    flat = list(chain.from_iterable(numbers))
    if set(map(type, flat)) != _INT:
        decline("points or totals not whole numbers")
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


def plain_hands(hands: list, n: int) -> Shredded | None:
    """The common shape, read a game at a time (``None`` otherwise, for :func:`any_hands`).

    Every hand a dict of known fields without explicit nulls; every seat dealt the same number
    of cards, every seat passing the same number (or no passes), every hand the same number of
    plays; points and totals within int32: nothing for the hand's meta. The deals, passes and
    plays of the whole game are serialised by orjson in one call each and the text compared,
    by character class, with the text that shape must have: one check, in C, of every type,
    length and card name, instead of loops over the hands in Python.
    """
    if not hands or set(map(type, hands)) != _DICT or not _CARRIED_SET.issuperset(chain.from_iterable(hands)):
        return None
    if None in chain.from_iterable(map(dict.values, hands)):
        return None
    count = len(hands)
    deals = list(map(_DEAL, hands))
    plays = list(map(_PLAYS, hands))
    passes = list(map(dict.get, hands, repeat("passes")))
    passed = list(map(is_not, passes, repeat(None)))
    given = list(compress(passes, passed))
    dealt_each, plays_each = len(deals[0][0]), len(plays[0])
    passed_each = len(given[0][0]) if given else 0
    if given and not passed_each:  # all passes empty: the hand's meta records their shape
        return None
    dealt = _card_text(orjson.dumps(deals), _shape(_CARD_SHAPE, count, n, dealt_each))
    passed_text = _card_text(orjson.dumps(given), _shape(_CARD_SHAPE, len(given), n, passed_each))
    played = _play_text(orjson.dumps(plays), _shape(_PLAY_SHAPE, count, plays_each), n)
    if dealt is None or passed_text is None or played is None:
        return None
    directions = list(map(dict.get, hands, repeat("pass_direction")))
    moons = list(map(dict.get, hands, repeat("moon")))
    if not _DIRECTION_VALUES.issuperset(directions) or not _MOON_VALUES.issuperset(moons):
        return None
    dealers = list(map(dict.get, hands, repeat("dealer")))
    points = list(map(dict.get, hands, repeat("points")))
    totals = list(map(dict.get, hands, repeat("totals")))
    numbers = list(filter(_IS_GIVEN, chain(points, totals)))
    if numbers:
        if set(map(type, numbers)) != _LIST or set(map(len, numbers)) != {n}:
            return None
        flat = list(chain.from_iterable(numbers))
        if set(map(type, flat)) != _INT or min(flat) < INT32_MIN or max(flat) > INT32_MAX:
            return None
    try:
        _check_dealers(dealers, n)
    except Declined:
        return None
    return Shredded(count, list(range(1, count + 1)), [plays_each] * count, dealers, directions, moons, points,
                    totals, [None] * count, [dealt_each] * (count * n), passed, [passed_each] * (len(given) * n),
                    dealt, passed_text, played)


_CARD_CLASS = bytes(ord("r") if chr(b) in "0123456789TJQKAtjqka" else ord("s") if chr(b) in "CDHScdhs"
                    else b if chr(b) in '[],"' else ord("?") for b in range(256))
"""Character classes of card text: ``r`` rank (or seat) characters, ``s`` suits, the JSON punctuation of
lists of strings as itself, ``?`` anything else."""
_CARD_SHAPE, _PLAY_SHAPE = b'"rs"', b'[r,"rs"]'
_SHAPES: dict[tuple, bytes] = {}
_SHAPES_MAX = 1024


def _shape(item: bytes, *counts: int) -> bytes:
    """The classes of the text of lists nested ``counts`` deep (outermost first) holding ``item``; the few
    shapes of a corpus are kept."""
    key = (item, *counts)
    text = _SHAPES.get(key)
    if text is None:
        if len(_SHAPES) >= _SHAPES_MAX:
            _SHAPES.clear()
        text = _SHAPES[key] = _nested(item, counts)
    return text


def _nested(item: bytes, counts: tuple[int, ...]) -> bytes:
    for count in reversed(counts):
        item = b"[" + b",".join([item] * count) + b"]"
    return item


def _card_text(text: bytes, shape: bytes) -> tuple[bytes, bytes] | None:
    """Ranks and suits of nested lists of two-character card names serialised by orjson, if of that shape."""
    if text.translate(_CARD_CLASS) != shape:
        return None
    names = text.translate(None, b'[],"')
    ranks = names[0::2]
    return None if ranks.translate(None, _RANK_BYTES) else (ranks, names[1::2])


def _play_text(text: bytes, shape: bytes, players: int) -> tuple[bytes, bytes, bytes] | None:
    """Seats, ranks and suits of lists of ``[seat, card]`` serialised by orjson, if of that shape."""
    if text.translate(_CARD_CLASS) != shape:
        return None
    plays = text.translate(None, b'[],"')
    seats, ranks = plays[0::3], plays[1::3]
    if seats.translate(None, _SEAT_DIGITS[players]) or ranks.translate(None, _RANK_BYTES):
        return None
    return seats, ranks, plays[2::3]


def any_hands(hands: list, n: int) -> Shredded:
    """The rows of a game's hands of any shape :func:`game_from_dict` accepts, or decline.

    Per hand only what cannot wait is done; the checks run once per game over all its hands.
    """
    per_hand, deal_lists, pass_lists, passed, plays_lists = [], [], [], [], []
    zeros = list(_ZEROS[n])
    try:
        for hand in hands:
            if type(hand) is not dict:
                decline("hand")
            values = list(map(hand.get, _CARRIED))
            dealer, direction, deal, passes, plays, moon, points, totals = values
            if type(deal) is not list or len(deal) != n or type(plays) is not list:
                decline("deal or plays")
            deal_lists.extend(deal)
            plays_lists.append(plays)
            pass_shape = None
            passed.append(passes is not None)
            if passes is not None:
                if type(passes) is not list or len(passes) != n:
                    decline("passes")
                if None in passes:
                    pass_shape = [None if cards is None else [] for cards in passes]
                    passes = [[] if cards is None else cards for cards in passes]
                if pass_shape is None and not any(map(len, passes)):
                    pass_shape = [[] for _ in passes]
                pass_lists.extend(passes)
            # every key known and not null: len(hand) is the count of values that are not None
            meta = None
            if pass_shape is not None or len(hand) + values.count(None) != len(_CARRIED):
                meta = _hand_meta(hand, pass_shape)
            per_hand.append((len(plays), dealer, direction, moon, points, totals, meta))
        if not hands:  # a placeholder row keeps a game without hands
            per_hand = [(0, None, None, None, None, None, None)]
            passed = [False]
        plays_counts, dealers, directions, moons, points_l, totals_l, metas = map(list, zip(*per_hand))
        if (set(map(type, chain(deal_lists, pass_lists))) - _LIST
                or not set(directions) <= _DIRECTION_VALUES or not set(moons) <= _MOON_VALUES):
            decline("hand fields")
        _check_dealers(dealers, n)
        _check_numbers(points_l, totals_l, metas, n)
        deal_lens = list(map(len, deal_lists)) if hands else zeros
        pass_lens = list(map(len, pass_lists))
        deal_cards = list(chain.from_iterable(deal_lists))
        pass_cards = list(chain.from_iterable(pass_lists))
        all_plays = list(chain.from_iterable(plays_lists))
        dealt = _card_text(orjson.dumps(deal_cards), _nested(_CARD_SHAPE, (len(deal_cards),)))
        passed_text = _card_text(orjson.dumps(pass_cards), _nested(_CARD_SHAPE, (len(pass_cards),)))
        played = _play_text(orjson.dumps(all_plays), _nested(_PLAY_SHAPE, (len(all_plays),)), n)
    except (TypeError, orjson.JSONEncodeError):  # a len() of a number, an unhashable direction, ...
        decline("hand fields")
    if dealt is None or passed_text is None or played is None:
        decline("cards not all two-character names, or plays not all [seat, card]")
    numbers = list(range(1, len(hands) + 1)) if hands else [0]
    try:
        meta_texts = [None if m is None else orjson.dumps(m).decode() for m in metas]
    except orjson.JSONEncodeError:  # nested too deep: the reader names the field
        decline("a hand field orjson cannot write")
    return Shredded(len(hands), numbers, plays_counts, dealers, directions, moons, points_l, totals_l, meta_texts,
                    deal_lens, passed, pass_lens, dealt, passed_text, played)
