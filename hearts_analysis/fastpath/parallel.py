"""Run the tasks of a validation on several processes (or a Dask cluster), results in input order.

Parquet and JSON Lines tasks go to the executor, a few at a time ahead of the one being
reported, so that memory stays bounded; other sources are read here, in their
turn. Anything with ``submit(fn, *args) -> future`` and ``future.result()``
will do as an executor: a process pool or a ``distributed.Client``.

Whatever order the executor finishes the tasks in, the games come out in the
order of the input, a JSON Lines file read here between two Parquet files included:

>>> import tempfile, pathlib
>>> from concurrent.futures import ThreadPoolExecutor
>>> from hearts_analysis.records.sources import write_any
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.fastpath.tasks import plan
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> rules = Rules.preset("standard", target=30)
>>> for seed, name in [(1, "a.parquet"), (2, "b.jsonl"), (3, "c.parquet")]:
...     _ = write_any(simulate_games(2, rules, seed=seed), folder / name)
>>> def game_ids(entries):
...     return [report["game_id"] for entry in entries
...             for report in (entry.reports() if hasattr(entry, "reports") else [entry.report])]
>>> with ThreadPoolExecutor(2) as pool:
...     game_ids(ordered(plan([folder]), pool, None, render=True))
['sim-1-1', 'sim-1-2', 'sim-2-1', 'sim-2-2', 'sim-3-1', 'sim-3-2']
>>> game_ids(sequential(plan([folder]), None, render=True))
['sim-1-1', 'sim-1-2', 'sim-2-1', 'sim-2-2', 'sim-3-1', 'sim-3-2']
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from itertools import chain, islice
from typing import Iterable, Iterator

from ..cpus import cpu_count, worker_count
from ..rules import Rules
from .memory import keep_freed_memory
from .run import Entry
from .tasks import FAST, InlineJob, Job, run_inline, run_task


AUTO = 0
"""``workers``: a process per CPU where the input starts with more than one part to share out (see :func:`pool_size`)."""


def pool_size(jobs: Iterator[Job], workers: int, parts: tuple[type, ...]) -> tuple[int, Iterator[Job]]:
    """The processes to start for ``jobs``, and the jobs, none of them lost: ``workers`` (:data:`AUTO`: one per
    CPU), never more than the CPUs nor than the jobs of the kinds ``parts`` among the first ones (so with AUTO,
    one unless there are two)."""
    if workers == 1:
        return 1, jobs
    wanted = cpu_count() if workers == AUTO else workers
    first = list(islice(jobs, worker_count(wanted)))
    return worker_count(wanted, sum(isinstance(job, parts) for job in first)), chain(first, jobs)


def ordered(jobs: Iterable[Job], executor, rules: Rules | None, engine: str = FAST, render: bool = False,
            ahead: int = 4) -> Iterator[Entry]:
    """Every job's entries in order; at most ``ahead`` Parquet tasks run or wait ahead of the output."""
    pending: deque = deque()
    for job in jobs:
        if not isinstance(job, InlineJob):
            pending.append(executor.submit(run_task, job, rules, engine, render, True))
            while len(pending) > ahead:
                yield from pending.popleft().result()
        else:
            while pending:
                yield from pending.popleft().result()
            yield from run_inline(job, rules)
    while pending:
        yield from pending.popleft().result()


def sequential(jobs: Iterable[Job], rules: Rules | None, engine: str = FAST, render: bool = False,
               slim: bool = True) -> Iterator[Entry]:
    """Every job's entries in order, in this process (Arrow may use several threads to read)."""
    keep_freed_memory()
    for job in jobs:
        if isinstance(job, InlineJob):
            yield from run_inline(job, rules)
        else:
            yield from run_task(job, rules, engine, render, slim, threads=True)


def _worker_setup() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them, and keep freed memory."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    keep_freed_memory()


@contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes, never more than the CPUs (callers that know how much work
    there is bound it by that too); forked where the platform can, as they start fastest."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods and os.name == "posix" else None)
    pool = ProcessPoolExecutor(max_workers=worker_count(workers), mp_context=context, initializer=_worker_setup)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
