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


def test_score_totals_are_bold_on_a_terminal_and_the_bold_ends_with_them():
    _, output = run_in_terminal("score", str(EXAMPLES / "omnibus.json"))
    lines = output.split("\n")
    total = next(k for k, line in enumerate(lines) if line.startswith("\x1b[1mtotal "))
    assert lines[total].rstrip().endswith("\x1b[0m")
    winner = lines[total + 1]
    assert winner.startswith("winner: ") and "\x1b[1" not in winner   # plain label, the name in green
    assert "\x1b[32mcarol\x1b[0m" in winner


def test_stats_shows_the_rating_it_sorts_by_keeps_leaks_and_wraps_leak_lines_at_words(tmp_path):
    from hearts_analysis.records.json import write_games
    from hearts_analysis.rules import Rules
    from hearts_analysis.simulate import make_pool, parse_mix, simulate_pool
    pool = make_pool(4, parse_mix("heuristic=3,random=1"), seed=1)
    club = tmp_path / "club.jsonl"
    write_games(simulate_pool(20, Rules.preset("standard", target=50), pool, players=4, seed=1), club)
    code, output = run_in_terminal("stats", str(club), "--all-leaks", columns=120)
    assert code == 0
    lines = [ANSI.sub("", line).rstrip("\r") for line in output.split("\n")]
    lines = [line.split("\r")[-1] for line in lines]
    header = next(line for line in lines if line.lstrip().startswith("player"))
    assert "rating_conservative" in header.split() and "leaks" in header.split()
    assert all(len(line) <= 120 for line in lines)
    leak_lines = [k for k, line in enumerate(lines) if line.startswith("leak: ")]
    assert leak_lines and any(lines[k + 1].startswith("    ") for k in leak_lines)
    # a wrapped sentence, put back together, is the sentence: no word was cut
    first = leak_lines[0]
    sentence = " ".join([lines[first]] + [line.strip() for line in lines[first + 1:]
                                          if line.startswith("    ")][:1])
    assert "  " not in sentence.split(": ", 2)[2]


def test_stats_fits_the_terminal_and_says_what_it_left_out():
    code, output = run_in_terminal("stats", str(EXAMPLES), columns=80)
    assert code == 0
    pieces = visible_pieces(output)
    header = next(piece for piece in pieces if piece.lstrip().startswith("player"))
    assert len(header.rstrip()) <= 80 and "games" in header
    table = pieces[pieces.index(header):pieces.index(header) + 6]
    assert all(len(piece.rstrip()) <= 80 for piece in table)
    at = next(k for k, piece in enumerate(pieces) if piece.startswith("left out to fit the terminal:"))
    note = " ".join([pieces[at]] + [p.strip() for p in pieces[at + 1:] if p.startswith("    ")][:2])
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


def test_no_progress_display_where_stdout_goes_to_a_pager():
    """``hearts validate examples/ | less -R``: stderr is the terminal, stdout a pipe whose reader draws on it."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment["TERM"] = "xterm-256color"
    process = subprocess.Popen([sys.executable, "-m", "hearts_analysis", "validate", str(EXAMPLES)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=environment,
                               close_fds=True)
    os.close(slave)
    piped = process.stdout.read()
    process.wait(timeout=120)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    terminal = b"".join(chunks).decode("utf-8", "replace")
    assert b"revoke" in piped
    assert not progress_pieces(terminal, "validating"), terminal
