"""A Dask cluster as an executor: the same tasks as ``--workers``, run by ``distributed`` workers.

Dask is an optional extra (``pip install 'hearts-analysis[dask]'``), imported
only here and only when asked for. Workers must see the same files (a shared
or network file system). :func:`hearts_analysis.executor.open_executor` hands a
:class:`ClientExecutor` to every command that runs tasks.

Without Dask installed, only asking for it fails, with the line that installs it:

>>> import sys
>>> from unittest import mock
>>> with mock.patch.dict(sys.modules, {"distributed": None}):
...     with connect(None):
...         pass
Traceback (most recent call last):
hearts_analysis.cluster.DaskMissing: --engine dask needs Dask's distributed scheduler: pip install 'hearts-analysis[dask]'

Tasks are submitted as impure, so that the cluster never hands back an old
result for a file that has since changed:

>>> class Done:
...     def __init__(self, value):
...         self.value = value
...     def result(self, timeout=None):
...         return self.value
>>> class Recorder:
...     def submit(self, fn, *args, **options):
...         return Done((fn(*args), options))
>>> ClientExecutor(Recorder()).submit(max, 2, 3).result()
(3, {'pure': False})

A Dask future waits for ever once every worker is gone (the scheduler keeps its
tasks for a worker that may come), so a result is waited for a poll at a time,
and a cluster left with no worker for :func:`workers_seconds` is an error:

>>> class Gone:
...     def result(self, timeout=None):
...         raise TimeoutError
>>> class Empty:
...     scheduler = type("Rpc", (), {"address": "tcp://h:8786"})()
...     def submit(self, fn, *args, **options):
...         return Gone()
...     def nthreads(self):
...         return {}
>>> from unittest import mock
>>> with mock.patch.dict("os.environ", {WAIT_ENV: "0"}), mock.patch(f"{__name__}.POLL_SECONDS", 0):
...     ClientExecutor(Empty()).submit(max, 2, 3).result()
Traceback (most recent call last):
hearts_analysis.cluster.ClusterError: every worker of the Dask scheduler at tcp://h:8786 is gone (none for 0 s) after 0 tasks were done; the run is incomplete and nothing more is written: start workers with dask worker tcp://h:8786 and run again
"""

from __future__ import annotations

import logging
import os
import time
from contextlib import contextmanager
from typing import Iterator

from .cpus import worker_count

INSTALL = "pip install 'hearts-analysis[dask]'"


CONNECT_SECONDS = 10.0
"""How long to try reaching a scheduler before saying it cannot be reached."""
WORKERS_SECONDS = 60.0
"""How long to wait for a scheduler to have a worker, at the start or when every worker is gone during a run:
with none (all dead, or none started) its tasks would wait for ever, with no message."""
WAIT_ENV = "HEARTS_DASK_WORKER_WAIT"
"""An environment variable that replaces :data:`WORKERS_SECONDS` (seconds), for a cluster whose workers take
longer to come back, or a test that cannot wait a minute."""
POLL_SECONDS = 1.0
"""How often a run waiting for a result checks that the cluster still has a worker."""
CLIENT_LOGGER = "distributed.client"
"""The logger of the client's own retries (\"Couldn't gather 1 keys, rescheduling\"): when a worker dies, the
run itself says what happened and what to do, in one line, so these stay quiet during a run."""


def workers_seconds() -> float:
    """How long a scheduler may have no worker: :data:`WAIT_ENV` where it is set to a number, else
    :data:`WORKERS_SECONDS`."""
    value = os.environ.get(WAIT_ENV, "").strip()
    if not value:
        return WORKERS_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        raise ClusterError(f"{WAIT_ENV}={value!r} is not a number of seconds") from None
    if not seconds >= 0:
        raise ClusterError(f"{WAIT_ENV}={value!r} is not a number of seconds") from None
    return seconds


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
            wait = workers_seconds()
            try:
                client.wait_for_workers(1, timeout=wait)
            except (OSError, TimeoutError):
                raise ClusterError(f"the Dask scheduler at {scheduler} has no workers (waited "
                                   f"{wait:g} s): start some with dask worker {scheduler}") from None
            _quiet_gathers(client)
            with _quiet_retries():
                yield client
        return
    with distributed.LocalCluster(n_workers=worker_count(workers), threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


@contextmanager
def _quiet_retries() -> Iterator[None]:
    """Hold the client's retry warnings (:data:`CLIENT_LOGGER`) back to errors for the duration of a run."""
    logger = logging.getLogger(CLIENT_LOGGER)
    level = logger.level
    logger.setLevel(max(level, logging.ERROR))
    try:
        yield
    finally:
        logger.setLevel(level)


def _quiet_gathers(client) -> None:
    """Keep the client from printing a traceback after a :class:`ClusterError`: every wait for a result that
    timed out (:meth:`ClientExecutor.wait`) leaves a gathering task in the client's loop, which ends in
    ``AllExit`` when the client closes, and asyncio prints each such task's traceback as it is collected."""
    from distributed.client import AllExit
    loop = getattr(client.loop, "asyncio_loop", None)
    if loop is None:
        return

    def handler(loop, context):
        if not isinstance(context.get("exception"), AllExit):
            loop.default_exception_handler(context)

    loop.call_soon_threadsafe(loop.set_exception_handler, handler)


class ClientExecutor:
    """A ``distributed.Client`` as an executor for :func:`hearts_analysis.executor.ordered` (tasks are impure: never cached twice), whose
    futures end in a :class:`ClusterError` rather than wait for ever when the cluster cannot finish them."""

    def __init__(self, client):
        self.client = client
        self.done = 0
        """Results returned so far (said in the error when the run cannot finish)."""

    def submit(self, fn, *args) -> "ClusterFuture":
        return ClusterFuture(self, self.client.submit(fn, *args, pure=False))

    def address(self) -> str:
        return getattr(getattr(self.client, "scheduler", None), "address", None) or "(local cluster)"

    def wait(self, future):
        """``future``'s result, checking every :data:`POLL_SECONDS` that a worker is left to compute it."""
        killed = _killed_worker()
        alone_since = None
        while True:
            try:
                value = future.result(timeout=POLL_SECONDS)
            except TimeoutError:
                if self._has_workers():
                    alone_since = None
                    continue
                now = time.monotonic()
                alone_since = now if alone_since is None else alone_since
                wait = workers_seconds()
                if now - alone_since >= wait:
                    address = self.address()
                    raise ClusterError(
                        f"every worker of the Dask scheduler at {address} is gone (none for {wait:g} s) after "
                        f"{self.done} tasks were done; the run is incomplete and nothing more is written: start "
                        f"workers with dask worker {address} and run again") from None
            except killed as error:
                raise ClusterError(f"a task killed every Dask worker that ran it, so the scheduler at "
                                   f"{self.address()} gave it up after {self.done} tasks were done; the run is "
                                   f"incomplete and nothing more is written ({_first_line(error)})") from None
            else:
                self.done += 1
                return value

    def _has_workers(self) -> bool:
        try:
            return bool(self.client.nthreads())
        except (OSError, TimeoutError):   # the scheduler itself does not answer: no worker can be reached
            return False


class ClusterFuture:
    """A task on the cluster: its result, or a :class:`ClusterError` when no worker is left to compute it."""

    def __init__(self, executor: ClientExecutor, future) -> None:
        self.executor, self.future = executor, future

    def result(self):
        return self.executor.wait(self.future)

    def cancel(self) -> None:
        cancel = getattr(self.future, "cancel", None)
        if cancel is not None:
            cancel()


def _killed_worker() -> type[BaseException]:
    """Dask's error for a task whose workers all died running it (a class no task raises without Dask)."""
    try:
        from distributed import KilledWorker
    except ImportError:
        return _NeverRaised
    return KilledWorker


class _NeverRaised(Exception):
    pass


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def tasks_ahead(client) -> int:
    """Tasks in flight: two per worker thread of the cluster."""
    threads = sum(client.nthreads().values()) or 1
    return 2 * threads
