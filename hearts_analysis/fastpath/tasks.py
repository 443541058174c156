"""A validation run cut into tasks: independent parts of Parquet and JSON Lines files, and everything else in order.

The paths are expanded exactly as :func:`hearts_analysis.records.sources.iter_sources`
expands them, so every engine reports the same games in the same order. A
Parquet file becomes one task per part that no game runs across (usually one
per row group), a JSON Lines file one task per chunk of whole lines (with
``jsonl``); a task can run in this process, in a worker process or on a
Dask worker, and returns its entries in order.

>>> import tempfile, pathlib
>>> from hearts_analysis.records.sources import write_any
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> rules = Rules.preset("standard", target=30)
>>> write_any(simulate_games(2, rules, seed=1), folder / "a.parquet")
2
>>> write_any(simulate_games(1, rules, seed=2), folder / "b.json")
1
>>> jobs = list(plan([folder, folder / "missing.json"]))
>>> [(type(job).__name__, pathlib.Path(job.path).name) for job in jobs]
[('ParquetTask', 'a.parquet'), ('InlineJob', 'b.json'), ('InlineJob', 'missing.json')]
>>> jobs[-1].error
'no such file or folder'
>>> [(type(entry).__name__, entry.games, entry.hands) for entry in run_task(jobs[0])]
[('CleanRun', 2, 6)]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..records.errors import Item, RecordError
from ..records.paths import JSONL_SUFFIXES
from ..records.sources import (NOTHING_FOUND, PARQUET_SUFFIXES, folder_files, foreign_reader, input_problem, read_file,
                               read_stdin_items)
from ..rules import Rules
from .decode import Judgements, file_segments, judgements_for, open_units
from .jsonl import JsonlTask, audit_lines, split_lines
from .run import Audited, CleanRun, Entry, audit_unit, replayed, whole_unit_items

FAST, REFERENCE = "fast", "reference"


@dataclass(frozen=True)
class ParquetTask:
    """Row groups ``groups`` of one Parquet file, starting at file row ``first_row``."""

    path: str
    groups: range
    first_row: int


@dataclass(frozen=True)
class InlineJob:
    """A JSON file, standard input (``path == "-"``), or an error about a path; read in this process."""

    path: str
    error: str | None = None


Job = ParquetTask | JsonlTask | InlineJob


def plan(paths, parquet: bool = True, jsonl: bool = False) -> Iterator[Job]:
    """The jobs of a run, in input order; ``parquet=False`` leaves Parquet files whole, to the reference reader;
    ``jsonl`` cuts JSON Lines files into chunks of lines for the screen (read lazily, as the jobs are taken)."""
    for raw in paths:
        if str(raw) == "-":
            yield InlineJob("-")
            continue
        path = Path(raw)
        if path.is_dir():
            found = folder_files(path)
            if not found:
                yield InlineJob(str(path), NOTHING_FOUND)
            for file in found:
                yield from _file_jobs(file, parquet, jsonl)
        elif (problem := input_problem(path)) is not None:
            yield InlineJob(str(path), problem)
        else:
            yield from _file_jobs(path, parquet, jsonl)


def _file_jobs(path: Path, parquet: bool, jsonl: bool) -> Iterator[Job]:
    if parquet and path.suffix.lower() in PARQUET_SUFFIXES:
        for groups, first_row in file_segments(path):
            yield ParquetTask(str(path), groups, first_row)
    elif jsonl and path.suffix.lower() in JSONL_SUFFIXES and not _foreign(path):
        for task in split_lines(path):
            if isinstance(task, OSError):  # reported as the JSON reader reports it, after what was read
                yield InlineJob(str(path), f"cannot read: {task.strerror or task}")
            else:
                yield task
    else:
        yield InlineJob(str(path))


def _foreign(path: Path) -> bool:
    """A file named as JSON Lines that holds another program's log: read whole by its reader."""
    try:
        return foreign_reader(path) is not None
    except OSError:
        return False


def run_inline(job: InlineJob, rules: Rules | None) -> Iterator[Entry]:
    """A JSON source (or any file, by the reference reader) through the reference engine, streamed."""
    for item in inline_items(job, rules):
        yield from replayed([item])


def inline_items(job: InlineJob, rules: Rules | None) -> Iterator[Item]:
    """The reference reader's items of a job read in this process (one error item for a path in error)."""
    if job.error is not None:
        yield Item(job.path, error=RecordError(job.error, source=job.path))
        return
    yield from read_stdin_items(rules) if job.path == "-" else read_file(Path(job.path), rules)



def run_task(task: ParquetTask | JsonlTask, rules: Rules | None = None, engine: str = FAST,
             render: bool = False, slim: bool = False, threads: bool = False) -> list[Entry]:
    """Audit one part of a Parquet file, or a chunk of lines of a JSON Lines file (always screened).

    ``engine`` ``fast`` screens it, ``reference`` reads and replays every game;
    ``render`` turns clean runs into report bytes here, ``slim`` drops their
    arrays (for results that travel to another process); ``threads`` lets
    Arrow decode columns on several threads (for a run on one process).
    """
    judge = judgements_for(rules)
    if isinstance(task, JsonlTask):
        entries = audit_lines(task, judge, rules)
    else:
        entries = _parquet_entries(task, judge, rules, engine, threads)
    for entry in entries:
        if isinstance(entry, CleanRun):
            if render:
                entry.render()
            if slim:
                entry.slim()
    return entries


def _parquet_entries(task: ParquetTask, judge: Judgements, rules: Rules | None, engine: str,
                     threads: bool) -> list[Entry]:
    entries: list[Entry] = []
    for unit in open_units(Path(task.path), rules, task.groups, task.first_row, threads):
        if isinstance(unit, Item):
            entries.extend(replayed([unit]))
        elif engine == FAST:
            entries.extend(audit_unit(unit, judge, rules))
        else:
            entries.extend(replayed(whole_unit_items(unit, rules)))
    return entries
