"""Whole numbers from untrusted logs: within 64 bits, or a :class:`RecordError` naming the field.

Records are written as JSON and Parquet, and neither holds an integer beyond 64 bits; Python
will not even read text of more than 4,300 digits as one. So every reader refuses such a
number where it reads it, naming the field and showing the number cut short, rather than
letting it crash the conversion of text to a number or, later, the writing of the record. The
words are those of the JSON reader's, for one error to read the same from every format.

>>> whole_number("-12", "points[0]")
-12
>>> for token in ("9" * 5000, "x" * 100):
...     try:
...         whole_number(token, "points[1]")
...     except RecordError as error:
...         print(error)
points[1]: expected a whole number within 64 bits, got 9999999999999999999999999999999999999... (5,000 characters)
points[1]: expected a whole number, got "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (102 characters)
"""

from __future__ import annotations

from typing import Any

from ..text import shown, shown_number
from .errors import RecordError

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
TOO_BIG = "expected a whole number within 64 bits, got a larger one"
_MOST_DIGITS = len(str(INT64_MAX))


def too_big(field: str | None, written: str | None = None) -> RecordError:
    """The error for a number beyond 64 bits at ``field``; ``written``: the number as the input wrote it."""
    if written is None:
        return RecordError(TOO_BIG, field)
    return RecordError(f"expected a whole number within 64 bits, got {shown_number(written)}", field)


def in_range(value: int, field: str | None, written: str | None = None) -> int:
    """``value``, or :func:`too_big` when it does not fit in 64 bits."""
    if not INT64_MIN <= value <= INT64_MAX:
        raise too_big(field, written if written is not None else str(value))
    return value


def whole_number(token: str, field: str | None) -> int:
    """The whole number written as ``token`` (what ``int`` reads), within 64 bits; else a :class:`RecordError`
    naming ``field`` and showing the token cut short."""
    text = token.strip()
    digits = text.lstrip("+-").replace("_", "").lstrip("0")
    if len(digits) > _MOST_DIGITS and digits.isdigit():   # before int(): it refuses 4,300 digits and more
        raise too_big(field, text)
    try:
        value = int(text)
    except ValueError:
        raise RecordError(f"expected a whole number, got {shown(token)}", field) from None
    return in_range(value, field, text)


def json_whole_number(value: Any, field: str | None) -> int:
    """A whole number read from JSON, within 64 bits; orjson reads a larger one as a float."""
    if isinstance(value, float) and value.is_integer() and abs(value) >= 2 ** 63:
        raise too_big(field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"expected a whole number, got {shown(value)}", field)
    return in_range(value, field)
