"""Untrusted text made safe to show: echoed values, terminal lines and CSV cells.

Player names, game ids, card strings and rule values come from logs that anyone
can write. A value echoed in a message is cut to a few dozen characters and
written as JSON (``"x"``, ``null``, ``true``), the language of the records
themselves; a line for the terminal shows its control characters as visible
escapes, so that an ANSI or OSC sequence cannot restyle or retitle the
terminal and a newline in a name cannot forge a line of output; a CSV cell that
a spreadsheet would run as a formula is defused as the OWASP guidance on CSV
injection recommends. Every module imports these from here (the lowest layer).
"""

from __future__ import annotations

import csv
import re
from typing import IO, Any, Iterable

import orjson

SHOWN_LIMIT = 40
"""Characters of an echoed value kept in a message."""

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
                     "\ufeff\ufff9-\ufffb\ud800-\udfff\U000e0000-\U000e007f]")
"""Control characters (C0, DEL, C1), bidirectional and invisible format characters, line and paragraph
separators, lone surrogates (undecodable bytes) and tag characters: what can move the cursor, restyle or
retitle a terminal, reorder a line, or hide text."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _escape(match: re.Match) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def terminal_safe(text: str) -> str:
    r"""``text`` with every control, bidirectional or invisible character shown as an escape.

    >>> terminal_safe("bob\x1b]0;owned\x07\n")
    'bob\\x1b]0;owned\\x07\\n'
    >>> terminal_safe("alice")
    'alice'
    """
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def terminal_lines(text: str) -> str:
    r"""Each line of ``text`` made :func:`terminal_safe`, the line breaks kept.

    >>> terminal_lines("a\x1b[2J\nb")
    'a\\x1b[2J\nb'
    """
    return "\n".join(map(terminal_safe, text.split("\n")))


_UNSAFE_IN_LINES = re.compile(_UNSAFE.pattern.replace("\x00-\x1f", "\x00-\x09\x0b-\x1f", 1))
"""What :data:`_UNSAFE` matches but the line feed: what a line break may not carry."""


def _json_escape(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


def json_inert(text: str) -> str:
    r"""JSON text with every control, bidirectional or invisible character written as a ``\u`` escape: the same
    JSON value (such characters stand only inside strings, where an escape means the character), and nothing a
    terminal would act on. Line feeds are kept: outside strings they are JSON's own line breaks.

    >>> json_inert('{"name": "bob\u202e\x7f"}\n')
    '{"name": "bob\\u202e\\u007f"}\n'
    >>> import json; json.loads(json_inert('"\U000e0041"')) == "\U000e0041"
    True
    """
    return _UNSAFE_IN_LINES.sub(_json_escape, text) if _UNSAFE_IN_LINES.search(text) else text


def lines_safe(text: str) -> str:
    r"""``text`` made :func:`terminal_safe` but for its line feeds (a piece of a stream: a CR before an LF is shown
    as ``\r`` too).

    >>> lines_safe("a\x1b[2J\r\nb\n")
    'a\\x1b[2J\\r\nb\n'
    """
    return _UNSAFE_IN_LINES.sub(_escape, text) if _UNSAFE_IN_LINES.search(text) else text


class CsvTerminal:
    r"""CSV text, written in pieces, made safe for a terminal: inside a quoted cell every control, bidirectional
    or invisible character is shown as :func:`terminal_safe` shows it (a CR or an LF in a name too); outside, the
    row ends (CR, LF) are kept. The quote state carries from piece to piece (a doubled quote toggles twice).

    >>> safe = CsvTerminal()
    >>> safe('name,"a\r\nb\x1b[31m",\u202ec\r\n'), safe('"x\n'), safe('y"\r\n')
    ('name,"a\\r\\nb\\x1b[31m",\\u202ec\r\n', '"x\\n', 'y"\r\n')
    """

    def __init__(self) -> None:
        self.quoted = False

    def __call__(self, text: str) -> str:
        out = []
        for index, part in enumerate(text.split('"')):
            if index:
                self.quoted = not self.quoted
                out.append('"')
            if self.quoted:
                out.append(terminal_safe(part))
            else:
                out.append(_UNSAFE.sub(lambda m: m.group() if m.group() in "\r\n" else _escape(m), part))
        return "".join(out)


def shown(value: Any, limit: int = SHOWN_LIMIT) -> str:
    """A value from a record as a message echoes it: JSON, at most ``limit`` characters, terminal-safe.

    Integers are written as they are (also beyond 64 bits); anything that is not
    JSON is shown by its text.

    >>> shown(None), shown(True), shown("QS"), shown(2 ** 64)
    ('null', 'true', '"QS"', '18446744073709551616')
    >>> shown("X" * 100)
    '"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX... (102 characters)'
    """
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    else:
        try:
            text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except (TypeError, orjson.JSONEncodeError):
            text = _plain(value)
    return terminal_safe(_cut(text, limit))


def shown_number(written: str, limit: int = SHOWN_LIMIT) -> str:
    """A number as a log wrote it (its digits, unquoted), cut as :func:`shown` cuts a value.

    >>> shown_number("-42"), shown_number("7" * 50)
    ('-42', '7777777777777777777777777777777777777... (50 characters)')
    """
    return terminal_safe(_cut(written, limit))


def _cut(text: str, limit: int) -> str:
    return f"{text[:limit - 3]}... ({len(text):,} characters)" if len(text) > limit else text


def _plain(value: Any) -> str:
    """Text of a value orjson cannot write (nested too deep, big integers inside, other types), bounded."""
    if isinstance(value, (list, tuple)):
        return "[...]" if value else "[]"
    if isinstance(value, dict):
        return "{...}" if value else "{}"
    text = str(value)
    return text if len(text) < 10_000 else text[:10_000]


def os_error_text(error: OSError, path: Any = None) -> str:
    """An operating-system error in words with the path the user gave (``path``, else the error's own), without
    Python's ``[Errno 17]`` prefix or a temporary file's name.

    >>> os_error_text(FileExistsError(17, "File exists", "/tmp/.out.json.x1.tmp"), "out.json")
    'out.json: File exists'
    """
    if not error.strerror:  # raised with a message of its own
        return terminal_safe(str(error) or type(error).__name__)
    where = path if path is not None else error.filename
    return terminal_safe(f"{where}: {error.strerror}" if where is not None else error.strerror)


def csv_safe(cell: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula: text starting with ``= + - @``, tab or CR gets a
    leading single quote (numbers are left as they are).

    >>> csv_safe("=HYPERLINK(0)"), csv_safe("alice"), csv_safe(-3)
    ("'=HYPERLINK(0)", 'alice', -3)
    """
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return "'" + cell
    return cell


CSV_LINE_END = "\r\n"
"""CSV rows end as RFC 4180 says; with it the csv module quotes every cell that holds a CR or an LF (with
``\n`` alone, a CR in a name would end the row for a spreadsheet)."""


def csv_writer(stream: IO[str]):
    r"""A :func:`csv.writer` for untrusted cells: each row's cells pass :func:`csv_safe`, rows end in CRLF.

    >>> import io
    >>> out = io.StringIO()
    >>> csv_writer(out).writerow(["=1+1", "a\rb", 3])
    >>> out.getvalue()
    '\'=1+1,"a\rb",3\r\n'
    """
    return _SafeWriter(csv.writer(stream, lineterminator=CSV_LINE_END))


class _SafeWriter:
    def __init__(self, writer) -> None:
        self._writer = writer

    def writerow(self, cells: Iterable[Any]) -> None:
        self._writer.writerow([csv_safe(cell) for cell in cells])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for cells in rows:
            self.writerow(cells)


def csv_frame(data):
    """A pandas DataFrame with :func:`csv_safe` applied to its text columns (the others cannot start a formula)."""
    text_columns = [name for name in data.columns if data[name].dtype == object or str(data[name].dtype) == "string"]
    if not text_columns:
        return data
    data = data.copy()
    for name in text_columns:
        data[name] = data[name].map(csv_safe, na_action="ignore")
    return data


def counted(number: int, noun: str) -> str:
    """A count and its noun, agreeing: ``1 game``, ``1,200 games``, ``0 hands``, ``2 replies``.

    >>> counted(1, "game"), counted(1200, "hand"), counted(0, "hand"), counted(2, "reply"), counted(1, "deal")
    ('1 game', '1,200 hands', '0 hands', '2 replies', '1 deal')
    """
    plural = noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    return f"{number:,} {noun if number == 1 else plural}"
