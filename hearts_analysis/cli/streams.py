r"""Output streams that cannot fail on a character, nor let a name drive the terminal.

Under ``PYTHONIOENCODING=ascii``, an old Windows console or a ``LANG=C`` cron
job, a player's name or a suit symbol would otherwise stop a command with
``UnicodeEncodeError`` halfway through its output. What the stream's encoding
cannot hold is written in letters it can: suit symbols as the letters the
records use, dashes and ``±`` in ASCII, accented letters without their accents, anything else as ``?``.

>>> "Zoë holds Q♠ and 李: 1.5 ± 0.5".encode("ascii", "hearts-letters")
b'Zoe holds QS and ?: 1.5 +/- 0.5'

A data form (JSON, CSV, a log format) written to a terminal goes through
:func:`data_form`: what a name could make the terminal do is shown as an
escape, as the text forms show it; to a file or a pipe the data is kept exactly.

>>> import io
>>> from unittest import mock
>>> class Terminal(io.StringIO):
...     def isatty(self):
...         return True
>>> screen = Terminal()
>>> with mock.patch.object(sys, "stdout", screen), data_form("json"):
...     _ = sys.stdout.buffer.write('{"player": "\x1b]0;pwned\x07\u202e"}\n'.encode())
>>> screen.getvalue()
'{"player": "\\u001b]0;pwned\\u0007\\u202e"}\n'
"""

from __future__ import annotations

import codecs
import sys
import unicodedata
from contextlib import contextmanager
from typing import Callable, Iterator

from ..text import CsvTerminal, json_inert, lines_safe

ERRORS = "hearts-letters"
"""The name of the codec error handler registered here."""

_SUITS = {"\u2663": "C", "\u2667": "C", "\u2666": "D", "\u2662": "D", "\u2665": "H", "\u2661": "H",
          "\u2660": "S", "\u2664": "S", "\u00b1": "+/-", "\u2013": "-", "\u2014": "-", "\u2212": "-"}


def _letters(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    encoding = error.encoding
    out = []
    for char in error.object[error.start:error.end]:
        text = _SUITS.get(char) or unicodedata.normalize("NFKD", char)
        try:
            text.encode(encoding)
        except UnicodeError:
            text = "".join(c for c in text if not unicodedata.combining(c))
            try:
                text.encode(encoding)
            except UnicodeError:
                text = ""
        out.append(text or "?")
    return "".join(out), error.end


codecs.register_error(ERRORS, _letters)


def printable_streams() -> None:
    """Make standard output and error write what their encoding cannot hold as letters it can (:data:`ERRORS`),
    where they are text streams that would otherwise raise on such a character."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None or not hasattr(stream, "reconfigure") or stream.errors not in ("strict", None):
            continue
        try:
            "\u2665\u00eb\u674e".encode(stream.encoding or "ascii")
        except UnicodeError:
            stream.reconfigure(errors=ERRORS)
        except LookupError:
            continue


_FORMS: dict[str, Callable[[], Callable[[str], str]]] = {
    "json": lambda: json_inert, "csv": CsvTerminal, "lines": lambda: lines_safe}
"""How each data form is made inert for a terminal: JSON by its own ``\\u`` escapes (still valid JSON), CSV cell by
cell (the row ends kept), other text line by line."""


class _Inert:
    """Standard output on a terminal while a data form is written: every piece, text or bytes, made inert."""

    def __init__(self, target, form: str) -> None:
        self._target, self._inert = target, _FORMS[form]()
        self.buffer = _InertBytes(self)

    def write(self, text: str) -> int:
        self._target.write(self._inert(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.buffer.finish()
        self._target.flush()

    def isatty(self) -> bool:
        return True

    def __getattr__(self, name: str):
        return getattr(self._target, name)


class _InertBytes:
    """The bytes side of :class:`_Inert`: UTF-8 decoded piece by piece (a character cut between writes is kept)."""

    def __init__(self, text: _Inert) -> None:
        self._text, self._decoder = text, codecs.getincrementaldecoder("utf-8")("replace")

    def write(self, data) -> int:
        self._text.write(self._decoder.decode(bytes(data)))
        return len(data)

    def finish(self) -> None:
        rest = self._decoder.decode(b"", final=True)
        if rest:
            self._text.write(rest)

    def flush(self) -> None:
        self._text.flush()


@contextmanager
def data_form(form: str, to_stdout: bool = True) -> Iterator[None]:
    """While a data ``form`` (``json``, ``csv`` or ``lines``) is written to standard output (``to_stdout``), a
    terminal there sees no control, bidirectional or invisible character raw; a file or a pipe gets the data as
    it is. Any other form (``text``, whose lines are made safe as they are laid out) is left alone."""
    stdout = sys.stdout
    if form not in _FORMS or not to_stdout or stdout is None or not stdout.isatty():
        yield
        return
    sys.stdout = inert = _Inert(stdout, form)
    try:
        yield
    finally:
        inert.flush()
        if sys.stdout is inert:
            sys.stdout = stdout
