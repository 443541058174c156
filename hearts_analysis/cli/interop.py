"""``hearts import`` / ``hearts export``: other engines' logs to and from hearts-game/1."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, TextIO

import typer

from ..atomic import atomic_open, check_output
from ..interop import openspiel
from ..records.jsonio import dumps_game
from ..records.sources import input_problem, iter_sources, write_any
from ..text import os_error_text, terminal_safe
from .app import EXIT_BAD_INPUT, app, error_line, fail

import_app = typer.Typer(name="import", help="Read another engine's game logs into hearts-game/1 records.",
                         no_args_is_help=True,
                         epilog="\b\nExample:\n  hearts import openspiel histories.txt -o games.jsonl")
export_app = typer.Typer(name="export", help="Write hearts-game/1 records as another engine's game logs.",
                         no_args_is_help=True,
                         epilog="\b\nExample:\n  hearts export openspiel games.jsonl -o histories.txt")
app.add_typer(import_app)
app.add_typer(export_app)

GAME_OPTION_HELP = ("OpenSpiel's game string, in its own syntax, e.g. 'hearts(jd_bonus=true,"
                    "can_lead_any_club=true)'.")


def _game_parameters(text: str) -> dict[str, bool]:
    try:
        return openspiel.parse_game_string(text)
    except openspiel.OpenSpielError as error:
        raise fail(str(error))


@contextmanager
def _text_input(path: str) -> Iterator[TextIO]:
    if path == "-":
        yield sys.stdin
        return
    problem = input_problem(Path(path))
    if problem is not None:
        raise fail(f"{terminal_safe(path)}: {problem}")
    try:
        stream = open(path, encoding="utf-8", errors="surrogateescape")  # bytes not UTF-8: an error for the line
    except OSError as error:
        raise fail(f"{path}: cannot read: {error.strerror or error}")
    with stream:
        yield stream


@import_app.command("openspiel")
def import_openspiel(
    path: str = typer.Argument(..., metavar="FILE", help="OpenSpiel hearts histories, one per line (- for stdin)."),
    game: Optional[str] = typer.Option(
        None, "--game", "-g",
        help=GAME_OPTION_HELP + " Default: the file's own (its '# game_string:' line, as hearts export "
                                "openspiel writes it), else 'hearts'. Given, it replaces the rules of every game."),
    output: str = typer.Option("-", "--output", "-o", help="Output file (.jsonl, .json, .parquet); - for stdout."),
) -> None:
    """Import OpenSpiel `hearts` histories: a plain file's lines are hands, each a game of one hand.

    The rule set is the `openspiel` preset with the --game parameters; each
    hand states its chance-dealt pass direction. A file written by `hearts
    export openspiel` gives its games back whole: the histories after a
    '# record:' line are that game's hands, with its players and rules.
    Bad lines are reported with their line and action number; the others are
    still imported (exit 2).

    Examples:

      hearts import openspiel histories.txt -o games.jsonl

      hearts import openspiel plain.txt --game 'hearts(jd_bonus=true)' -o games.jsonl
    """
    rules = openspiel.rules_from_parameters(_game_parameters(game)) if game is not None else None
    check_output(output, [path], folder=None)
    games, errors = [], 0
    with _text_input(path) as stream:
        for item in openspiel.read_histories(stream, "<stdin>" if path == "-" else path, rules):
            if item.game is None:
                errors += 1
                typer.echo(error_line(item), err=True)
            else:
                games.append(item.game)
    _write_games(games, output)
    under = f" under {openspiel.game_string(rules)}" if rules is not None else ""
    typer.echo(f"imported {len(games):,} game{'s' if len(games) != 1 else ''}{under}"
               + (f"; {errors:,} bad line(s)" if errors else ""), err=True)
    raise typer.Exit(EXIT_BAD_INPUT if errors else 0)


def _write_games(games: list, output: str) -> None:
    if output == "-":
        for game in games:
            sys.stdout.buffer.write(dumps_game(game) + b"\n")
        sys.stdout.flush()
        return
    try:
        write_any(games, output)
    except OSError as error:
        raise fail(os_error_text(error, output))
    except ValueError as error:
        raise fail(str(error))


@export_app.command("openspiel")
def export_openspiel(
    paths: list[str] = typer.Argument(..., metavar="PATH...", help="Game files, folders, or - for stdin."),
    output: str = typer.Option("-", "--output", "-o", help="Histories file, one hand per line; - for stdout."),
    game: Optional[str] = typer.Option(
        None, "--game", "-g",
        help=GAME_OPTION_HELP + " Default: those of the first game's rules; every game must replay under them."),
    plain: bool = typer.Option(False, "--plain", help="Histories only, without the '# game_string:' and "
                                                       "'# record:' lines (games are then not given back whole)."),
) -> None:
    """Export 4-player games as OpenSpiel `hearts` histories, one line per hand.

    The file starts with a '# game_string:' line (the OpenSpiel game the
    histories replay in) and each game's histories follow a '# record:' line
    (its id, players, rules and what else a history cannot hold), so that
    `hearts import openspiel` gives the games back whole.

    Every hand is checked to be legal under the OpenSpiel parameters, since
    OpenSpiel can only replay legal hands; a game with a hand it cannot replay
    is left out and reported (exit 2). Rules OpenSpiel scores differently (a
    moon choice, other bonuses) are noted: its returns then differ from ours.

    Example: hearts export openspiel games.jsonl -o histories.txt
    """
    forced = _game_parameters(game) if game is not None else None
    check_output(output, paths)
    exports: list[openspiel.Export] = []
    chosen: dict[str, bool] | None = forced
    notes: set[str] = set()
    errors = exported = 0
    for item in iter_sources(paths):
        if item.game is None:
            errors += 1
            typer.echo(error_line(item), err=True)
            continue
        result = openspiel.export_game(item.game, chosen)
        if result.problems:
            errors += 1
            for problem in result.problems:
                typer.echo(terminal_safe(f"{item.source}: not exported: {problem}"), err=True)
            continue
        if chosen is None:
            chosen = result.parameters
        notes.update(result.rescored)
        exports.append(result)
        exported += 1
    try:
        if output == "-":
            hands = openspiel.write_histories(exports, chosen or {}, sys.stdout, plain)
        else:
            with atomic_open(output, "w") as out:
                hands = openspiel.write_histories(exports, chosen or {}, out, plain)
    except OSError as error:
        raise fail(os_error_text(error, output))
    for note in sorted(notes):
        typer.echo(f"note: OpenSpiel scores differently: {note}", err=True)
    where = openspiel.game_string(chosen or {})
    typer.echo(f"exported {hands:,} hand{'s' if hands != 1 else ''} from {exported:,} "
               f"game{'s' if exported != 1 else ''}; load them with pyspiel.load_game({where!r})"
               + (f"; {errors:,} game(s) or record(s) left out" if errors else ""), err=True)
    raise typer.Exit(EXIT_BAD_INPUT if errors else 0)

