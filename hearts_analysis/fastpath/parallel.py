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

from itertools import chain, islice
from typing import Iterable, Iterator

from ..cpus import cpu_count, worker_count
from ..executor import Task, process_pool
from ..executor import ordered as run_ordered
from ..rules import Rules
from ..memory import keep_freed_memory
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
    tasks = (Task(run_inline, (job, rules), here=True) if isinstance(job, InlineJob)
             else Task(run_task, (job, rules, engine, render, True)) for job in jobs)
    for entries in run_ordered(tasks, executor, ahead):
        yield from entries


def sequential(jobs: Iterable[Job], rules: Rules | None, engine: str = FAST, render: bool = False,
               slim: bool = True) -> Iterator[Entry]:
    """Every job's entries in order, in this process (Arrow may use several threads to read)."""
    keep_freed_memory()
    for job in jobs:
        if isinstance(job, InlineJob):
            yield from run_inline(job, rules)
        else:
            yield from run_task(job, rules, engine, render, slim, threads=True)
