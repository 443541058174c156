"""Arrow arrays built straight from numpy buffers and Python lists.

``pa.array`` on numpy or Python values loads pandas (a fifth of a second and
tens of megabytes at every start-up), and Arrow's ``take`` its compute module;
the readers and writers of the layout build their arrays here instead.
"""

from __future__ import annotations

from functools import partial
from itertools import chain, repeat
from operator import is_not

import numpy as np
import pyarrow as pa

_given = partial(is_not, None)


def validity(valid: np.ndarray) -> tuple[pa.Buffer | None, int]:
    """A validity bitmap (``None`` when every value is valid) and the null count."""
    nulls = len(valid) - int(np.count_nonzero(valid))
    return (pa.py_buffer(np.packbits(valid, bitorder="little")) if nulls else None), nulls


def numbers(values: np.ndarray, type_: pa.DataType, valid: np.ndarray | None = None) -> pa.Array:
    """A numeric column of ``values`` (already of ``type_``'s width), null where ``valid`` is false."""
    bitmap, nulls = (None, 0) if valid is None else validity(valid)
    return pa.Array.from_buffers(type_, len(values), [bitmap, pa.py_buffer(values)], null_count=nulls)


def codes(codes: np.ndarray, dictionary: pa.Array) -> pa.DictionaryArray:
    """A dictionary column of int8/int32 ``codes`` (null where negative)."""
    indices = numbers(codes, pa.from_numpy_dtype(codes.dtype), codes >= 0 if (codes < 0).any() else None)
    return pa.DictionaryArray.from_arrays(indices, dictionary)


def strings(values: list) -> pa.StringArray:
    """A string column of ``values`` (``None`` for null)."""
    valid = np.fromiter(map(is_not, values, repeat(None)), bool, len(values))
    encoded = list(map(str.encode, values if valid.all() else ["" if v is None else v for v in values]))
    offsets = np.zeros(len(values) + 1, np.int32)
    np.cumsum(np.fromiter(map(len, encoded), np.int32, len(encoded)), out=offsets[1:])
    bitmap, nulls = validity(valid)
    return pa.StringArray.from_buffers(len(values), pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded)),
                                       bitmap, nulls)


def lists(values: list, child: pa.Array, lengths: np.ndarray) -> pa.ListArray:
    """A list column: ``values`` (lists, or ``None`` for null) of ``lengths`` items, ``child`` their items."""
    valid = np.fromiter(map(is_not, values, repeat(None)), bool, len(values))
    offsets = np.zeros(len(values) + 1, np.int32)
    np.cumsum(np.where(valid, lengths, 0), out=offsets[1:])
    bitmap, nulls = validity(valid)
    return pa.ListArray.from_buffers(pa.list_(child.type), len(values), [bitmap, pa.py_buffer(offsets)],
                                     null_count=nulls, children=[child])


def int_lists(values: list, lengths: np.ndarray) -> pa.ListArray:
    """A ``list<int32>`` column of int lists (or ``None``), each of ``lengths`` items (checked within int32)."""
    flat = np.fromiter(chain.from_iterable(filter(_given, values)), np.int32)
    return lists(values, numbers(flat, pa.int32()), lengths)


def small_ints(values: list, dtype: type) -> tuple[np.ndarray, np.ndarray | None]:
    """``values`` (ints or ``None``) as an array, and where they are valid (``None``: everywhere)."""
    if None not in values:
        return np.array(values, dtype), None
    valid = np.fromiter(map(is_not, values, repeat(None)), bool, len(values))
    return np.array([0 if v is None else v for v in values], dtype), valid


def indices(rows: np.ndarray) -> pa.Array:
    """An Arrow int64 array over numpy ``rows`` (for ``take``); null where ``rows`` is negative."""
    rows = np.ascontiguousarray(rows, np.int64)
    return numbers(rows, pa.int64(), rows >= 0 if (rows < 0).any() else None)
