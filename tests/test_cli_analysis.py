"""``hearts analyze`` and ``hearts stats``: the output contract, formats, errors and help."""

import csv
import io
import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from analysis_games import SHOT_PLAY, STOPPED_PLAY, pass_game, run_game, with_players
from hearts_analysis.analysis import catalogue
from hearts_analysis.cli import app
from hearts_analysis.records.json import write_games

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def corpus(tmp_path):
    games = [with_players(run_game(SHOT_PLAY), "ann", "bob", "cat", "dan"),
             with_players(run_game(STOPPED_PLAY, target=10), "bob", "ann", "dan", "cat"),
             with_players(pass_game(), "cat", "dan", "ann", "bob")]
    path = tmp_path / "games.jsonl"
    write_games(games, path)
    return path


def test_analyze_json_follows_the_contract(corpus):
    done = run("analyze", corpus, "--format", "json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["errors"] == [] and len(data["games"]) == 3
    shot, stopped, passed = data["games"]
    assert shot["game_id"] is None and len(shot["hands"]) == 1
    assert shot["moons"] == [{**shot["moons"][0], "hand": 1, "seat": 0, "outcome": "shot", "stopper": None,
                              "trick": None}]
    moon = stopped["moons"][0]
    assert {k: moon[k] for k in ("hand", "seat", "outcome", "stopper", "trick")} == \
        {"hand": 1, "seat": 0, "outcome": "stopped", "stopper": 3, "trick": 5}
    assert [(p["hand"], p["seat"], p["to"], p["cards"]) for p in passed["passes"]] == \
        [(1, 0, 1, ["QS"]), (1, 1, 2, ["2H"]), (1, 2, 3, ["4S"]), (1, 3, 0, ["8D"])]
    assert passed["passes"][2]["verdicts"] == ["passed a spade below the queen (4S)"]
    assert shot["hands"][0]["points"] == [0, 23, 23, 23] and shot["hands"][0]["points_before_moon"] == [23, 0, 0, 0]


def test_analyze_keeps_going_after_unreadable_input_and_exits_2(corpus, tmp_path):
    lines = corpus.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([lines[0], '{"players": ["a", "b", "c", "d"], "hands": [{"deal": "x"}]}', lines[1]]) + "\n")
    done = run("analyze", bad, tmp_path / "nowhere.json", "--format", "json")
    assert done.exit_code == 2
    data = json.loads(done.stdout)
    assert len(data["games"]) == 2
    assert [e["source"] for e in data["errors"]] == [f"{bad}:2", str(tmp_path / "nowhere.json")]
    assert data["errors"][0]["field"] == "hands[0].deal"
    assert f"{bad}:2: error: hands[0].deal" in done.stderr and "Traceback" not in done.output


def test_analyze_text_tells_the_story(corpus):
    done = run("analyze", corpus)
    assert done.exit_code == 0
    assert "moon: bob ran from trick 4; stopped by cat in trick 5 (QH), costing 6 points" in done.stdout
    assert "moon: ann ran from trick 4 and shot the moon, scored add to others; dan could have stopped it in " \
           "trick 5 with AH" in done.stdout
    assert "pass ann -> bob: 4S  [passed a spade below the queen (4S)]" in done.stdout


@pytest.mark.parametrize("table", ["points", "point_cards", "standings", "moons", "missed_stops", "passes",
                                   "pass_summary", "pass_outcomes"])
def test_analyze_tables_as_csv_and_parquet_agree(corpus, tmp_path, table):
    done = run("analyze", corpus, "--format", "csv", "--table", table)
    assert done.exit_code == 0, done.output
    from_csv = pd.read_csv(io.StringIO(done.stdout))
    assert list(from_csv.columns) == catalogue.columns(table)
    target = tmp_path / f"{table}.parquet"
    assert run("analyze", corpus, "--format", "parquet", "--table", table, "-o", target).exit_code == 0
    from_parquet = pd.read_parquet(target)
    assert list(from_parquet.columns) == catalogue.columns(table) and len(from_parquet) == len(from_csv)


def test_analyze_csv_rows_by_hand(corpus):
    rows = list(csv.DictReader(io.StringIO(run("analyze", corpus, "-f", "csv", "-t", "moons").stdout)))
    assert [(r["player"], r["outcome"], r["stopper"], r["trick"], r["card"], r["cost"]) for r in rows] == [
        ("ann", "shot", "", "", "", "0"), ("bob", "stopped", "3", "5", "QH", "6")]


def test_parquet_needs_an_output_file(corpus):
    done = run("analyze", corpus, "--format", "parquet")
    assert done.exit_code == 2 and "needs --output" in done.stderr


def test_stats_csv_has_one_row_per_player_with_the_contract_columns(corpus):
    done = run("stats", corpus, "--format", "csv")
    assert done.exit_code == 0, done.output
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["player"] for r in rows] == ["ann", "bob", "cat", "dan"]
    for column in ("player", "games", "hands", "wins", "points_per_hand", "qs_taken_pct", "moon_attempts", "moons_shot"):
        assert column in rows[0]
    by = {r["player"]: r for r in rows}
    assert (by["ann"]["games"], by["ann"]["hands"], by["ann"]["moon_attempts"], by["ann"]["moons_shot"]) == ("3", "3", "1", "1")
    assert by["bob"]["moon_attempts_stopped"] == "1" and by["cat"]["others_moons_stopped"] == "1"


def test_stats_output_file_format_from_its_suffix(corpus, tmp_path):
    for suffix in ("csv", "parquet", "json"):
        target = tmp_path / f"stats.{suffix}"
        done = run("stats", corpus, "-o", target)
        assert done.exit_code == 0 and target.exists(), done.output
    assert pd.read_csv(tmp_path / "stats.csv")["player"].tolist() == ["ann", "bob", "cat", "dan"]
    assert pd.read_parquet(tmp_path / "stats.parquet")["player"].tolist() == ["ann", "bob", "cat", "dan"]
    data = json.loads((tmp_path / "stats.json").read_text())
    assert [p["player"] for p in data["players"]] == ["ann", "bob", "cat", "dan"] and data["games"] == 3
    assert not list(tmp_path.glob(".*.tmp"))


def test_stats_other_tables(corpus):
    leaks = run("stats", corpus, "-f", "csv", "-t", "leaks")
    assert leaks.exit_code == 0 and leaks.stdout.splitlines()[0] == ",".join(catalogue.columns("leaks"))
    ratings = run("stats", corpus, "-f", "csv", "-t", "ratings")
    assert ratings.exit_code == 0 and ratings.stdout.splitlines()[0] == ",".join(catalogue.columns("ratings"))
    summary = list(csv.DictReader(io.StringIO(run("stats", corpus, "-f", "csv", "-t", "pass_summary").stdout)))
    assert [(r["player"], r["direction"], r["passes"]) for r in summary] == [
        ("ann", "left", "1"), ("bob", "left", "1"), ("cat", "left", "1"), ("dan", "left", "1")]


def test_stats_text_and_unreadable_input(corpus, tmp_path):
    done = run("stats", corpus, tmp_path / "missing")
    assert done.exit_code == 2
    assert "missing: error: no such file or folder" in done.stderr
    assert done.stdout.splitlines()[0].split()[:3] == ["player", "rating_conservative", "rating"]   # the sort key first
    assert "3 games, 3 hands" in done.stdout


def test_stats_a_failed_write_leaves_nothing_behind(corpus, tmp_path):
    target = tmp_path / "stats.parquet"
    target.write_text("old")
    done = run("stats", corpus, "-o", target, "-t", "players", "-f", "parquet")
    assert done.exit_code == 0 and pd.read_parquet(target)["games"].sum() == 12


def test_help_documents_every_players_column():
    done = run("stats", "--help")
    assert done.exit_code == 0
    text = " ".join(done.stdout.split())
    for stat in catalogue.TABLES["players"].columns:
        assert f"{stat.name} ({stat.unit}):" in text
    assert "hearts stats corpus.parquet -o stats.csv" in text
    assert "hearts analyze game.json --format json" in " ".join(run("analyze", "--help").stdout.split())
