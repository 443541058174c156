"""Where games come from: files by format, folders, standard input; :func:`read_games` reads them all.

The dispatcher over the codecs: a file's kind is told by its suffix (JSON, Parquet) or
its content (a log format), and the codec of that kind reads it.

Files of other programs' log formats are recognised from their content, not their
name: a log format registers a recogniser here (:func:`register_recogniser`), so that
this layer reads every format without depending on the modules that know them.

A folder mixing formats reads as one corpus, each game named by its file:

>>> import pathlib, tempfile
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> games = list(simulate_games(2, Rules.preset("standard", target=30)))
>>> write_any(games[:1], folder / "a.jsonl"), write_any(games[1:], folder / "b.parquet")
(1, 1)
>>> [(pathlib.Path(item.source).name, item.game.game_id) for item in read_games(folder)]
[('a.jsonl:1', 'sim-0-1'), ('b.parquet:#1', 'sim-0-2')]
"""

from __future__ import annotations

import dataclasses
import io
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator, TextIO

from ..rules import Rules
from ..text import shown
from .errors import Item, RecordError
from .json import MAX_DOCUMENT_BYTES, iter_json_text, read_document, read_json_path, write_games
from .json.files import NOT_TEXT, WIDE_TEXT, is_wide_text
from .paths import JSON_SUFFIXES, PARQUET_SUFFIXES, input_problem

SNIFF_BYTES = 1 << 16
"""How much of a file a recogniser sees."""

ForeignReader = Callable[[TextIO, str], Iterator[Item]]
"""Reads every game of a text stream named ``name``, as :class:`Item` entries."""
Recogniser = Callable[[str], "ForeignReader | None"]
"""The reader for a text whose beginning it recognises, else ``None``."""

_RECOGNISERS: list[Recogniser] = []
NOTHING_FOUND = "no game files in this folder (.json, .jsonl, .parquet, or a log `hearts import` reads)"


def register_recogniser(recogniser: Recogniser) -> None:
    """Let ``recogniser`` claim files by their content (the log formats register one on import)."""
    if recogniser not in _RECOGNISERS:
        _RECOGNISERS.append(recogniser)


def _head(path: Path) -> str | None:
    """The beginning of a file as text; ``None`` for a binary file."""
    with open(path, "rb") as stream:
        data = stream.read(SNIFF_BYTES)
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace").lstrip("\ufeff")


def recognise_text(head: str) -> ForeignReader | None:
    """The reader of the first registered format that recognises this text."""
    for recogniser in _RECOGNISERS:
        reader = recogniser(head)
        if reader is not None:
            return reader
    return None


def foreign_reader(path: Path) -> ForeignReader | None:
    """The reader of a log format this file's content is in; ``None`` for JSON records, Parquet or unknown."""
    if not _RECOGNISERS or path.suffix.lower() in PARQUET_SUFFIXES:
        return None
    head = _head(path)
    return None if head is None else recognise_text(head)


def _forced(items: Iterator[Item], rules: Rules | None) -> Iterator[Item]:
    """A log's games judged under ``rules`` instead of their own, as the JSON reader does."""
    for item in items:
        yield item if rules is None or item.game is None else dataclasses.replace(item, game=dataclasses.replace(
            item.game, rules=rules))


def open_log(path: Path) -> TextIO:
    """A log file opened as text, or :class:`RecordError` past :data:`MAX_DOCUMENT_BYTES` (a log's reader may hold
    all of it) or for UTF-16 text (which would read as noise). A UTF-8 byte order mark, as Windows editors
    write, is skipped."""
    if path.stat().st_size > MAX_DOCUMENT_BYTES:
        raise RecordError(f"more than {MAX_DOCUMENT_BYTES >> 20} MB, not read: split the log into smaller files",
                          source=str(path))
    wide_text_check(path)
    return open(path, encoding="utf-8-sig", errors="replace")


def wide_text_check(path: Path) -> None:
    """:class:`RecordError` for a file of UTF-16 or UTF-32 text, which no log reader reads, or of NUL bytes."""
    with open(path, "rb") as stream:
        head = stream.read(256)
    if is_wide_text(head):
        raise RecordError(WIDE_TEXT, source=str(path))
    if b"\0" in head:
        raise RecordError(NOT_TEXT, source=str(path))


def read_foreign(reader: ForeignReader, path: Path, rules: Rules | None = None) -> Iterator[Item]:
    name = str(path)
    try:
        with open_log(path) as stream:
            yield from _forced(reader(stream, name), rules)
    except OSError as error:
        yield Item(name, error=RecordError(f"cannot read: {error.strerror or error}", source=name))
    except RecordError as error:
        yield Item(name, error=error)


def read_file(path: Path, rules: Rules | None = None) -> Iterator[Item]:
    """Every game of one file: Parquet by its suffix, a recognised log by its content, else JSON."""
    if path.suffix.lower() in PARQUET_SUFFIXES:
        from .parquet import read_parquet_items   # pyarrow: only for a Parquet file
        yield from read_parquet_items(path, rules)
        return
    try:
        reader = foreign_reader(path)
    except OSError as error:
        yield Item(str(path), error=RecordError(f"cannot read: {error.strerror or error}", source=str(path)))
        return
    if reader is not None:
        yield from read_foreign(reader, path, rules)
    else:
        yield from read_json_path(path, rules)


def read_stdin_items(rules: Rules | None = None, stream: io.BufferedIOBase | None = None) -> Iterator[Item]:
    """Standard input: a recognised log, else hearts-game/1 JSON or JSON Lines."""
    try:
        data = read_document(stream or sys.stdin.buffer, "<stdin>")
    except RecordError as error:
        yield Item("<stdin>", error=error)
        return
    if _RECOGNISERS and b"\0" not in data[:SNIFF_BYTES]:
        text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
        reader = recognise_text(text[:SNIFF_BYTES])
        if reader is not None:
            yield from _forced(reader(io.StringIO(text), "<stdin>"), rules)
            return
    yield from iter_json_text(data, "<stdin>", rules)


def folder_files(folder: Path) -> list[Path]:
    """The game files of a folder, recursively and in order: records by suffix, logs by content.

    Hidden files and folders are left out, and so is a log read through another file of the folder (a
    Hearts League round file beside its trick file: the reader's module names it with ``companion``).
    """
    found = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or any(part.startswith(".") for part in path.relative_to(folder).parts):
            continue
        if path.suffix.lower() in JSON_SUFFIXES + PARQUET_SUFFIXES:
            found.append(path)
            continue
        try:
            reader = foreign_reader(path)
        except OSError:
            found.append(path)  # reported when read
            continue
        if reader is not None:
            companion = getattr(sys.modules.get(reader.__module__), "companion", None)
            other = companion(path) if companion is not None else None
            if other is None or not other.is_file():
                found.append(path)
    return found


def warn_stderr(message: str) -> None:
    """A reader's warning, on standard error (the default of :func:`iter_sources`)."""
    print(f"warning: {message}", file=sys.stderr)


def iter_sources(paths: Iterable[str | Path], rules: Rules | None = None, keep_duplicates: bool = False,
                 warn: Callable[[str], None] = warn_stderr) -> Iterator[Item]:
    """Every game of ``paths``; a game read again (:mod:`.duplicates`) is left out and warned about with
    ``warn``, unless ``keep_duplicates``."""
    items = _iter_sources(paths, rules)
    if keep_duplicates:
        return items
    from .duplicates import once
    return once(items, warn)


def _iter_sources(paths: Iterable[str | Path], rules: Rules | None = None) -> Iterator[Item]:
    for raw in paths:
        if str(raw) == "-":
            yield from read_stdin_items(rules)
            continue
        path = Path(raw)
        if path.is_dir():
            found = folder_files(path)
            if not found:
                yield Item(str(path), error=RecordError(NOTHING_FOUND, source=str(path)))
            for file in found:
                yield from read_file(file, rules)
        elif (problem := input_problem(path)) is not None:
            yield Item(str(path), error=RecordError(problem, source=str(path)))
        else:
            yield from read_file(path, rules)


def write_any(games: Iterable, path: str | Path) -> int:
    """Write games to ``path`` in the format its suffix names (.json, .jsonl, .parquet; a folder
    holds Parquet part files); atomic."""
    path = Path(path)
    if path.suffix.lower() in PARQUET_SUFFIXES or not path.suffix or path.is_dir():
        from .parquet import write_parquet
        return write_parquet(games, path)
    if path.suffix.lower() not in JSON_SUFFIXES:
        raise ValueError(f"{path}: unknown output format {shown(path.suffix)} (use .json, .jsonl or .parquet)")
    return write_games(games, path)


def read_games(paths: Iterable[str | Path] | str | Path, rules: Rules | None = None, keep_duplicates: bool = False,
               warn: Callable[[str], None] = warn_stderr) -> Iterator[Item]:
    """Every game in files, folders (recursively) and ``-`` (stdin), in order; each game once (a repeat is
    warned about with ``warn``), unless ``keep_duplicates``."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    yield from iter_sources(paths, rules, keep_duplicates, warn)
