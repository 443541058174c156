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
