"""Output streams that cannot fail on a character: a terminal or pipe that is not UTF-8 still gets every line.

Under ``PYTHONIOENCODING=ascii``, an old Windows console or a ``LANG=C`` cron
job, a player's name or a suit symbol would otherwise stop a command with
``UnicodeEncodeError`` halfway through its output. What the stream's encoding
cannot hold is written in letters it can: suit symbols as the letters the
records use, dashes and ``±`` in ASCII, accented letters without their accents, anything else as ``?``.

>>> "Zoë holds Q♠ and 李: 1.5 ± 0.5".encode("ascii", "hearts-letters")
b'Zoe holds QS and ?: 1.5 +/- 0.5'
"""

from __future__ import annotations

import codecs
import sys
import unicodedata

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
