"""Every level of the command line, the app, each sub-app and each command, shows an example."""

import pytest
import typer
from typer.testing import CliRunner

from hearts_analysis.cli import app


def command_paths(command, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [path]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        paths += command_paths(sub, (*path, name))
    return paths


PATHS = command_paths(typer.main.get_command(app))


def test_the_walk_reaches_the_sub_apps_and_their_commands():
    assert ("import",) in PATHS and ("import", "openspiel") in PATHS and ("export", "openspiel") in PATHS
    assert len(PATHS) > 12


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(("hearts", *path)))
def test_every_help_shows_an_example(path):
    result = CliRunner().invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output
    example = result.output[result.output.index("Example"):]
    assert f"hearts {' '.join(path)}".rstrip() in example, "the example runs this command"


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(("hearts", *path)))
def test_help_placeholders_are_in_one_style(path):
    """``--workers N`` everywhere: no ``<int range>``, ``<int>``, ``<str>`` or ``<path>`` beside the explicit ones."""
    output = CliRunner().invoke(app, [*path, "--help"], terminal_width=200).output
    for generated in ("<int", "<str>", "<path>", "<float", "INTEGER", "<text>"):
        assert generated not in output, (generated, output)


def test_bare_hearts_shows_the_help_and_a_hint_and_version_prints_the_version():
    from hearts_analysis import __version__
    bare = CliRunner().invoke(app, [])
    assert bare.exit_code == 0
    assert "Commands:" in bare.stdout and "validate" in bare.stdout
    assert "hearts COMMAND --help" in bare.stderr
    version = CliRunner().invoke(app, ["--version"])
    assert version.exit_code == 0 and version.stdout == f"hearts-analysis {__version__}\n"


@pytest.mark.parametrize("args, meant", [
    (["explain", "revok"], '"revoke"'),
    (["validate", "examples/", "--set", "jack_of_diamond=-10"], '"jack_of_diamonds"'),
    (["validate", "examples/", "--rules", "omnibu"], '"omnibus"'),
    (["review", "examples/omnibus.json", "--player", "Alice"], '"alice"'),
    (["report", "examples/", "-o", "{tmp}/site", "--player", "Alice"], '"alice"'),
])
def test_a_near_miss_says_what_was_meant(args, meant, tmp_path, monkeypatch):
    from pathlib import Path
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    result = CliRunner().invoke(app, [arg.format(tmp=tmp_path) for arg in args])
    assert result.exit_code == 2
    assert f"did you mean {meant}?" in result.stderr
    assert not (tmp_path / "site").exists()      # report --player names no player: nothing is written
