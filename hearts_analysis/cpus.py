"""How many worker processes to start: never more than the CPUs this process may use, nor than the work.

A thousand processes on two cores only thrash; a pool larger than the number of
files, row groups or batches to hand out only waits.

>>> worker_count(1)
1
>>> worker_count(3000, work=1)
1
"""

from __future__ import annotations

import os


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it)."""
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return counted() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def worker_count(requested: int, work: int | None = None) -> int:
    """``requested`` workers bounded by the CPUs and by ``work`` (the number of independent parts, if known);
    at least 1."""
    bound = min(requested, cpu_count())
    if work is not None:
        bound = min(bound, work)
    return max(1, bound)
