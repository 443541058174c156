"""Where the work of a parallel command runs, and its results in input order, with a bounded number in flight.

Every parallel command (validation, statistics, review) cuts its input into
tasks and wants the results back in the order of the input whatever order the
workers finish in, without reading the whole input ahead (memory must stay flat
on a corpus of any size). :func:`ordered` does that over any executor with
``submit(fn, *args) -> future`` (a :class:`~concurrent.futures.ProcessPoolExecutor`,
a thread pool, a Dask client wrapped by
:class:`~hearts_analysis.cluster.ClientExecutor`) or over none
(everything runs here, one task at a time). A task marked ``here`` runs in this
process in its turn, after the tasks before it are done (a source that cannot be
sent to a worker, such as standard input). A task marked ``now`` runs in this
process at once, its result kept in its place while the tasks before it run on
(a result that costs nothing to find, such as a cache hit).

>>> from concurrent.futures import ThreadPoolExecutor
>>> tasks = [Task(pow, (n, 2)) for n in range(6)] + [Task(sum, ([1, 2],), here=True)]
>>> with ThreadPoolExecutor(2) as pool:
...     list(ordered(tasks, pool, ahead=2))
[0, 1, 4, 9, 16, 25, 3]
>>> list(ordered(tasks, None))
[0, 1, 4, 9, 16, 25, 3]
>>> with ThreadPoolExecutor(2) as pool:
...     list(ordered([Task(pow, (2, 10)), Task(len, ("cached",), now=True), Task(abs, (-3,))], pool))
[1024, 6, 3]

The input is read lazily: no more than ``ahead`` tasks beyond the result being
returned are taken from it.

>>> taken = []
>>> def squares():
...     for n in range(100):
...         taken.append(n)
...         yield Task(pow, (n, 2))
>>> with ThreadPoolExecutor(2) as pool:
...     results = ordered(squares(), pool, ahead=3)
...     first = next(results)
...     results.close()
>>> first, len(taken)
(0, 4)
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from .cpus import worker_count


@dataclass(frozen=True)
class Task:
    """``fn(*args)``, sent to the executor; run in this process in its turn where ``here``, at once where
    ``now``."""

    fn: Callable[..., Any]
    args: tuple = ()
    here: bool = False
    now: bool = False


class _Ready:
    """A result found here, shaped like a future, to wait in its place among those in flight."""

    def __init__(self, value: Any):
        self.value = value

    def result(self) -> Any:
        return self.value


def ordered(tasks: Iterable[Task], executor: Any = None, ahead: int = 4,
            progress: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """Each task's result, in input order; at most ``ahead`` tasks submitted beyond the result being returned.

    ``progress(result)`` is called as each result is returned (before it is yielded).
    """
    pending: deque = deque()

    def done(value):
        if progress is not None:
            progress(value)
        return value

    try:
        for task in tasks:
            if executor is None or task.here:
                while pending:
                    yield done(pending.popleft().result())
                yield done(task.fn(*task.args))
                continue
            pending.append(_Ready(task.fn(*task.args)) if task.now else executor.submit(task.fn, *task.args))
            while len(pending) > ahead:
                yield done(pending.popleft().result())
        while pending:
            yield done(pending.popleft().result())
    finally:
        for future in pending:   # a consumer that stops early leaves nothing queued behind it
            cancel = getattr(future, "cancel", None)
            if cancel is not None:
                cancel()


def _worker_setup() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them, and keep freed memory."""
    import signal

    from .memory import keep_freed_memory
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


@contextmanager
def open_executor(workers: int = 1, scheduler: str | None = None) -> Iterator[Any]:
    """Where tasks run: here (``None``), a pool of ``workers`` processes, or the Dask cluster at ``scheduler``
    (Dask is imported only then). A cluster that cannot do the work (no dask extra, no answer, no worker)
    raises :class:`~hearts_analysis.cluster.ClusterError`, which the commands say in one line."""
    if scheduler is not None:
        from .cluster import ClientExecutor, connect
        with connect(scheduler) as client:
            yield ClientExecutor(client)
    elif workers > 1:
        with process_pool(workers) as pool:
            yield pool
    else:
        yield None
