"""A progress display on stderr, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator


class _Quiet:
    def advance(self, games: int = 1, hands: int = 0) -> None:
        pass


class _Live:
    def __init__(self, progress, task):
        self.progress, self.task = progress, task
        self.games = self.hands = 0

    def advance(self, games: int = 1, hands: int = 0) -> None:
        self.games += games
        self.hands += hands
        self.progress.update(self.task, advance=games,
                             description=f"{self.games:,} games, {self.hands:,} hands")


@contextmanager
def progress(label: str, enabled: bool = True) -> Iterator[_Quiet | _Live]:
    """``with progress("validating") as bar: bar.advance(hands=13)``."""
    if not (enabled and sys.stderr.isatty()):
        yield _Quiet()
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    with Progress(SpinnerColumn(), TextColumn(f"{label}: " + "{task.description}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        yield _Live(bar, bar.add_task("starting", total=None))
