"""Real logs, written by other people's programs: imported as a new user would, and audited.

The logs are not part of the repository (several carry no licence): they sit in the shared folder
beside it (``shared/real-logs``, described by its ``SOURCES.md``), or where ``HEARTS_REAL_LOGS``
names. Every test skips when they are absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app

REAL = Path(os.environ.get("HEARTS_REAL_LOGS") or Path(__file__).resolve().parents[2] / "shared" / "real-logs")
TREND = "trend-lookahead-hearts_logs.log"
TREND_EARLIER = "trend-lookahead-hearts_logs.f30dcde.log"
DERIVED = "derived/trend-derived"
LEAGUE = "derived/hearts-league"
XINXIN = ("openspiel-xinxin-train.txt", "openspiel-xinxin-test.txt")
PLAYTHROUGH = "openspiel-playthrough-hearts.txt"

pytestmark = pytest.mark.skipif(not (REAL / "SOURCES.md").is_file(), reason="the real logs are not beside the repository")


def log(name: str) -> Path:
    path = REAL / name
    if not path.exists():
        pytest.skip(f"{name} is not among the real logs")
    return path


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def imported(tmp_path: Path, *args) -> tuple[object, list[dict]]:
    out = tmp_path / "games.jsonl"
    result = run("import", *args, "-o", out)
    games = [orjson.loads(line) for line in out.read_bytes().splitlines()] if out.exists() else []
    return result, games


def audit(tmp_path: Path) -> dict:
    result = run("validate", tmp_path / "games.jsonl", "--format", "json")
    return orjson.loads(result.stdout)


@pytest.mark.parametrize("name", [TREND, f"{DERIVED}/trend-lookahead-hearts_logs.events.jsonl"])
def test_the_complete_trend_game_validates_as_its_server_scored_it(tmp_path, name):
    result, games = imported(tmp_path, log(name))
    assert len(games) == 1 and len(games[0]["hands"]) == 4, result.output
    assert "deal 1: cut off after 4 play(s)" in result.output  # the second game: only its first deal, cut
    report = audit(tmp_path)
    assert report["summary"]["violations"] == 0, report["summary"]["by_code"]
    (game,) = report["games"]
    assert game["complete"] and game["hands"][3]["points"] == [0, 0, 0, -312]  # the server's +312
    assert game["hands"][3]["moon"] == {"seat": 3, "choice": "shooter_gains_fourfold"}
    assert game["totals"] == [16, 21, 18, -236] and game["winners"] == [3]


def test_the_trend_robot_eating_the_queen_is_no_run_and_its_shot_is(tmp_path):
    """Hand 1: the robot, passed QS KS AS, leads AS and KS (sure winners) and then QS, taking only discards:
    no point taken on purpose, so no run. Hand 4: it leads KH and QH over lower hearts and shoots."""
    imported(tmp_path, log(TREND))
    report = orjson.loads(run("analyze", tmp_path / "games.jsonl", "--format", "json").stdout)
    (game,) = report["games"]
    moons = {moon["hand"]: moon for moon in game["moons"]}
    assert set(moons) == {4}, moons
    assert (moons[4]["seat"], moons[4]["outcome"], moons[4]["start_trick"]) == (3, "shot", 6)
    text = run("analyze", tmp_path / "games.jsonl").stdout
    assert "ran from trick 4; stopped" not in text and "ran from trick 6 and shot the moon" in text


@pytest.mark.parametrize("name", [TREND_EARLIER, f"{DERIVED}/trend-lookahead-hearts_logs.f30dcde.events.jsonl"])
def test_the_earlier_trend_log_keeps_its_three_complete_deals(tmp_path, name):
    result, games = imported(tmp_path, log(name))
    assert result.exit_code == 2 and len(games) == 1 and len(games[0]["hands"]) == 3, result.output
    assert "deal 4: cut off after 44 play(s)" in result.output and "the 3 before it are kept" in result.output
    assert "deal 1: cut off after 12 play(s)" in result.output  # the second game has no other deal
    assert audit(tmp_path)["summary"]["violations"] == 0


@pytest.mark.parametrize("name", XINXIN)
def test_openspiels_xinxin_histories_are_recognised_and_clean(tmp_path, name):
    result, games = imported(tmp_path, log(name))
    assert result.exit_code == 0 and len(games) == (20 if "train" in name else 5), result.output
    summary = audit(tmp_path)["summary"]
    assert (summary["violations"], summary["errors"]) == (0, 0)


def test_openspiels_playthrough_is_read_from_its_last_history(tmp_path):
    for args in ((log(PLAYTHROUGH),), ("openspiel", log(PLAYTHROUGH))):
        result, games = imported(tmp_path, *args)
        assert result.exit_code == 0 and len(games) == 1, result.output
        (hand,) = games[0]["hands"]
        assert len(hand["plays"]) == 52 and hand["points"] == [14, 4, 1, 7]  # 26 less OpenSpiel's returns
        assert audit(tmp_path)["summary"]["violations"] == 0


@pytest.mark.parametrize("given", ["TrickHistory.csv", "RoundHistory.csv", ""])
def test_the_hearts_league_programs_output_is_recognised_from_either_file(tmp_path, given):
    result, games = imported(tmp_path, log(f"{LEAGUE}/{given}" if given else LEAGUE))
    assert result.exit_code == 0 and len(games) == 24, result.output
    assert sum(len(g["hands"]) for g in games) == 282 and audit(tmp_path)["summary"]["violations"] == 0


@pytest.mark.parametrize("args", [("nwnorris-dataserver-hearts_1601865298274.csv",),
                                  ("nwnorris-dataserver-lastrun.log",), ("trend", "nwnorris-dataserver-lastrun.log"),
                                  ("league", "openspiel-xinxin-test.txt")])
def test_an_import_that_reads_no_game_leaves_an_existing_output_as_it_was(tmp_path, args):
    out = tmp_path / "games.jsonl"
    out.write_bytes(b'{"kept": true}\n')
    *fmt, name = args
    result = run("import", *fmt, log(name), "-o", out)
    assert result.exit_code == 2 and "nothing written" in result.output
    assert out.read_bytes() == b'{"kept": true}\n'
