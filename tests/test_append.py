"""A corpus that grows: ``hearts convert --append`` adds part files, never rewrites, skips repeated game ids;
the layout document's DuckDB queries run on the grown folder."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.analysis.stats import tally_games, tally_paths
from hearts_analysis.cli import app
from hearts_analysis.records.append import append_games, corpus_game_ids
from hearts_analysis.records.json import write_games
from hearts_analysis.records.parquet import write_parquet
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import make_pool, simulate_pool

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
POOL = make_pool(8, {"heuristic": 6, "random": 2}, seed=3)
GAMES = list(simulate_pool(24, Rules.preset("standard", target=40), POOL, 4, seed=3))


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_appending_adds_part_files_and_skips_games_already_there(tmp_path):
    first, second = tmp_path / "week1.jsonl", tmp_path / "week2.jsonl"
    write_games(GAMES[:10], first)
    write_games(GAMES[8:24], second)                 # games 9 and 10 again, then 14 new ones
    club = tmp_path / "club"
    done = runner.invoke(app, ["convert", str(first), str(club), "--append"])
    assert done.exit_code == 0, done.output
    before = snapshot(club)
    done = runner.invoke(app, ["convert", str(second), str(club), "--append", "--verbose"])
    assert done.exit_code == 0, done.output
    assert f"{second}:1: skipped: game_id 'sim-3-9' is already in {club}" in done.stderr
    assert f"{second}:2: skipped: game_id 'sim-3-10'" in done.stderr
    assert "appended 14 games" in done.stderr and "skipped 2 already there" in done.stderr
    after = snapshot(club)
    assert {name: after[name] for name in before} == before       # nothing there was rewritten
    assert sorted(after) == ["part-00000.parquet", "part-00001.parquet"]
    assert [item.game for item in iter_sources([club])] == GAMES
    assert corpus_game_ids(club) == {g.game_id for g in GAMES}
    # the statistics and the ratings of the grown folder are those of the whole corpus
    grown, whole = tally_paths([club]), tally_games(GAMES)
    assert grown.player_rows() == whole.player_rows() and grown.rating_rows() == whole.rating_rows()


def test_a_second_append_of_the_same_games_says_so_in_one_line(tmp_path):
    week = tmp_path / "week.jsonl"
    write_games(GAMES[:12], week)
    club = tmp_path / "club"
    assert runner.invoke(app, ["convert", str(week), str(club), "--append"]).exit_code == 0
    again = runner.invoke(app, ["convert", str(week), str(club), "--append"])
    assert again.exit_code == 0
    assert again.stderr.splitlines() == [f"appended 0 games (0 hands) to {club}; skipped 12 already there "
                                         "(--verbose names them)"]
    named = runner.invoke(app, ["convert", str(week), str(club), "--append", "-v"])
    assert len([line for line in named.stderr.splitlines() if ": skipped: game_id" in line]) == 12


def test_repeats_within_one_input_are_skipped_and_an_empty_append_adds_no_file(tmp_path):
    club = tmp_path / "club"
    done = append_games(GAMES[:3] + GAMES[:1], club)
    assert (done.games, done.skipped, done.parts) == (3, 1, ("part-00000.parquet",))
    again = append_games(GAMES[:3], club)
    assert (again.games, again.skipped, again.parts) == (0, 3, ())
    assert sorted(p.name for p in club.iterdir()) == ["part-00000.parquet"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]   # no staging left behind


def test_a_folder_from_convert_and_json_files_in_it_count_as_there(tmp_path):
    club = tmp_path / "club"
    write_parquet(GAMES[:6], club, partition_size=20)            # several parts, written by convert
    write_games(GAMES[6:8], club / "extra.jsonl")
    done = append_games(GAMES[:12], club, partition_size=30)
    assert (done.games, done.skipped) == (4, 8)
    parts = sorted(p.name for p in club.glob("part-*.parquet"))
    assert parts[-len(done.parts):] == list(done.parts) and len(set(parts)) == len(parts)
    assert sorted(item.game.game_id for item in iter_sources([club])) == sorted(g.game_id for g in GAMES[:12])


def test_appending_to_a_file_or_to_itself_is_refused_with_exit_2(tmp_path):
    corpus, new = tmp_path / "corpus.parquet", tmp_path / "new.jsonl"
    write_parquet(GAMES[:2], corpus)
    write_games(GAMES[2:4], new)
    done = runner.invoke(app, ["convert", str(new), str(corpus), "--append"])
    assert done.exit_code == 2 and "convert this file into one first" in done.stderr
    club = tmp_path / "club"
    append_games(GAMES[:2], club)
    done = runner.invoke(app, ["convert", str(club / "part-00000.parquet"), str(club), "--append"])
    assert done.exit_code == 2 and "cannot be appended to itself" in done.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"players": 3}\n')
    write_games(GAMES[2:3], tmp_path / "good.jsonl")
    done = runner.invoke(app, ["convert", str(bad), str(tmp_path / "good.jsonl"), str(club), "--append"])
    assert done.exit_code == 2 and f"{bad}:1: error" in done.stderr and "appended 1 game " in done.stderr


def test_the_layout_documents_duckdb_queries_on_a_grown_folder(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    club = tmp_path / "club"
    append_games(GAMES[:10], club)
    append_games(GAMES[5:24], club)
    document = (ROOT / "schemas" / "parquet-layout.md").read_text()
    sql = document.split("## A corpus that grows", 1)[1].split("```sql", 1)[1].split("```", 1)[0]
    queries = [q.strip().replace("'club/*.parquet'", f"'{club}/*.parquet'") for q in sql.split(";") if q.strip()]
    assert len(queries) == 2
    connection = duckdb.connect()
    games, players = (connection.sql(query).fetchall() for query in queries)
    assert [(game_id, list(names), when) for game_id, names, when in games] == \
        [(g.game_id, list(g.players), g.played_at) for g in GAMES]
    expected = tally_games(GAMES).players
    assert {name: (hands, points) for name, hands, points in players} == \
        {name: (c["hands"], c["points"]) for name, c in expected.items()}
