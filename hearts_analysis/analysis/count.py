"""The entry point of a corpus's statistics (``hearts stats`` and :func:`hearts_analysis.stats`): the process
tuned for one long count, then :func:`~hearts_analysis.analysis.corpus_tally.tally_corpus`.

A count of millions of hands allocates and frees many small objects: the collector need not walk the
modules loaded so far again (``gc.freeze``), and glibc keeps freed memory for the next part rather than
returning it and asking again (:func:`~hearts_analysis.memory.keep_freed_memory`). Both are the
caller's process's settings, so they belong to the one entry point, not to each command.

>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.records import write_games
>>> from hearts_analysis.rules import Rules
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_games(simulate_games(2, Rules.preset("standard", target=30)), path)
2
>>> tally = count_corpus([path], workers=1)
>>> tally.games, tally.error_count
(2, 0)
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Callable, Iterable

from ..records.errors import Item
from ..rules import Rules
from .stats import Tally


def count_corpus(paths: Iterable[str | Path], rules: Rules | None = None,
                 progress: Callable[[int, int], None] | None = None, workers: int | None = None,
                 on_error: Callable[[Item], None] | None = None, details: bool = True,
                 scheduler: str | None = None, keep_duplicates: bool = False) -> Tally:
    """Every game of ``paths`` tallied (``workers=None``: one process per CPU where the input has several
    parts; ``scheduler``: a Dask address instead); ``progress(games, hands)`` after each part, ``on_error(item)``
    for each unreadable record; a game read twice is counted once (warned about on stderr) unless
    ``keep_duplicates``."""
    from ..fastpath import AUTO
    from ..memory import keep_freed_memory
    from .corpus_tally import tally_corpus  # loads Arrow: only when counting
    gc.freeze()   # the modules loaded so far live to the end: the collector need not look at them again
    keep_freed_memory()
    return tally_corpus(paths, rules, progress, AUTO if workers is None else workers, on_error, details, scheduler,
                        keep_duplicates)
