"""A CSV score sheet: what a club writes down of a game, one row a hand, one column a player.

The first row names the players; each row after it gives every player's points for one hand;
an optional last row whose first cell is ``total`` (any case) gives the totals. A first column
of hand numbers (headed ``hand``, ``#`` or nothing) is allowed. The game is a score sheet
(``docs/score-sheets.md``): the audit checks its arithmetic against the rules, not its plays.

>>> import io
>>> sheet = "Ann,Bob,Cy,Dee\\n0,13,8,5\\n26,0,0,0\\nTotal,26,13,8,5\\n"
>>> sniff(sheet)
True
>>> item = next(read(io.StringIO(sheet), "club.csv"))
>>> item.game.players, [h.points for h in item.game.hands], item.game.hands[-1].totals
(('Ann', 'Bob', 'Cy', 'Dee'), [(0, 13, 8, 5), (26, 0, 0, 0)], (26, 13, 8, 5))
>>> bad = next(read(io.StringIO("Ann,Bob,Cy\\n0,13,x\\n"), "club.csv"))
>>> bad.source, str(bad.error)
('club.csv:2', 'column Cy: expected a whole number of points, got "x"')
"""

from __future__ import annotations

import csv
import re
from typing import Iterator, TextIO

from ..records.errors import Item, RecordError
from ..records.json import game_from_dict
from ..records.numbers import whole_number
from ..text import shown

NAME = "sheet-csv"
TITLE = "CSV score sheet (one row a hand, one column a player)"
FILE_EXAMPLE = "sheet.csv"

_LABELS = ("", "hand", "hands", "#", "no", "no.", "round", "deal")
"""Headings of a first column of hand numbers."""
_NUMBER = re.compile(r"[+-]?\d+")

__all__ = ["FILE_EXAMPLE", "NAME", "TITLE", "read", "sniff"]


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """The non-blank rows with their line numbers, cells stripped."""
    reader = csv.reader(text.splitlines())
    return [(reader.line_num, [cell.strip() for cell in row]) for row in reader if any(c.strip() for c in row)]


def _shape(header: list[str]) -> tuple[bool, list[str]] | None:
    """``(label column, players)`` of a header row of 3 to 7 names, else ``None``."""
    label = header[0].lower() in _LABELS
    names = header[1:] if label else header
    if not 3 <= len(names) <= 7 or any(not n or _NUMBER.fullmatch(n) for n in names):
        return None
    return label, names


def sniff(head: str) -> bool:
    """A row of 3 to 7 player names, then rows of as many whole numbers (a total row may end it)."""
    try:
        rows = _rows(head)[:9]
    except csv.Error:
        return False
    if len(rows) < 2 or (shape := _shape(rows[0][1])) is None:
        return False
    label, names = shape
    complete = rows[1:] if head.endswith("\n") or len(rows) < 3 else rows[1:-1]
    for _, row in complete:
        values = row[1:] if label or row[0].lower() == "total" else row
        if len(values) != len(names) or not all(_NUMBER.fullmatch(v) for v in values):
            return False
    return True


def read(stream: TextIO, name: str) -> Iterator[Item]:
    """The sheet's one game; a cell that is not a number is an error naming its line and column."""
    source = f"{name}:1"
    try:
        yield Item(source, game_from_dict(_game(stream.read(), name)))
    except RecordError as error:
        yield Item(error.source or source, error=error if error.source else error.at(source))


def _game(text: str, name: str) -> dict:
    rows = _rows(text)
    if not rows or (shape := _shape(rows[0][1])) is None:
        raise RecordError("expected a first row of 3 to 7 player names", "players", source=f"{name}:1")
    label, players = shape
    hands: list[dict] = []
    for index, (line, row) in enumerate(rows[1:], 2):
        total = row[0].lower() == "total"
        cells = row[1:] if label or total else row
        where = f"{name}:{line}"
        if total and index != len(rows):
            raise RecordError("the total row must be the last row", "total", source=where)
        if len(cells) != len(players):
            raise RecordError(f"expected one number per player ({len(players)}), got {len(cells)}",
                              "total" if total else f"hand {len(hands) + 1}", source=where)
        values = []
        for player, cell in zip(players, cells):
            if not _NUMBER.fullmatch(cell):
                raise RecordError(f"expected a whole number of points, got {shown(cell)}", f"column {player}",
                                  source=where)
            values.append(whole_number(cell, f"column {player}"))
        if total:
            if not hands:
                raise RecordError("a total row but no hand above it", "total", source=where)
            hands[-1]["totals"] = values
        else:
            hands.append({"points": values})
    if not hands:
        raise RecordError("expected a row of points for each hand under the players", "hands",
                          source=f"{name}:{rows[0][0]}")
    return {"format": "hearts-game/1", "players": players, "hands": hands}

