"""How much a row group of a Parquet file may cost to read, checked before its values are decoded.

A Parquet file is small for what it can hold: a dictionary page stores a text
once, and every row may point at it, so a 2 MB file can name a 20 MB
``game_id`` on 200,000 rows, four terabytes once written out; a compressed
page can hold gigabytes of zeros. So a row group is read in two steps, each
bounded by :data:`MAX_COLUMN_BYTES` for every column:

1. before reading, by the file's metadata: a column's pages uncompressed, or
   four bytes a value (the dictionary codes it decodes to), whichever is more
   (:func:`check_stored`);
2. every text column read as a dictionary (its codes and its distinct texts,
   what the pages hold), then the text it stands for counted without writing
   it out (:func:`check_text`): each distinct text's length times the rows
   that name it.

A column beyond the bound is a :class:`TooLarge` naming it, which the readers
report as their error for that row group; the other row groups and files are
still read.

>>> import pyarrow as pa
>>> names = pa.DictionaryArray.from_arrays(pa.array([0] * 1000, pa.int32()), pa.array(["x" * 1000]))
>>> text_bytes(names)
1000000
>>> check_text(pa.table({"game_id": names}), limit=999_999)
Traceback (most recent call last):
...
hearts_analysis.records.parquet.bounds.TooLarge: column 'game_id' holds 1,000,000 bytes of text once decoded (1,000 values, the longest 1,000 bytes); at most 999,999 are read from a row group
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import arrays

MAX_COLUMN_BYTES = 256 << 20
"""The most one column of one row group may take once read, and its text once written out: as much as the largest
``.json`` document read. A row group of this toolkit's takes a few megabytes a column."""

CODE_BYTES = 4
"""Bytes a value of a column decodes to at least (a dictionary code, an int32)."""


class TooLarge(ValueError):
    """A column of a row group that would take more memory to read than :data:`MAX_COLUMN_BYTES`."""


def text_paths(schema: pq.ParquetSchema) -> list[str]:
    """The paths of the file's text (byte array) columns, nested ones too (``players.list.element``), for
    ``read_dictionary``: each is then read as its distinct texts and a code per value, never written out."""
    return [schema.column(i).path for i in range(len(schema)) if schema.column(i).physical_type == "BYTE_ARRAY"]


def check_stored(group: pq.RowGroupMetaData, columns: list[str] | None, limit: int | None = None) -> None:
    """Raise :class:`TooLarge` for a column among ``columns`` (``None``: every column) whose pages in this row group
    are larger than ``limit`` (:data:`MAX_COLUMN_BYTES`) uncompressed, or that holds more than ``limit`` bytes of
    codes, by the metadata."""
    limit = MAX_COLUMN_BYTES if limit is None else limit
    wanted = None if columns is None else set(columns)
    for i in range(group.num_columns):
        chunk = group.column(i)
        name = chunk.path_in_schema.split(".")[0]
        if wanted is not None and name not in wanted:
            continue
        stored, values = chunk.total_uncompressed_size, chunk.num_values
        if stored > limit:
            raise TooLarge(f"column {name!r} is {stored:,} bytes uncompressed; at most {limit:,} are read from a "
                           f"row group")
        if values * CODE_BYTES > limit:
            raise TooLarge(f"column {name!r} holds {values:,} values; at most {limit // CODE_BYTES:,} are read from "
                           f"a row group")


def text_bytes(array: pa.Array | pa.ChunkedArray) -> int:
    """The bytes of text an array holds once every value is written out (0 for numbers); a dictionary's texts
    are counted once per value that names them, from the codes, without writing them out."""
    if isinstance(array, pa.ChunkedArray):
        return sum(text_bytes(chunk) for chunk in array.chunks)
    kind = array.type
    if pa.types.is_dictionary(kind):
        lengths = _lengths(array.dictionary)
        if lengths is None or not len(array):
            return 0
        codes = arrays.integers(array.indices)
        if array.null_count:
            codes = codes[arrays.valid(array)]
        return int(np.bincount(codes, minlength=len(lengths)) @ lengths)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        if not len(array):
            return 0
        bounds = arrays.offsets(array)
        return text_bytes(array.values.slice(int(bounds[0]), int(bounds[-1] - bounds[0])))
    lengths = _lengths(array)
    return 0 if lengths is None else int(lengths.sum())


def _lengths(array: pa.Array) -> np.ndarray | None:
    """The byte length of each value of a text array (``None`` if it is not text)."""
    kind = array.type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_binary(kind)
            or pa.types.is_large_binary(kind)):
        return None
    if not len(array):
        return np.zeros(0, np.int64)
    return np.diff(arrays.offsets(array)).astype(np.int64)


def _longest(array: pa.Array | pa.ChunkedArray) -> int:
    """The length of the longest text an array holds (or names through its dictionary)."""
    chunks = array.chunks if isinstance(array, pa.ChunkedArray) else [array]
    longest = 0
    for chunk in chunks:
        while pa.types.is_list(chunk.type) or pa.types.is_large_list(chunk.type):
            chunk = chunk.values
        lengths = _lengths(chunk.dictionary if pa.types.is_dictionary(chunk.type) else chunk)
        if lengths is not None and len(lengths):
            longest = max(longest, int(lengths.max()))
    return longest


def check_text(table: pa.Table, limit: int | None = None) -> None:
    """Raise :class:`TooLarge` for a column of ``table`` holding more than ``limit`` (:data:`MAX_COLUMN_BYTES`)
    bytes of text once decoded."""
    limit = MAX_COLUMN_BYTES if limit is None else limit
    for name in table.column_names:
        column = table[name]
        size = text_bytes(column)
        if size > limit:
            raise TooLarge(f"column {name!r} holds {size:,} bytes of text once decoded ({len(column):,} values, the "
                           f"longest {_longest(column):,} bytes); at most {limit:,} are read from a row group")
