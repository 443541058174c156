"""How users reach the log formats: hearts import / export, and every command reading logs directly."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.records.json import game_to_dict, read_json_path
from killer_logs import GAMES, killer_games, killer_log

EXAMPLES = Path(__file__).parent.parent / "examples"
SHORT = Path(__file__).parent / "fixtures" / "killer" / "short.log"


@pytest.fixture(scope="module")
def log_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("killer")
    path = folder / "KHearts.log"
    path.write_text(killer_log(killer_games()))
    return path


def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_import_recognises_the_format_from_the_content(log_file, tmp_path):
    out = tmp_path / "games.jsonl"
    result = run("import", log_file, "-o", out)
    assert result.exit_code == 0, result.output
    assert len(lines(out)) == GAMES and f"imported {GAMES} games" in result.output
    named = tmp_path / "named.jsonl"
    assert run("import", "killer", log_file, "-o", named).exit_code == 0
    assert named.read_bytes() == out.read_bytes()
    assert run("import", "-o", tmp_path / "first.jsonl", log_file).exit_code == 0


def test_import_to_parquet_and_from_stdin(log_file, tmp_path):
    out = tmp_path / "games.parquet"
    assert run("import", log_file, "-o", out).exit_code == 0
    result = run("validate", out)
    assert result.exit_code == 0 and f"{GAMES} games" in result.output
    piped = run("import", "-", input=log_file.read_text())
    assert piped.exit_code == 0 and len(piped.stdout.splitlines()) == GAMES


def test_every_reading_command_takes_logs_and_folders(log_file, tmp_path):
    folder = tmp_path / "KillerHearts"
    folder.mkdir()
    shutil.copy(log_file, folder / "KHearts.log")
    shutil.copy(EXAMPLES / "clean-4p-standard.json", folder / "club.json")
    (folder / "readme.txt").write_text("Killer Hearts keeps its log beside this file.\n")
    result = run("validate", folder)
    assert result.exit_code == 0 and f"{GAMES + 1} games" in result.output
    assert run("validate", "--engine", "reference", folder).output == result.output
    assert run("score", SHORT).exit_code == 0
    assert run("analyze", SHORT, "--format", "json").exit_code == 0
    assert run("stats", SHORT).exit_code == 0
    site = tmp_path / "site"
    (folder / "KHearts.log").unlink()
    shutil.copy(SHORT, folder / "KHearts.log")
    report = run("report", folder, "-o", site, "--js-beside")
    assert report.exit_code == 0, report.output
    assert (site / "audit.html").exists()


def test_bad_input_names_file_line_and_field_and_the_rest_is_imported(log_file, tmp_path):
    text = log_file.read_text().splitlines()
    bad = next(i for i, line in enumerate(text) if line.startswith("trick  2: "))
    text[bad] = text[bad][:10] + text[bad][10:].replace("  ", "  Q:", 1)  # the second play reads 'Q:N:KH'
    broken = tmp_path / "broken.log"
    broken.write_text("\n".join(text) + "\n")
    out = tmp_path / "games.jsonl"
    result = run("import", broken, "-o", out)
    assert result.exit_code == 2
    assert f"{broken}:{bad + 1}: error: deal 1, trick 2: expected a play such as W:TS" in result.output
    assert len(lines(out)) == GAMES - 1


def test_a_file_in_no_known_format_is_an_error(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("the club meets on Tuesdays\n")
    result = run("import", path, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 2 and "not a log format hearts import reads" in result.output
    assert run("import", tmp_path / "missing.log").exit_code == 2


def test_a_file_of_another_format_or_empty_is_an_error_and_leaves_the_output_alone(log_file, tmp_path):
    output = tmp_path / "club.jsonl"
    assert run("import", log_file, "-o", output).exit_code == 0
    kept = output.read_bytes()
    for name, text in (("empty.log", ""), ("night.txt", "# Club night\nN: ann bob cy dee\n")):
        path = tmp_path / name
        path.write_text(text)
        result = run("import", "killer", path, "-o", output)
        assert result.exit_code == 2, result.output
        assert f"{path}: error: no Killer Hearts" in result.output and "nothing written" in result.output
        assert output.read_bytes() == kept


def test_export_writes_what_the_format_holds_and_names_the_rest(tmp_path):
    out = tmp_path / "KHearts.log"
    result = run("export", "killer", EXAMPLES / "clean-4p-standard.json", EXAMPLES / "omnibus.json",
                 EXAMPLES / "five-players.json", "-o", out)
    assert result.exit_code == 2
    assert "omnibus.json:1: not exported: Killer Hearts plays its own rules" in result.output
    assert "5 players; Killer Hearts seats 4" in result.output
    back = tmp_path / "back.jsonl"
    assert run("import", out, "-o", back).exit_code == 0
    original = game_to_dict(next(read_json_path(EXAMPLES / "clean-4p-standard.json")).game)
    (imported,) = lines(back)
    assert [h["plays"] for h in imported["hands"]] == [h["plays"] for h in original["hands"]]
    assert [h.get("passes") for h in imported["hands"]] == [h.get("passes") for h in original["hands"]]


def test_openspiel_commands_are_kept():
    assert run("import", "openspiel", "--help").exit_code == 0
    assert run("export", "openspiel", "--help").exit_code == 0
    help_text = run("import", "--help").output
    assert "killer" in help_text and "openspiel" in help_text and "Example" in help_text
    assert "Example: hearts export killer" in run("export", "killer", "--help").output
