"""A progress display on stderr, shown only when stderr is a terminal.

Output and progress share the screen when both streams are the terminal, so while the
display is up every write to stdout or stderr first takes the display down (its line is
cleared) and the display comes back at the next step that follows a quiet spell: no output
line is ever glued to a spinner frame.

Where stderr is a pipe or a file, the display stays off and writes nothing, so a log
of a run holds only its messages; so it does where stdout is a pipe, whose reader (a pager)
may draw on the same terminal:

>>> import contextlib, io
>>> with contextlib.redirect_stderr(io.StringIO()) as err, progress("validating") as bar:
...     bar.advance(games=1, hands=13)
>>> err.getvalue()
''
"""

from __future__ import annotations

import io
import os
import stat
import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator

RESUME_AFTER = 0.5
"""Seconds without output before a display taken down for output comes back."""


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _piped(stream) -> bool:
    """Whether ``stream`` is a pipe or a socket: a pager or another program, which may well draw on the same
    terminal as stderr (``hearts validate games/ | less -R``), so a display there would be glued to it."""
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class _Quiet:
    def advance(self, games: int = 1, hands: int = 0, note: str = "") -> None:
        pass


class _Live:
    def __init__(self, progress, task, by_hands: bool = False):
        self.progress, self.task, self.by_hands = progress, task, by_hands
        self.games = self.hands = 0
        self.shown, self.hidden_at = True, 0.0

    def hide(self) -> None:
        """Take the display down (rich clears its line) before anything else is written."""
        if self.shown:
            self.progress.stop()
            self.shown = False
        self.hidden_at = time.monotonic()

    def advance(self, games: int = 1, hands: int = 0, note: str = "") -> None:
        """Count ``games`` and ``hands`` more; ``note`` (a running estimate) follows the counts."""
        self.games += games
        self.hands += hands
        counts = f"{_count(self.games, 'game')}, {_count(self.hands, 'hand')}"
        self.progress.update(self.task, advance=hands if self.by_hands else games,
                             description=f"{counts}; {note}" if note else counts)
        if not self.shown and time.monotonic() - self.hidden_at > RESUME_AFTER:
            self.progress.start()
            self.shown = True


class _ClearFirst(io.RawIOBase):
    """A stream's bytes, written after calling ``before`` (which takes the display down)."""

    def __init__(self, target, before: Callable[[], None]):
        super().__init__()
        self._target, self._before = target, before

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._target.isatty()

    def fileno(self) -> int:
        return self._target.fileno()

    def write(self, data) -> int:
        self._before()
        self._target.write(data)
        self._target.flush()
        return len(data)


def _clearing(stream, before: Callable[[], None]) -> io.TextIOWrapper:
    return io.TextIOWrapper(_ClearFirst(stream.buffer, before), encoding=stream.encoding,
                            errors=stream.errors, line_buffering=True, write_through=True)


@contextmanager
def progress(label: str, enabled: bool = True, total_hands: int | None = None,
             note: str = "starting") -> Iterator[_Quiet | _Live]:
    """``with progress("validating") as bar: bar.advance(hands=13)``; with ``total_hands``, a bar
    of the hands done and the time left; ``note`` is shown until the first step."""
    if not (enabled and sys.stderr.isatty()) or _piped(sys.stdout):
        yield _Quiet()
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    columns = [SpinnerColumn(), TextColumn(f"{label}: " + "{task.description}")]
    if total_hands is not None:
        columns += [BarColumn(), MofNCompleteColumn(), TextColumn("hands, left"), TimeRemainingColumn()]
    stdout, stderr = sys.stdout, sys.stderr
    bar = Progress(*columns, TimeElapsedColumn(), console=Console(file=stderr), transient=True,
                   redirect_stdout=False, redirect_stderr=False)
    live = _Live(bar, bar.add_task(note, total=total_hands), total_hands is not None)
    bar.start()
    sys.stderr = _clearing(stderr, live.hide)
    if stdout.isatty():
        sys.stdout = _clearing(stdout, live.hide)
    try:
        yield live
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = stdout, stderr
        bar.stop()
