"""Untrusted names stay inert in every output form: a terminal sees escapes, a file or a pipe the exact data."""

from __future__ import annotations

import csv
import io
import re

import orjson
import pytest
from hypothesis import given, settings, strategies as st

from hearts_analysis.interop import text_notation
from hearts_analysis.records import game_to_dict
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game
from incli import hearts
from terminal import run_in_terminal

NAMES = ["red\x1b[31mred", "t\x1b]0;pwned\x07", "rlo\u202eevil", "nul\x00x"]
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""What may not reach a terminal raw: controls (but the line ends), DEL, C1, the bidi embeddings and isolates."""

COMMANDS = [("score", "csv"), ("score", "json"), ("analyze", "csv"), ("analyze", "json"), ("stats", "csv"),
            ("stats", "json"), ("validate", "json")]


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("names") / "game.json"
    game = simulate_game(Rules.preset("standard", target=30), NAMES, seed=1)
    path.write_bytes(orjson.dumps(game_to_dict(game)))
    return path


def _piped(*args: str) -> bytes:
    """What a command writes to a standard output that is not a terminal (run in this interpreter: tests/incli.py)."""
    done = hearts(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout_bytes


def _names_in(form: str, data: bytes) -> set[str]:
    if form == "json":
        found: set[str] = set()

        def walk(value):
            if isinstance(value, str):
                found.add(value)
            elif isinstance(value, dict):
                list(map(walk, value.values()))
            elif isinstance(value, list):
                list(map(walk, value))
        walk(orjson.loads(data))
        return found
    return {cell for row in csv.reader(io.StringIO(data.decode(), newline="")) for cell in row}


@pytest.mark.parametrize("command, form", COMMANDS)
def test_a_terminal_sees_no_raw_control_or_bidi_character(game_file, command, form):
    code, shown = run_in_terminal(command, str(game_file), "--format", form, stdout_only=True)
    assert code == 0
    assert RAW.findall(shown) == []
    assert "\x1b" not in shown and "\x07" not in shown and "\x00" not in shown
    assert ("\\u001b[31mred" if form == "json" else "\\x1b[31mred") in shown
    assert ("\\u202e" in shown) and "pwned" in shown


@pytest.mark.parametrize("command, form", COMMANDS)
def test_a_pipe_gets_the_names_byte_for_byte(game_file, command, form):
    data = _piped(command, str(game_file), "--format", form)
    assert set(NAMES) <= _names_in(form, data)


def test_json_on_a_terminal_is_still_the_same_json(game_file):
    code, shown = run_in_terminal("validate", str(game_file), "--format", "json", stdout_only=True)
    assert orjson.loads(shown) == orjson.loads(_piped("validate", str(game_file), "--format", "json"))


def test_review_csv_and_json_on_a_terminal(game_file):
    for form in ("csv", "json"):
        code, shown = run_in_terminal("review", str(game_file), "--format", form, "--samples", "10", "--hand", "1",
                                      "--no-cache", stdout_only=True)
        assert code == 0
        assert RAW.findall(shown) == [] and "pwned" in shown


def test_export_to_a_terminal_and_to_a_pipe(game_file):
    code, shown = run_in_terminal("export", "text", str(game_file), "-o", "-", stdout_only=True)
    assert code == 0 and RAW.findall(shown) == []
    back = next(text_notation.read(io.StringIO(_piped("export", "text", str(game_file), "-o", "-").decode()), "x"))
    assert list(back.game.players) == NAMES


def test_a_notation_file_of_odd_names_is_recognised(game_file, tmp_path):
    out = tmp_path / "one.txt"
    assert hearts("export", "text", str(game_file), "-o", str(out)).returncode == 0
    assert b"\x00" not in out.read_bytes() and b"\x1b" not in out.read_bytes()
    done = hearts("import", str(out), "-o", str(tmp_path / "b.jsonl"))
    assert done.returncode == 0, done.stderr
    assert orjson.loads((tmp_path / "b.jsonl").read_bytes())["players"] == NAMES


def test_a_file_of_nul_bytes_is_called_binary_not_utf16(tmp_path):
    for name in ("zeros.json", "zeros.txt"):
        (tmp_path / name).write_bytes(bytes(300))
    done = hearts("validate", str(tmp_path / "zeros.json"))
    assert "NUL bytes: binary data, not text" in done.stdout and "UTF-16" not in done.stdout
    done = hearts("import", str(tmp_path / "zeros.txt"), "-o", str(tmp_path / "z.jsonl"))
    assert "NUL bytes: binary data, not text" in done.stderr and "UTF-16" not in done.stderr


_BASE = game_to_dict(simulate_game(Rules.preset("standard", target=30), ["a", "b", "c", "d"], seed=3))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=12)
                .filter(lambda name: name.strip()), min_size=4, max_size=4, unique=True))
def test_any_names_come_back_from_the_notation(names):
    text = text_notation.game_text({**_BASE, "players": names})
    assert RAW.findall(text) == []
    back = next(text_notation.read(io.StringIO(text), "names.txt"))
    assert back.error is None, back.error
    assert list(back.game.players) == names
