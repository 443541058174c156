"""Hostile logs of other programs: every importer turns a number it cannot hold, a player it cannot seat, a
field too large or text in another encoding into an error naming the file, line and field, and the other
files of a folder are still read (exit 2, with the summary)."""

from __future__ import annotations

import io
import re
import shutil
from functools import lru_cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.interop import formats
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

runner = CliRunner()
FIXTURES = Path(__file__).parent / "fixtures"
HUGE, WIDE = "9" * 5000, "9" * 100
"""Past Python's 4,300 digits of a number read from text; within them, but far beyond 64 bits."""


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@lru_cache(maxsize=None)
def _exported(name: str) -> str:
    games = list(simulate_games(2, Rules.preset("standard"), 4, seed=5))
    out = io.StringIO()
    formats.formats()[name].write(games, out)
    return out.getvalue()


def _once(text: str, pattern: str, replace) -> str:
    """``text`` with the first match of ``pattern`` changed (the test breaks if the log has none)."""
    changed = re.sub(pattern, replace, text, count=1, flags=re.M)
    assert changed != text, pattern
    return changed


def _nth(text: str, pattern: str, n: int, number: str) -> str:
    """``text`` with group 1 of the ``n``-th match of ``pattern`` replaced by ``number``."""
    match = list(re.finditer(pattern, text, re.M))[n]
    return text[:match.start(1)] + number + text[match.end(1):]


def _fixture(path: str) -> str:
    return (FIXTURES / path).read_text()


# (name, file name, the log with the number put in, the field the error must name)
LOGS = [
    ("text hand", "night.txt", lambda n: _once(_exported("text"), r"^hand 2\b", f"hand {n}"), "hand"),
    ("text trick", "night.txt", lambda n: _once(_exported("text"), r"^trick  3:", f"trick {n}:"), "trick"),
    ("text points", "night.txt", lambda n: _once(_exported("text"), r"^points:( +)\d+", rf"points:\g<1>{n}"),
     "points"),
    ("text totals", "night.txt", lambda n: _once(_exported("text"), r"^totals:( +)\d+", rf"totals:\g<1>{n}"),
     "totals"),
    ("killer deal", "KHearts.log", lambda n: _nth(_exported("killer"), r"diamonds +(\d+)[WNES][LRAH]", 2, n),
     "deal number"),
    ("killer score", "KHearts.log", lambda n: _nth(_exported("killer"), r"^W = (\d+)", 0, n), "score"),
    ("killer-json deal", "KHearts.json", lambda n: _nth(_exported("killer-json"), r'"DealNumber": (\d+)', 1, n),
     "DealNumber"),
    ("killer-json score", "KHearts.json", lambda n: _nth(_exported("killer-json"), r'"W": (\d+)', 1, n),
     "Score.W"),
    ("sturtevant points", "alice.play", lambda n: _nth(_fixture("sturtevant/simulated.play"),
                                                       r"^1 0 5 (20)$", 0, n), "hands[0].points[3]"),
    ("sturtevant mask", "alice.play", lambda n: _nth(_fixture("sturtevant/simulated.play"),
                                                     r"^(1410) 144", 0, n), "hands[0].cards[0][0]"),
    ("trend score", "contest.jsonl", lambda n: _nth(_fixture("trend/moon.jsonl"),
                                                    r'"deal_end".*?"dealScore": (\d+)', 0, n), "dealScore"),
    ("turbo score", "events.jsonl", lambda n: _nth(_fixture("turbo/claim.jsonl"), r'"north_score":(-?\d+)', 0, n),
     "north_score"),
    ("league trick", "TrickHistory.csv", lambda n: _nth(_fixture("league/simulated/TrickHistory.csv"),
                                                        r"^Sim Season,1,1,0,4,0,11,7,1,(2)$", 0, n), None),
]
JSON_LOGS = ("killer-json", "trend", "turbo")
"""Logs of JSON, where a number past 308 digits is not JSON to orjson (bad JSON, named by its line)."""


def _bad_line(text: str, number: str) -> int:
    return text[:text.index(number)].count("\n") + 1


def _write(folder: Path, file: str, text: str) -> Path:
    if file == "TrickHistory.csv":     # the league's three files, the trick history changed
        shutil.copytree(FIXTURES / "league" / "simulated", folder, dirs_exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(text)
    return path


@pytest.mark.parametrize("digits", [HUGE, WIDE], ids=["5000 digits", "100 digits"])
@pytest.mark.parametrize("name,file,make,field", LOGS, ids=[log[0] for log in LOGS])
def test_a_number_a_record_cannot_hold_is_an_error_naming_file_line_and_field(tmp_path, name, file, make, field,
                                                                               digits):
    text = make(digits)
    path = _write(tmp_path / "logs", file, text)
    for args in (["validate", path], ["import", path, "-o", tmp_path / "out.parquet"],
                 ["import", path, "-o", tmp_path / "out.jsonl"]):
        done = run(*args)
        assert done.exit_code == 2, (args, done.output)
        assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
        errors = [line for line in done.stderr.splitlines() + done.stdout.splitlines() if ": error: " in line]
        assert errors, done.output
        # the line; for Killer Hearts' JSON (a list of deals) the deal's entry; for the league, its game's row
        line = (r"#\d+" if name.startswith("killer-json") and digits == WIDE else r"\d+" if name.startswith("league")
                else _bad_line(text, digits))
        assert any(re.match(rf"{re.escape(str(path))}:{line}\b", e) for e in errors), (line, errors)
        if digits == WIDE or not name.startswith(JSON_LOGS):
            assert any("within 64 bits" in e and (field is None or field in e) for e in errors), errors
        assert all(len(e) < 400 for e in errors), errors     # the number is shown cut short


def test_one_log_with_a_huge_number_does_not_stop_a_folder(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a-good.txt").write_text(_exported("text"))
    for index, (name, file, make, _) in enumerate(LOGS):
        if file != "TrickHistory.csv":
            _write(folder / f"{index:02d}", file, make(HUGE))
    (folder / "z-good.log").write_text(_exported("killer"))
    for args in (["validate", folder], ["import", folder, "-o", tmp_path / "out.parquet"],
                 ["stats", folder], ["report", folder, "-o", tmp_path / "site"]):
        done = run(*args)
        assert done.exit_code == 2, (args, done.output)
        assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    done = run("validate", folder)
    read, unreadable = map(int, re.search(r"(\d+) games .* (\d+) unreadable records", done.stdout).groups())
    assert unreadable == len(LOGS) - 1, done.stdout     # one game of each bad log; its others and the good logs
    assert len(list(iter_sources([tmp_path / "out.parquet"]))) == read >= 4


# -- text notation: seats ---------------------------------------------------------------------
def test_text_notation_with_eight_players_is_an_error_for_the_game(tmp_path):
    games = list(simulate_games(1, Rules.preset("standard", target=30), 7, seed=2))
    out = io.StringIO()
    formats.formats()["text"].write(games, out)
    seven = out.getvalue()
    eight = _once(seven, r"^(player G: .*)$", r"\g<1>\nplayer H: zed")
    path = tmp_path / "eight.txt"
    path.write_text(seven + "\n" + eight)
    done = run("validate", path)
    assert done.exit_code == 2 and done.exception is None or isinstance(done.exception, SystemExit), done.output
    line = eight.splitlines().index("player H: zed") + len(seven.splitlines()) + 2
    assert f"eight.txt:{line}:8: error: player: at most 7 players" in done.stdout
    assert "1 game" in done.stdout


@pytest.mark.parametrize("players", [5, 6, 7])
def test_text_notation_reads_five_to_seven_players(tmp_path, players):
    games = list(simulate_games(1, Rules.preset("standard", target=30), players, seed=4))
    out = io.StringIO()
    formats.formats()["text"].write(games, out)
    assert "player E:" in out.getvalue()
    [item] = formats.formats()["text"].read(io.StringIO(out.getvalue()), "t.txt")
    assert item.game is not None and item.game.players == games[0].players


# -- a byte order mark, UTF-16 --------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["import"], ["import", "text"]])
def test_a_log_with_a_utf8_byte_order_mark_imports_as_without_it(tmp_path, command):
    text = (FIXTURES / "text" / "club-night.txt").read_bytes()
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + text)
    (tmp_path / "plain.txt").write_bytes(text)
    marked = run(*command, tmp_path / "bom.txt", "-o", tmp_path / "bom.jsonl")
    plain = run(*command, tmp_path / "plain.txt", "-o", tmp_path / "plain.jsonl")
    assert marked.exit_code == plain.exit_code == 0, marked.output
    assert (tmp_path / "bom.jsonl").read_text() == (tmp_path / "plain.jsonl").read_text().replace("plain.txt", "bom.txt")


@pytest.mark.parametrize("command", [["import"], ["import", "text"]])
def test_a_utf16_log_is_said_to_be_utf16(tmp_path, command):
    text = (FIXTURES / "text" / "club-night.txt").read_text()
    (tmp_path / "wide.txt").write_text(text, encoding="utf-16")
    done = run(*command, tmp_path / "wide.txt", "-o", tmp_path / "out.jsonl")
    assert done.exit_code == 2 and "wide.txt: error:" in done.stderr and "UTF-16" in done.stderr, done.output
    assert not (tmp_path / "out.jsonl").exists()
