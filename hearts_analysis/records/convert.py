"""Conversion between the corpus formats: JSON, JSON Lines and Parquet, in any direction.

Streaming and atomic; unreadable records are handed to ``on_error`` and the rest
is converted. JSON Lines to Parquet skips building records: each parsed line
goes straight to the columnar encoder (:mod:`.parquet.encode`), which reads it
exactly as :func:`~.json.decode.game_from_dict` would.

A bad line is counted and handed on, and the games around it arrive unchanged:

>>> import pathlib, tempfile
>>> from hearts_analysis.records import read_games, write_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> games = list(simulate_games(2, Rules.preset("standard", target=30)))
>>> _ = write_games(games, folder / "games.jsonl")
>>> with open(folder / "games.jsonl", "ab") as out:
...     _ = out.write(b'{"players": 3}\\n')
>>> convert([folder / "games.jsonl"], folder / "games.parquet",
...         on_error=lambda item: print(pathlib.Path(item.source).name, item.error.text()))
games.jsonl:3 players: expected a list, got 3
Converted(games=2, hands=6, errors=1)
>>> [item.game == game for item, game in zip(read_games(folder / "games.parquet"), games)]
[True, True]
"""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import orjson

from ..atomic import STDOUT, check_output
from ..text import shown
from .errors import Item, RecordError
from .json import bad_json, bounded_lines, long_line_item, write_games
from .json.files import too_long_for_a_line
from .model import GameRecord
from .paths import JSON_SUFFIXES, JSONL_SUFFIXES, PARQUET_SUFFIXES
from .sources import iter_sources

ErrorHandler = Callable[[Item], None]
ProgressHandler = Callable[[int, int], None]
"""Called with the games and hands converted since the last call."""

PROGRESS_EVERY = 512
"""Games between two progress calls."""


class NothingRead(ValueError):
    """A conversion that read no game: the output is not written."""


@dataclass(frozen=True)
class Converted:
    """What a conversion wrote and what it could not read."""

    games: int
    hands: int
    errors: int


def is_parquet_target(path: str | Path, partition_size: int | None = None) -> bool:
    """Parquet for ``.parquet`` / ``.pq``, for a folder (existing, or a path without suffix), or when partitioned."""
    from .parquet import is_folder_target
    return Path(path).suffix.lower() in PARQUET_SUFFIXES or is_folder_target(path, partition_size)


def convert(sources: Iterable[str | Path], target: str | Path, *, partition_size: int | None = None,
            on_error: ErrorHandler | None = None, on_progress: ProgressHandler | None = None) -> Converted:
    """Convert every game of ``sources`` (files, folders, ``-``) into ``target``, by the target's suffix.

    ``target`` is a ``.jsonl`` file, a ``.json`` file (exactly one game), a ``.parquet``
    file, or a folder of Parquet part files (``partition_size`` hands each), or ``-``
    (JSON Lines on standard output). Raises :class:`~hearts_analysis.atomic.OutputError`
    for a target that cannot be written or is an input, before writing anything when
    it can tell, :class:`ValueError` for an unknown format, and :class:`NothingRead`
    (leaving ``target`` as it was) when no game could be read.
    """
    sources = [str(s) for s in sources]
    to_stdout = str(target) == STDOUT
    target = Path(target)
    parquet = not to_stdout and is_parquet_target(target, partition_size)
    check_output(target, sources, folder=None if parquet and target.suffix else parquet)
    counter = _Counter(on_error, on_progress)
    if parquet:
        from .parquet import GameWriter
        with GameWriter(target, partition_size) as writer, _no_cycle_collection():
            for source in _files(sources):
                if _is_jsonl(source):
                    _add_json_lines(Path(source), writer, counter)
                else:
                    for item in iter_sources([source], keep_duplicates=True):
                        counter.add(writer.add, item)
            counter.read_something(target)
    elif to_stdout or target.suffix.lower() in JSON_SUFFIXES:
        write_games(counter.games(iter_sources(sources, keep_duplicates=True), target), STDOUT if to_stdout else target)
    else:
        raise ValueError(f"{target}: unknown output format {shown(target.suffix)} (use .json, .jsonl, .parquet "
                         f"or a folder)")
    counter.report()
    return Converted(counter.total_games, counter.total_hands, counter.errors)


def _files(sources: list[str]) -> Iterator[str]:
    """Folders opened into their game files, in the order :func:`iter_sources` reads them."""
    for source in sources:
        path = Path(source)
        found = []
        if source != "-" and path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")
                           and p.suffix.lower() in JSON_SUFFIXES + PARQUET_SUFFIXES)
        yield from (str(p) for p in found) if found else [source]


def _is_jsonl(source: str) -> bool:
    path = Path(source)
    return source != "-" and path.suffix.lower() in JSONL_SUFFIXES and path.is_file()


READ_BLOCK = 1 << 22
"""Bytes of JSON Lines buffered at a time: a few hundred games."""


def _add_json_lines(path: Path, writer, counter: "_Counter") -> None:
    """Every line of a JSON Lines file into ``writer``; a line that is not JSON or not a record is reported
    (with its line number, as ``iter_jsonl`` says it) and skipped, as is a line too long to read
    (:func:`bounded_lines`). Only an error of reading the file is reported as one: an error of the writer
    (a full disk) propagates, so that the conversion stops and the old output stays."""
    name = str(path)
    loads, add = orjson.loads, writer.add_json
    try:
        stream = open(path, "rb", buffering=READ_BLOCK)
    except OSError as error:
        counter.error(_unreadable(name, error))
        return
    with stream:
        lines = enumerate(bounded_lines(stream), 1)
        while True:
            try:
                number, line = next(lines)
            except StopIteration:
                return
            except OSError as error:
                counter.error(_unreadable(name, error))
                return
            if line is None:
                counter.error(long_line_item(f"{name}:{number}"))
                continue
            try:
                obj = loads(line)
            except orjson.JSONDecodeError as error:
                if line.strip():
                    source = f"{name}:{number}"
                    counter.error(Item(source, error=RecordError(bad_json(error, line), source=source)))
                continue
            try:
                hands = add(obj)
            except RecordError as error:
                source = f"{name}:{number}"
                counter.error(Item(source, error=error.at(source)))
                continue
            counter.count(hands)


def _unreadable(name: str, error: OSError) -> Item:
    return Item(name, error=RecordError(f"cannot read: {error.strerror or error}", source=name))


class _Counter:
    """Counts games and hands, reports errors, and calls the progress handler every so often."""

    def __init__(self, on_error: ErrorHandler | None, on_progress: ProgressHandler | None) -> None:
        self.on_error = on_error or (lambda item: None)
        self.on_progress = on_progress
        self.total_games = self.total_hands = self.errors = 0
        self._games = self._hands = 0

    def add(self, write: Callable[[GameRecord], None], item: Item) -> None:
        if item.game is None:
            self.error(item)
            return
        try:
            write(item.game)
        except RecordError as error:   # a game the output cannot hold; the others still go in
            self.error(Item(item.source, error=error.at(item.source)))
            return
        self.count(len(item.game.hands))

    def games(self, items: Iterable[Item], target: Path) -> Iterator[GameRecord]:
        for item in items:
            refused = None if item.game is None else too_long_for_a_line(item.game, item.source)
            if item.game is None or refused is not None:
                self.error(item if refused is None else Item(item.source, error=refused))
            else:
                yield item.game
                self.count(len(item.game.hands))
        self.read_something(target)

    def read_something(self, target: Path) -> None:
        """Stop the conversion, before ``target`` is replaced, when no game was read."""
        if not (self.total_games or self._games):
            raise NothingRead(f"{target}: no game was read, so it was not written"
                              + (" (the output is left as it was)" if os.path.lexists(target) else ""))

    def error(self, item: Item) -> None:
        self.errors += 1
        self.on_error(item)

    def count(self, hands: int) -> None:
        self._games += 1
        self._hands += hands
        if self._games >= PROGRESS_EVERY:
            self.report()

    def report(self) -> None:
        self.total_games += self._games
        self.total_hands += self._hands
        if self.on_progress is not None and self._games:
            self.on_progress(self._games, self._hands)
        self._games = self._hands = 0


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Parsed JSON holds no reference cycles; pausing the cycle collector saves it from rescanning
    millions of fresh objects (a fifth of the conversion time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
