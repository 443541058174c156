"""Long JSON text read a game and a hand at a time, in memory that grows with one hand, not with the text.

A JSON reader that builds the whole value of a game of 50,000 hands makes about
fifteen times the text in objects: a 51 MB line took 1.2 GB before its first hand
was replayed. Here the text's outer levels (a list of games, a game's fields, its
``hands`` list) are walked by hand, and every other value, each hand among them, is
read on its own by the standard library's JSON decoder (``raw_decode``, in C),
which says where it ends. Each hand is read twice: once to find where it starts (and
that the whole text is JSON) before any game is used, once to hand it out.

Only the JSON that orjson reads alike is taken here. Anything else (a syntax error,
``NaN``, a number too large for a float, an escaped surrogate, a second ``hands``
field, text that is not UTF-8) raises :class:`NotPlain`, and the caller reads the
text the usual way, so that every error reads as it always has.

>>> listed, games = document('{"players": ["a", "b", "c"], "hands": [{"dealer": 0}, {"dealer": 1}]}')
>>> (header, hands), = games
>>> listed, header
(False, {'players': ['a', 'b', 'c'], 'hands': []})
>>> list(hands)
[{'dealer': 0}, {'dealer': 1}]
>>> document('{"players": [NaN]}')
Traceback (most recent call last):
...
hearts_analysis.records.json.stream.NotPlain: not plain JSON
"""

from __future__ import annotations

import json
import math
import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator

STREAM_BYTES = 8 << 20
"""Text longer than this is read here (about 9,000 hands): below it, orjson's one call is quicker, and its
objects take at most a few hundred megabytes."""

_SPACE = re.compile(r"[ \t\n\r]*")
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


class NotPlain(ValueError):
    """Text this reader does not take: read it the usual way."""

    def __init__(self) -> None:
        super().__init__("not plain JSON")


def _refuse(_text: str) -> Any:
    raise NotPlain()


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # orjson refuses a number beyond a double
        raise NotPlain()
    return value


_decode = json.JSONDecoder(parse_constant=_refuse, parse_float=_finite).raw_decode


def text_of(data: bytes) -> str:
    """``data`` as text, or :class:`NotPlain` (not UTF-8, or a surrogate escape, which orjson refuses unpaired)."""
    if _SURROGATE.search(data):
        raise NotPlain()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotPlain() from None


def _space(text: str, i: int) -> int:
    return _SPACE.match(text, i).end()


Hands = tuple[list[int], int]
"""Where each hand of a game's ``hands`` list starts, and where the list ends."""


def _elements(text: str, i: int, read: Callable[[str, int], tuple[Any, int]]) -> tuple[list[Any], int]:
    """What ``read`` (a value's summary and its end) says of each value of the JSON list at ``text[i]``,
    and where the list ends."""
    items: list[Any] = []
    i = _space(text, i + 1)
    if text[i] == "]":
        return items, i + 1
    while True:
        item, i = read(text, i)
        items.append(item)
        i = _space(text, i)
        if text[i] == "]":
            return items, i + 1
        if text[i] != ",":
            raise NotPlain()
        i = _space(text, i + 1)


def _hand_start(text: str, i: int) -> tuple[int, int]:
    return i, _decode(text, i)[1]


def _object(text: str, i: int, known: Hands | None = None) -> tuple[dict[str, Any], Hands | None, int]:
    """The object at ``text[i]``: its fields with ``hands`` as ``[]`` if it is a list, where its hands are
    (``None`` if they are not a list; ``known``: as found before, not read again), and where it ends."""
    fields: dict[str, Any] = {}
    hands: Hands | None = None
    i = _space(text, i + 1)
    if text[i] == "}":
        return fields, hands, i + 1
    while True:
        if text[i] != '"':
            raise NotPlain()
        key, i = _decode(text, i)
        i = _space(text, i)
        if text[i] != ":" or (key == "hands" and "hands" in fields):  # orjson keeps the last: read it there
            raise NotPlain()
        i = _space(text, i + 1)
        if key == "hands" and text[i] == "[":
            hands = known if known is not None else _elements(text, i, _hand_start)
            fields[key], i = [], hands[1]
        else:
            fields[key], i = _decode(text, i)
        i = _space(text, i)
        if text[i] == "}":
            return fields, hands, i + 1
        if text[i] != ",":
            raise NotPlain()
        i = _space(text, i + 1)


def _game(text: str, i: int) -> tuple[tuple[int, Hands | None], int]:
    """A game's place: where it starts and where its hands are; and where it ends."""
    if text[i] != "{":
        return (i, None), _decode(text, i)[1]
    _, hands, end = _object(text, i)
    return (i, hands), end


def _parts(text: str, place: tuple[int, Hands | None]) -> tuple[Any, Iterator[Any] | None]:
    """The game at ``place`` (as :func:`_game` found it): its fields (or any other value) and its hands."""
    start, hands = place
    if text[start] != "{":
        return _decode(text, start)[0], None
    fields = _object(text, start, hands)[0]
    return fields, None if hands is None else (_decode(text, h)[0] for h in hands[0])


@contextmanager
def _plain() -> Iterator[None]:
    try:
        yield
    except (ValueError, IndexError, RecursionError):  # JSONDecodeError, NotPlain and UnicodeDecodeError among them
        raise NotPlain() from None


def document(text: str) -> tuple[bool, Iterator[tuple[Any, Iterator[Any] | None]]]:
    """Whether ``text`` is a list of games, and its games one by one: each game's fields (``hands`` as
    ``[]``) and its hands one by one, or any other value and ``None``. The whole text is walked first, as
    one parse would: :class:`NotPlain` before any game if orjson might read it otherwise."""
    with _plain():
        i = _space(text, 0)
        listed = text.startswith("[", i)
        places, end = _elements(text, i, _game) if listed else _game(text, i)
        if _space(text, end) != len(text):
            raise NotPlain()
    return listed, (_parts(text, place) for place in (places if listed else [places]))
