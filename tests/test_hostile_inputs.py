"""Hostile and damaged inputs that used to crash a command: each becomes an error for its record, exit 2,
and the other games are still processed."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.records.json import game_to_dict
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@lru_cache(maxsize=None)
def _games() -> tuple[str, ...]:
    games = simulate_games(5, Rules.preset("standard", target=40), 4, seed=3)
    return tuple(json.dumps(game_to_dict(g)) for g in games)


def games() -> list[dict]:
    return [json.loads(text) for text in _games()]


def write_jsonl(path: Path, objects: list[dict]) -> Path:
    """JSON Lines of ``objects``; a string ``"nested:N"`` becomes a value nested N lists deep."""
    text = "".join(json.dumps(o) + "\n" for o in objects)
    path.write_text(re.sub(r'"nested:(\d+)"', lambda m: "[" * int(m[1]) + "0" + "]" * int(m[1]), text))
    return path


def nested(depth: int) -> str:
    return f"nested:{depth}"


def readable(path: Path) -> list[str]:
    return [item.game.game_id for item in iter_sources([path]) if item.game is not None]


# -- deep nesting in an extra field ---------------------------------------------------------------------
@pytest.mark.parametrize("depth", [255, 600, 1000])
@pytest.mark.parametrize("where", ["game", "hand"])
def test_deep_nesting_is_an_error_for_its_record_and_the_others_convert(tmp_path, depth, where):
    objects = games()
    if where == "game":
        objects[1]["notes"] = nested(depth)
        field = "notes"
    else:
        objects[1]["hands"][2]["notes"] = nested(depth)
        field = "hands[2].notes"
    source = write_jsonl(tmp_path / "deep.jsonl", objects)
    done = run("convert", source, tmp_path / "out.parquet")
    assert done.exit_code == 2, done.output
    assert f"deep.jsonl:2: error: {field}:" in done.stderr and "nested" in done.stderr
    kept = [o["game_id"] for i, o in enumerate(objects) if i != 1]
    assert readable(tmp_path / "out.parquet") == kept
    for command in (["validate"], ["stats"], ["score"], ["report", "-o", tmp_path / "reports"]):
        checked = run(*command, source)
        assert checked.exit_code == 2 and f"deep.jsonl:2: error: {field}:" in checked.stderr + checked.stdout, (
            command, checked.output)


def test_deep_nesting_to_json_lines_keeps_the_other_games(tmp_path):
    objects = games()
    objects[0]["notes"] = {"a": nested(300)}
    done = run("convert", write_jsonl(tmp_path / "deep.jsonl", objects), tmp_path / "out.jsonl")
    assert done.exit_code == 2 and "deep.jsonl:1: error: notes:" in done.stderr
    assert readable(tmp_path / "out.jsonl") == [o["game_id"] for o in objects[1:]]


# -- more hands than the layout numbers -------------------------------------------------------------------
def test_a_game_of_33000_hands_is_an_error_for_its_record(tmp_path):
    objects = games()
    objects[2]["hands"] = objects[2]["hands"][:1] * 33_000
    source = write_jsonl(tmp_path / "long.jsonl", objects)
    done = run("convert", source, tmp_path / "out.parquet")
    assert done.exit_code == 2, done.output
    assert "long.jsonl:3: error: hands:" in done.stderr and "32,767" in done.stderr
    assert readable(tmp_path / "out.parquet") == [o["game_id"] for i, o in enumerate(objects) if i != 2]


def test_a_line_of_more_hands_than_the_layout_numbers_is_parsed_once(tmp_path, monkeypatch):
    """The fast path leaves such a line to the JSON reader unread: parsing it only to refuse it cost a second
    parse of tens of megabytes, in time and in memory, beside the reference engine's."""
    import orjson
    from hearts_analysis.fastpath import jsonl_text
    from hearts_analysis.records.json import files
    objects = games()
    objects[1]["hands"] = [{"dealer": 9, "deal": [[], [], [], []], "plays": []}] * 33_000
    source = write_jsonl(tmp_path / "long.jsonl", objects)
    big = []

    def loads(data, real=orjson.loads):
        if len(data) > 100_000:
            big.append(len(data))
        return real(data)
    for module in (jsonl_text, files):
        monkeypatch.setattr(module, "orjson", type("orjson", (), {"loads": staticmethod(loads),
                                                                   "JSONDecodeError": orjson.JSONDecodeError,
                                                                   "dumps": staticmethod(orjson.dumps)}))
    fast = run("validate", source, "--workers", "1", "--format", "json")
    assert len(big) == 1, big
    reference = run("validate", source, "--engine", "reference", "--format", "json")
    assert fast.exit_code == reference.exit_code == 2 and fast.stdout == reference.stdout
    assert "long.jsonl:2" in fast.stdout + fast.stderr


# -- Parquet files with empty row groups, or one bad value -------------------------------------------------
def _paired_file(tmp_path: Path) -> tuple[Path, pq.ParquetFile]:
    source = write_jsonl(tmp_path / "good.jsonl", games())
    target = tmp_path / "good.parquet"
    assert run("convert", source, target).exit_code == 0
    return target, pq.ParquetFile(target)


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_empty_row_groups_are_skipped(tmp_path, engine):
    target, parquet = _paired_file(tmp_path)
    headers, cards = parquet.read_row_group(0), parquet.read_row_group(1)
    damaged = tmp_path / "empty.parquet"
    with pq.ParquetWriter(damaged, parquet.schema_arrow) as writer:
        writer.write_table(headers.slice(0, 0))
        writer.write_table(cards.slice(0, 0))
        writer.write_table(headers)
        writer.write_table(cards)
        writer.write_table(headers.slice(0, 0))
        writer.write_table(cards.slice(0, 0))
    done = run("validate", "--engine", engine, damaged)
    assert done.exit_code == 0, done.output
    assert "5 games" in done.stdout
    assert readable(damaged) == readable(target)
    assert run("stats", damaged).exit_code == 0


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("rows", ["cards", "headers"])
def test_one_bad_hand_number_drops_only_its_game(tmp_path, engine, rows):
    target, parquet = _paired_file(tmp_path)
    tables = {"headers": parquet.read_row_group(0), "cards": parquet.read_row_group(1)}
    columns = tables[rows].to_pydict()
    row = [r for r, g in enumerate(columns["game"]) if g == 2][30 if rows == "cards" else 2]
    columns["hand"][row] = 7
    tables[rows] = pa.Table.from_pydict(columns, schema=tables[rows].schema)
    damaged = tmp_path / "bad-hand.parquet"
    with pq.ParquetWriter(damaged, parquet.schema_arrow) as writer:
        writer.write_table(tables["headers"])
        writer.write_table(tables["cards"])
    done = run("validate", "--engine", engine, damaged)
    assert done.exit_code == 2, done.output
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    assert len(errors) == 1 and errors[0].startswith(f"{damaged}:#3: error: hands") and "file row" in errors[0]
    assert "4 games" in done.stdout
    kept = readable(target)
    assert readable(damaged) == kept[:2] + kept[3:]


# -- OpenSpiel histories that are not UTF-8 ----------------------------------------------------------------
def test_openspiel_file_with_invalid_utf8_names_file_and_line(tmp_path):
    out = tmp_path / "games.jsonl"
    assert run("export", "openspiel", write_jsonl(tmp_path / "g.jsonl", games()[:1]), "--plain", "-o", tmp_path / "h.txt"
               ).exit_code == 0
    history = (tmp_path / "h.txt").read_bytes().splitlines()[0]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(history + b"\n" + b"0 1 \xff\xfe 2\n" + history + b"\n")
    done = run("import", "openspiel", bad, "-o", out)
    assert done.exit_code == 2, done.output
    assert f"{bad}:2: error:" in done.stderr and "UTF-8" in done.stderr
    assert "\\udc" not in done.stderr and "\udcff" not in done.stderr
    assert len(out.read_text().splitlines()) == 2


# -- very long games ---------------------------------------------------------------------------------------
def test_a_long_game_report_shows_its_first_hands_and_says_how_many_are_left_out(tmp_path, monkeypatch):
    from hearts_analysis.reports import game as game_report
    monkeypatch.setattr(game_report, "REPORT_HANDS", 3)
    monkeypatch.setattr(game_report, "REPORT_VIOLATIONS", 2)
    obj = games()[0]
    obj["hands"] = obj["hands"] * 3
    for hand in obj["hands"]:
        hand.pop("totals", None)
    obj["hands"][-1]["points"] = [99, 0, 0, 0]
    obj["hands"][-2]["points"] = [98, 0, 0, 0]
    obj["hands"][-3]["points"] = [97, 0, 0, 0]
    source = write_jsonl(tmp_path / "long.jsonl", [obj])
    done = run("report", source, "-o", tmp_path / "long.html", "--js-beside")
    assert done.exit_code in (0, 1), done.output
    page = (tmp_path / "long.html").read_text()
    hands = len(obj["hands"])
    assert f"show the first 3 hands; the other {hands - 3:,} are in the charts" in page
    assert page.count('<tr id="hand-') == 3
    data = json.loads(re.search(r'<script[^>]*id="replay-data"[^>]*>(.*?)</script>', page, re.S)[1])
    assert [h["number"] for h in data["hands"]] == [1, 2, 3]
    assert "more: <code>hearts validate</code> lists every one" in page



# -- a standard output that is not UTF-8 ----------------------------------------------------------------
@pytest.mark.parametrize("command", [["score", "--format", "csv"], ["score"], ["stats"], ["validate"],
                                     ["review", "--hand", "1", "--no-cache", "--workers", "1"]])
def test_every_command_prints_under_an_ascii_standard_output(tmp_path, command):
    """A real process whose stdout is ASCII (as under ``LANG=C``): names and symbols it cannot hold are written
    in letters (click's own output as UTF-8), never a UnicodeEncodeError."""
    import os
    import subprocess
    import sys
    objects = games()[:1]
    objects[0]["players"] = ["Zo\u00eb", "J\u00fcrgen", "\u674e", "bot4"]
    source = tmp_path / "names.jsonl"
    source.write_text(json.dumps(objects[0], ensure_ascii=False) + "\n", encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii", PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-m", "hearts_analysis", *command, str(source)], env=env,
                          capture_output=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    assert b"UnicodeEncodeError" not in done.stderr
    shown = done.stdout.decode("utf-8")  # what click writes itself it writes as UTF-8; the rest is in letters
    assert "Zoe" in shown or "Zo\u00eb" in shown or (command == ["validate"] and "checked" in shown), shown


# -- a game whose line would be longer than any reader reads --------------------------------------------
def test_a_game_of_more_plays_than_a_line_holds_is_refused_by_name_and_no_temp_file_is_left(tmp_path, monkeypatch):
    """Millions of plays (the bound lowered here to keep the test small): encoding them took gigabytes and, under
    a memory limit, killed the process beside an empty temp file."""
    from hearts_analysis.records.json import files
    monkeypatch.setattr(files, "MAX_LINE_PLAYS", 1000)
    objects = games()
    objects[1]["hands"] = objects[1]["hands"] * 10
    source = write_jsonl(tmp_path / "long.jsonl", objects)
    (tmp_path / "out").mkdir()
    done = run("convert", source, tmp_path / "out" / "games.jsonl")
    assert done.exit_code == 2, done.output
    assert "long.jsonl:2: error: hands:" in done.stderr and "plays" in done.stderr
    assert readable(tmp_path / "out" / "games.jsonl") == [o["game_id"] for i, o in enumerate(objects) if i != 1]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["games.jsonl"]


@pytest.mark.parametrize("output", ["-", "games.jsonl", "games.parquet"])
def test_an_imported_game_of_more_plays_than_a_line_holds_is_refused_and_the_others_written(tmp_path, monkeypatch,
                                                                                            output):
    """``import`` wrote such a game to standard output or a file without a bound (the bound lowered here, under
    the longest game's plays)."""
    from hearts_analysis.records.json import files
    objects = games()
    histories = tmp_path / "histories.txt"
    assert run("export", "openspiel", write_jsonl(tmp_path / "games.jsonl", objects), "-o", histories).exit_code == 0
    plays = [sum(len(hand["plays"]) for hand in o["hands"]) for o in objects]
    monkeypatch.setattr(files, "MAX_LINE_PLAYS", max(plays) - 1)
    target = "-" if output == "-" else tmp_path / output
    done = run("import", "openspiel", histories, "-o", target)
    assert done.exit_code == 2, done.output
    assert "error: hands:" in done.stderr and f"{max(plays):,} plays: more than" in done.stderr
    if output == "-":
        written = [json.loads(line)["game_id"] for line in done.stdout.splitlines()]
    else:
        written = readable(target)
    assert written == [o["game_id"] for o, count in zip(objects, plays) if count < max(plays)]
    assert 0 < len(written) < len(objects)
