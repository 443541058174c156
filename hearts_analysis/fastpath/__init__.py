"""Validation at corpus scale: a vectorised screen over Parquet columns, on one or many processes.

The reference engine (:func:`hearts_analysis.engine.replay_game`) replays one
game at a time. Here the card columns of a row group are judged
thousands of hands at once (:mod:`.lockstep`): a game the screen finds clean
gets the report the reference engine would give, computed from the same
numbers; a game with anything doubtful is read by the reference reader and
replayed by the reference engine, so violations and messages come from one
place. Results are identical to ``--engine reference`` by construction, and
the tests compare them on corpora with every violation and damaged files.

>>> import tempfile, pathlib
>>> from hearts_analysis.records.parquet import write_parquet
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.rules import Rules
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> write_parquet(simulate_games(3, Rules.preset("standard", target=30)), path)
3
>>> [report["valid"] for report in audit_reports([path])]
[True, True, True]
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..corpus_audit import GameReport
from ..records.errors import Item
from ..rules import Rules
from .parallel import AUTO, ordered, pool_size, process_pool, sequential
from .run import Audited, CleanRun, Entry
from .jsonl import JsonlTask
from .tasks import FAST, REFERENCE, ParquetTask, plan

ENGINES = (REFERENCE, FAST, "dask")

__all__ = ["AUTO", "Audited", "CleanRun", "ENGINES", "Entry", "audit_entries", "audit_reports"]


def audit_entries(paths: Iterable, rules: Rules | None = None, engine: str = FAST, workers: int = 1,
                  render: bool = False, reports: bool = False) -> Iterator[Entry]:
    """Every game of ``paths`` as :class:`Audited` or within a :class:`CleanRun`, in input order.

    ``engine``: ``fast`` (the screen, for Parquet and JSON Lines; other JSON
    is replayed by the reference engine) or ``reference``. ``workers`` > 1
    audits Parquet row groups (and, with ``fast``, chunks of JSON Lines) on
    that many processes, at most one per CPU and per part; :data:`AUTO` as many as there are CPUs where the
    input starts with JSON Lines of more than one chunk, else one. A clean run keeps only its counts, plus its
    reports as JSON bytes with ``render``, or the arrays to build them with
    ``reports`` (in this process only).
    """
    jobs = plan(paths, parquet=engine == FAST or workers > 1, jsonl=engine == FAST)
    if workers == AUTO and reports:
        workers = 1  # reports are built from arrays kept in this process
    # AUTO shares out only chunks of JSON Lines: Arrow decodes Parquet on several threads in one process
    workers, jobs = pool_size(jobs, workers, (JsonlTask,) if workers == AUTO else (ParquetTask, JsonlTask))
    if workers <= 1:
        yield from sequential(jobs, rules, engine, render, slim=not reports)
        return
    with process_pool(workers) as pool:
        yield from ordered(jobs, pool, rules, engine, render, ahead=2 * workers)


def audit_reports(paths: Iterable, rules: Rules | None = None, engine: str = FAST,
                  workers: int = 1) -> Iterator[GameReport | Item]:
    """The report of every readable game (as :func:`hearts_analysis.corpus_audit.game_report`), or the unreadable item."""
    for entry in audit_entries(paths, rules, engine, workers, render=workers > 1, reports=workers <= 1):
        if isinstance(entry, CleanRun):
            yield from entry.reports()
        else:
            yield entry.item if entry.report is None else entry.report
