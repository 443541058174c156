"""Each game counted once: the same game in several files (JSON, the hand-entry notation, JSON Lines, Parquet, a
real log and its derived events) gives the statistics of the folder without the copies, and one warning per copy."""

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from hearts_analysis.records import read_games
from hearts_analysis.records.duplicates import SeenGames, cards_digest
from hearts_analysis.records.json import write_games
from hearts_analysis.records.sources import write_any
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "clean-4p-standard.json"
from test_real_logs import REAL
from incli import hearts  # in this interpreter: these tests are about what the commands print
TREND_LOG = REAL / "trend-lookahead-hearts_logs.log"
TREND_EVENTS = REAL / "derived" / "trend-derived" / "trend-lookahead-hearts_logs.events.jsonl"


def summary(folder: Path, *options: str) -> tuple[dict, str]:
    done = hearts("validate", folder, "--format", "json", *options)
    assert done.returncode in (0, 1, 2) and done.stdout, done.stderr
    document = json.loads(done.stdout)
    assert len(document["games"]) == document["summary"]["games"]   # the document lists each game once too
    return document["summary"], done.stderr


def stats_rows(folder: Path, *options: str) -> tuple[list[dict], str]:
    done = hearts("stats", folder, "--format", "json", *options)
    assert done.returncode in (0, 2), done.stderr
    document = json.loads(done.stdout)
    return document["players"], done.stderr


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning:")]


@pytest.fixture
def folders(tmp_path):
    """``one/`` holds the example game once; ``three/`` holds it as two JSON files and the notation."""
    one, three = tmp_path / "one", tmp_path / "three"
    one.mkdir(), three.mkdir()
    shutil.copy(EXAMPLE, one / "a.json")
    shutil.copy(EXAMPLE, three / "a.json")
    shutil.copy(EXAMPLE, three / "b.json")
    done = hearts("export", "text", EXAMPLE, "-o", three / "clean.txt")
    assert done.returncode == 0, done.stderr
    return one, three


def test_a_folder_with_copies_gives_the_statistics_of_one(folders):
    one, three = folders
    alone, quiet = summary(one)
    repeated, stderr = summary(three)
    assert alone["games"] == repeated["games"] == 1
    assert alone == repeated and not warnings(quiet)
    told = warnings(stderr)
    assert len(told) == 2
    assert any("b.json:1" in line and "a.json:1" in line for line in told)
    assert any("clean.txt:1" in line and "a.json:1" in line for line in told)

    rows, stderr = stats_rows(three)
    assert rows == stats_rows(one)[0] and len(warnings(stderr)) == 2
    alice = next(row for row in rows if row["player"] == "alice")
    assert alice["games"] == 1 and alice["wins"] == 1


def test_keep_duplicates_counts_every_copy(folders):
    _, three = folders
    kept, stderr = summary(three, "--keep-duplicates")
    assert kept["games"] == 3 and not warnings(stderr)
    rows, _ = stats_rows(three, "--keep-duplicates")
    assert next(row for row in rows if row["player"] == "alice")["wins"] == 3


def test_the_report_counts_a_game_once(folders, tmp_path):
    _, three = folders
    done = hearts("report", three, "-o", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert "1 game (15 hands)" in done.stdout + done.stderr
    assert len(warnings(done.stderr)) == 2


def test_same_cards_under_another_id_is_the_same_game(tmp_path):
    games = list(simulate_games(3, Rules.preset("standard", target=30), seed=5))
    renamed = dataclasses.replace(games[1], game_id="renamed")
    write_games(games, tmp_path / "all.jsonl")
    write_games([renamed], tmp_path / "copy.json")
    told = []
    items = list(read_games(tmp_path, warn=told.append))
    assert [item.game.game_id for item in items] == ["sim-5-1", "sim-5-2", "sim-5-3"]
    assert len(told) == 1 and "renamed" in told[0] and "sim-5-2" in told[0] and "all.jsonl:2" in told[0]
    counted, stderr = summary(tmp_path)
    assert counted["games"] == 3 and len(warnings(stderr)) == 1


def test_same_id_with_other_cards_is_a_conflict_kept_and_reported(tmp_path):
    first, second = simulate_games(2, Rules.preset("standard", target=30), seed=6)
    write_games([first], tmp_path / "a.json")
    write_games([dataclasses.replace(second, game_id=first.game_id)], tmp_path / "b.json")
    counted, stderr = summary(tmp_path)
    assert counted["games"] == 2
    [line] = warnings(stderr)
    assert "b.json:1" in line and "a.json:1" in line and "both kept" in line


def test_the_fast_path_finds_copies_across_json_lines_and_parquet(tmp_path):
    games = list(simulate_games(40, Rules.preset("standard", target=30), seed=7))
    copies, alone = tmp_path / "copies", tmp_path / "alone"
    copies.mkdir(), alone.mkdir()
    write_any(games, copies / "a.jsonl")
    write_any(games[10:], copies / "b.parquet")
    write_any(games[4:5], copies / "c.json")
    write_any(games, alone / "a.jsonl")
    for engine in ("fast", "reference"):
        counted, stderr = summary(copies, "--engine", engine)
        assert counted == summary(alone, "--engine", engine)[0]
        assert counted["games"] == 40 and len(warnings(stderr)) == 31
    for workers in ("1", "2"):
        rows, stderr = stats_rows(copies, "--workers", workers)
        assert rows == stats_rows(alone)[0] and len(warnings(stderr)) == 31


def test_a_game_hashes_alike_in_every_format(tmp_path):
    """The cards hash of the columnar blocks equals that of the records (else copies across formats are missed)."""
    from hearts_analysis.fastpath.decode import Judgements, decode_unit, open_units
    from hearts_analysis.records.duplicates import block_digests
    games = list(simulate_games(6, Rules.preset("omnibus", target=40), seed=8))
    write_any(games, tmp_path / "c.parquet")
    block = decode_unit(next(open_units(tmp_path / "c.parquet")), Judgements(None))
    assert [cards for _, _, cards in block_digests(block, 0, block.games)] == [cards_digest(g) for g in games]
    seen = SeenGames()
    assert all(seen.check(game, str(i)) is None for i, game in enumerate(games))   # distinct games, distinct hashes


@pytest.mark.skipif(not (TREND_LOG.is_file() and TREND_EVENTS.is_file()), reason="the real logs are not here")
def test_a_real_log_beside_its_derived_events_is_one_game(tmp_path):
    shutil.copy(TREND_LOG, tmp_path)
    shutil.copy(TREND_EVENTS, tmp_path)
    counted, stderr = summary(tmp_path)
    alone, _ = summary(TREND_LOG)
    assert counted["games"] == alone["games"] >= 1
    [line] = warnings(stderr)
    assert TREND_LOG.name in line and TREND_EVENTS.name in line
