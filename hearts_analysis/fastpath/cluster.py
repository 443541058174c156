"""The fast path's audit on a Dask cluster (:mod:`hearts_analysis.cluster`): each task reads its own row groups
and returns its entries, which come back here in input order."""

from __future__ import annotations

from typing import Iterable, Iterator

from ..cluster import ClientExecutor, connect, tasks_ahead
from ..rules import Rules
from .parallel import ordered
from .run import Entry
from .tasks import FAST, plan


def dask_entries(paths: Iterable, rules: Rules | None = None, scheduler: str | None = None,
                 workers: int = 1, render: bool = False, client=None) -> Iterator[Entry]:
    """Every game of ``paths`` audited on a Dask cluster, in input order (``client``: an existing one)."""
    jobs = plan(paths, parquet=True)
    if client is not None:
        yield from ordered(jobs, ClientExecutor(client), rules, FAST, render, ahead=tasks_ahead(client))
        return
    with connect(scheduler, workers) as own:
        yield from ordered(jobs, ClientExecutor(own), rules, FAST, render, ahead=tasks_ahead(own))
