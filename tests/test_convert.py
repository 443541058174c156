"""``hearts convert``: JSON, JSON Lines and Parquet both ways, bad records reported, atomic output."""

from __future__ import annotations

from pathlib import Path

import orjson
import pyarrow.parquet as pq
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.records.json import game_from_dict, game_to_dict
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

runner = CliRunner()


def run(*args) -> object:
    return runner.invoke(app, ["convert", *map(str, args)])


def games(count: int = 4, players: int = 4) -> list:
    return list(simulate_games(count, Rules.preset("standard", target=40), players=players, seed=11))


def jsonl(path: Path, objs: list) -> Path:
    path.write_bytes(b"".join((o if isinstance(o, bytes) else orjson.dumps(o)) + b"\n" for o in objs))
    return path


def read_jsonl(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_jsonl_to_parquet_and_back_is_the_same_text(tmp_path):
    records = [game_to_dict(g) for g in games()]
    records[1]["site"] = {"table": 7, "notes": [None, 1.5]}
    records[2]["hands"][0]["comment"] = "misdeal?"
    records[2]["hands"][1]["moon"] = None
    records = [game_to_dict(game_from_dict(r)) for r in records]  # canonical key order
    source = jsonl(tmp_path / "games.jsonl", records)
    done = run(source, tmp_path / "corpus.parquet")
    assert done.exit_code == 0, done.output
    assert done.stderr.strip() == (f"converted 4 games ({sum(len(r['hands']) for r in records)} hands) "
                                   f"into {tmp_path / 'corpus.parquet'}")
    assert pq.ParquetFile(tmp_path / "corpus.parquet").metadata.metadata[b"hearts.games"] == b"4"
    done = run(tmp_path / "corpus.parquet", tmp_path / "back.jsonl")
    assert done.exit_code == 0, done.output
    assert (tmp_path / "back.jsonl").read_bytes() == source.read_bytes()


def test_bad_records_are_reported_with_source_and_field_and_the_rest_converted(tmp_path):
    records = [game_to_dict(g) for g in games(3)]
    broken = orjson.loads(orjson.dumps(records[1]))
    broken["hands"][0]["deal"][1][3] = "1X"
    source = jsonl(tmp_path / "games.jsonl", [records[0], b"{not json", broken, records[2]])
    done = run(source, tmp_path / "corpus.parquet", "--quiet")
    assert done.exit_code == 2
    lines = done.stderr.splitlines()
    assert lines == [f"{i.source}: error: {i.error.text()}" for i in iter_sources([source]) if i.error]
    assert lines[0].startswith(f"{source}:2: error: bad JSON") and "(column 2)" in lines[0]
    assert lines[1].startswith(f"{source}:3: error: hands[0].deal[1][3]: unknown card \"1X\"")
    assert [game_to_dict(i.game) for i in iter_sources([tmp_path / "corpus.parquet"])] == [records[0], records[2]]


def test_the_summary_counts_the_skipped_records(tmp_path):
    source = jsonl(tmp_path / "games.jsonl", [game_to_dict(games(1)[0]), b"[]"])
    done = run(source, tmp_path / "out.jsonl")
    assert done.exit_code == 2 and done.stderr.splitlines()[-1].endswith("; 1 unreadable record skipped")


def test_a_damaged_parquet_file_is_reported_by_row_group(tmp_path):
    corpus = tmp_path / "corpus.parquet"
    assert run(jsonl(tmp_path / "g.jsonl", [game_to_dict(g) for g in games(2)]), corpus).exit_code == 0
    corpus.write_bytes(corpus.read_bytes()[:-100])
    done = run(corpus, tmp_path / "out.jsonl")
    assert done.exit_code == 2 and f"{corpus}: error: cannot read as Parquet" in done.stderr
    assert "no game was read" in done.stderr and not (tmp_path / "out.jsonl").exists()


def test_one_game_converts_between_json_and_jsonl(tmp_path):
    record = game_to_dict(games(1)[0])
    single = tmp_path / "game.json"
    single.write_bytes(orjson.dumps(record, option=orjson.OPT_INDENT_2))
    assert run(single, tmp_path / "game.jsonl").exit_code == 0
    assert read_jsonl(tmp_path / "game.jsonl") == [record]
    assert run(tmp_path / "game.jsonl", tmp_path / "again.json").exit_code == 0
    assert orjson.loads((tmp_path / "again.json").read_bytes()) == record
    assert run(single, tmp_path / "game.parquet").exit_code == 0
    assert run(tmp_path / "game.parquet", tmp_path / "from-parquet.json").exit_code == 0
    assert orjson.loads((tmp_path / "from-parquet.json").read_bytes()) == record


def test_many_games_into_one_json_file_fail_and_write_nothing(tmp_path):
    source = jsonl(tmp_path / "games.jsonl", [game_to_dict(g) for g in games(2)])
    done = run(source, tmp_path / "one.json")
    assert done.exit_code == 2 and "a .json file holds exactly one game" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_partitioned_output_and_several_sources(tmp_path):
    first = jsonl(tmp_path / "a.jsonl", [game_to_dict(g) for g in games(3)])
    second = jsonl(tmp_path / "b.jsonl", [game_to_dict(g) for g in games(3, players=5)])
    done = run(first, second, tmp_path / "corpus", "--partition-size", 5)
    assert done.exit_code == 0, done.output
    parts = sorted((tmp_path / "corpus").iterdir())
    assert len(parts) > 1 and all(p.name.startswith("part-") for p in parts)
    expected = read_jsonl(first) + read_jsonl(second)
    assert [game_to_dict(i.game) for i in iter_sources([tmp_path / "corpus"])] == expected
    done = run(tmp_path / "corpus", tmp_path / "all.jsonl")
    assert done.exit_code == 0 and read_jsonl(tmp_path / "all.jsonl") == expected


def test_a_folder_of_game_files_converts_in_the_order_it_is_read(tmp_path):
    folder = tmp_path / "games"
    (folder / "later").mkdir(parents=True)
    jsonl(folder / "b.jsonl", [game_to_dict(g) for g in games(2)])
    jsonl(folder / "later" / "c.jsonl", [game_to_dict(g) for g in games(1, players=3)])
    (folder / "a.json").write_bytes(orjson.dumps(game_to_dict(games(1, players=6)[0])))
    (folder / ".hidden.jsonl").write_bytes(b"{broken\n")
    done = run(folder, tmp_path / "corpus.parquet")
    assert done.exit_code == 0, done.output
    expected = [game_to_dict(i.game) for i in iter_sources([folder])]
    assert len(expected) == 4
    assert [game_to_dict(i.game) for i in iter_sources([tmp_path / "corpus.parquet"])] == expected


def test_a_target_that_cannot_be_written_is_refused_and_left_alone(tmp_path):
    source = jsonl(tmp_path / "games.jsonl", [game_to_dict(g) for g in games(1)])
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("keep")
    done = run(source, tmp_path / "mine")
    assert done.exit_code == 2 and "holds other files" in done.stderr
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["keep.txt"]
    done = run(source, tmp_path / "games.txt")
    assert done.exit_code == 2 and 'unknown output format ".txt"' in done.stderr
    done = run(source, source)
    assert done.exit_code == 2 and "is also an input" in done.stderr


def test_help_explains_the_formats_with_examples():
    done = runner.invoke(app, ["convert", "--help"])
    assert done.exit_code == 0
    assert "hearts convert games.jsonl corpus.parquet" in done.output and "--partition-size" in done.output
