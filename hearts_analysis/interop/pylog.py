"""Events as a Python program's ``logging`` wrote them: a line naming the event, then a line of its data.

Trend Hearts' sample bot logs every event it receives with ``%(asctime)s %(levelname)s %(message)s``:
one line ``... INFO new_deal``, then one line ``... INFO {u'dealNumber': 1, ...}``, the data as a
Python 2 dict repr (``u'...'``, ``True``, ``False``, ``None``), not JSON. The bot's own notes
(``Pick card:...``, ``Send message:{...}``) come between them and are not events. The data is read
with :func:`ast.literal_eval` (never ``eval``), after its size is checked, and only the JSON kinds of
value are kept: a dict of anything else is an error naming the line.

>>> lines = ["2018-09-10 21:37:59,683 INFO new_deal", "2018-09-10 21:37:59,683 INFO Pick card:2C",
...          "2018-09-10 21:37:59,740 INFO {u'dealNumber': 1, u'ok': True}"]
>>> looks_like("\\n".join(lines))
True
>>> list(events("\\n".join(lines)))
[(3, {'eventName': 'new_deal', 'data': {'dealNumber': 1, 'ok': True}})]
>>> events_of = list(events("2018-09-10 21:37:59,683 INFO turn_end\\n2018-09-10 21:37:59,740 INFO {u'x': 1j}"))
>>> events_of[0][1].text()
'event: the data is not a dict of JSON values (complex)'
"""

from __future__ import annotations

import ast
import re
from typing import Any, Iterator

from ..records.errors import RecordError

MAX_DATA_CHARS = 1 << 20
"""The longest data line read (the sample bot's are under 3,000 characters): a longer one is an error,
never parsed."""
MAX_DEPTH = 32
"""The deepest nesting of a data value kept (the protocol's is 3)."""

_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[,.]\d+)? +[A-Z]+ (.*)$")
"""``asctime levelname message``: the message is group 1."""
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
"""An event's name: the protocol's are lower case with underscores (``new_deal``, ``turn_end``)."""


def _message(line: str) -> str | None:
    match = _LINE.match(line.rstrip("\r\n"))
    return match.group(1) if match else None


def looks_like(head: str, names: tuple[str, ...] = ()) -> bool:
    """Whether the text is Python ``logging`` lines where an event name (one of ``names``, if given) is
    followed, at once or after notes, by a line of dict data."""
    pending = None
    for line in head.splitlines()[:400]:
        message = _message(line)
        if message is None:
            continue
        if _NAME.match(message) and (not names or message in names):
            pending = message
        elif pending is not None and message.startswith("{"):
            return True
    return False


def _plain(value: Any, depth: int = 0) -> Any:
    """The value if it is made of JSON kinds (dict with str keys, list, str, int, float, bool, None)."""
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: _plain(v, depth + 1) for k, v in value.items()}
    raise ValueError(type(value).__name__)


def data(text: str) -> dict:
    """One data line's dict; raises :class:`RecordError` (field ``event``) when it cannot be read."""
    if len(text) > MAX_DATA_CHARS:
        raise RecordError(f"the data line has {len(text):,} characters; at most {MAX_DATA_CHARS:,} are read",
                          "event")
    try:
        value = ast.literal_eval(text)
    except SyntaxError as error:
        raise RecordError(f"the data is not a Python dict literal ({error.msg}, column {error.offset})",
                          "event") from None
    except (ValueError, TypeError) as error:
        why = "a call, a name or an operator" if "malformed" in str(error) else str(error).splitlines()[0][:120]
        raise RecordError(f"the data is not a Python dict literal (it holds {why})", "event") from None
    except (MemoryError, RecursionError):
        raise RecordError("the data is not a Python dict literal (it is nested too deeply)", "event") from None
    try:
        if not isinstance(value, dict):
            raise ValueError(type(value).__name__)
        return _plain(value)
    except ValueError as error:
        raise RecordError(f"the data is not a dict of JSON values ({error})", "event") from None


def events(text: str) -> Iterator[tuple[int, Any]]:
    """``(line, {"eventName": ..., "data": ...})`` for each event name followed by a data line; the line is
    the data's. Data that cannot be read gives a :class:`RecordError` in place of its event."""
    pending: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        message = _message(line)
        if message is None:
            continue
        if _NAME.match(message):
            pending = message
        elif pending is not None and message.startswith("{"):
            try:
                yield number, {"eventName": pending, "data": data(message)}
            except RecordError as error:
                yield number, error
            pending = None


__all__ = ["MAX_DATA_CHARS", "data", "events", "looks_like"]
