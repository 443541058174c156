"""Names and ids from logs are hostile: CSV cells that are formulas, terminal escapes, newlines that forge
lines, values echoed without bound, Python reprs and misleading messages."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from functools import lru_cache

import pytest
from typer.testing import CliRunner

from faults import clean_games, write_with_unreadable_games
from hearts_analysis.cli import app
from hearts_analysis.records.json import game_to_dict
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games
from hearts_analysis.text import csv_safe, shown, terminal_safe

runner = CliRunner()

FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\tTAB", "\rCR"]
ESCAPES = ["\x1b[31mred\x1b[0m", "\x1b]0;owned\x07", "a\rb", "ok\nforged.jsonl:1: hand 1: revoke: forged",
           "\u202eevil", "bell\x07\x9b"]
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]")
"""Control characters a text output must never carry raw (LF is the output's own line end)."""
PYTHON_REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|(?<![A-Za-z])'[^']*'")
"""Python's spelling of values (JSON says null, true, false, "x"); an apostrophe inside a word is English."""


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@lru_cache(maxsize=None)
def _game_text(seed: int) -> str:
    return json.dumps(game_to_dict(next(simulate_games(1, Rules.preset("standard", target=30), 4, seed=seed))))


def corpus(tmp_path, names: list[str], games: int = 2, spoil: bool = False):
    """JSON Lines of ``games`` games, the players named from ``names`` (four a game); ``spoil``: each game's
    first recorded points are off by one, so that validate names a player in a violation."""
    objects = []
    for g in range(games):
        obj = json.loads(_game_text(g))
        obj["players"] = [names[(4 * g + s) % len(names)] + ("" if 4 * g + s < len(names) else f"{g}{s}")
                          for s in range(4)]
        obj["game_id"] = names[g % len(names)]
        if spoil:
            obj["hands"][0]["points"][1] += 1
        objects.append(obj)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objects))
    return path


# -- CSV -----------------------------------------------------------------------------------------------
def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def _check_csv(text: str, names: list[str]) -> None:
    rows = _cells(text)
    width = len(rows[0])
    assert all(len(row) == width for row in rows), "a cell split its row"
    cells = [cell for row in rows for cell in row]
    assert not [c for c in cells if c.startswith(("=", "+", "@", "\t", "\r")) or re.match(r"-\D", c)]
    for name in names:
        assert "'" + name in cells


@pytest.mark.parametrize("command", [["stats", "--format", "csv"], ["score", "--format", "csv"],
                                     ["analyze", "--format", "csv", "--table", "points"],
                                     ["stats", "--format", "csv", "--table", "leaks"]])
def test_csv_cells_that_start_a_formula_are_defused(tmp_path, command):
    path = corpus(tmp_path, FORMULAS)
    done = run(*command, path)
    assert done.exit_code == 0, done.output
    rows = _cells(done.stdout)
    _check_csv(done.stdout, FORMULAS if command[0] != "stats" or "leaks" not in command else [])
    assert len(rows) > 1


def test_review_csv_cells_are_defused(tmp_path):
    path = corpus(tmp_path, FORMULAS, games=1)
    done = run("review", path, "--summary", "--format", "csv", "--samples", "10")
    assert done.exit_code == 0, done.output
    _check_csv(done.stdout, FORMULAS[:4])


def test_csv_safe_and_its_writer():
    assert [csv_safe(c) for c in ["=1", "+1", "-1", "@a", "\tx", "\rx", "ok", 5, None]] == [
        "'=1", "'+1", "'-1", "'@a", "'\tx", "'\rx", "ok", 5, None]


# -- terminal ------------------------------------------------------------------------------------------
def _check_terminal(text: str) -> None:
    assert not RAW.search(text), repr(RAW.search(text))
    assert not any(line.startswith("forged.jsonl") for line in text.splitlines())


@pytest.mark.parametrize("command", [["validate"], ["score"], ["analyze"], ["stats"], ["rules", "--infer"],
                                     ["review", "--samples", "10", "--all"]])
def test_names_cannot_drive_the_terminal_or_forge_a_line(tmp_path, command):
    path = corpus(tmp_path, ESCAPES, games=2 if command[0] != "review" else 1, spoil=True)
    done = run(*command, path)
    assert done.exit_code in (0, 1), done.output
    _check_terminal(done.stdout)
    _check_terminal(done.stderr)
    if command[0] in ("validate", "score", "analyze", "stats"):
        assert "\\x1b[31mred" in done.stdout or "\\x1b]0;owned" in done.stdout


def test_an_error_line_shows_escapes_of_what_the_record_holds(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"players": ["a", "b", "c", "\x1b]0;x\x07"], "rules": {"preset": "\x1b[2J"},
                                "hands": []}) + "\n")
    done = run("validate", path)
    assert done.exit_code == 2
    _check_terminal(done.stdout + done.stderr)


def test_terminal_safe_keeps_text_and_escapes_controls():
    assert terminal_safe("Zoë ♠ 10") == "Zoë ♠ 10"
    assert terminal_safe("a\x1b[0m\r\n\t\u202e\udcff") == "a\\x1b[0m\\r\\n\\t\\u202e\\udcff"


# -- unbounded echoes ----------------------------------------------------------------------------------
def _one_game_with(tmp_path, change) -> object:
    obj = json.loads(_game_text(0))
    change(obj)
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(obj) + "\n" + _game_text(1) + "\n")
    return path


HUGE = 2_000_000


@pytest.mark.parametrize("change", [
    lambda o: o["hands"][0]["deal"][1].__setitem__(0, "Q" * HUGE),
    lambda o: o["hands"][0]["plays"].__setitem__(3, [1, "S" * HUGE]),
    lambda o: o.__setitem__("rules", {"k" * HUGE: 1}),
    lambda o: o.__setitem__("rules", {"preset": "standard", "target": "9" * HUGE}),
    lambda o: o.__setitem__("rules", {"preset": "p" * HUGE}),
    lambda o: o.__setitem__("rules", {"pass_cycle": ["d" * HUGE]}),
    lambda o: o["hands"][0].__setitem__("moon", "m" * HUGE),
], ids=["deal-card", "play-card", "rule-key", "rule-value", "preset", "direction", "moon"])
def test_echoed_values_are_cut(tmp_path, change):
    path = _one_game_with(tmp_path, change)
    done = run("validate", path)
    assert done.exit_code == 2, done.output[:500]
    error = next(line for line in done.stdout.splitlines() if ": error: " in line)
    assert len(error) < 500 and "characters)" in error, error[:500]
    assert "1 game " in done.stdout
    report = run("report", path, "--audit", "--js-beside", "-o", tmp_path / "audit.html")
    assert report.exit_code == 2
    assert (tmp_path / "audit.html").stat().st_size < HUGE // 2


def test_openspiel_actions_are_echoed_cut(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text("0 " + "7" * HUGE + "x\n")
    done = run("import", "openspiel", path, "-o", tmp_path / "g.jsonl")
    assert done.exit_code == 2 and max(map(len, done.stderr.splitlines())) < 400


def test_shown_speaks_json_and_is_cut():
    assert [shown(v) for v in (None, True, False, "x", 3, 2.5, [1, None], {"a": None})] == [
        "null", "true", "false", '"x"', "3", "2.5", "[1,null]", '{"a":null}']
    assert shown(2 ** 70) == str(2 ** 70)
    assert len(shown("x" * 10 ** 6)) < 80 and shown("x" * 10 ** 6).endswith("(1,000,002 characters)")
    assert shown("\x1b]0;t\x07") == '"\\u001b]0;t\\u0007"'


# -- Python reprs --------------------------------------------------------------------------------------
@pytest.mark.parametrize("change, expected", [
    (lambda o: o["players"].__setitem__(2, None), "players[2]: expected a non-empty name, got null"),
    (lambda o: o.__setitem__("complete", "yes"), 'complete: expected true or false, got "yes"'),
    (lambda o: o.__setitem__("rules", {"preset": "standard", "target": True}),
     "rules.target: expected a whole number, got true"),
    (lambda o: o.__setitem__("rules", {"preset": None}), "rules.preset: unknown preset null"),
    (lambda o: o["hands"][0]["deal"][1].__setitem__(0, "1X"), 'unknown card "1X" (expected rank 2-9'),
    (lambda o: o["hands"][0].__setitem__("pass_direction", "up"), 'unknown direction "up"'),
    (lambda o: o.__setitem__("format", None), 'format: expected "hearts-game/1", got null'),
], ids=["null-name", "string-flag", "true-number", "null-preset", "card", "direction", "format"])
def test_messages_speak_json(tmp_path, change, expected):
    done = run("validate", _one_game_with(tmp_path, change))
    assert done.exit_code == 2
    error = next(line for line in done.stdout.splitlines() if ": error: " in line)
    assert expected in error, error
    assert not PYTHON_REPR.search(error.split(": error: ", 1)[1]), error


def test_parquet_cell_messages_speak_json(tmp_path):
    path = write_with_unreadable_games(clean_games(), tmp_path / "edited.parquet", paired=True)
    done = run("validate", path)
    errors = [line.split(": error: ", 1)[1] for line in done.stdout.splitlines() if ": error: " in line]
    assert 'unknown card "XX"' in " ".join(errors) and 'unknown preset "nonsense"' in " ".join(errors)
    assert not [e for e in errors if PYTHON_REPR.search(e)]


# -- misleading messages -------------------------------------------------------------------------------
def test_a_cut_off_line_is_said_to_end_early(tmp_path):
    path = tmp_path / "cut.jsonl"
    path.write_text(_game_text(0) + "\n" + _game_text(1)[:500] + "\n")
    for command in (["validate"], ["validate", "--engine", "reference"], ["convert"]):
        done = run(*command, path, *([tmp_path / "out.parquet"] if command == ["convert"] else []))
        lines = [line for line in (done.stdout + done.stderr).splitlines() if ": error: " in line]
        assert len(lines) == 1 and lines[0].startswith(f"{path}:2: error:") and "ends early" in lines[0], lines


def test_a_number_beyond_64_bits_is_shown_as_written(tmp_path):
    path = _one_game_with(tmp_path, lambda o: o["hands"][0]["points"].__setitem__(1, "BIG"))
    path.write_text(path.read_text().replace('"BIG"', "18446744073709551617", 1))
    done = run("validate", path)
    assert "hands[0].points[1]: expected a whole number within 64 bits, got 18446744073709551617" in done.stdout
    assert "e+19" not in done.stdout


@pytest.mark.parametrize("suffix", ["jsonl", "json"])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_utf16_file_is_named_as_such(tmp_path, suffix, encoding):
    path = tmp_path / f"wide.{suffix}"
    path.write_bytes((_game_text(0) + "\n").encode(encoding))
    done = run("validate", path)
    assert done.exit_code == 2
    assert "UTF-16 or UTF-32, not UTF-8: save the file as UTF-8" in done.stdout
    assert "surrogates" not in done.stdout


def test_os_errors_name_the_path_in_words(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    done = run("convert", corpus(tmp_path, ["a", "b", "c", "d"]), blocker / "out.jsonl")
    assert done.exit_code == 2
    assert "[Errno" not in done.stderr and f"{blocker / 'out.jsonl'}: " in done.stderr
