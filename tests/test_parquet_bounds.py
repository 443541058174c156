"""Parquet files that cannot hurt the machine: a row group whose values would decode to more than memory holds is
reported by its file, row groups and column before anything is written out, and the rest is still read; and reading
a file costs work in proportion to its row groups, however many there are."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from hearts_analysis.fastpath import decode as fast_decode, tasks
from hearts_analysis.records.append import UnreadablePart, parquet_game_ids
from hearts_analysis.records.parquet import bounds, read as parquet_read, read_parquet_items, write_parquet
from hearts_analysis.records.parquet.encode import EventEncoder
from hearts_analysis.records.parquet.layout import LAYOUT_V1, META_LAYOUT, SCHEMA
from hearts_analysis.records.parquet.write import WRITE_OPTIONS
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

ROOT = Path(__file__).resolve().parents[1]
BOMB_GAMES = 20_000
BOMB_TEXT = 20_000_000
"""A 20 MB text named by 20,000 rows: 400 GB once written out, from a file of about a megabyte."""


def _nulls(name: str, rows: int) -> pa.Array:
    return pa.nulls(rows, SCHEMA.field(name).type)


def write_bomb(path: Path, column: str = "game_id", games: int = BOMB_GAMES, size: int = BOMB_TEXT) -> Path:
    """An ``events/2`` file of ``games`` games without hands whose every game row names one ``size``-byte text in
    ``column`` (``game_id``, or ``event``: then every header row's event is that text)."""
    codes = pa.array(np.zeros(games, np.int32))
    huge = pa.array(["x" * size])
    headers = {name: _nulls(name, games) for name in SCHEMA.names}
    headers.update(game=pa.array(np.arange(games, dtype=np.int32)), hand=pa.array(np.zeros(games, np.int16)),
                   index=pa.array(np.zeros(games, np.int16)),
                   event=pa.DictionaryArray.from_arrays(codes, pa.array(["game"])),
                   players=pa.array([["a", "b", "c", "d"]] * games, pa.list_(pa.string())))
    headers[column] = pa.DictionaryArray.from_arrays(codes, huge)
    cards = {name: _nulls(name, games) for name in SCHEMA.names}
    cards.update(game=headers["game"], hand=headers["hand"], index=headers["index"],
                 event=pa.DictionaryArray.from_arrays(codes, pa.array(["none"])))
    with pq.ParquetWriter(path, SCHEMA, compression="lz4") as writer:
        for table in (headers, cards):
            writer.write_table(pa.Table.from_pydict(table, schema=SCHEMA), row_group_size=games)
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A folder: a game_id bomb, then a good file."""
    folder = tmp_path_factory.mktemp("bombs") / "corpus"
    folder.mkdir()
    write_bomb(folder / "a.parquet")
    write_parquet(simulate_games(3, Rules.preset("standard", target=30)), folder / "b.parquet")
    return folder


@pytest.mark.parametrize("column", ["game_id", "event"])
def test_a_dictionary_bomb_is_the_error_of_its_row_groups_naming_the_column(tmp_path, column):
    path = write_bomb(tmp_path / "bomb.parquet", column)
    assert path.stat().st_size < 2 << 20
    [item] = read_parquet_items(path)
    assert item.game is None and item.source == f"{path}:row groups 1-2"
    text = item.error.text()
    assert f"column {column!r} holds {BOMB_GAMES * BOMB_TEXT:,} bytes of text once decoded" in text
    assert f"the longest {BOMB_TEXT:,} bytes" in text
    [unit] = fast_decode.open_units(path)   # the fast path reports it alike
    assert unit.source == item.source and unit.error.text() == text


def test_every_other_file_of_the_folder_is_still_read(corpus):
    items = list(read_parquet_items(corpus))
    assert [item.game is not None for item in items] == [False, True, True, True]
    entries = [entry for job in tasks.plan([corpus]) for entry in tasks.run_task(job)]
    assert [type(entry).__name__ for entry in entries] == ["Audited", "CleanRun"]
    assert entries[0].item.error.text() == items[0].error.text() and entries[1].games == 3


def test_appending_to_a_folder_holding_a_bomb_refuses_it_by_name_in_bounded_memory(corpus):
    """The bomb's games cannot be read, so which of them are already in is not known: the part is refused."""
    with pytest.raises(UnreadablePart, match="column 'game_id'"):
        parquet_game_ids(corpus / "a.parquet")


GIGABYTES = 3


def _limited():
    """A child's address space bounded: a run that tries to write the bomb out fails instead of swapping."""
    resource.setrlimit(resource.RLIMIT_AS, (GIGABYTES << 30, GIGABYTES << 30))


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "hearts_analysis", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600, preexec_fn=_limited)


@pytest.mark.parametrize("command", [["validate"], ["validate", "--engine", "reference"], ["stats"],
                                     ["convert", "{corpus}", "{out}/games.jsonl"],
                                     ["convert", "--append", "{corpus}", "{out}/grown"],
                                     ["convert", "--append", "{corpus}/b.parquet", "{corpus}"],
                                     ["report", "{corpus}", "-o", "{out}/site"]])
def test_no_command_runs_out_of_memory_on_a_bomb(corpus, tmp_path, command):
    folder = tmp_path / "corpus"
    folder.mkdir()
    for part in corpus.iterdir():
        (folder / part.name).symlink_to(part)
    args = [a.format(corpus=folder, out=tmp_path) for a in command]
    if len(args) == 1 or args[1] == "--engine":
        args.append(str(folder))
    result = _run(*args, cwd=tmp_path)
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr, result.stderr[-2000:]
    assert result.returncode in (0, 2), result.stderr[-2000:]
    if args[0] == "convert" and args[-1] == str(folder):   # appending to the folder that holds the bomb: refused by name
        assert f"{folder / 'a.parquet'}: cannot be read" in result.stderr, result.stderr[-2000:]
        assert result.returncode == 2
        return
    assert f"{folder / 'a.parquet'}:row groups 1-2" in result.stdout + result.stderr
    assert "column 'game_id' holds" in result.stdout + result.stderr


def test_the_reference_engine_survives_an_event_bomb(tmp_path):
    path = write_bomb(tmp_path / "bomb.parquet", "event", size=3_000_000)
    result = _run("validate", "--engine", "reference", "--format", "json", str(path), cwd=tmp_path)
    assert result.returncode == 2, result.stderr[-2000:]
    [error] = orjson.loads(result.stdout)["errors"]
    assert "column 'event' holds" in error["message"]


def test_pages_larger_than_the_bound_are_refused_by_the_metadata_before_reading(tmp_path, monkeypatch):
    encoder = EventEncoder()
    for game in simulate_games(2, Rules.preset("standard", target=30)):
        encoder.add_record(game)
    table = _events_v1(encoder.take_batch().table())
    meta = table["game_meta"].to_pylist()
    meta[0] = orjson.dumps({"note": "y" * 300_000}).decode()
    table = table.set_column(table.column_names.index("game_meta"), "game_meta", pa.array(meta, pa.string()))
    big = tmp_path / "big.parquet"
    pq.write_table(table, big, row_group_size=table.num_rows, use_dictionary=False, compression="zstd")
    assert big.stat().st_size < 100_000
    monkeypatch.setattr(bounds, "MAX_COLUMN_BYTES", 200_000)
    read = []
    monkeypatch.setattr(pq.ParquetFile, "read_row_group", lambda self, *a, **k: read.append(a) or None)
    [item] = read_parquet_items(big)
    assert "column 'game_meta' is" in item.error.text() and "bytes uncompressed" in item.error.text()
    assert read == []   # refused before reading


def test_text_bytes_counts_what_the_values_would_take_written_out():
    names = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 1], pa.int32()), pa.array(["ab", "cdef"]))
    assert bounds.text_bytes(names) == 2 + 4 + 4
    assert bounds.text_bytes(names.slice(1, 2)) == 4
    assert bounds.text_bytes(pa.array(["abc", None, "de"]).slice(1)) == 2
    players = pa.array([["ab", "c"], None, ["def"]], pa.list_(pa.string()))
    assert bounds.text_bytes(players) == 6 and bounds.text_bytes(players.slice(2)) == 3
    coded = pa.ListArray.from_arrays(pa.array([0, 2, 3], pa.int32()), names.slice(0, 3))
    assert bounds.text_bytes(coded) == 6
    assert bounds.text_bytes(pa.array([1, 2], pa.int16())) == 0
    assert bounds.text_bytes(pa.chunked_array([names, names])) == 20


# -- work in proportion to the row groups ------------------------------------------------------------------------
def _events_v1(table: pa.Table) -> pa.Table:
    return table.replace_schema_metadata({**table.schema.metadata, META_LAYOUT.encode(): LAYOUT_V1.encode()})


def _empty_pairs(path: Path, pairs: int) -> Path:
    """``pairs`` empty pairs of row groups (a writer that flushed nothing), then 3 games."""
    encoder = EventEncoder()
    for game in simulate_games(3, Rules.preset("standard", target=30), seed=5):
        encoder.add_record(game)
    headers, cards = encoder.take_batch().tables()
    with pq.ParquetWriter(path, SCHEMA, **WRITE_OPTIONS) as writer:
        for _ in range(pairs):
            writer.write_table(headers.slice(0, 0))
            writer.write_table(cards.slice(0, 0))
        writer.write_table(headers, row_group_size=headers.num_rows)
        writer.write_table(cards, row_group_size=cards.num_rows)
    return path


def _one_row_groups(path: Path, rows: int) -> Path:
    """The first ``rows`` rows of a long game in ``events/1``, a row group a row (a game over many row groups)."""
    encoder = EventEncoder()
    encoder.add_record(next(iter(simulate_games(1, Rules.preset("standard", target=100), seed=5))))
    table = _events_v1(encoder.take_batch().table().slice(0, rows))
    pq.write_table(table, path, row_group_size=1, **WRITE_OPTIONS)
    return path


class _CountedMetadata:
    def __init__(self, metadata, counts):
        self._metadata, self._counts = metadata, counts

    def row_group(self, number):
        self._counts["metadata of a row group"] += 1
        return self._metadata.row_group(number)

    def __getattr__(self, name):
        return getattr(self._metadata, name)


def _counting(monkeypatch) -> dict[str, int]:
    """Counts of the work of reading: row groups read, metadata of a row group looked at, rows joined."""
    counts = {"row groups read": 0, "metadata of a row group": 0, "rows joined": 0}
    opened = parquet_read.open_parquet

    class Counted(pq.ParquetFile):
        @property
        def metadata(self):
            return _CountedMetadata(super().metadata, counts)

        def read_row_group(self, *args, **kwargs):
            counts["row groups read"] += 1
            return super().read_row_group(*args, **kwargs)

    def open_counted(path):
        parquet, problems = opened(path)
        parquet.__class__ = Counted
        return parquet, problems

    concat = pa.concat_tables

    def concat_counted(tables, *args, **kwargs):
        tables = list(tables)
        counts["rows joined"] += sum(t.num_rows for t in tables)
        return concat(tables, *args, **kwargs)

    monkeypatch.setattr(parquet_read, "open_parquet", open_counted)
    monkeypatch.setattr(pa, "concat_tables", concat_counted)
    fast_decode._opened.cache_clear()
    return counts


def _fast(path: Path) -> int:
    return sum(len(tasks.run_task(job)) for job in tasks.plan([path]))


def _reference(path: Path) -> int:
    return len(list(read_parquet_items(path)))


@pytest.mark.parametrize("read", [_fast, _reference], ids=["fast", "reference"])
@pytest.mark.parametrize("layout", [_empty_pairs, _one_row_groups], ids=["empty pairs", "one-row groups"])
def test_reading_costs_work_in_proportion_to_the_row_groups(tmp_path, monkeypatch, read, layout):
    small, large = 150, 300
    work = {}
    for size in (small, large):
        path = layout(tmp_path / f"{size}.parquet", size)
        counts = _counting(monkeypatch)
        read(path)
        fast_decode._opened.cache_clear()
        work[size] = counts
        groups = pq.ParquetFile(path).num_row_groups
        assert counts["row groups read"] <= groups + 2, counts
        assert counts["metadata of a row group"] <= 8 * groups, counts
        assert counts["rows joined"] <= 3 * size, counts
    total = {size: sum(counts.values()) for size, counts in work.items()}
    assert total[large] <= 2.3 * total[small], work
