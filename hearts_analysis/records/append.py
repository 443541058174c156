"""A corpus that grows: new games added to a folder as new Parquet part files, never rewriting the old ones.

Clubs add games every week. Appending reads only the ``game_id`` of the games already in
the folder (the header row groups of its Parquet files; JSON files in the folder are read
whole), writes the new games into part files numbered after the last one, and skips a game
whose ``game_id`` is already there or came earlier in the same input, telling ``on_skip``.
A game without a ``game_id`` cannot be checked and is added.

The new part files are written beside the folder and moved in one by one (each move is
atomic), so a reader sees whole part files only, and an interrupted append leaves the old
files untouched; running it again skips what was moved in.

>>> import tempfile, pathlib
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.records.sources import iter_sources
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "corpus"
>>> games = list(simulate_games(3, Rules.preset("standard", target=20)))
>>> append_games(games[:2], folder).games
2
>>> done = append_games(games, folder)
>>> done.games, done.skipped, sorted(p.name for p in folder.iterdir())
(1, 2, ['part-00000.parquet', 'part-00001.parquet'])
>>> [item.game.game_id for item in iter_sources([folder])]
['sim-0-1', 'sim-0-2', 'sim-0-3']
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np
import pyarrow as pa

from .errors import Item
from .model import GameRecord
from .parquet.decode import header_kinds
from .parquet.layout import GAME_ROW
from .parquet.read import is_paired, open_parquet, pairs, read_group
from .parquet.write import PART_NAME, GameWriter
from .paths import JSON_SUFFIXES, PARQUET_SUFFIXES
from .sources import iter_sources

PART_NUMBER = re.compile(r"part-(\d+)\.parquet$")

SkipHandler = Callable[[Item, str], None]
"""Called with a skipped game's item and why (where its game_id already is)."""


@dataclass(frozen=True)
class Appended:
    """What an append added, skipped and could not read."""

    games: int
    hands: int
    skipped: int
    errors: int
    parts: tuple[str, ...]
    """Names of the part files added, in order."""
    without_id: int = 0
    """Games added without a game_id (they cannot be checked for duplicates)."""


def folder_files(folder: Path) -> list[Path]:
    """The game files of a folder, as the readers see them (hidden files and folders left out)."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in JSON_SUFFIXES + PARQUET_SUFFIXES
                  and not any(part.startswith(".") for part in p.relative_to(folder).parts))


def parquet_game_ids(path: Path) -> list[str | None]:
    """The ``game_id`` of every game of a Parquet corpus file, reading the header rows only (``events/2``), each row
    group in bounded memory (:func:`~.parquet.read.read_group`; a file beyond the bounds raises ``ValueError``)."""
    parquet, _ = open_parquet(path)
    names = parquet.schema_arrow.names
    if "game_id" not in names:
        return []
    found: list[str | None] = []
    if is_paired(parquet):
        for number, _, _ in pairs(parquet):
            table = read_group(parquet, number, ["game_id", "event"])
            games = header_kinds(table["event"]) == GAME_ROW
            found += _texts(table["game_id"], games)
        return found
    last = None
    for number in range(parquet.num_row_groups):   # events/1: game_id on every row of its game
        table = read_group(parquet, number, ["game", "game_id"])
        game = table["game"].to_numpy()
        first = np.ones(len(game), bool)
        first[1:] = game[1:] != game[:-1]
        if len(game) and last is not None and last == game[0]:
            first[0] = False                         # a game that ran on from the row group before
        if len(game):
            last = game[-1]
        found += _texts(table["game_id"], first)
    return found


def _texts(column: pa.ChunkedArray, rows: np.ndarray) -> list[str | None]:
    """The texts of a column at ``rows`` (a mask), as Python strings."""
    return column.filter(pa.array(rows)).cast(pa.string()).to_pylist() if len(rows) else []


def corpus_game_ids(folder: Path) -> set[str]:
    """Every ``game_id`` already in a folder (Parquet header rows; JSON files parsed)."""
    found: set[str] = set()
    for path in folder_files(folder):
        if path.suffix.lower() in PARQUET_SUFFIXES:
            try:
                found.update(game_id for game_id in parquet_game_ids(path) if game_id is not None)
                continue
            except (OSError, pa.ArrowException, ValueError):
                pass   # a damaged file: read what the record reader can
        found.update(item.game.game_id for item in iter_sources([path])
                     if item.game is not None and item.game.game_id is not None)
    return found


def next_part_number(folder: Path) -> int:
    """One after the highest ``part-NNNNN.parquet`` of the folder (0 for none)."""
    numbers = [int(match.group(1)) for p in folder.glob("part-*.parquet") if (match := PART_NUMBER.match(p.name))]
    return max(numbers, default=-1) + 1


def append_items(items: Iterable[Item], folder: str | Path, partition_size: int | None = None,
                 on_error: Callable[[Item], None] | None = None, on_skip: SkipHandler | None = None,
                 on_progress: Callable[[int, int], None] | None = None) -> Appended:
    """Add the readable games of ``items`` to ``folder`` as new part files (see the module notes).

    Raises ``ValueError`` when ``folder`` is not a folder of a corpus (an existing file).
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder}: appending adds part files to a folder; convert this file into one first "
                         f"(hearts convert {folder} {folder.with_suffix('')})")
    present = corpus_game_ids(folder) if folder.exists() else set()
    added_from: dict[str, str] = {}
    counts = {"skipped": 0, "errors": 0, "without_id": 0}
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=f".{folder.name}.", suffix=".append") as staging:
        staged = Path(staging) / "parts"
        with GameWriter(staged, partition_size) as writer:
            for game in _new_games(items, folder, present, added_from, counts, on_error, on_skip):
                writer.add(game)
                if on_progress is not None:
                    on_progress(1, len(game.hands))
        parts = _move_in(staged, folder) if writer.games else ()
    return Appended(writer.games, writer.hands, counts["skipped"], counts["errors"], parts, counts["without_id"])


def _new_games(items: Iterable[Item], folder: Path, present: set[str], added_from: dict[str, str],
               counts: dict[str, int], on_error, on_skip) -> Iterator[GameRecord]:
    for item in items:
        if item.game is None:
            counts["errors"] += 1
            if on_error is not None:
                on_error(item)
            continue
        game_id = item.game.game_id
        if game_id is None:
            counts["without_id"] += 1
        elif game_id in present or game_id in added_from:
            counts["skipped"] += 1
            if on_skip is not None:
                where = f"already in {folder}" if game_id in present else f"already added from {added_from[game_id]}"
                on_skip(item, where)
            continue
        else:
            added_from[game_id] = item.source
        yield item.game


def _move_in(staged: Path, folder: Path) -> tuple[str, ...]:
    folder.mkdir(parents=True, exist_ok=True)
    number = next_part_number(folder)
    names = []
    for part in sorted(staged.glob("part-*.parquet")):
        name = PART_NAME.format(number)
        if (folder / name).exists():
            raise FileExistsError(f"{folder / name}: appeared while appending; nothing after it was moved")
        os.replace(part, folder / name)
        names.append(name)
        number += 1
    return tuple(names)


def append_games(games: Iterable[GameRecord], folder: str | Path, partition_size: int | None = None) -> Appended:
    """Add records to ``folder`` (see :func:`append_items`); games whose game_id is there already are skipped."""
    return append_items((Item(f"game {n}", game=game) for n, game in enumerate(games, 1)), folder, partition_size)


def append(sources: Iterable[str | Path], folder: str | Path, partition_size: int | None = None,
           on_error: Callable[[Item], None] | None = None, on_skip: SkipHandler | None = None,
           on_progress: Callable[[int, int], None] | None = None) -> Appended:
    """Add every game of ``sources`` (files, folders, ``-``) to ``folder`` (see :func:`append_items`)."""
    sources = [str(s) for s in sources]
    target = Path(folder).resolve()
    for source in sources:
        if source != "-" and Path(source).exists() and target in (Path(source).resolve(), *Path(source).resolve().parents):
            raise ValueError(f"{folder}: the corpus cannot be appended to itself")
    return append_items(iter_sources(sources), folder, partition_size, on_error, on_skip, on_progress)


__all__ = ["Appended", "append", "append_games", "append_items", "corpus_game_ids", "next_part_number"]
