"""``hearts rules``: every preset and rule field in plain words, or which rules a corpus fits.

The library words both (:func:`~hearts_analysis.rules_help.reference_text`,
:func:`~hearts_analysis.rules_fit.render_named`); this module reads the games and prints.
A fitted rule set is printed as the options that audit by it, ready to paste:

>>> import tempfile, pathlib
>>> from typer.testing import CliRunner
>>> from hearts_analysis.cli import app
>>> from hearts_analysis.records.sources import write_any
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_any(simulate_games(1, Rules.preset("standard", target=30), seed=7), path)
1
>>> result = CliRunner().invoke(app, ["rules", "--infer", str(path)])
>>> result.exit_code, result.stdout.splitlines()[5:8]
(0, ['Fitted rule set: {"preset":"standard","target":30}', '  audit with: hearts validate --rules standard --set target=30 PATH...', '  every game is fully legal and correctly scored under it'])
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Any, Optional

import orjson
import typer

from ..corpus_audit import error_report
from ..records.sources import iter_sources
from ..rules_fit import infer_named, inference_dict, render_named
from ..rules_fit import suggestion_command  # noqa: F401  (named here by tests/test_cli_rules.py)
from ..rules_help import reference_dict, reference_text
from ..text import counted, terminal_lines
from .streams import data_form
from .app import EXIT_BAD_INPUT, EXIT_CLEAN, EXIT_VIOLATIONS, app, error_line, fail
from .progress import progress


class RulesFormat(str, Enum):
    text = "text"
    json = "json"


@app.command("rules")
def rules_command(
    paths: Optional[list[str]] = typer.Argument(None, metavar="[PATH...]",
                                                help="With --infer: game files, folders, or - for stdin."),
    infer: bool = typer.Option(False, "--infer", help="Find the rule sets the games are consistent with."),
    count_all: bool = typer.Option(False, "--count-all",
                                   help="With --infer: count every game that rules a value out "
                                        "(slower; by default the search stops after 3)."),
    format: RulesFormat = typer.Option(RulesFormat.text, "--format", "-f", help="text or json."),
) -> None:
    """Print every preset (with its source) and every rule field, in plain words.

    With --infer, for each rule set the records name: the games that break
    it (a first violation of each); then, its games replayed under candidate
    rule sets, for each field the values every game is consistent with and the
    game and play that rule each other value out, and which presets fit. Exit
    status with --infer: 0 some rule set fits every game, 1 some violations fit
    no rule set tried, 2 some input could not be read.

    Examples: hearts rules;  hearts rules --infer games.jsonl --format json
    """
    if not infer:
        if paths:
            raise fail("game files are read only with --infer (hearts rules --infer PATH...)")
        _print_reference(format)
        raise typer.Exit(EXIT_CLEAN)
    if not paths:
        raise fail("--infer needs game files, folders, or - for stdin")
    games, errors = [], []
    for item in iter_sources(paths):
        if item.game is None:
            errors.append(error_report(item))
            typer.echo(error_line(item), err=True)
        else:
            games.append((item.source, item.game))
    if not games:
        raise fail("no readable games to infer rules from")
    hands = sum(len(game.hands) for _, game in games)
    with progress(f"inferring rules: replaying {counted(hands, 'hand')} under each candidate rule set"):
        named = infer_named(games, count_all=count_all)
    if format == RulesFormat.json:
        _write_json(inference_dict(games, named, errors))
    else:
        typer.echo(terminal_lines(render_named(named)))
    if errors:
        raise typer.Exit(EXIT_BAD_INPUT)
    raise typer.Exit(EXIT_VIOLATIONS if any(g.inference.unexplained_count for g in named) else EXIT_CLEAN)


def _write_json(data: Any) -> None:
    with data_form("json"):
        sys.stdout.buffer.write(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
        sys.stdout.flush()


# -- the reference ------------------------------------------------------------------------
def _print_reference(format: RulesFormat) -> None:
    if format == RulesFormat.json:
        _write_json(reference_dict())
        return
    typer.echo(reference_text())
