"""Game lines encoded from their text: the hands of a compact line are read without building them in Python.

Parsing a line with orjson builds a list and a string for every card and play
(about two thousand objects a game), and the encoder then writes the card
lists back to text to check them: together four fifths of the time of
``hearts validate x.jsonl``. Most lines are written compactly, as
``hearts convert`` and the simulator write them, and for those the text of
the ``hands`` array already is the card text the encoder wants. Here the
array is cut at its hands and fields with byte searches (a regular
expression, stepping a character at a time, costs more than orjson), and
every piece is checked strictly: the known fields in record order, each once;
card lists compared with the text their shape must have, character class by
character class; seats and dealers one digit; whole numbers that fit in
int32; no whitespace, no escapes, no nulls. The rest of the line, with ``[]``
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

from ..records.events_encode import EventEncoder
from ..records.events_json import decline
from ..rules import MOON_CHOICES, PASS_DIRECTIONS

HAND_FIELDS = ("dealer", "pass_direction", "deal", "passes", "plays", "moon", "points", "totals")
"""A hand's fields in record order, the order in which they must come here."""
_DEALER, _DIRECTION, _DEAL, _PASSES, _PLAYS, _MOON, _POINTS, _TOTALS = range(len(HAND_FIELDS))
_NAME, _VALUE = itemgetter(2), itemgetter(0)
_LAYOUTS = {tuple(name.encode() for name in names): tuple(names.index(field) + 1 if field in names else 0
                                                          for field in HAND_FIELDS)
            for names in (tuple(field for field, given in zip(HAND_FIELDS, flags) if given)
                          for flags in product((False, True), repeat=len(HAND_FIELDS)))
            if "deal" in names and "plays" in names}
"""The names of a hand's fields, in record order (the deal and the plays among them) -> where each field of
:data:`HAND_FIELDS` is in the values of :func:`_fields` (0: absent)."""
_HANDS_KEY = b'"hands":[{'
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
_CLASS = bytes(ord("r") if chr(b) in "0123456789TJQKA" else ord("s") if chr(b) in "CDHS"
               else b if chr(b) in '[],"' else ord("?") for b in range(256))
"""Character classes of card text: ``r`` a rank or a seat, ``s`` a suit, the punctuation of lists of strings
as itself, ``?`` anything else."""
_CARD_SHAPE, _PLAY_SHAPE = b'"rs"', b'[r,"rs"]'
_SHAPES: dict[tuple, bytes] = {}
_SHAPES_MAX = 1024


class LineEncoder(EventEncoder):
    """An :class:`EventEncoder` that also takes lines of JSON, reading compact ones from their text."""

    def __init__(self, next_game: int = 0) -> None:
        super().__init__(next_game)
        self._text_hands: list | None = None

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

        The hands' text is checked to be valid JSON, so the line is valid JSON exactly when the line with
        ``[]`` in its place is; with backslashes excluded, the only ``"hands"`` of that line is its top-level
        key, and the object orjson gives is the record's, hands aside.
        """
        if b"\\" in line:
            return False
        at = line.find(_HANDS_KEY)
        if at < 0:
            return False
        at += len(_HANDS_KEY) - 2
        end = line.find(b"}]", at) + 2  # no hand in compact text holds a "}"
        if end < 2:
            return False
        rest = line[:at] + b"[]" + line[end:]
        if rest.count(b'"hands"') != 1:
            return False
        try:
            obj = orjson.loads(rest)
        except orjson.JSONDecodeError:
            return False
        if type(obj) is not dict or obj.get("hands") != []:
            return False
        obj["hands"] = self._text_hands = line[at + 2:end - 2].split(b"},{")
        try:
            self._add(obj)
        except Exception:  # declined, or refused: the usual path decides, and raises what it raises
            return False
        finally:
            self._text_hands = None
        return True

    def _hands(self, hands: list, n: int) -> tuple:
        if hands is self._text_hands:
            return _encoded(list(map(_fields, hands)), n)
        return super()._hands(hands, n)


def _fields(hand: bytes) -> list:
    """The text of each field of a hand (``None`` where absent), in :data:`HAND_FIELDS` order; or decline.

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


def _encoded(rows: list[list], n: int) -> tuple:
    """The encoder's rows of a game's hands (as :func:`events_json.plain_hands` gives them), or decline."""
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
    return (count, list(range(1, count + 1)), plays_counts, dealers, directions, moons, _numbers(columns[_POINTS], n),
            _numbers(columns[_TOTALS], n), [None] * count, deal_lens, [text is not None for text in passes],
            pass_lens, dealt, passed, played)


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
    of ``n`` lists of two-character card names, none empty.

    Where every text is as long as the first and every seat holds as many cards as its first seat, the text of
    them all is compared with the text that shape must have at once; else text by text.
    """
    if not texts:
        return [], b"", b""
    text = b"".join(texts)
    if b"[]" in text:  # an empty list of passes goes to the hand's meta: the encoder's own path keeps that
        decline("a seat without cards")
    each = (text.find(b"]") - 1) // 5  # a card is '"XY",': five characters
    shape = _shape(_CARD_SHAPE, each, n)
    if set(map(len, texts)) == {len(shape)} and text.translate(_CLASS) == shape * len(texts):
        lengths = [each] * (n * len(texts))
    else:
        lengths = []
        for hand in texts:
            seats = [(len(seat) + 1) // 5 for seat in hand[2:-2].split(b"],[")]
            if len(seats) != n or hand.translate(_CLASS) != b"[" + b",".join(
                    _shape(_CARD_SHAPE, k) for k in seats) + b"]":
                decline("not a list of card names per seat")
            lengths.extend(seats)
    names = text.translate(None, _PUNCTUATION)
    ranks = names[0::2]
    if ranks.translate(None, _RANKS):
        decline("card name")
    return lengths, ranks, names[1::2]


def _plays(texts: tuple, n: int) -> tuple[list[int], bytes, bytes, bytes]:
    """Plays of each ``[[seat, card],...]`` text, and their seats, ranks and suits; or decline.

    Each text's length gives its count of plays; the shape of that many, compared with the text, holds only if
    the length was exactly that of so many plays, so each text is checked on its own place in the whole.
    """
    counts = [(len(text) - 1) // 9 for text in texts]  # a play is '[0,"XY"],': nine characters
    text = b"".join(texts)
    if text.translate(_CLASS) != b"".join([_shape(_PLAY_SHAPE, k) for k in counts]) or 0 in counts:
        decline("plays not all [seat, card]")
    plays = text.translate(None, _PUNCTUATION)
    seats, ranks = plays[0::3], plays[1::3]
    if seats.translate(None, _SEAT_DIGITS[n]) or ranks.translate(None, _RANKS):
        decline("seat or card name")
    return counts, seats, ranks, plays[2::3]


def _numbers(texts: tuple, n: int) -> list[list[int] | None]:
    """Points or totals of each hand (``None`` where absent), one whole number per seat, or decline.

    The texts are checked together, joined by commas: each holds one ``[`` (counted), so each is one list.
    """
    given = [text for text in texts if text is not None]
    joined = b",".join(given)
    if _NUMBER_LISTS.fullmatch(joined) is None or joined.count(b"[") != len(given):
        decline("points or totals not lists of whole numbers")
    values = orjson.loads(b"[" + joined + b"]")
    if set(map(len, values)) - {n}:
        decline("points or totals not one number per seat")
    if len(given) < len(texts):
        found = iter(values)
        values = [None if text is None else next(found) for text in texts]
    return values
