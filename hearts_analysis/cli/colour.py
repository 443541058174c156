"""Colour for text output: rich styles on a terminal, plain text anywhere else.

Colour helps a person read a terminal (violation codes, seats, totals) and spoils a file
or a pipe, so it is on only when standard output is a terminal and ``NO_COLOR`` is unset
(the convention at no-color.org).

>>> import io
>>> from unittest import mock
>>> class Terminal(io.StringIO):
...     def isatty(self):
...         return True
>>> painter(io.StringIO())("QS", "bold red")
'QS'
>>> with mock.patch.dict(os.environ, {"NO_COLOR": "", "TERM": "xterm"}):
...     painter(Terminal())("QS", "bold red")
'\\x1b[1;31mQS\\x1b[0m'
>>> with mock.patch.dict(os.environ, {"NO_COLOR": "1"}):
...     painter(Terminal())("QS", "bold red")
'QS'
"""

from __future__ import annotations

import os
import sys
from typing import Callable

from rich.color import ColorSystem
from rich.style import Style

Painter = Callable[[str, str], str]


def plain(text: str, style: str) -> str:
    return text


def _styled(text: str, style: str) -> str:
    return Style.parse(style).render(text, color_system=ColorSystem.STANDARD)


def painter(stream=None) -> Painter:
    """``paint(text, "bold red")`` for ``stream`` (standard output by default)."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb" or not stream.isatty():
        return plain
    return _styled
