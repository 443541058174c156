"""The review's speed options and executor, shared by ``hearts review`` and ``hearts report --review``.

Kept apart from both commands so that neither imports the other (the order of ``hearts --help`` is
the order :mod:`hearts_analysis.cli` imports the commands in).

>>> WORKERS_OPTION.default, NO_CACHE_OPTION.default
(1, False)
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Optional

import typer

from .app import fail

WORKERS_OPTION = typer.Option(1, "--workers", "-w", min=1,
                              help="Processes reviewing hands at once, at most one per CPU and per hand "
                                   "(results are the same, in input order).")
SCHEDULER_OPTION = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                help="Review on a Dask cluster, e.g. tcp://host:8786 (needs pip install "
                                     "'hearts-analysis[dask]'; the workers must see the input files).")
CACHE_OPTION = typer.Option(None, "--cache", metavar="DIR",
                            help="Where reviewed hands are kept, so that a hand reviewed once with "
                                 "the same settings is not reviewed again (default: "
                                 "$XDG_CACHE_HOME/hearts-analysis/review or ~/.cache/...).")
NO_CACHE_OPTION = typer.Option(False, "--no-cache", help="Review every hand again and keep nothing.")
"""The review's speed options, shared by ``hearts review`` and ``hearts report --review``."""


@contextmanager
def review_executor(workers: int, scheduler: Optional[str]) -> Iterator:
    """The library's executor (:func:`~hearts_analysis.review.batch.open_executor`), with a missing Dask
    extra as a usage error."""
    from ..review.batch import open_executor
    if scheduler is None:
        with open_executor(workers) as executor:
            yield executor
        return
    from ..cluster import ClusterError
    try:
        with open_executor(workers, scheduler) as executor:
            yield executor
    except ClusterError as error:
        raise fail(str(error))
