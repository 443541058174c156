"""Game lines encoded from their text: the hands of a compact line are read without building them in Python.

Parsing a line with orjson builds a list and a string for every card and play
(about two thousand objects a game), and the encoder then writes the card
lists back to text to check them: together four fifths of the time of
``hearts validate x.jsonl``. Most lines are written compactly, as
``hearts convert`` and the simulator write them, and for those the text of
the ``hands`` array already is the card text the encoder wants. Here the
array is cut at its hands, and each hand at its fields by a pattern that
steps over card lists of the game's usual lengths at once (a pattern that
looked at every character would cost more than orjson), or else by byte
searches; every piece is checked strictly: the known fields in record order,
each once; card lists compared with the text their shape must have,
character class by character class; seats and dealers one digit; whole
numbers that fit in int32; no whitespace, no escapes, no nulls. The rest of the line, with ``[]``
in place of the hands, is parsed by orjson and checked by the encoder itself.
A line that does not fit, anywhere, is parsed and encoded whole as before
(:meth:`EventEncoder.add_json`), so what this reads gives the rows the usual
path gives, and the tests compare the two.

>>> encoder = LineEncoder()
>>> line = (b'{"players":["a","b","c"],"hands":[{"dealer":0,"deal":[["2C"],["3C"],["4C"]],'
...         b'"plays":[[0,"2C"],[1,"3C"],[2,"4C"]],"points":[0,0,0]}]}')
>>> encoder.add_line(line), encoder.add_line(line.replace(b'"2C"', b'"2c"'))  # read from text, parsed
(True, False)
>>> encoder.games, encoder.hands
(2, 2)
"""

from __future__ import annotations

import re
from itertools import product, repeat
from operator import itemgetter
from typing import Any

import orjson

from ..records.model import HAND_KEYS
from ..records.parquet.encode import EventEncoder
from ..records.parquet.shred import Shredded, decline
from ..rules import MOON_CHOICES, PASS_DIRECTIONS

_DEALER, _DIRECTION, _DEAL, _PASSES, _PLAYS, _MOON, _POINTS, _TOTALS = map(HAND_KEYS.index, (
    "dealer", "pass_direction", "deal", "passes", "plays", "moon", "points", "totals"))
_NAME, _VALUE = itemgetter(2), itemgetter(0)
_LAYOUTS = {tuple(name.encode() for name in names): tuple(names.index(field) + 1 if field in names else 0
                                                          for field in HAND_KEYS)
            for names in (tuple(field for field, given in zip(HAND_KEYS, flags) if given)
                          for flags in product((False, True), repeat=len(HAND_KEYS)))
            if "deal" in names and "plays" in names}
"""The names of a hand's fields, in record order (the deal and the plays among them) -> where each field of
:data:`HAND_KEYS` is in the values of :func:`_fields` (0: absent)."""
_HANDS_KEY, _PASSES_KEY = b'"hands":[{', b'"passes":[['
_NUMBER = rb'-?(?:0|[1-9][0-9]{0,8})'  # at most nine digits: within int32, as the columns hold them
_NUMBER_LIST = rb'\[' + _NUMBER + rb'(?:,' + _NUMBER + rb')*\]'
_NUMBER_LISTS = re.compile(rb'(?:' + _NUMBER_LIST + rb'(?:,' + _NUMBER_LIST + rb')*)?')
_BAD = object()
_DIGITS = {str(d).encode(): d for d in range(10)} | {None: None}
_DIRECTIONS = {f'"{name}"'.encode(): name for name in PASS_DIRECTIONS} | {None: None}
_MOONS = {f'"{name}"'.encode(): name for name in MOON_CHOICES} | {None: None}
_RANKS = b"23456789TJQKA"
_SEAT_DIGITS = {n: bytes(range(ord("0"), ord("0") + n)) for n in range(3, 8)}
_PUNCTUATION = b'[],"'
_CARD_CLASS, _PLAY_CLASS = (bytes(ord("r") if chr(b) in ranks else ord("s") if chr(b) in "CDHS"
                                    else b if chr(b) in '[],"' else ord("?") for b in range(256))
                              for ranks in ("23456789TJQKA", "0123456789TJQKA"))
"""Character classes of card text: ``r`` a rank (of plays: or a seat), ``s`` a suit, the punctuation of lists
of strings as itself, ``?`` anything else."""
_CARD_SHAPE, _PLAY_SHAPE = b'"rs"', b'[r,"rs"]'
_SHAPES: dict[tuple, bytes] = {}
_SHAPES_MAX = 1024
_MOST_CARDS = 52
"""Cards a seat may hold here (a deck's); the shapes of longer lists are not made, nor kept."""
_HAND_PATTERNS: dict[tuple[int, int, int], Any] = {}
_REPEATED: dict[tuple[bytes, int], bytes] = {}


class LineEncoder(EventEncoder):
    """An :class:`EventEncoder` that also takes lines of JSON, reading compact ones from their text."""

    def add_line(self, line: bytes) -> bool:
        """Add the game on a line of JSON, exactly as ``add_json(orjson.loads(line))`` would (raising what it
        raises); ``True`` if its hands were read from the text."""
        if self._add_text(line):
            return True
        self.add_json(orjson.loads(line))
        return False

    def _add_text(self, line: bytes) -> bool:
        """Add the game if its hands are compact text and the rest of it passes the encoder's checks; else add
        nothing.

        The hands' text is checked to be valid JSON (it holds no backslash), so the line is valid JSON exactly
        when the line with ``[]`` in its place is; with backslashes excluded there too, the only ``"hands"`` of
        that line is its top-level key, and the object orjson gives is the record's, hands aside.
        """
        at = line.find(_HANDS_KEY)
        if at < 0:
            return False
        at += len(_HANDS_KEY) - 2
        end = line.find(b"}]", at) + 2  # no hand in compact text holds a "}"
        if end < 2:
            return False
        rest = line[:at] + b"[]" + line[end:]
        if b"\\" in rest or rest.count(b'"hands"') != 1:
            return False
        try:
            obj = orjson.loads(rest)
        except orjson.JSONDecodeError:
            return False
        if type(obj) is not dict or obj.get("hands") != []:
            return False
        obj["hands"] = line[at + 2:end - 2].split(b"},{")
        try:
            self.add_shredded(obj, _text_hands)
        except Exception:  # declined, or refused: the usual path decides, and raises what it raises
            return False
        return True


def _text_hands(hands: list[bytes], n: int) -> Shredded:
    """The rows of a game's hands, each hand the text between its braces."""
    return _encoded(*_rows(hands, n), n)


def _rows(hands: list[bytes], n: int) -> tuple[list, bool]:
    """The text of each field of each hand, as :func:`_fields` gives it, and whether the pattern read them all
    (and so checked their points and totals).

    The card lists of a game are most often all of one length: the deal of its first hand, the passes of the
    first hand that has them, all of its cards played. A pattern that steps over text of exactly those lengths
    at once (:func:`_hand_pattern`) reads such a hand; any other is read by :func:`_fields`.
    """
    first = hands[0]
    at = first.find(b'"deal":[[')
    deal = first.find(b"]", at) - at - 8  # '"deal":[[' and five characters a card, less a comma
    passing = next((hand for hand in hands if _PASSES_KEY in hand), None)
    passed = 0
    if passing is not None:
        at = passing.find(_PASSES_KEY)
        passed = passing.find(b"]", at) - at - 10
    each = (deal + 1) // 5
    if not 0 < each <= _MOST_CARDS or not 0 <= passed <= 5 * _MOST_CARDS:
        return list(map(_fields, hands)), False
    pattern = _hand_pattern(n, each, (passed + 1) // 5)
    rows = [found.groups() if (found := pattern(hand)) else _fields(hand) for hand in hands]
    return rows, all(type(row) is tuple for row in rows)


def _hand_pattern(n: int, each: int, passed: int):
    """``fullmatch`` of a hand whose seats are dealt ``each`` cards, pass ``passed`` (if they pass) and play
    them all; the card lists are checked afterwards, by shape (:func:`_card_lists`, :func:`_plays`)."""
    key = (n, each, passed)
    found = _HAND_PATTERNS.get(key)
    if found is None:
        if len(_HAND_PATTERNS) >= _SHAPES_MAX:
            _HAND_PATTERNS.clear()
        deal, passes = len(_shape(_CARD_SHAPE, each, n)), len(_shape(_CARD_SHAPE, passed, n))
        plays = len(_shape(_PLAY_SHAPE, n * each))
        found = _HAND_PATTERNS[key] = re.compile(
            rb'(?s)(?:"dealer":([0-9]),)?(?:"pass_direction":(' + _quoted(PASS_DIRECTIONS) + rb'),)?'
            rb'"deal":(.{%d})(?:,"passes":(.{%d}))?,"plays":(.{%d})' % (deal, passes, plays) +
            rb'(?:,"moon":(' + _quoted(MOON_CHOICES) + rb'))?'
            rb'(?:,"points":(' + _NUMBER_LIST + rb'))?(?:,"totals":(' + _NUMBER_LIST + rb'))?').fullmatch
    return found


def _quoted(names: tuple[str, ...]) -> bytes:
    return b"|".join(re.escape(f'"{name}"'.encode()) for name in names)


def _fields(hand: bytes) -> list:
    """The text of each field of a hand (``None`` where absent), in :data:`HAND_KEYS` order; or decline.

    The text is ``"name":value`` pairs; ``":`` is in no value of compact text, and a value ends at the last
    ``,"`` before the next ``":``. The names, in their order, must be one of :data:`_LAYOUTS`; the values are
    checked by the caller. Maps of C functions: a loop over the fields in Python costs as much as orjson.
    """
    parts = (b"," + hand).split(b'":')
    cut = list(map(bytes.rpartition, parts[:-1], repeat(b',"')))
    layout = _LAYOUTS.get(tuple(map(_NAME, cut)))
    if layout is None:
        decline("hand fields not known fields in record order")
    values = list(map(_VALUE, cut))
    values[0] = None  # what is before the first name: nothing, and what stands for an absent field
    values.append(parts[-1])
    return list(map(values.__getitem__, layout))


def _encoded(rows: list, checked: bool, n: int) -> Shredded:
    """The encoder's rows of a game's hands (as :func:`~hearts_analysis.records.parquet.shred.plain_hands` gives
    them), or decline."""
    columns = list(zip(*rows))
    count = len(rows)
    dealers, directions, moons = (list(map(codes.get, columns[at], [_BAD] * count))
                                  for codes, at in ((_DIGITS, _DEALER), (_DIRECTIONS, _DIRECTION), (_MOONS, _MOON)))
    if _BAD in dealers or _BAD in directions or _BAD in moons or max(filter(None, dealers), default=0) >= n:
        decline("dealer, pass direction or moon")
    if None in columns[_DEAL] or None in columns[_PLAYS]:
        decline("no deal or no plays")
    passes = columns[_PASSES]
    given = [text for text in passes if text is not None]
    deal_lens, *dealt = _card_lists(columns[_DEAL], n)
    pass_lens, *passed = _card_lists(given, n)
    plays_counts, *played = _plays(columns[_PLAYS], n)
    points, totals = _numbers(columns[_POINTS], n, checked), _numbers(columns[_TOTALS], n, checked)
    return Shredded(count, list(range(1, count + 1)), plays_counts, dealers, directions, moons, points, totals,
                    [None] * count, deal_lens, [text is not None for text in passes], pass_lens, tuple(dealt),
                    tuple(passed), tuple(played))


def _shape(item: bytes, count: int, seats: int = 0) -> bytes:
    """The classes of the text of a list of ``count`` items (of ``seats`` such lists, if given); kept."""
    key = (item, count, seats)
    text = _SHAPES.get(key)
    if text is None:
        if len(_SHAPES) >= _SHAPES_MAX:
            _SHAPES.clear()
        text = b"[" + b",".join([item] * count) + b"]"
        if seats:
            text = b"[" + b",".join([text] * seats) + b"]"
        _SHAPES[key] = text
    return text


def _card_lists(texts: Any, n: int) -> tuple[list[int], bytes, bytes]:
    """Cards of each seat of ``[[cards],...]`` texts, and their ranks and suits; decline unless each is a list
    of ``n`` lists of card names, none empty (an empty list of passes goes to the hand's meta: the encoder's
    own path keeps that).

    Where every text is as long as the first and every seat holds as many cards as its first seat, the text of
    them all is compared with the text that shape must have at once; else text by text.
    """
    if not texts:
        return [], b"", b""
    text = b"".join(texts)
    each = (text.find(b"]") - 1) // 5  # a card is '"XY",': five characters
    if not 0 < each <= _MOST_CARDS:
        decline("not a list of card names per seat")
    shape = _shape(_CARD_SHAPE, each, n)
    if set(map(len, texts)) == {len(shape)} and text.translate(_CARD_CLASS) == _repeated(
            shape, len(texts)):
        lengths = [each] * (n * len(texts))
    else:
        lengths = []
        for hand in texts:
            seats = [(len(seat) + 1) // 5 for seat in hand[2:-2].split(b"],[")]
            if (len(seats) != n or not 0 < min(seats) <= max(seats) <= _MOST_CARDS
                    or hand.translate(_CARD_CLASS) != b"[" + b",".join(_shape(_CARD_SHAPE, k) for k in seats) + b"]"):
                decline("not a list of card names per seat")
            lengths.extend(seats)
    names = text.translate(None, _PUNCTUATION)
    return lengths, names[0::2], names[1::2]


def _plays(texts: tuple, n: int) -> tuple[list[int], bytes, bytes, bytes]:
    """Plays of each ``[[seat, card],...]`` text, and their seats, ranks and suits; or decline.

    Each text's length gives its count of plays; the shape of that many is no longer than the text, and as
    long only if the length was exactly that of so many plays: the whole compared with the shapes end to end
    checks each text in its place.
    """
    counts = [(len(text) - 1) // 9 for text in texts]  # a play is '[0,"XY"],': nine characters
    if max(counts) > 7 * _MOST_CARDS:
        decline("more plays than cards")
    text = b"".join(texts)
    if counts.count(counts[0]) == len(counts):
        shapes = _repeated(_shape(_PLAY_SHAPE, counts[0]), len(counts))
    else:
        shapes = b"".join([_shape(_PLAY_SHAPE, k) for k in counts])
    if 0 in counts or text.translate(_PLAY_CLASS) != shapes:
        decline("plays not all [seat, card]")
    plays = text.translate(None, _PUNCTUATION)
    seats, ranks = plays[0::3], plays[1::3]
    if seats.translate(None, _SEAT_DIGITS[n]) or ranks.translate(None, _RANKS):
        decline("seat or card name")
    return counts, seats, ranks, plays[2::3]


def _repeated(shape: bytes, count: int) -> bytes:
    """``shape * count``, kept: a game's card lists are compared with it at once."""
    key = (shape, count)
    text = _REPEATED.get(key)
    if text is None:
        if len(_REPEATED) >= _SHAPES_MAX:
            _REPEATED.clear()
        text = _REPEATED[key] = shape * count
    return text


def _numbers(texts: tuple, n: int, checked: bool) -> list[list[int] | None]:
    """Points or totals of each hand (``None`` where absent), one whole number per seat, or decline.

    Unless ``checked`` (by the hand's pattern), the texts are checked together, joined by commas: each holds
    one ``[`` (counted), so each is one list.
    """
    given = [text for text in texts if text is not None]
    joined = b",".join(given)
    if not checked and (_NUMBER_LISTS.fullmatch(joined) is None or joined.count(b"[") != len(given)):
        decline("points or totals not lists of whole numbers")
    values = orjson.loads(b"[" + joined + b"]")
    if set(map(len, values)) - {n}:
        decline("points or totals not one number per seat")
    if len(given) < len(texts):
        found = iter(values)
        values = [None if text is None else next(found) for text in texts]
    return values
