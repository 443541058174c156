"""Games to Parquet files of the ``events/2`` layout, streamed in bounded memory.

Writing collects whole games (about :data:`ROW_GROUP_HANDS` hands) at a time,
written as two row groups, their header rows then their card rows, while a
background thread builds and writes the previous ones (Parquet encoding releases the interpreter lock, so it overlaps
with reading the next games); memory stays bounded. The output is
atomic: a file, or a folder of ``part-00000.parquet``, ... files, appears only
when complete.

>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.records.parquet.read import read_parquet_items
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> write_parquet(simulate_games(2, Rules()), path)
2
>>> [item.source.rsplit(":", 1)[1] for item in read_parquet_items(path)]
['#1', '#2']
"""

from __future__ import annotations

import contextlib
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterable, Iterator

import pyarrow.parquet as pq

from ...atomic import atomic_folder, atomic_path
from ...cpus import cpu_count
from ..model import GameRecord
from .encode import EventBatch, EventEncoder
from .layout import META_GAMES, META_HANDS, ROW_GROUP_HANDS, SCHEMA

PART_NAME = "part-{:05d}.parquet"

WRITE_OPTIONS: dict[str, Any] = dict(
    compression="lz4",
    use_dictionary=["game_id", "event", "seat", "card", "trick", "players", "rules", "game_meta", "dealer",
                    "pass_direction", "moon", "points", "totals", "hand_meta"],
    column_encoding={"game": "PLAIN", "hand": "PLAIN", "index": "PLAIN"},
    write_statistics=["game", "hand"],
    write_page_checksum=True,
)
"""How the columns are stored. LZ4 writes and reads about a quarter faster than zstd for a quarter
more bytes; statistics on ``game`` and ``hand`` let readers skip row groups; page checksums catch damage."""


def _one_core() -> bool:
    """Whether this process may run on one core only: the background thread then overlaps nothing, and
    switching to it and back only costs (a tenth of the conversion time)."""
    return cpu_count() < 2


def is_folder_target(path: str | Path, partition_size: int | None = None) -> bool:
    """Whether ``path`` names a folder of part files: a partition size, an existing folder, or no suffix."""
    path = Path(path)
    return partition_size is not None or path.is_dir() or not path.suffix


class GameWriter:
    """Streams games into a Parquet file, or a folder of part files with ``partition_size`` hands each.

    Use as a context manager; the output appears only when the block ends without an
    exception. ``add`` takes records; ``add_json`` takes parsed ``hearts-game/1``
    objects and raises :class:`RecordError` (the output unharmed) for one that is
    not a valid record; both raise it for a game the file's columns cannot number
    (:func:`~.encode.check_sizes`). The main thread collects games; one background thread
    builds each batch's table and writes it, at most one batch behind (on one
    core, the main thread does it).
    """

    def __init__(self, path: str | Path, partition_size: int | None = None,
                 row_group_hands: int = ROW_GROUP_HANDS) -> None:
        if partition_size is not None and partition_size < 1:
            raise ValueError("the partition size must be at least 1 hand")
        self.path = Path(path)
        self.folder = is_folder_target(self.path, partition_size)
        self.partition_size = partition_size
        self.row_group_hands = row_group_hands
        self.games = self.hands = 0
        self._encoder = EventEncoder(bounded=True)
        self._stack = contextlib.ExitStack()
        self._pool: ThreadPoolExecutor | None = None
        self._pending: list[Future] = []
        self._inline = _one_core()
        self._target = self.path
        self._part: _Part | None = None     # touched by the background thread only
        self._parts = 0                     # parts opened so far (main thread)
        self._open = False
        self._part_hands = 0

    def __enter__(self) -> "GameWriter":
        atomic = _atomic_folder(self.path) if self.folder else atomic_path(self.path)
        self._target = self._stack.enter_context(atomic)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearts-parquet")
        return self

    def __exit__(self, kind, error, trace) -> bool:
        if kind is None:
            try:
                self._finish()
            except BaseException as failure:
                self._abandon()
                self._stack.__exit__(type(failure), failure, failure.__traceback__)
                raise
            self._stack.__exit__(None, None, None)
        else:
            self._abandon()
            self._stack.__exit__(kind, error, trace)
        return False

    # -- adding -------------------------------------------------------------
    def add(self, game: GameRecord) -> int:
        """Add a record; returns its number of hands."""
        hands = self._encoder.add_record(game)
        self._added()
        return hands

    def add_json(self, obj: Any) -> int:
        """Add a parsed ``hearts-game/1`` object; returns its number of hands."""
        hands = self._encoder.add_json(obj)
        self._added()
        return hands

    def _added(self) -> None:
        limit = self.row_group_hands
        if self.partition_size is not None:
            limit = min(limit, self.partition_size - self._part_hands)
        if self._encoder.hands >= limit:
            self._flush()

    def _flush(self) -> None:
        batch = self._encoder.take_batch()
        if batch is None:
            return
        self.games += batch.games
        self.hands += batch.hands
        self._part_hands += batch.hands
        if not self._open:
            self._open_next()
        self._submit(self._write, batch)
        if self.partition_size is not None and self._part_hands >= self.partition_size:
            self._submit(self._close_part)
            self._open = False
            self._part_hands = 0
            self._encoder.next_game = 0

    def _open_next(self) -> None:
        path = self._target / PART_NAME.format(self._parts) if self.folder else self._target
        self._parts += 1
        self._open = True
        self._submit(self._open_part, path)

    def _finish(self) -> None:
        self._flush()
        if not self._parts:  # no games: still a valid file (or part) with the schema
            self._open_next()
        if self._open:
            self._submit(self._close_part)
            self._open = False
        pending, self._pending = self._pending, []
        for future in pending:
            future.result()
        self._pool.shutdown()

    def _abandon(self) -> None:
        """Stop after a failure: let the background thread finish its task, then drop the open file."""
        for future in self._pending:
            future.cancel()
        self._pool.shutdown(wait=True)
        self._pending = []
        if self._part is not None:
            with contextlib.suppress(Exception):
                self._part.writer.close()
            self._part = None

    # -- the background thread ----------------------------------------------
    def _submit(self, task, *args) -> None:
        if self._inline:
            task(*args)
            return
        while len(self._pending) > 2:  # bounded memory: at most one batch waits while another is written
            self._pending.pop(0).result()
        self._pending.append(self._pool.submit(task, *args))

    def _open_part(self, path: Path) -> None:
        self._part = _Part(path)

    def _write(self, batch: EventBatch) -> None:
        self._part.write(batch)

    def _close_part(self) -> None:
        part, self._part = self._part, None
        part.close()


class _Part:
    """One Parquet file being written; closing it records the game and hand counts."""

    def __init__(self, path: Path) -> None:
        self.writer = pq.ParquetWriter(path, SCHEMA, **WRITE_OPTIONS)
        self.games = self.hands = 0

    def write(self, batch: EventBatch) -> None:
        for table in batch.tables():
            self.writer.write_table(table, row_group_size=table.num_rows)
        self.games += batch.games
        self.hands += batch.hands

    def close(self) -> None:
        self.writer.add_key_value_metadata({META_GAMES: str(self.games), META_HANDS: str(self.hands)})
        self.writer.close()


def _atomic_folder(target: Path):
    """A work folder that replaces ``target`` in one step on success (:func:`...atomic.atomic_folder`); only an
    empty folder or one of part files (an earlier output) is replaced."""
    return atomic_folder(target, lambda entry: entry.name.startswith("part-") and entry.suffix == ".parquet",
                         "corpus of part files")


def write_parquet(games: Iterable[GameRecord], path: str | Path, partition_size: int | None = None) -> int:
    """Write games to a Parquet file (or a folder of part files, see :func:`is_folder_target`); returns the count.

    Streams in bounded memory, one row group of whole games at a time; atomic.
    """
    with GameWriter(path, partition_size) as writer:
        for game in games:
            writer.add(game)
    return writer.games
