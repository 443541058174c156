"""The audit of a corpus as one document: what ``hearts validate`` prints, for Python users too.

:class:`CorpusAudit` runs any engine (``reference``, ``fast`` or ``dask``), counts its
:class:`~hearts_analysis.corpus_audit.Summary` as the games pass, keeps the unreadable records, and
writes the JSON document (``{"games": [...], "errors": [...], "summary": {...}}``) a game at
a time, so that a corpus of millions of games is never held whole. :func:`audit_document` is
the same document as a dict, for a corpus that fits in memory.

>>> import tempfile, pathlib
>>> from hearts_analysis.records.json import write_games
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.rules import Rules
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_games(simulate_games(3, Rules.preset("standard", target=30)), path)
3
>>> document = audit_document([path])
>>> document["summary"]["games"], document["summary"]["violations"], len(document["games"])
(3, 0, 3)
"""

from __future__ import annotations

from typing import Any, BinaryIO, Callable, Iterable, Iterator

import orjson

from ..corpus_audit import GameReport, Summary, error_report
from ..records.duplicates import SeenGames
from ..records.sources import warn_stderr
from ..rules import Rules
from . import ENGINES, audit_entries
from .run import CleanRun, Entry


class EngineMisuse(ValueError):
    """Options that do not go together (a scheduler without Dask, an unknown engine)."""


class CorpusAudit:
    """Every game of ``paths``, audited; iterate for ``(item, report)`` of each game the reference engine
    replayed and the :class:`~hearts_analysis.fastpath.run.CleanRun` of the games the screen cleared.

    ``summary`` and ``errors`` grow as the entries are read. ``render`` keeps each clean game's report as
    JSON bytes (what the JSON document needs; cheap in a worker process); ``reports`` keeps what builds the
    reports in this process (one process only).
    """

    def __init__(self, paths: Iterable, rules: Rules | None = None, engine: str = "fast", workers: int = 1,
                 scheduler: str | None = None, render: bool = False, reports: bool = False,
                 keep_duplicates: bool = False, warn: Callable[[str], None] = warn_stderr) -> None:
        if engine not in ENGINES:
            raise EngineMisuse(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")
        if scheduler is not None and engine != "dask":
            raise EngineMisuse("--scheduler goes with --engine dask")
        self.paths, self.rules, self.engine, self.workers = list(paths), rules, engine, workers
        self.scheduler, self.render, self.reports = scheduler, render, reports
        self.summary = Summary()
        self.errors: list[dict[str, Any]] = []
        self.seen = None if keep_duplicates else SeenGames()
        self.warn = warn

    def _once(self, entries: Iterator[Entry]) -> Iterator[Entry]:
        """Each game once: a game read before (:mod:`~hearts_analysis.records.duplicates`) is left out, warned about."""
        seen = self.seen
        for entry in entries:
            if isinstance(entry, CleanRun):
                dropped = set()
                for i, ((game_id, ident, cards), source) in enumerate(zip(entry.keys, entry.sources)):
                    repeat = seen.check_digests(game_id, ident, cards, source)
                    if repeat is not None:
                        self.warn(repeat.message)
                        if repeat.dropped:
                            dropped.add(i)
                if dropped:
                    entry.drop(dropped)
                    if not entry.games:
                        continue
            elif entry.report is not None:
                if entry.key is not None:
                    repeat = seen.check_digests(*entry.key, entry.item.source)
                elif entry.item.game is not None:
                    repeat = seen.check(entry.item.game, entry.item.source)
                else:
                    repeat = None
                if repeat is not None:
                    self.warn(repeat.message)
                    if repeat.dropped:
                        continue
            yield entry

    def _entries(self) -> Iterator[Entry]:
        if self.engine == "dask":
            from .cluster import dask_entries   # raises DaskMissing without the extra
            return dask_entries(self.paths, self.rules, self.scheduler, self.workers, self.render)
        return audit_entries(self.paths, self.rules, self.engine, self.workers, self.render, self.reports)

    def __iter__(self) -> Iterator[Entry]:
        entries = self._entries()
        for entry in entries if self.seen is None else self._once(entries):
            if isinstance(entry, CleanRun):
                self.summary.games += entry.games
                self.summary.hands += entry.hands
            elif entry.report is None:
                self.summary.errors += 1
                self.errors.append(error_report(entry.item))
            else:
                self.summary.add_game(entry.report)
            yield entry

    def write_json(self, out: BinaryIO, on_entry: Callable[[Entry], None] | None = None) -> Summary:
        """The whole document to ``out``, one game per line; ``on_entry`` sees each entry (progress)."""
        self.render = True
        first = True
        out.write(b'{"games": [')
        for entry in self:
            if on_entry is not None:
                on_entry(entry)
            texts = entry.render() if isinstance(entry, CleanRun) else \
                [] if entry.report is None else [orjson.dumps(entry.report)]
            for text in texts:
                out.write((b"" if first else b",\n ") + text)
                first = False
        out.write(b'],\n "errors": ' + orjson.dumps(self.errors) + b',\n "summary": '
                  + orjson.dumps(self.summary.to_dict()) + b"}\n")
        return self.summary


def audit_document(paths: Iterable, rules: Rules | None = None, engine: str = "fast", workers: int = 1,
                   scheduler: str | None = None) -> dict[str, Any]:
    """``hearts validate --format json`` as a dict: ``games`` (one report each), ``errors``, ``summary``."""
    remote = workers > 1 or engine == "dask"
    audit = CorpusAudit(paths, rules, engine, workers, scheduler, render=remote, reports=not remote)
    games: list[GameReport] = []
    for entry in audit:
        if isinstance(entry, CleanRun):
            games.extend(entry.reports())
        elif entry.report is not None:
            games.append(entry.report)
    return {"games": games, "errors": audit.errors, "summary": audit.summary.to_dict()}


__all__ = ["CorpusAudit", "EngineMisuse", "audit_document"]
