"""Choosing what an export writes: the games a format can hold, and the files it writes them into.

A game the format cannot hold is left out with the reason; an unreadable record too:

>>> from hearts_analysis.interop import formats
>>> from hearts_analysis.records.errors import Item, RecordError
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> three = next(simulate_games(1, Rules.preset("standard", target=30), players=3))
>>> four = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> items = [Item("a.jsonl:1", three), Item("a.jsonl:2", four), Item("a.jsonl:3", error=RecordError("not JSON"))]
>>> reasons = []
>>> chosen = exportable(items, formats.formats()["text"], on_unfit=lambda item, why: reasons.append(why))
>>> len(chosen.games), chosen.left_out, reasons
(2, 1, [])
>>> chosen = exportable(items, formats.formats()["killer"], on_unfit=lambda item, why: reasons.append(why))
>>> len(chosen.games), chosen.left_out, [why.split(";")[0] for why in reasons]
(0, 3, ['3 players', 'Killer Hearts plays its own rules'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable

from ..records.errors import Item
from ..records.model import GameRecord
from .rebuild import unfit_for


def writes_set(module: ModuleType, output: str) -> bool:
    """Whether the format keeps its games in several files (``outputs`` and ``write_set``) for ``output``: a
    file named, not standard output (``-``), which gets the one file."""
    return hasattr(module, "write_set") and output != "-"


def output_files(module: ModuleType, output: str) -> list[str | Path]:
    """The files an export to ``output`` writes: those of the format's set beside the file named, or the one.

    >>> from hearts_analysis.interop import formats
    >>> output_files(formats.formats()["text"], "night.txt")
    ['night.txt']
    """
    return [Path(file) for file in module.outputs(output)] if writes_set(module, output) else [output]


@dataclass
class Exportable:
    """The games to write, and how many records were left out (unreadable, or not held by the format)."""

    games: list[GameRecord] = field(default_factory=list)
    left_out: int = 0


def exportable(items: Iterable[Item], module: ModuleType,
               on_unreadable: Callable[[Item], None] = lambda item: None,
               on_unfit: Callable[[Item, str], None] = lambda item, reason: None) -> Exportable:
    """The games of ``items`` the format of ``module`` can hold; ``on_unreadable`` hears of each unreadable
    record and ``on_unfit`` of each game left out, with the reason."""
    chosen = Exportable()
    for item in items:
        if item.game is None:
            chosen.left_out += 1
            on_unreadable(item)
            continue
        reason = unfit_for(module, item.game)
        if reason:
            chosen.left_out += 1
            on_unfit(item, reason)
            continue
        chosen.games.append(item.game)
    return chosen
