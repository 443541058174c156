"""Long JSON text read a game and a hand at a time, in memory that grows with one hand, not with the text.

A JSON reader that builds the whole value of a game of 50,000 hands makes about
fifteen times the text in objects: a 51 MB line took 1.2 GB before its first hand
was replayed. Here the text's outer levels (a list of games, a game's fields, its
``hands`` list) are walked by hand, and every other value, each hand among them, is
read on its own by the standard library's JSON decoder (``raw_decode``, in C),
which says where it ends. The hands are read twice: once to find where each starts
(and that the whole text is JSON) before any of them is used, once to hand them out.

Only the JSON that orjson reads alike is taken here. Anything else (a syntax error,
``NaN``, a number too large for a float, an escaped surrogate, a second ``hands``
field, text that is not UTF-8) raises :class:`NotPlain`, and the caller reads the
text the usual way, so that every error reads as it always has.

>>> header, hands = game_parts('{"players": ["a", "b", "c"], "hands": [{"dealer": 0}, {"dealer": 1}]}')
>>> header
{'players': ['a', 'b', 'c'], 'hands': []}
>>> list(hands)
[{'dealer': 0}, {'dealer': 1}]
>>> game_parts('{"players": [NaN]}')
Traceback (most recent call last):
...
hearts_analysis.records.json.stream.NotPlain: not plain JSON
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Iterator

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


def _elements(text: str, i: int, end_of) -> tuple[list[int], int]:
    """Where each value of the JSON list at ``text[i]`` starts, and where the list ends (``end_of`` reads a
    value and says where it ends)."""
    starts: list[int] = []
    i = _space(text, i + 1)
    if text[i] == "]":
        return starts, i + 1
    while True:
        starts.append(i)
        i = _space(text, end_of(text, i))
        if text[i] == "]":
            return starts, i + 1
        if text[i] != ",":
            raise NotPlain()
        i = _space(text, i + 1)


def _end_of_value(text: str, i: int) -> int:
    return _decode(text, i)[1]


def _end_of_game(text: str, i: int) -> int:
    return _game(text, i)[2]


def _object(text: str, i: int) -> tuple[dict[str, Any], list[int] | None, int]:
    """The object at ``text[i]``: its fields with ``hands`` as ``[]`` if it is a list, where each hand starts
    (``None`` if it is not a list), and where the object ends."""
    fields: dict[str, Any] = {}
    hands: list[int] | None = None
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
            hands, i = _elements(text, i, _end_of_value)
            fields[key] = []
        else:
            fields[key], i = _decode(text, i)
        i = _space(text, i)
        if text[i] == "}":
            return fields, hands, i + 1
        if text[i] != ",":
            raise NotPlain()
        i = _space(text, i + 1)


def _hands(text: str, starts: list[int]) -> Iterator[Any]:
    for start in starts:
        yield _decode(text, start)[0]


def _read(read, *args):
    try:
        return read(*args)
    except (ValueError, IndexError, RecursionError):  # JSONDecodeError, NotPlain and UnicodeDecodeError among them
        raise NotPlain() from None


def _game(text: str, i: int) -> tuple[Any, Iterator[Any] | None, int]:
    if text[i] != "{":
        value, end = _decode(text, i)
        return value, None, end
    fields, starts, end = _object(text, i)
    return fields, None if starts is None else _hands(text, starts), end


def _whole(text: str, i: int) -> None:
    if _space(text, i) != len(text):
        raise NotPlain()


def is_list(text: str) -> bool:
    """The JSON text is a list (of games), not one game."""
    return text.startswith("[", _space(text, 0))


def game_parts(text: str) -> tuple[Any, Iterator[Any] | None]:
    """The one JSON value of ``text``: a game's fields (``hands`` as ``[]``) and its hands one by one, or any
    other value and ``None``; :class:`NotPlain` if orjson might read it otherwise."""
    def read():
        value, hands, end = _game(text, _space(text, 0))
        _whole(text, end)
        return value, hands
    return _read(read)


def games_parts(text: str) -> Iterator[tuple[Any, Iterator[Any] | None]]:
    """Like :func:`game_parts` for each value of the JSON list that is all of ``text``. The whole text is
    walked before the first game is given (:class:`NotPlain` if it does not all read), as one parse would."""
    def walk():
        i = _space(text, 0)
        if text[i] != "[":
            raise NotPlain()
        starts, end = _elements(text, i, _end_of_game)
        _whole(text, end)
        return starts
    for start in _read(walk):
        value, hands, _ = _read(_game, text, start)
        yield value, hands
