"""Where games come from: files by format, folders, standard input."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Iterable, Iterator

from ..rules import Rules
from ..text import shown
from .jsonio import JSONL_SUFFIXES, Item, RecordError, read_json_path, read_stdin

JSON_SUFFIXES = (".json",) + JSONL_SUFFIXES
PARQUET_SUFFIXES = (".parquet", ".pq")
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def input_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as games, or None for a regular file or a folder.

    Only those are read: a FIFO would wait forever for a writer and a device such as
    ``/dev/zero`` never ends; ``-`` is how to read standard input.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file or folder"
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"{kind}, not a file or folder; only files and folders are read (- reads standard input)"


def _read_file(path: Path, rules: Rules | None) -> Iterator[Item]:
    if path.suffix.lower() in PARQUET_SUFFIXES:
        from .parquetio import read_parquet_items
        yield from read_parquet_items(path, rules)
    else:
        yield from read_json_path(path, rules)


def iter_sources(paths: Iterable[str | Path], rules: Rules | None = None) -> Iterator[Item]:
    for raw in paths:
        if str(raw) == "-":
            yield from read_stdin(rules)
            continue
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*")
                           if p.is_file() and p.suffix.lower() in JSON_SUFFIXES + PARQUET_SUFFIXES
                           and not any(part.startswith(".") for part in p.relative_to(path).parts))
            if not found:
                yield Item(str(path), error=RecordError("no .json, .jsonl or .parquet files in this folder", source=str(path)))
            for file in found:
                yield from _read_file(file, rules)
        elif (problem := input_problem(path)) is not None:
            yield Item(str(path), error=RecordError(problem, source=str(path)))
        else:
            yield from _read_file(path, rules)


def write_any(games: Iterable, path: str | Path) -> int:
    """Write games to ``path`` in the format its suffix names (.json, .jsonl, .parquet; a folder
    holds Parquet part files); atomic."""
    path = Path(path)
    if path.suffix.lower() in PARQUET_SUFFIXES or not path.suffix or path.is_dir():
        from .parquetio import write_parquet
        return write_parquet(games, path)
    if path.suffix.lower() not in JSON_SUFFIXES:
        raise ValueError(f"{path}: unknown output format {shown(path.suffix)} (use .json, .jsonl or .parquet)")
    from .jsonio import write_games
    return write_games(games, path)
