"""A corpus that grows: new games added to a folder as new Parquet part files, never rewriting the old ones.

Clubs add games every week. Appending reads only the ``game_id`` of the games already in
the folder (the header row groups of its Parquet files; JSON files in the folder are read
whole), writes the new games into part files numbered after the last one, and skips a game
whose ``game_id`` is already there or came earlier in the same input, telling ``on_skip``.
A game without a ``game_id`` cannot be checked and is added.

The new part files are written beside the folder and moved in one by one (each move is
atomic, and never over a file already there), so a reader sees whole part files only, and an
interrupted append leaves the old files untouched; running it again skips what was moved in,
and removes what the interrupted run left beside the folder. Appends to one folder take turns
(each holds an exclusive lock on the folder from reading its ids to moving its parts in), so two
runs at once neither add a game twice nor write over each other's parts. A part that cannot be
read is refused, naming it: the games its ids name are not seen by any reader, so skipping them
as already there would lose them.

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

import errno
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..atomic import named_error
from ..workfiles import clean_leftovers, locked_folder, work_folder
from .errors import Item, RecordError
from .model import GameRecord
from .parquet.read import iter_row_groups
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


def record_files(folder: Path) -> list[Path]:
    """The game files of a folder, as the readers see them (hidden files and folders left out)."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in JSON_SUFFIXES + PARQUET_SUFFIXES
                  and not any(part.startswith(".") for part in p.relative_to(folder).parts))


def parquet_game_ids(path: Path) -> list[str | None]:
    """The ``game_id`` of every game of a Parquet corpus file, as the readers read it; :class:`UnreadablePart`
    when a game of it cannot be read (its id, if any, names a game no reader sees)."""
    found: list[str | None] = []
    for group in iter_row_groups(path):
        if isinstance(group, Item):
            raise UnreadablePart(path, group.error.text())
        for game in group.games:
            if isinstance(game, RecordError):
                raise UnreadablePart(path, game.text())
            found.append(game.game_id)
    return found


class UnreadablePart(ValueError):
    """A part of the corpus that cannot be read: appending would skip the games it names but cannot show."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: cannot be read, so the games already in its folder are not known and nothing "
                         f"was appended ({reason}); repair or remove that part, then append again")
        self.path = path


def corpus_game_ids(folder: Path) -> set[str]:
    """Every ``game_id`` already in a folder (Parquet parts as the readers read them; JSON files parsed).
    Raises :class:`UnreadablePart` for a Parquet part that cannot be read."""
    found: set[str] = set()
    for path in record_files(folder):
        if path.suffix.lower() in PARQUET_SUFFIXES:
            found.update(game_id for game_id in parquet_game_ids(path) if game_id is not None)
            continue
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
    if folder.is_symlink() and not folder.exists():
        raise ValueError(f"{folder}: is a symbolic link to {os.readlink(folder)}, which does not exist; remove the "
                         "link or give another folder")
    where = Path(os.path.realpath(folder))   # a link is followed: the parts are staged beside the real folder
    staging: Path | None = None
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(where)   # what a killed run left beside it (an old folder put back first)
        where.mkdir(exist_ok=True)
        with locked_folder(where), work_folder(where, ".append") as staging:
            try:
                present = corpus_game_ids(where)
                added_from: dict[str, str] = {}
                counts = {"skipped": 0, "errors": 0, "without_id": 0}
                with GameWriter(staging / "parts", partition_size) as writer:
                    for item in _new_games(items, folder, present, added_from, counts, on_error, on_skip):
                        try:
                            writer.add(item.game)
                        except RecordError as error:   # a game a part cannot hold; the others still go in
                            added_from.pop(item.game.game_id, None)
                            _refused(Item(item.source, error=error.at(item.source)), counts, on_error)
                            continue
                        if on_progress is not None:
                            on_progress(1, len(item.game.hands))
                parts = _move_in(staging / "parts", where) if writer.games else ()
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except OSError as error:
        raise named_error(error, folder, *([staging] if staging is not None else [])) from None
    return Appended(writer.games, writer.hands, counts["skipped"], counts["errors"], parts, counts["without_id"])


def _new_games(items: Iterable[Item], folder: Path, present: set[str], added_from: dict[str, str],
               counts: dict[str, int], on_error, on_skip) -> Iterator[Item]:
    for item in items:
        if item.game is None:
            _refused(item, counts, on_error)
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
        yield item


def _refused(item: Item, counts: dict[str, int], on_error) -> None:
    counts["errors"] += 1
    if on_error is not None:
        on_error(item)


def _move_in(staged: Path, folder: Path) -> tuple[str, ...]:
    """The staged parts into ``folder``, numbered after its last part; a link, then the staged name removed, so
    that a part already there is never replaced."""
    number = next_part_number(folder)
    names = []
    for part in sorted(staged.glob("part-*.parquet")):
        name = PART_NAME.format(number)
        _place(part, folder / name)
        names.append(name)
        number += 1
    return tuple(names)


def _place(part: Path, destination: Path) -> None:
    try:
        os.link(part, destination)
    except FileExistsError:
        raise FileExistsError(f"{destination}: appeared while appending; nothing after it was moved") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV):
            raise
        if destination.exists():   # no hard links here: the folder's lock keeps other appends out
            raise FileExistsError(f"{destination}: appeared while appending; nothing after it was moved") from None
        os.replace(part, destination)
        return
    part.unlink()


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


__all__ = ["Appended", "UnreadablePart", "append", "append_games", "append_items", "corpus_game_ids",
           "next_part_number"]
