"""The fast path on a Dask cluster: the same tasks as ``--workers``, run by ``distributed`` workers.

Dask is an optional extra (``pip install 'hearts-analysis[dask]'``), imported
only here and only when asked for. Workers must see the same files (a shared
or network file system); each task reads its own row groups and returns its
entries, which come back here in input order.

Without Dask installed, only asking for it fails, with the line that installs it:

>>> import sys
>>> from unittest import mock
>>> with mock.patch.dict(sys.modules, {"distributed": None}):
...     with connect(None):
...         pass
Traceback (most recent call last):
hearts_analysis.fastpath.cluster.DaskMissing: --engine dask needs Dask's distributed scheduler: pip install 'hearts-analysis[dask]'

Tasks are submitted as impure, so that the cluster never hands back an old
result for a file that has since changed:

>>> class Recorder:
...     def submit(self, fn, *args, **options):
...         return fn(*args), options
>>> ClientExecutor(Recorder()).submit(max, 2, 3)
(3, {'pure': False})
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterable, Iterator

from ..cpus import worker_count
from ..rules import Rules
from .parallel import ordered
from .run import Entry
from .tasks import FAST, plan

INSTALL = "pip install 'hearts-analysis[dask]'"


CONNECT_SECONDS = 10.0
"""How long to try reaching a scheduler before saying it cannot be reached."""
WORKERS_SECONDS = 60.0
"""How long to wait for a scheduler to have a worker: with none (all dead, or none started) its tasks would
wait for ever, with no message."""


class ClusterError(RuntimeError):
    """The cluster cannot do the work: the extra is missing, the scheduler unreachable, or it has no workers.
    The command line says it in one line and exits 2."""


class DaskMissing(ClusterError):
    """The dask extra is not installed."""


def _distributed():
    try:
        import distributed
    except ImportError:
        raise DaskMissing(f"--engine dask needs Dask's distributed scheduler: {INSTALL}") from None
    return distributed


@contextmanager
def connect(scheduler: str | None, workers: int = 1) -> Iterator:
    """A client of the scheduler at ``scheduler``, or of a local cluster of ``workers`` processes (at most one
    per CPU)."""
    distributed = _distributed()
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler} (tried for {CONNECT_SECONDS:g} s: "
                               f"{error}); is it running, and is the address right?") from None
        with client:
            try:
                client.wait_for_workers(1, timeout=WORKERS_SECONDS)
            except (OSError, TimeoutError):
                raise ClusterError(f"the Dask scheduler at {scheduler} has no workers (waited "
                                   f"{WORKERS_SECONDS:g} s): start some with dask worker {scheduler}") from None
            yield client
        return
    with distributed.LocalCluster(n_workers=worker_count(workers), threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


class ClientExecutor:
    """A ``distributed.Client`` as an executor for :func:`ordered` (tasks are pure: never cached twice)."""

    def __init__(self, client):
        self.client = client

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)


def dask_entries(paths: Iterable, rules: Rules | None = None, scheduler: str | None = None,
                 workers: int = 1, render: bool = False, client=None) -> Iterator[Entry]:
    """Every game of ``paths`` audited on a Dask cluster, in input order (``client``: an existing one)."""
    jobs = plan(paths, parquet=True)
    if client is not None:
        yield from ordered(jobs, ClientExecutor(client), rules, FAST, render, ahead=tasks_ahead(client))
        return
    with connect(scheduler, workers) as own:
        yield from ordered(jobs, ClientExecutor(own), rules, FAST, render, ahead=tasks_ahead(own))


def tasks_ahead(client) -> int:
    """Tasks in flight: two per worker thread of the cluster."""
    threads = sum(client.nthreads().values()) or 1
    return 2 * threads
