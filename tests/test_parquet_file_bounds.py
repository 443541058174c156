"""A Parquet file of too many row groups, or too large a footer, is refused before its row groups are read;
a lone header row group is named as one group."""

from __future__ import annotations

import pyarrow.parquet as pq

from faults import clean_games, write_parquet_file
from hearts_analysis.records.parquet import read
from hearts_analysis.records.parquet import read_parquet_items


def _file(tmp_path):
    return write_parquet_file(list(clean_games(1))[:6], tmp_path / "games.parquet", row_group_hands=4)


def test_too_many_row_groups_or_too_large_a_footer_is_one_clear_error(tmp_path, monkeypatch):
    path = _file(tmp_path)
    groups = pq.ParquetFile(path).num_row_groups
    assert groups > 4 and len(list(read_parquet_items(path))) == 6
    monkeypatch.setattr(read, "MAX_ROW_GROUPS", groups - 1)
    (item,) = read_parquet_items(path)
    assert item.source == str(path) and f"it has {groups:,} row groups; at most {groups - 1:,}" in item.error.text()
    monkeypatch.setattr(read, "MAX_ROW_GROUPS", groups)
    monkeypatch.setattr(read, "MAX_FOOTER_BYTES", 100)
    monkeypatch.setattr(pq, "ParquetFile", None)   # refused before the footer is parsed
    (item,) = read_parquet_items(path)
    assert f"footer (the file's metadata) is {read.footer_bytes(path):,} bytes; at most 100" in item.error.text()


def test_a_header_group_without_its_cards_is_named_alone(tmp_path):
    path = _file(tmp_path)
    table = pq.read_table(path)
    meta = pq.ParquetFile(path).metadata
    sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    odd = tmp_path / "odd.parquet"
    with pq.ParquetWriter(odd, table.schema) as writer:   # every group as written, and a last header group alone
        start = 0
        for size in sizes + sizes[:1]:
            writer.write_table(table.slice(start % table.num_rows, size), row_group_size=size)
            start += size
    total = len(sizes) + 1
    last = [item for item in read_parquet_items(odd) if item.error][-1].error.text()
    assert f"row group {total} of {total} cannot be read" in last and f"{total + 1}" not in last.split(":")[0]
