"""Inputs that cannot hurt the machine: a line or a document too long is reported by its file and line, read
past rather than held in memory, and the rest of the input is still read, by every reader alike."""

from __future__ import annotations

import io

import orjson
import pytest
from typer.testing import CliRunner

from faults import clean_games
from hearts_analysis.cli import app
from hearts_analysis.fastpath import jsonl
from hearts_analysis.interop.text_notation import write as write_notation
from hearts_analysis.records.json import dumps_game, files, read_json_path
from hearts_analysis.records.sources import read_games, read_stdin_items

runner = CliRunner()
LIMIT = 6000


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(files, "MAX_LINE_BYTES", LIMIT)
    monkeypatch.setattr(files, "MAX_DOCUMENT_BYTES", 4 * LIMIT)
    monkeypatch.setattr(jsonl, "CHUNK_BYTES", 2500)


def _lines() -> list[bytes]:
    games = [dumps_game(game) for game in clean_games()[:3]]
    short = min(games, key=len)
    assert len(short) < LIMIT
    filler = b'{"players": "' + b"x" * (3 * LIMIT) + b'"}'
    return [short, filler, short, b" " * (LIMIT + 5) + short, short, filler]  # the last: no newline


def _file(tmp_path) -> tuple:
    lines = _lines()
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"\n".join(lines))
    return path, lines


def test_a_line_too_long_is_named_and_read_past_by_the_reader(tmp_path, small_limits):
    path, lines = _file(tmp_path)
    items = list(read_json_path(path))
    too_long = [int(item.source.rsplit(":", 1)[1]) for item in items if item.error and "not read" in str(item.error)]
    assert too_long == [2, 4, 6]
    assert [item.game is not None for item in items] == [True, False, True, False, True, False]


def test_the_fast_path_and_the_reference_report_a_line_too_long_alike(tmp_path, small_limits):
    path, _ = _file(tmp_path)
    outputs = {}
    for options in (["--engine", "reference"], ["--engine", "fast", "--workers", "1"], ["--engine", "fast"]):
        result = runner.invoke(app, ["validate", str(path), "--format", "json", *options])
        assert result.exit_code == 2, result.output
        outputs[tuple(options)] = result.stdout
    assert len(set(outputs.values())) == 1
    errors = orjson.loads(next(iter(outputs.values())))["errors"]
    assert [error["source"].rsplit(":", 1)[1] for error in errors] == ["2", "4", "6"]


def test_split_lines_never_holds_a_line_too_long(tmp_path, small_limits):
    path, lines = _file(tmp_path)
    tasks = list(jsonl.split_lines(path))
    assert max(len(task.data) for task in tasks) <= LIMIT + 2500
    assert [task.first_line for task in tasks if task.too_long] == [2, 4, 6]
    kept = b"".join(task.data for task in tasks if not task.too_long)
    assert kept.count(lines[0]) == 3


def test_convert_reports_a_line_too_long_and_converts_the_rest(tmp_path, small_limits):
    path, _ = _file(tmp_path)
    result = runner.invoke(app, ["convert", str(path), str(tmp_path / "out.parquet")])
    assert result.exit_code == 2
    assert f"{path}:2" in result.stderr and f"{path}:6" in result.stderr
    assert sum(item.game is not None for item in read_games([tmp_path / "out.parquet"], keep_duplicates=True)) == 3


def test_a_document_too_large_is_an_error_not_a_read(tmp_path, small_limits):
    game = orjson.loads(dumps_game(clean_games()[0]))
    path = tmp_path / "big.json"
    path.write_bytes(orjson.dumps([game] * 20))
    (item,) = read_json_path(path)
    assert item.source == str(path) and "not read" in str(item.error)
    (item,) = read_stdin_items(stream=io.BytesIO(orjson.dumps([game] * 20)))
    assert item.source == "<stdin>" and "not read" in str(item.error)
    assert len(list(read_stdin_items(stream=io.BytesIO(orjson.dumps(game))))) == 1


@pytest.mark.parametrize("length", [LIMIT - 1, LIMIT, LIMIT + 1, LIMIT + 100, LIMIT + 2499, LIMIT + 2500, 3 * LIMIT])
@pytest.mark.parametrize("before", [0, 1, 2400, 4999])
def test_split_lines_and_the_reader_agree_on_which_lines_are_too_long(tmp_path, small_limits, length, before):
    lines = [b"x" * before, b"y" * length, b"z" * 10, b"w" * length]
    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"\n".join(line for line in lines if line) + b"\n")
    with open(path, "rb") as stream:
        expected = [number for number, line in enumerate(files.bounded_lines(stream), 1) if line is None]
    tasks = list(jsonl.split_lines(path))
    assert [task.first_line for task in tasks if task.too_long] == expected
    assert (len(expected) == 2) == (length > LIMIT)
    kept = b"".join(task.data for task in tasks if not task.too_long)
    assert kept == b"".join(line + b"\n" for line in lines if line and (len(line) <= LIMIT))


def test_a_log_too_large_is_an_error_not_a_read(tmp_path, monkeypatch):
    from hearts_analysis.records import sources

    monkeypatch.setattr(sources, "MAX_DOCUMENT_BYTES", 1000)
    log = tmp_path / "big.txt"
    with open(log, "w", encoding="utf-8") as out:  # the club's hand-entry notation: a log format
        write_notation(clean_games()[:3], out)
    assert log.stat().st_size > 1000
    (item,) = sources.read_file(log)
    assert item.source == str(log) and "not read" in str(item.error)
    result = runner.invoke(app, ["import", str(log), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2 and "not read" in result.stderr
