"""Player statistics over a corpus the fast way: Parquet and JSON Lines counted as columns, the rest game by game.

A Parquet file is read as the fast path reads it, a pair of row groups at a
time (so memory stays bounded on a corpus of any size): the games the screen
finds clean are counted from the arrays (:mod:`.columnar`), and every other
game (doubtful, unreadable, or with a hand ended early) is read by the
reference reader and counted by the per-game analysis, as
:func:`~hearts_analysis.analysis.stats.tally_items` counts it. JSON Lines are
read a chunk of lines at a time as the fast path reads them
(:func:`~hearts_analysis.fastpath.jsonl.screened_lines`) and counted the same
way; ``.json`` files game by game. The result is the same :class:`Tally` either
way; ``workers`` counts parts of Parquet and JSON Lines files on that many
processes.

>>> import tempfile, pathlib
>>> from hearts_analysis.records.parquet import write_parquet
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.analysis.stats import tally_games
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> games = list(simulate_games(4, Rules.preset("standard", target=30), seed=3))
>>> write_parquet(games, path)
4
>>> fast = tally_corpus([path])
>>> fast.player_rows() == tally_games(games).player_rows()
True
"""

from __future__ import annotations

import contextlib
from collections import deque
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
import pyarrow as pa

from ..executor import Task, open_executor, ordered
from ..fastpath.decode import Unit, decode_unit, judgements_for, open_units
from ..fastpath.jsonl import JsonlTask, screened_lines
from ..fastpath.parallel import AUTO, pool_size, process_pool
from ..fastpath.run import reference_items, whole_unit_items
from ..fastpath.screen import screen_block
from ..fastpath.tasks import ParquetTask, inline_items, plan
from ..records.duplicates import SeenGames, block_digests, cards_digest, id_digest, once
from ..records.errors import Item
from ..records.sources import warn_stderr
from ..records.json import jsonl_item, long_line_item
from ..rules import Rules
from .columnar import full_games, tally_block
from .game import analyze_game
from .stats import Progress, Tally, tally_items

OnError = Callable[[Item], None]
"""Told of each unreadable record, in input order."""


def tally_corpus(paths: Iterable[str | Path], rules: Rules | None = None, progress: Progress | None = None,
                 workers: int = 1, on_error: OnError | None = None, details: bool = True,
                 scheduler: str | None = None, keep_duplicates: bool = False,
                 warn: Callable[[str], None] = warn_stderr) -> Tally:
    """Tally every game of files and folders (.json, .jsonl, .parquet), Parquet and JSON Lines from columns;
    ``details=False`` leaves out what only the pass tables and the points histogram read
    (:attr:`Tally.details`), a tenth of the counting. ``workers``: processes counting parts of Parquet and JSON
    Lines files; :data:`~hearts_analysis.fastpath.parallel.AUTO`, one per CPU where the input starts with more than one
    part (the counting runs in Python and numpy, a core each). ``scheduler``: count the parts on the Dask cluster
    at that address instead (the workers must see the files).

    A game read again (:mod:`~hearts_analysis.records.duplicates`) is counted once and warned about with ``warn``,
    unless ``keep_duplicates``: each part returns the hashes of the games it counted, and a part holding a repeat
    is counted again here without it (repeats are rare, so the common case costs only the hashes)."""
    tally = Tally(details=details)
    seen = None if keep_duplicates else SeenGames()

    def taken(part: Tally, errors: list[Item]) -> None:
        tally.merge(part)
        if on_error is not None:
            for item in errors:
                on_error(item)
        if progress is not None:
            progress(part.games, part.hands)

    processes, jobs = pool_size(plan(paths, parquet=True, jsonl=True), workers, (ParquetTask, JsonlTask))
    workers = processes if workers == AUTO else workers  # what .json files are counted game by game on
    sent: deque = deque()

    def task(job) -> Task:
        sent.append(job)
        if not isinstance(job, (ParquetTask, JsonlTask)):
            items = _told(inline_items(job, rules), on_error)
            items = items if seen is None else once(items, warn, seen)
            return Task(lambda: tally_items(items, progress, workers), here=True)
        if processes > 1 or scheduler is not None:
            return Task(tally_task, (job, rules, details))
        return Task(tally_task, (job, rules, details, True), here=True)   # one process: count on several threads

    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            from ..cluster import tasks_ahead
            executor = stack.enter_context(open_executor(scheduler=scheduler))
            ahead = tasks_ahead(executor.client)
        else:
            executor = stack.enter_context(process_pool(processes)) if processes > 1 else None
            ahead = 2 * processes
        for result in ordered((task(job) for job in jobs), executor, ahead=ahead):
            job = sent.popleft()
            if isinstance(result, Tally):
                tally.merge(result)
                continue
            part, errors, keys = result
            if seen is not None:
                dropped = set()
                for key in keys:
                    repeat = seen.check_digests(*key)
                    if repeat is not None:
                        warn(repeat.message)
                        if repeat.dropped:
                            dropped.add(key[3])
                if dropped:
                    part, errors, _ = tally_task(job, rules, details, False, frozenset(dropped))
            taken(part, errors)
    return tally


def _told(items: Iterable[Item], on_error: OnError | None) -> Iterable[Item]:
    for item in items:
        if item.game is None and on_error is not None:
            on_error(item)
        yield item


def _units(task: ParquetTask, rules: Rules | None, threads: bool = False) -> Iterable[Unit | Item]:
    return open_units(Path(task.path), rules, task.groups, task.first_row, threads)


Keys = list[tuple]
"""``(game_id, id digest, cards digest, source)`` of each game a part counted (:mod:`~hearts_analysis.records.duplicates`)."""


def tally_task(task: ParquetTask | JsonlTask, rules: Rules | None, details: bool = True,
               threads: bool = False, skip: frozenset[str] = frozenset()) -> tuple[Tally, list[Item], Keys]:
    """One part of a Parquet or JSON Lines file: its tally, its unreadable records and the keys of the games it
    counted (in a worker process, or here with ``threads``); the games whose place is in ``skip`` are left out."""
    if isinstance(task, JsonlTask):
        return tally_lines(task, rules, threads, details, skip)
    tally, errors, keys = Tally(details=details), [], []
    for unit in _units(task, rules, threads):
        part, found, counted = tally_unit(unit, rules, threads, details, skip)
        tally.merge(part)
        errors += found
        keys += counted
    return tally, errors, keys


def _fast_keys(block, fast: np.ndarray, skip: frozenset[str], keys: Keys) -> np.ndarray:
    """The indices of the ``fast`` games not in ``skip``; their keys appended to ``keys``."""
    games = np.flatnonzero(fast)
    if not len(games):
        return games
    digests = block_digests(block, 0, block.games)
    kept = []
    for g in games.tolist():
        source = block.source(g)
        if source not in skip:
            kept.append(g)
            keys.append((*digests[g], source))
    return np.array(kept, dtype=games.dtype)


def tally_unit(unit: Unit | Item, rules: Rules | None, threads: bool = False,
               details: bool = True, skip: frozenset[str] = frozenset()) -> tuple[Tally, list[Item], Keys]:
    """The tally of a unit's games (clean games of full tricks from the columns, the others game by game),
    its unreadable records and the keys of the games counted; an :class:`Item` (a part the fast path could not
    open) is counted alone. ``threads``: count on several threads (in a run on one process); ``details``: see
    :func:`tally_corpus`; ``skip``: the places of games to leave out."""
    tally, keys = Tally(details=details), []
    if isinstance(unit, Item):
        return tally, _count_items([unit], tally, keys, skip), keys
    try:
        block = decode_unit(unit, judgements_for(rules))
        verdict = None if block is None else screen_block(block)
    except (ValueError, IndexError, TypeError, OverflowError, pa.ArrowException):
        block = verdict = None  # input the screen does not expect: the reference path decides
    items = None
    if block is not None and verdict is not None:
        fast = full_games(block, verdict)
        items = reference_items(unit, block, np.flatnonzero(~fast), rules)
    if items is None:
        return tally, _count_items(whole_unit_items(unit, rules), tally, keys, skip), keys
    tally_block(block, verdict, _fast_keys(block, fast, skip, keys), tally, threads)
    return tally, _count_items([items[g] for g in sorted(items)], tally, keys, skip), keys


def tally_lines(task: JsonlTask, rules: Rules | None, threads: bool = False,
                details: bool = True, skip: frozenset[str] = frozenset()) -> tuple[Tally, list[Item], Keys]:
    """The tally of a chunk of JSON Lines, as :func:`tally_unit` counts a Parquet unit: the games the line encoder
    took and the screen found clean, of full tricks, from the arrays; every other line game by game, read by the
    JSON reader."""
    tally, keys = Tally(details=details), []
    if task.too_long:
        return tally, _count_items([long_line_item(f"{task.path}:{task.first_line}")], tally, keys, skip), keys
    lines, block, verdict = screened_lines(task, judgements_for(rules))
    fast = np.zeros(0, bool)
    if block is not None and verdict is not None:
        fast = full_games(block, verdict)
        tally_block(block, verdict, _fast_keys(block, fast, skip, keys), tally, threads)
    return tally, _count_items([jsonl_item(line, f"{task.path}:{number}", rules) for number, line, game in lines
                                if game < 0 or not len(fast) or not fast[game]], tally, keys, skip), keys


def _count_items(items: Iterable[Item], tally: Tally, keys: Keys, skip: frozenset[str] = frozenset()) -> list[Item]:
    """Count readable games one by one into ``tally`` (their keys into ``keys``, those in ``skip`` left out);
    returns the unreadable ones."""
    errors = []
    for item in items:
        if item.game is None:
            tally.add_error(item)
            errors.append(item)
        elif item.source not in skip:
            tally.add(analyze_game(item.game, item.source))
            keys.append((item.game.game_id, id_digest(item.game.game_id), cards_digest(item.game), item.source))
    return errors


__all__ = ["tally_corpus", "tally_lines", "tally_task", "tally_unit"]
