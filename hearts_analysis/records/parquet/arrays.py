"""Arrow arrays built straight from numpy buffers and Python lists.

``pa.array`` on numpy or Python values loads pandas (a fifth of a second and
tens of megabytes at every start-up), and Arrow's ``take`` its compute module;
the readers and writers of the layout build their arrays here instead.

A null is a cleared bit of the validity bitmap, in numbers and dictionary codes alike:

>>> import numpy as np
>>> values, valid = small_ints([1, None, 3], np.int8)
>>> numbers(values, pa.int8(), valid).to_pylist()
[1, None, 3]
>>> codes(np.array([0, -1, 1], np.int8), strings(["left", "right"])).to_pylist()
['left', None, 'right']
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


_INTEGER_DTYPES = {pa.int8().id: np.int8, pa.int16().id: np.int16, pa.int32().id: np.int32,
                   pa.int64().id: np.int64, pa.uint8().id: np.uint8, pa.uint16().id: np.uint16,
                   pa.uint32().id: np.uint32, pa.uint64().id: np.uint64}


def valid(array: pa.Array) -> np.ndarray:
    """Per value of an Arrow array: not null (read from its validity bitmap).

    >>> valid(pa.array([1, None, 3])).tolist()
    [True, False, True]
    """
    if not array.null_count:
        return np.ones(len(array), bool)
    bitmap = np.frombuffer(array.buffers()[0], np.uint8)
    return np.unpackbits(bitmap, bitorder="little")[array.offset:array.offset + len(array)].astype(bool)


def integers(array: pa.Array) -> np.ndarray:
    """The values of an integer array, straight from its buffer (no copy; whatever the buffer holds where null).

    >>> integers(pa.array([5, 6, 7], pa.int16()).slice(1)).tolist()
    [6, 7]
    """
    dtype = _INTEGER_DTYPES[array.type.id]
    return np.frombuffer(array.buffers()[1], dtype, array.offset + len(array))[array.offset:]


def offsets(array: pa.Array) -> np.ndarray:
    """The ``len + 1`` value offsets of a string, binary or list array (of either width), from its buffer."""
    wide = pa.types.is_large_string(array.type) or pa.types.is_large_binary(array.type) or pa.types.is_large_list(
        array.type)
    return np.frombuffer(array.buffers()[1], np.int64 if wide else np.int32,
                         array.offset + len(array) + 1)[array.offset:]


def indices(rows: np.ndarray) -> pa.Array:
    """An Arrow int64 array over numpy ``rows`` (for ``take``); null where ``rows`` is negative."""
    rows = np.ascontiguousarray(rows, np.int64)
    return numbers(rows, pa.int64(), rows >= 0 if (rows < 0).any() else None)
