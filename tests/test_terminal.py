"""The command line at a terminal: progress never shares a line with output; colour only there."""

import re
from pathlib import Path

import pytest

from terminal import ANSI, run_in_terminal, visible_pieces

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SPINNER = re.compile(r"^[\u2800-\u28ff] (validating|counting|analysing|reviewing): .* \d+:\d\d:\d\d\s*$")


def progress_pieces(output: str, label: str) -> list[str]:
    return [piece for piece in visible_pieces(output) if f"{label}:" in piece]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_validate_output_is_never_glued_to_a_spinner_frame(fmt):
    code, output = run_in_terminal("validate", str(EXAMPLES / "every-violation.jsonl"), "--format", fmt)
    assert code == 1
    frames = progress_pieces(output, "validating")
    assert frames, "the progress display shows on a terminal"
    for piece in frames:
        assert SPINNER.match(piece), f"output glued to the progress line: {piece!r}"
    pieces = visible_pieces(output)
    if fmt == "text":
        assert any(piece.startswith(f"{EXAMPLES / 'every-violation.jsonl'}:1: hand 1 trick 1 seat 2: ")
                   for piece in pieces)
        assert pieces[-1].startswith("2 games (16 hands) checked")


def test_stats_output_and_errors_are_never_glued_to_a_spinner_frame(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text((EXAMPLES / "every-violation.jsonl").read_text() + "{not json\n")
    code, output = run_in_terminal("stats", str(bad))
    assert code == 2
    for piece in progress_pieces(output, "counting"):
        assert SPINNER.match(piece), f"output glued to the progress line: {piece!r}"
    assert any(piece.startswith(f"{bad}:3: error:") for piece in visible_pieces(output))


def test_violation_codes_and_seats_are_coloured_on_a_terminal_only():
    every = str(EXAMPLES / "every-violation.jsonl")
    _, coloured = run_in_terminal("validate", every)
    revoke = next(line for line in coloured.split("\n") if "revoke" in line)
    assert "\x1b[1;31mrevoke\x1b[0m" in revoke and "\x1b[36mseat 0\x1b[0m" in revoke
    _, uncoloured = run_in_terminal("validate", every, env={"NO_COLOR": "1"})
    assert "\x1b[1;31m" not in uncoloured and "\x1b[36m" not in uncoloured
    assert ": revoke: " in uncoloured
    from typer.testing import CliRunner

    from hearts_analysis.cli import app
    piped = CliRunner().invoke(app, ["validate", every]).output
    assert ": revoke: " in piped and "\x1b" not in piped


def test_score_totals_are_bold_on_a_terminal():
    _, output = run_in_terminal("score", str(EXAMPLES / "omnibus.json"))
    assert any(line.startswith("\x1b[1mtotal ") for line in output.split("\n"))


def test_stats_fits_the_terminal_and_says_what_it_left_out():
    code, output = run_in_terminal("stats", str(EXAMPLES), columns=80)
    assert code == 0
    pieces = visible_pieces(output)
    header = next(piece for piece in pieces if piece.lstrip().startswith("player"))
    assert len(header.rstrip()) <= 80 and "games" in header
    table = pieces[pieces.index(header):pieces.index(header) + 6]
    assert all(len(piece.rstrip()) <= 80 for piece in table)
    note = next(piece for piece in pieces if piece.startswith("left out to fit the terminal:"))
    assert "violations_per_100_hands" in note and "--columns" in note
    _, wide = run_in_terminal("stats", str(EXAMPLES), columns=250)
    assert not any(piece.startswith("left out") for piece in visible_pieces(wide))


def test_stats_columns_chooses_the_columns():
    from typer.testing import CliRunner

    from hearts_analysis.cli import app
    result = CliRunner().invoke(app, ["stats", str(EXAMPLES), "--columns", "player,games,win_pct"])
    assert result.exit_code == 0
    assert result.output.split("\n")[0].split() == ["player", "games", "win_pct"]
    bad = CliRunner().invoke(app, ["stats", str(EXAMPLES), "--columns", "player,wins_pct"])
    assert bad.exit_code == 2 and "wins_pct" in bad.output
