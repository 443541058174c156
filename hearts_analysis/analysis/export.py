"""Writing analysis tables in chunks: CSV or Parquet, to a file (atomically) or to stdout.

A corpus is written table by table as it streams, so no table is ever held
whole. Parquet files carry an explicit Arrow schema built from the catalogue:
every field has its definition and unit as metadata.

>>> import tempfile, pathlib
>>> import pandas as pd
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.analysis.game import analyze_game
>>> from hearts_analysis.analysis.tables import points_rows
>>> path = pathlib.Path(tempfile.mkdtemp()) / "points.csv"
>>> with TableWriter("points", "csv", path) as out:
...     for game in simulate_games(2, Rules.preset("standard", target=30)):
...         out.write(points_rows(analyze_game(game)))
>>> out.rows, len(pd.read_csv(path))
(24, 24)
>>> arrow_schema("points").field("points").metadata[b"unit"]
b'points'
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any, Iterable

from ..atomic import atomic_open, atomic_path
from ..text import CSV_LINE_END, csv_frame
from .catalogue import TABLES, frame

TABLE_FORMATS = ("csv", "parquet")

_ARROW_TYPES = {"int64": "int64", "Int64": "int64", "float64": "float64", "bool": "bool_", "boolean": "bool_",
                "string": "string"}


def arrow_schema(table: str):
    """The Arrow schema of a catalogue table, with each column's definition and unit."""
    import pyarrow as pa
    fields = [pa.field(s.name, getattr(pa, _ARROW_TYPES[s.dtype])(), nullable=True,
                       metadata={"definition": s.definition, "unit": s.unit})
              for s in TABLES[table].columns]
    return pa.schema(fields, metadata={"table": table, "row": TABLES[table].row})


class TableWriter:
    """``with TableWriter("points", "csv", path) as out: out.write(rows)``; ``path`` None is stdout (CSV only)."""

    def __init__(self, table: str, fmt: str, path: str | Path | None = None):
        if fmt not in TABLE_FORMATS:
            raise ValueError(f"unknown table format {fmt!r} (use {' or '.join(TABLE_FORMATS)})")
        if fmt == "parquet" and path is None:
            raise ValueError("Parquet output needs a file: give --output FILE.parquet")
        self.table, self.fmt, self.path = table, fmt, path
        self.rows = 0
        self._stack = ExitStack()
        self._handle: IO[str] | None = None
        self._parquet: Any = None
        self._header = True

    def __enter__(self) -> "TableWriter":
        if self.fmt == "csv":
            self._handle = (self._stack.enter_context(atomic_open(self.path, "w", newline=""))
                            if self.path is not None else sys.stdout)
        else:
            import pyarrow.parquet as pq
            tmp = self._stack.enter_context(atomic_path(self.path))
            self._parquet = self._stack.enter_context(pq.ParquetWriter(tmp, arrow_schema(self.table)))
        return self

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        """Append rows (dicts with the table's columns)."""
        data = frame(self.table, rows)
        if self.fmt == "csv":
            if len(data) or self._header:
                csv_frame(data).to_csv(self._handle, index=False, header=self._header, lineterminator=CSV_LINE_END)
                self._header = False
        elif len(data):
            import pyarrow as pa
            self._parquet.write_table(pa.Table.from_pandas(data, schema=arrow_schema(self.table),
                                                           preserve_index=False))
        self.rows += len(data)

    def __exit__(self, *exc: Any) -> None:
        if self.fmt == "csv" and self._header and exc[0] is None:
            self.write([])
        if self._handle is sys.stdout:
            sys.stdout.flush()
        self._stack.__exit__(*exc)
