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
