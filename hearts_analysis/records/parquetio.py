"""``hearts-game/1`` corpora as Parquet files of the ``events/2`` layout, streamed both ways.

Writing collects whole games (about :data:`ROW_GROUP_HANDS` hands) at a time,
written as two row groups, their header rows then their card rows, while a
background thread builds and writes the previous ones (Parquet encoding releases the interpreter lock, so it overlaps
with reading the next games); memory stays bounded. The output is
atomic: a file, or a folder of ``part-00000.parquet``, ... files, appears only
when complete. Reading goes a pair of row groups at a time (or, in an
``events/1`` file, a row group at a time); a damaged row group or game becomes
an :class:`Item` with its error and the rest is still read.

>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.rules import Rules
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> write_parquet(simulate_games(2, Rules()), path)
2
>>> [item.source.rsplit(":", 1)[1] for item in read_parquet_items(path)]
['#1', '#2']
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..atomic import atomic_path
from ..cpus import cpu_count
from ..rules import Rules
from .events_decode import RowGroup, decode_table, schema_problems
from .events_encode import EventBatch, EventEncoder
from .events_layout import (CARD_COLUMNS, COLUMNS, HEADER_COLUMNS, LAYOUT, META_GAMES, META_HANDS, META_LAYOUT,
                            ROW_GROUP_HANDS, SCHEMA)
from .jsonio import Item, RecordError
from .model import GameRecord
from .sources import input_problem

PARQUET_SUFFIXES = (".parquet", ".pq")
DECODE_HANDS = 4096
"""Hands decoded into records at a time: a row group's records are not all held at once."""
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


# -- writing -----------------------------------------------------------------
def is_folder_target(path: str | Path, partition_size: int | None = None) -> bool:
    """Whether ``path`` names a folder of part files: a partition size, an existing folder, or no suffix."""
    path = Path(path)
    return partition_size is not None or path.is_dir() or not path.suffix


class GameWriter:
    """Streams games into a Parquet file, or a folder of part files with ``partition_size`` hands each.

    Use as a context manager; the output appears only when the block ends without an
    exception. ``add`` takes records; ``add_json`` takes parsed ``hearts-game/1``
    objects and raises :class:`RecordError` (the output unharmed) for one that is
    not a valid record. The main thread collects games; one background thread
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
        self._encoder = EventEncoder()
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


@contextlib.contextmanager
def _atomic_folder(target: Path) -> Iterator[Path]:
    """A temporary folder beside ``target`` that replaces it on success; only an empty folder or one of
    part files (an earlier output) is replaced."""
    if target.exists():
        if not target.is_dir():
            raise FileExistsError(f"{target}: exists and is not a folder")
        others = [p.name for p in target.iterdir() if not (p.name.startswith("part-") and p.suffix == ".parquet")]
        if others:
            raise FileExistsError(f"{target}: the folder holds other files ({', '.join(sorted(others)[:3])}); "
                                  f"choose a new folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _new_folder(target, ".tmp")
    try:
        yield tmp
        if target.exists():
            old = _new_folder(target, ".old")
            os.replace(target, old / "replaced")
            os.replace(tmp, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _new_folder(target: Path, suffix: str) -> Path:
    """A fresh hidden folder beside ``target``, with the permissions the umask gives (unlike mkdtemp)."""
    for _ in range(100):
        folder = target.parent / f".{target.name}.{secrets.token_hex(4)}{suffix}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue
    raise FileExistsError(f"{target}: cannot create a temporary folder beside it")


def write_parquet(games: Iterable[GameRecord], path: str | Path, partition_size: int | None = None) -> int:
    """Write games to a Parquet file (or a folder of part files, see :func:`is_folder_target`); returns the count.

    Streams in bounded memory, one row group of whole games at a time; atomic.
    """
    with GameWriter(path, partition_size) as writer:
        for game in games:
            writer.add(game)
    return writer.games


# -- reading -----------------------------------------------------------------
def parquet_files(path: str | Path) -> list[Path]:
    """The Parquet files of a corpus: the file itself, or a folder's, in sorted order."""
    path = Path(path)
    if not path.is_dir():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in PARQUET_SUFFIXES
                  and not any(part.startswith(".") for part in p.relative_to(path).parts))


def iter_row_groups(path: str | Path, rules: Rules | None = None) -> Iterator[RowGroup | Item]:
    """Each row group of a Parquet corpus (a file or a folder), decoded and checked; in file order.

    Yields a :class:`RowGroup` (numpy columns of whole games, each game's record
    header or error) for every readable row group, and an :class:`Item` carrying a
    :class:`RecordError` for a file or row group that cannot be read. A game that
    a foreign writer split across row groups is joined back together.
    """
    for file in parquet_files(path):
        yield from _file_row_groups(file, rules)


def _file_row_groups(path: Path, rules: Rules | None) -> Iterator[RowGroup | Item]:
    name = str(path)
    problem = input_problem(Path(path)) if os.path.exists(path) else None   # a FIFO would block
    if problem is not None:
        yield Item(name, error=RecordError(problem, source=name))
        return
    try:
        parquet = pq.ParquetFile(path, page_checksum_verification=True)
        problems = schema_problems(parquet.schema_arrow, parquet.metadata.metadata)
    except (OSError, pa.ArrowException, ValueError) as error:
        reason = "no such file" if isinstance(error, FileNotFoundError) else _reason(error)
        yield Item(name, error=RecordError(f"cannot read as Parquet (damaged or truncated?): {reason}", source=name))
        return
    if problems:
        yield Item(name, error=RecordError(f"not an events/2 Parquet file: {'; '.join(problems)}", source=name))
        return
    if is_paired(parquet):
        yield from _paired_row_groups(parquet, name, rules)
        return
    columns = [c for c in COLUMNS if c in parquet.schema_arrow.names]
    groups = parquet.num_row_groups
    carry: pa.Table | None = None
    carry_row = carry_group = 0
    row = 0
    for number in range(groups):
        size = parquet.metadata.row_group(number).num_rows
        try:
            table = parquet.read_row_group(number, columns=columns)
        except (OSError, pa.ArrowException, ValueError) as error:
            if carry is not None:
                yield from decoded(carry, name, carry_group, carry_row, rules)
                carry = None
            yield group_error(parquet, name, number, error, paired=False)
            row += size
            continue
        start, first = row, number
        if carry is not None:
            table, start, first = pa.concat_tables([carry, table]), carry_row, carry_group
            carry = None
        if number + 1 < groups and table.num_rows and may_continue(parquet, number):
            games = table["game"]
            cut = last_game_start(games)
            carry, carry_row, carry_group = table.slice(cut), start + cut, first
            table = table.slice(0, cut)
        if table.num_rows:
            yield from decoded(table, name, first, start, rules)
        row += size
    if carry is not None:
        yield from decoded(carry, name, carry_group, carry_row, rules)


def is_paired(parquet: pq.ParquetFile) -> bool:
    """Whether the file is ``events/2``: row groups in pairs, header rows then the card rows of the same games."""
    metadata = parquet.metadata.metadata or {}
    return metadata.get(META_LAYOUT.encode()) == LAYOUT.encode()


def pairs(parquet: pq.ParquetFile) -> list[tuple[int, int, int]]:
    """``(header group, first row of its headers, first row of its cards)`` of each pair of an ``events/2`` file;
    a last header group without its card group is still listed (reading it then fails)."""
    found, row = [], 0
    for number in range(0, parquet.num_row_groups, 2):
        size = parquet.metadata.row_group(number).num_rows
        found.append((number, row, row + size))
        row += size + (parquet.metadata.row_group(number + 1).num_rows if number + 1 < parquet.num_row_groups else 0)
    return found


def read_pair(parquet: pq.ParquetFile, number: int, columns: list[str] | None = None,
              threads: bool = True) -> tuple[pa.Table, pa.Table]:
    """The header and card rows of the pair starting at row group ``number`` (with ``columns``: the card
    columns among them; the header rows are always read whole)."""
    names = parquet.schema_arrow.names
    if number + 1 >= parquet.num_row_groups:
        raise ValueError("the header row group has no card row group after it")
    headers = parquet.read_row_group(number, columns=[c for c in HEADER_COLUMNS if c in names], use_threads=threads)
    wanted = [c for c in (columns or CARD_COLUMNS) if c in names]
    return headers, parquet.read_row_group(number + 1, columns=wanted, use_threads=threads)


def group_error(parquet: pq.ParquetFile, name: str, number: int, error: BaseException, paired: bool) -> Item:
    """The item of row group ``number`` (``paired``: of the ``events/2`` pair starting there) that cannot be read."""
    groups = f"row groups {number + 1} and {number + 2}" if paired else f"row group {number + 1}"
    source = f"{name}:{_groups_label(number, paired)}"
    return Item(source, error=RecordError(
        f"{groups} of {parquet.num_row_groups} cannot be read{_games_of(parquet, number)}: {_reason(error)}",
        source=source))


def _groups_label(number: int, paired: bool) -> str:
    return f"row groups {number + 1}-{number + 2}" if paired else f"row group {number + 1}"


def _paired_row_groups(parquet: pq.ParquetFile, name: str, rules: Rules | None) -> Iterator[RowGroup | Item]:
    for number, header_row, card_row in pairs(parquet):
        try:
            headers, cards = read_pair(parquet, number)
        except (OSError, pa.ArrowException, ValueError) as error:
            yield group_error(parquet, name, number, error, paired=True)
            continue
        if not headers.num_rows and not cards.num_rows:
            continue  # an empty pair (a writer that flushed nothing) holds no game
        for (header_at, header_count), (card_at, card_count) in _slices(headers, cards):
            yield from decoded(cards.slice(card_at, card_count), name, number, card_row + card_at, rules,
                                headers.slice(header_at, header_count), header_row + header_at)
        del headers, cards


def _slices(headers: pa.Table, cards: pa.Table) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The pair's header and card rows cut into runs of whole games of about :data:`DECODE_HANDS` hands
    (``(start, length)`` of each), so that the records of a large row group are not all built at once;
    one run where the header rows do not mark out the card rows' games (decoding then says why)."""
    import pyarrow.compute as pc  # here: the fast path, which never slices, does without it
    whole = [((0, headers.num_rows), (0, cards.num_rows))]
    if not cards.num_rows or cards["game"].null_count or headers["event"].null_count:
        return whole
    game = cards["game"].to_numpy()
    card_starts = np.flatnonzero(np.concatenate([[True], game[1:] != game[:-1]]))
    header_starts = np.flatnonzero(pc.equal(headers["event"].cast(pa.string()), "game").to_numpy(
        zero_copy_only=False))
    games = len(card_starts)
    if len(header_starts) != games or (games and header_starts[0] != 0):
        return whole
    hands = headers.num_rows - games
    step = max(1, games * DECODE_HANDS // max(hands, 1))
    cuts = list(range(0, games, step)) + [games]
    header_ends = np.append(header_starts, headers.num_rows)
    card_ends = np.append(card_starts, cards.num_rows)
    return [((int(header_ends[a]), int(header_ends[b] - header_ends[a])),
             (int(card_ends[a]), int(card_ends[b] - card_ends[a]))) for a, b in zip(cuts, cuts[1:])]


def decoded(table: pa.Table, name: str, number: int, first_row: int, rules: Rules | None,
            headers: pa.Table | None = None, header_row: int = 0) -> Iterator[RowGroup | Item]:
    """:func:`decode_table` of whole games read from row group ``number`` (with ``headers``: of the pair
    starting there), or the error item of those row groups when none of their games can be read."""
    try:
        yield decode_table(table, name, number, first_row, rules, headers, header_row)
    except (RecordError, pa.ArrowException, ValueError) as error:
        groups = _groups_label(number, headers is not None)
        source = f"{name}:{groups}"
        message = error.detail if isinstance(error, RecordError) else _reason(error)
        yield Item(source, error=RecordError(f"{groups} cannot be read: {message}", source=source))


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _statistics(parquet: pq.ParquetFile, number: int):
    meta = parquet.metadata.row_group(number)
    for i in range(meta.num_columns):
        column = meta.column(i)
        if column.path_in_schema == "game":
            stats = column.statistics
            return stats if stats is not None and stats.has_min_max else None
    return None


def _games_of(parquet: pq.ParquetFile, number: int) -> str:
    stats = _statistics(parquet, number)
    return "" if stats is None else f" (games #{stats.min + 1} to #{stats.max + 1} are lost)"


def may_continue(parquet: pq.ParquetFile, number: int) -> bool:
    """Whether the next row group may hold more rows of this one's last game (unknown without statistics)."""
    this, following = _statistics(parquet, number), _statistics(parquet, number + 1)
    return this is None or following is None or following.min <= this.max


def last_game_start(games: pa.ChunkedArray) -> int:
    values = games.to_numpy()
    changes = np.flatnonzero(values[1:] != values[:-1])
    return int(changes[-1]) + 1 if len(changes) else 0


def read_parquet_items(path: str | Path, rules: Rules | None = None) -> Iterator[Item]:
    """Every game of a Parquet corpus as an :class:`Item` (source ``file.parquet:#k``), streamed."""
    for part in iter_row_groups(path, rules):
        if isinstance(part, Item):
            yield part
        else:
            yield from part.items()
