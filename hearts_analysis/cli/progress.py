"""A progress display on stderr, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator


class _Quiet:
    def advance(self, games: int = 1, hands: int = 0) -> None:
        pass


class _Live:
    def __init__(self, progress, task, by_hands: bool):
        self.progress, self.task, self.by_hands = progress, task, by_hands
        self.games = self.hands = 0

    def advance(self, games: int = 1, hands: int = 0) -> None:
        self.games += games
        self.hands += hands
        self.progress.update(self.task, advance=hands if self.by_hands else games,
                             description=f"{self.games:,} games, {self.hands:,} hands")


@contextmanager
def progress(label: str, enabled: bool = True, total_hands: int | None = None) -> Iterator[_Quiet | _Live]:
    """``with progress("validating") as bar: bar.advance(hands=13)``; with ``total_hands``, a bar
    of the hands done and the time left."""
    if not (enabled and sys.stderr.isatty()):
        yield _Quiet()
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    columns = [SpinnerColumn(), TextColumn(f"{label}: " + "{task.description}")]
    if total_hands is not None:
        columns += [BarColumn(), MofNCompleteColumn(), TextColumn("hands, left"), TimeRemainingColumn()]
    with Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        yield _Live(bar, bar.add_task("starting", total=total_hands), total_hands is not None)
