"""Parquet corpora of the ``events/2`` layout (and ``events/1``) back to games, streamed.

Reading goes a pair of row groups at a time (or, in an ``events/1`` file, a row
group at a time); a damaged file, row group or game becomes an
:class:`~hearts_analysis.records.errors.Item` with its error and the rest is still read.

A folder with a good file and a truncated copy of it:

>>> import pathlib, tempfile
>>> from hearts_analysis.records.parquet import write_parquet
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_parquet(simulate_games(2, Rules.preset("standard", target=30)), folder / "a.parquet")
2
>>> data = (folder / "a.parquet").read_bytes()
>>> _ = (folder / "b.parquet").write_bytes(data[:len(data) // 2])
>>> [(pathlib.Path(item.source).name, item.game is not None) for item in read_parquet_items(folder)]
[('a.parquet:#1', True), ('a.parquet:#2', True), ('b.parquet', False)]
>>> list(read_parquet_items(folder / "b.parquet"))[0].error.text()[:40]
'cannot read as Parquet (damaged or trunc'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ...rules import Rules
from ..errors import Item, RecordError
from ..paths import PARQUET_SUFFIXES, input_problem
from . import bounds
from .decode import RowGroup, decode_table, header_kinds, schema_problems
from .layout import CARD_COLUMNS, COLUMNS, GAME_ROW, HEADER_COLUMNS, LAYOUT, META_LAYOUT, SCHEMA

DECODE_HANDS = 4096
"""Hands decoded into records at a time: a row group's records are not all held at once."""


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
        parquet, problems = open_parquet(path)
    except FileTooLarge as error:
        yield Item(name, error=RecordError(f"not read: {error}", source=name))
        return
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
    for part in whole_games(parquet, name, range(parquet.num_row_groups), 0, columns):
        if isinstance(part, Item):
            yield part
        else:
            table, number, first_row = part
            yield from decoded(table, name, number, first_row, rules)


def whole_games(parquet: pq.ParquetFile, name: str, groups: range, first_row: int, columns: list[str],
                threads: bool = True, dictionaries: tuple[str, ...] = ()) -> Iterator[tuple[pa.Table, int, int] | Item]:
    """Row groups ``groups`` of an ``events/1`` file (the first at file row ``first_row``) as tables of whole games,
    each with its first row group and file row; a game that ran across row groups is joined back together, and a
    row group that cannot be read is its error :class:`Item` (after the games read before it).

    Each row group is looked at once: the rows of a game still running are kept as they were read, and joined
    only when the game ends, so that a game spread over many row groups costs no more than their rows.
    """
    total = parquet.num_row_groups
    metadata = parquet.metadata
    pieces: list[pa.Table] = []          # the rows read since the last whole games, ending in one running game
    held = start_group = start_row = 0   # their row count, first row group and first file row
    last = None                          # the ``game`` of their last row
    row = first_row
    for number in groups:
        size = metadata.row_group(number).num_rows
        try:
            table = read_group(parquet, number, columns, threads, dictionaries)
        except (OSError, pa.ArrowException, ValueError) as error:
            if held:
                yield _joined(pieces), start_group, start_row
                pieces, held = [], 0
            yield group_error(parquet, name, number, error, paired=False)
            row += size
            continue
        row += size
        if not table.num_rows:
            continue
        if not held:
            start_group, start_row = number, row - size
        games = table["game"].to_numpy()
        pieces.append(table)
        if number + 1 < total and may_continue(parquet, number):
            at = _last_cut(games, last if held else None)
            cut = 0 if at is None else held + at
            last = games[-1:]
        else:
            cut = held + table.num_rows
        held += table.num_rows
        if cut:
            joined = _joined(pieces)
            yield joined.slice(0, cut), start_group, start_row
            rest = joined.slice(cut)
            pieces, held, start_row = ([rest], rest.num_rows, start_row + cut) if rest.num_rows else ([], 0, 0)
    if held:
        yield _joined(pieces), start_group, start_row


def _joined(tables: list[pa.Table]) -> pa.Table:
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables)


def _last_cut(games: np.ndarray, before: np.ndarray | None) -> int | None:
    """Where the last game begins among a row group's ``game`` values: an index into them, or ``None`` where they
    show no game beginning (one game throughout, going on from ``before``, the last value of the rows before them,
    if any)."""
    values = games if before is None else np.concatenate([before, games])
    changes = np.flatnonzero(values[1:] != values[:-1])
    if not len(changes):
        return None
    return int(changes[-1]) + (0 if before is not None else 1)


MAX_FOOTER_BYTES = 64 << 20
"""The most a file's footer (its metadata: a few kilobytes a row group) may take: read before it is parsed, since
parsing a footer takes many times its size. A corpus of 100 million hands written here has a footer of about 20 MB."""
MAX_ROW_GROUPS = 20_000
"""The most row groups a file may have: each costs a read and a decode however few its rows (60,000 one-row groups
took 114 s and 1.9 GB to read); a corpus of 100 million hands written here has about 12,000."""


class FileTooLarge(ValueError):
    """A file whose footer or row-group count is beyond the bounds, found before its row groups are read."""


def footer_bytes(path: str | Path) -> int:
    """The size of the file's footer, from its last eight bytes (0 if it does not end as Parquet does)."""
    with open(path, "rb") as stream:
        stream.seek(0, os.SEEK_END)
        if stream.tell() < 12:
            return 0
        stream.seek(-8, os.SEEK_END)
        tail = stream.read(8)
    return int.from_bytes(tail[:4], "little") if tail[4:] == b"PAR1" else 0


def open_parquet(path: str | Path) -> tuple[pq.ParquetFile, list[str]]:
    """The file opened to read its text columns as dictionaries (:func:`read_group`), and why it cannot be read as
    the layout (empty if it can: judged on the file's own Arrow schema). Raises :class:`FileTooLarge` for a footer
    beyond :data:`MAX_FOOTER_BYTES` (before parsing it) or more than :data:`MAX_ROW_GROUPS` row groups."""
    footer = footer_bytes(path) if os.path.isfile(path) else 0
    if footer > MAX_FOOTER_BYTES:
        raise FileTooLarge(f"its footer (the file's metadata) is {footer:,} bytes; at most {MAX_FOOTER_BYTES:,} are "
                           "read (too many row groups?): write it with fewer, larger row groups")
    plain = pq.ParquetFile(path, page_checksum_verification=True)
    if plain.num_row_groups > MAX_ROW_GROUPS:
        count = plain.num_row_groups
        plain.close()
        raise FileTooLarge(f"it has {count:,} row groups; at most {MAX_ROW_GROUPS:,} are read: write it with fewer, "
                           "larger row groups")
    try:
        problems = schema_problems(plain.schema_arrow, plain.metadata.metadata)
        parquet = pq.ParquetFile(path, metadata=plain.metadata, page_checksum_verification=True,
                                 read_dictionary=bounds.text_paths(plain.metadata.schema))
    finally:
        plain.close()
    return parquet, problems


def read_group(parquet: pq.ParquetFile, number: int, columns: list[str], threads: bool = True,
               dictionaries: tuple[str, ...] = ()) -> pa.Table:
    """Row group ``number``'s ``columns`` of a file from :func:`open_parquet`, in bounded memory: refused
    (:class:`~.bounds.TooLarge`) by the metadata before reading and by the size of the text after reading it as
    dictionaries, before any text is written out. The text columns come back as the layout types them
    (``rules``, ``players``...: plain text, unless named in ``dictionaries``)."""
    bounds.check_stored(parquet.metadata.row_group(number), columns)
    table = parquet.read_row_group(number, columns=columns, use_threads=threads)
    bounds.check_text(table)
    for at, name in enumerate(table.column_names):
        kind = table.schema.field(name).type
        if name in dictionaries or name not in SCHEMA.names or pa.types.is_dictionary(SCHEMA.field(name).type):
            continue
        if pa.types.is_dictionary(kind):
            table = table.set_column(at, name, table[name].cast(kind.value_type))
        elif (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and pa.types.is_dictionary(kind.value_type):
            field = pa.field(kind.value_field.name, kind.value_type.value_type, kind.value_field.nullable)
            plain = pa.large_list(field) if pa.types.is_large_list(kind) else pa.list_(field)
            table = table.set_column(at, name, table[name].cast(plain))
    return table


def is_paired(parquet: pq.ParquetFile) -> bool:
    """Whether the file is ``events/2``: row groups in pairs, header rows then the card rows of the same games."""
    metadata = parquet.metadata.metadata or {}
    return metadata.get(META_LAYOUT.encode()) == LAYOUT.encode()


def pairs(parquet: pq.ParquetFile, groups: range | None = None, first_row: int = 0) -> list[tuple[int, int, int]]:
    """``(header group, first row of its headers, first row of its cards)`` of each pair of an ``events/2`` file
    (``groups``: of the pairs starting among them, the first at file row ``first_row``); a last header group
    without its card group is still listed (reading it then fails). The metadata of the groups asked for only is
    looked at, so that reading a file pair by pair costs no more than reading it whole."""
    total = parquet.num_row_groups
    groups = range(0, total) if groups is None else groups
    metadata = parquet.metadata
    found, row = [], first_row
    for number in range(groups.start + groups.start % 2, min(groups.stop, total), 2):
        size = metadata.row_group(number).num_rows
        found.append((number, row, row + size))
        row += size + (metadata.row_group(number + 1).num_rows if number + 1 < total else 0)
    return found


def read_pair(parquet: pq.ParquetFile, number: int, columns: list[str] | None = None,
              threads: bool = True, dictionaries: tuple[str, ...] = ()) -> tuple[pa.Table, pa.Table]:
    """The header and card rows of the pair starting at row group ``number`` (with ``columns``: the card
    columns among them; the header rows are always read whole), read by :func:`read_group`."""
    names = parquet.schema_arrow.names
    if number + 1 >= parquet.num_row_groups:
        raise ValueError("the header row group has no card row group after it")
    headers = read_group(parquet, number, [c for c in HEADER_COLUMNS if c in names], threads, dictionaries)
    wanted = [c for c in (columns or CARD_COLUMNS) if c in names]
    return headers, read_group(parquet, number + 1, wanted, threads, dictionaries)


def group_error(parquet: pq.ParquetFile, name: str, number: int, error: BaseException, paired: bool) -> Item:
    """The item of row group ``number`` (``paired``: of the ``events/2`` pair starting there) that cannot be read."""
    lone = paired and number + 1 >= parquet.num_row_groups   # a header row group with no card row group after it
    groups = f"row groups {number + 1} and {number + 2}" if paired and not lone else f"row group {number + 1}"
    source = f"{name}:{_groups_label(number, paired and not lone)}"
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
    whole = [((0, headers.num_rows), (0, cards.num_rows))]
    if not cards.num_rows or cards["game"].null_count or headers["event"].null_count:
        return whole
    game = cards["game"].to_numpy()
    card_starts = np.flatnonzero(np.concatenate([[True], game[1:] != game[:-1]]))
    header_starts = np.flatnonzero(header_kinds(headers["event"]) == GAME_ROW)
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
