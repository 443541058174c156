"""JSON Lines through the screen: chunks of lines encoded as in-memory ``events/2`` tables.

Each line is encoded by :class:`~.jsonl_text.LineEncoder`: a compact line
from its text, any other parsed once with orjson (the ``game`` column holds
the line number, so reports name ``file:line``); the table goes to the same
decoder and screen as a Parquet row group. A line the encoder does not
take (bad JSON, a record it declines or refuses) and a game the screen doubts
are read by the JSON reader itself (:func:`jsonl_item`) and replayed by the
reference engine, so errors and violations come from one place.

A file of three clean games and a broken line: the clean ones pass the screen as one run, the
broken line is read by the JSON reader and named by its line.

>>> import tempfile, pathlib
>>> from hearts_analysis.records.json import write_games
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.fastpath.decode import Judgements
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_games(simulate_games(3, Rules.preset("standard", target=30)), path)
3
>>> with open(path, "ab") as file:
...     _ = file.write(b'{"format": "hearts-game/1", "players": 4}\\n')
>>> [(task.first_line, task.data.count(b"\\n")) for task in split_lines(path)]
[(1, 4)]
>>> entries = audit_lines(next(split_lines(path)), Judgements(None), None)
>>> [(type(e).__name__, getattr(e, "games", None)) for e in entries]
[('CleanRun', 3), ('Audited', None)]
>>> entries[1].item.source.endswith("games.jsonl:4"), entries[1].report is None
(True, True)
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import pyarrow as pa

from ..records.json import jsonl_item
from ..records.parquet import arrays as arrow_arrays
from ..rules import Rules
from .block import Block
from .decode import TEXT_COLUMNS, Judgements, Unit, decode_unit
from .jsonl_text import LineEncoder
from .run import Entry, clean_run, replayed
from .screen import screen_block

CHUNK_BYTES = 2 << 20
"""Bytes of whole lines per task: a few thousand hands, what the screen handles well at once."""


@dataclass(frozen=True)
class JsonlTask:
    """Whole lines of a JSON Lines file, the first of them line ``first_line`` (counted from 1)."""

    path: str
    first_line: int
    data: bytes


def split_lines(path: Path, chunk: int | None = None) -> Iterator[JsonlTask | OSError]:
    """The file as tasks of whole lines (about ``chunk`` bytes each, :data:`CHUNK_BYTES` by default), in order;
    an ``OSError`` where it stops being readable."""
    name, chunk = str(path), chunk or CHUNK_BYTES
    try:
        with open(path, "rb") as stream:
            line, rest = 1, b""
            while block := stream.read(chunk):
                data = rest + block
                cut = data.rfind(b"\n") + 1
                if cut:
                    yield JsonlTask(name, line, data[:cut])
                    line += data.count(b"\n", 0, cut)
                rest = data[cut:]
            if rest:
                yield JsonlTask(name, line, rest)
    except OSError as error:
        yield error


class _LineBlock(Block):
    """A block whose ``game`` numbers are line numbers less one: sources read ``file:line``, as the JSON reader's."""

    def source(self, game: int) -> str:
        return f"{self.path}:{int(self.game_number[game]) + 1}"


def _as_dictionaries(table: pa.Table) -> pa.Table:
    """The sparse text columns dictionary-encoded, as the decoder reads them from a file."""
    for name in TEXT_COLUMNS:
        table = table.set_column(table.column_names.index(name), name, _dictionary_encoded(table[name]))
    return table


def _dictionary_encoded(column: pa.ChunkedArray) -> pa.DictionaryArray:
    """A string column as a dictionary column, from its buffers: only its values that are not null are looked at
    (a value a game, or none), and Arrow's own encoder would load its compute module (a third of a second).

    >>> import pyarrow as pa
    >>> values = pa.array(["b", None, "a", "b", None])
    >>> _dictionary_encoded(pa.chunked_array([values])).to_pylist()
    ['b', None, 'a', 'b', None]
    >>> encoded = _dictionary_encoded(pa.chunked_array([values.slice(2, 3)]))
    >>> encoded.to_pylist(), encoded.dictionary.to_pylist(), encoded.type
    (['a', 'b', None], ['a', 'b'], DictionaryType(dictionary<values=string, indices=int32, ordered=0>))
    """
    array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    count, start = len(array), array.offset
    bitmap, offsets, data = array.buffers()
    rows = np.arange(count)
    if bitmap is not None:
        rows = np.flatnonzero(np.unpackbits(np.frombuffer(bitmap, np.uint8), count=start + count,
                                             bitorder="little")[start:])
    bounds = np.frombuffer(offsets, np.int32)[start:start + count + 1]
    text, texts = data.to_pybytes() if data is not None else b"", {}
    codes = np.full(count, -1, np.int32)
    for row, first, last in zip(rows.tolist(), bounds[rows].tolist(), bounds[rows + 1].tolist()):
        codes[row] = texts.setdefault(text[first:last], len(texts))
    return arrow_arrays.codes(codes, arrow_arrays.strings([value.decode() for value in texts]))


def audit_lines(task: JsonlTask, judge: Judgements, rules: Rules | None) -> list[Entry]:
    """Every record of the task's lines, in order: the screen's clean runs, the reference engine's reports."""
    numbered = [(number, line) for number, line in enumerate(io.BytesIO(task.data), task.first_line)
                if line and not line.isspace()]  # not blank (isspace: no copy of a long line, as strip makes)
    encoder = LineEncoder()
    lines = [(number, line, game) for (number, line), game in zip(numbered, encoder.add_lines(numbered))]
    batch = encoder.take_batch()
    clean = np.zeros(0, bool)
    block = verdict = None
    if batch is not None:
        try:
            headers, cards = batch.tables()
            decoded = decode_unit(Unit(cards, task.path, 0, 0, _as_dictionaries(headers)), judge)
            if decoded is not None:
                block = _LineBlock(**vars(decoded))
                verdict = screen_block(block)
                clean = verdict.clean
        except (ValueError, IndexError, TypeError, OverflowError, pa.ArrowException):
            block = verdict = None  # input the screen does not expect: the reference path decides
    entries: list[Entry] = []
    run = None  # [start, stop) of the clean games since the last doubtful line
    for number, line, game in lines:
        if verdict is not None and game >= 0 and clean[game]:
            run = (game if run is None else run[0], game + 1)
            continue
        if run is not None:
            entries.append(clean_run(block, verdict, *run))
            run = None
        entries.extend(replayed([jsonl_item(line, f"{task.path}:{number}", rules)]))
    if run is not None:
        entries.append(clean_run(block, verdict, *run))
    return entries
