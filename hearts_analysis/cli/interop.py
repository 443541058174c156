"""``hearts import`` / ``hearts export``: other programs' logs to and from hearts-game/1.

``hearts import FORMAT FILE...`` reads one format; ``hearts import FILE...``
recognises each file's format from its content (a first word that is not a
format's name is taken for a file). Every format of the registry
(:mod:`hearts_analysis.interop.formats`) gets both commands; OpenSpiel keeps its own,
with its game string.

Games exported to a format that can hold them come back as they were; a game the
format cannot hold is named with the reason, and the run exits 2:

>>> import tempfile, pathlib
>>> from typer.testing import CliRunner
>>> from hearts_analysis.cli import app
>>> from hearts_analysis.records.sources import iter_sources, write_any
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> games = list(simulate_games(2, Rules.preset("standard", target=30), seed=7))
>>> write_any(games, folder / "games.jsonl")
2
>>> runner = CliRunner()
>>> runner.invoke(app, ["export", "text", str(folder / "games.jsonl"), "-o", str(folder / "club-night.txt")]).stderr
'exported 2 games as hand-entry text notation\\n'
>>> runner.invoke(app, ["import", str(folder / "club-night.txt"), "-o", str(folder / "back.jsonl")]).stderr
'imported 2 games (6 hands)\\n'
>>> [item.game for item in iter_sources([folder / "back.jsonl"])] == games
True
>>> refused = runner.invoke(app, ["export", "killer", str(folder / "games.jsonl"), "-o", str(folder / "KHearts.log")])
>>> refused.exit_code, refused.stderr.splitlines()[-1]
(2, 'exported 0 games as Killer Hearts text log (KHearts.log); 2 left out; nothing written')
"""

from __future__ import annotations

import io
import sys
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterable, Iterator, Optional, TextIO

import typer
from typer.core import TyperGroup

from ..atomic import atomic_open, check_output
from ..interop import formats, openspiel
from ..interop.export import exportable, output_files, writes_set
from ..interop.rebuild import ExportError
from ..records.errors import Item, RecordError
from ..records.json import dumps_game, read_document
from ..records.json.files import too_long_for_a_line
from ..records.sources import (folder_files, foreign_reader, input_problem, iter_sources, open_log, recognise_text,
                               wide_text_check, write_any)
from ..text import counted, os_error_text, terminal_safe
from .streams import data_form
from .app import EXIT_BAD_INPUT, app, error_line, fail

FILES_COMMAND = "files"
"""The hidden command that ``hearts import FILE...`` runs: each file's format recognised from its content."""


class _FormatOrFiles(TyperGroup):
    """``hearts import``: a format's name, or straight away the files."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = [FILES_COMMAND, *args]
        return super().parse_args(ctx, args)


import_app = typer.Typer(name="import", cls=_FormatOrFiles, no_args_is_help=True,
                         help="Read other programs' game logs into hearts-game/1 records: `hearts import FORMAT "
                              "FILE...`, or `hearts import FILE...` to recognise each file's format.",
                         epilog="\b\nExample:\n  hearts import KHearts.log -o games.jsonl\n"
                                "  hearts import openspiel histories.txt -o games.jsonl")
export_app = typer.Typer(name="export", help="Write hearts-game/1 records as another program's game logs.",
                         no_args_is_help=True,
                         epilog="\b\nExample:\n  hearts export killer games.jsonl -o KHearts.log\n"
                                "  hearts export openspiel games.jsonl -o histories.txt")
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
    with _text_input(path) as stream:
        games, errors = _read_reporting(openspiel.read_histories(stream, "<stdin>" if path == "-" else path, rules))
    if games:   # nothing read: an existing output is left as it was
        _write_games(games, output)
    under = f" under {openspiel.game_string(rules)}" if rules is not None else ""
    typer.echo(f"imported {len(games):,} game{'s' if len(games) != 1 else ''}{under}"
               + (f"; {counted(errors, 'bad line')}" if errors else "") + _nothing_written(games, output), err=True)
    raise typer.Exit(EXIT_BAD_INPUT if errors else 0)


def _read_reporting(items: Iterable[Item]) -> tuple[list, int]:
    """The games read, each unreadable record reported on stderr; and how many those were. A game of more plays
    than a line holds is refused as ``convert`` refuses it: its line would take gigabytes to build, and no reader
    reads it back."""
    games, errors = [], 0
    for item in items:
        refused = None if item.game is None else too_long_for_a_line(item.game, item.source)
        if refused is not None:
            item = Item(item.source, error=refused)
        if item.game is None:
            errors += 1
            typer.echo(error_line(item), err=True)
        else:
            games.append(item.game)
    return games, errors


def _nothing_written(games: list, output: str) -> str:
    """The note of a run that read or kept no game, so wrote nothing (an existing output is left as it was)."""
    return "" if games or output == "-" else "; nothing written"


def _write_text(output: str, write: Callable[[TextIO], int], form: str = "lines") -> int:
    """Text to standard output (on a terminal made inert as ``form``), or to a file written atomically; what
    ``write`` returns (a count)."""
    try:
        if output == "-":
            with data_form(form):
                return write(sys.stdout)
        with atomic_open(output, "w") as out:
            return write(out)
    except OSError as error:
        raise fail(os_error_text(error, output))
    except ExportError as error:   # a game the format's unfit let through: nothing is written, never a traceback
        raise fail(f"not exported: {error}")


def _write_games(games: list, output: str) -> None:
    """Records to standard output as JSON Lines, or to a .jsonl/.json/.parquet file (atomically)."""
    if output == "-":
        with data_form("json"):
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
        help=GAME_OPTION_HELP + " Default: each game's own (its '# game_string:' line); with --plain, the first "
                                "game's, and every game must replay under them."),
    plain: bool = typer.Option(False, "--plain", help="Histories only, without the '# game_string:' and "
                                                       "'# record:' lines (games are then not given back whole)."),
) -> None:
    """Export 4-player games as OpenSpiel `hearts` histories, one line per hand.

    Each game's histories follow its own '# game_string:' line (the OpenSpiel
    game they replay in) and a '# record:' line (its id, players, rules and
    what else a history cannot hold), so that `hearts import openspiel` gives
    the games back whole.

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
    strings: dict[str, None] = {}
    errors = exported = 0
    for item in iter_sources(paths):
        if item.game is None:
            errors += 1
            typer.echo(error_line(item), err=True)
            continue
        result = openspiel.export_game(item.game, chosen if plain or forced is not None else None)
        if result.problems:
            errors += 1
            for problem in result.problems:
                typer.echo(terminal_safe(f"{item.source}: game {item.game.game_id or '?'}: not exported: {problem}"),
                           err=True)
            continue
        if chosen is None:
            chosen = result.parameters
        strings.setdefault(openspiel.game_string(result.parameters), None)
        notes.update(result.rescored)
        exports.append(result)
        exported += 1
    hands = _write_text(output, lambda out: openspiel.write_histories(exports, chosen or {}, out, plain)) \
        if exports else 0   # no game exported: an existing output is left as it was
    for note in sorted(notes):
        typer.echo(f"note: OpenSpiel scores differently: {note}", err=True)
    where = " or ".join(f"pyspiel.load_game({s!r})" for s in strings) or \
        f"pyspiel.load_game({openspiel.game_string(chosen or {})!r})"
    each = " (each game's is on its '# game_string:' line)" if len(strings) > 1 else ""
    typer.echo(f"exported {counted(hands, 'hand')} from {counted(exported, 'game')}; load them with {where}{each}"
               + (f"; {errors:,} game(s) or record(s) left out" if errors else "") + _nothing_written(exports, output),
               err=True)
    raise typer.Exit(EXIT_BAD_INPUT if errors else 0)


# -- every registered format ------------------------------------------------------------------
OUTPUT_OPTION_HELP = "Output file (.jsonl, .json, .parquet); - for stdout."


def _error(source: str, message: str) -> Item:
    return Item(source, error=RecordError(message, source=source))


def _unknown(source: str) -> Item:
    known = ", ".join(formats.formats())
    return _error(source, f"not a log format hearts import reads (formats: {known}); "
                          "hearts-game/1 records need no import")


def _or_nothing_found(items: Iterator[Item], source: str, module: ModuleType | None) -> Iterator[Item]:
    """The items of one input, or an error if it held none: a log of another format, or an empty one, is
    never a silent success."""
    found = False
    for item in items:
        found = True
        yield item
    if not found:
        what = f"{module.TITLE} game" if module is not None else "game"
        yield _error(source, f"no {what} found (hearts import FILE, without a format, recognises a log's "
                             "format by itself)")


def _file_items(path: Path, module: ModuleType | None) -> Iterator[Item]:
    try:
        reader = module.read if module is not None else foreign_reader(path)
        if reader is None:
            wide_text_check(path)  # UTF-16 is said so, not an unknown format
            yield _unknown(str(path))
            return
        with open_log(path) as stream:
            yield from _or_nothing_found(reader(stream, str(path)), str(path), module)
    except OSError as error:
        yield _error(str(path), f"cannot read: {error.strerror or error}")
    except RecordError as error:
        yield Item(str(path), error=error)


def _items(raw: str, module: ModuleType | None) -> Iterator[Item]:
    """The games of one argument: a file, a folder (its files in this format, or in any), or - (stdin)."""
    if raw == "-":
        try:
            text = read_document(sys.stdin.buffer, "<stdin>").decode("utf-8", errors="replace").lstrip("\ufeff")
        except RecordError as error:
            yield Item("<stdin>", error=error)
            return
        reader = module.read if module is not None else recognise_text(text[:formats.SNIFF_BYTES])
        yield from _or_nothing_found(reader(io.StringIO(text), "<stdin>"), "<stdin>", module) \
            if reader is not None else [_unknown("<stdin>")]
        return
    path = Path(raw)
    if path.is_dir():
        found = [file for file in folder_files(path) if _in_format(file, module)]
        if not found:
            yield _error(raw, "no log in a format hearts import reads in this folder")
        for file in found:
            yield from _file_items(file, module)
    elif not path.exists():
        yield _error(raw, "no such file or folder")
    else:
        yield from _file_items(path, module)


def _in_format(path: Path, module: ModuleType | None) -> bool:
    try:
        reader = foreign_reader(path)
    except OSError:
        return False
    return reader is not None and (module is None or reader == module.read)


def import_files(paths: list[str], output: str, module: ModuleType | None) -> int:
    """Read, report each unreadable game, write the rest; the exit status."""
    games, errors = _read_reporting(item for raw in paths for item in _items(raw, module))
    if games:   # nothing read at all: an existing output is left as it was
        _write_games(games, output)
    hands = sum(len(game.hands) for game in games)
    typer.echo(f"imported {counted(len(games), 'game')} ({counted(hands, 'hand')})"
               + (f"; {errors:,} could not be read" if errors else "") + _nothing_written(games, output), err=True)
    return EXIT_BAD_INPUT if errors else 0


def _example(module: ModuleType) -> str:
    return getattr(module, "FILE_EXAMPLE", "log.txt")


def _register(group: typer.Typer, name: str, doc: str, run: Callable[[list[str], str], int], inputs: str,
              output_help: str, hidden: bool = False) -> None:
    """A command ``name`` of ``group`` taking input paths and ``-o``; ``run(paths, output)`` gives its exit status."""
    def command(
        paths: list[str] = typer.Argument(..., metavar="FILE...", help=inputs),
        output: str = typer.Option("-", "--output", "-o", help=output_help),
    ) -> None:
        raise typer.Exit(run(paths, output))

    command.__doc__ = doc
    group.command(name, hidden=hidden)(command)


LOGS_HELP = "Logs or folders of logs; - for stdin."

_register(import_app, FILES_COMMAND, "Import logs of any format hearts import reads, each recognised from its "
          "content; `hearts import FILE...` runs it.\n\nExample: hearts import KHearts.log club-night.txt -o games.jsonl "
          "(the same as: hearts import files KHearts.log club-night.txt -o games.jsonl)",
          lambda paths, output: import_files(paths, output, None), LOGS_HELP, OUTPUT_OPTION_HELP, hidden=True)


def _register_import(module: ModuleType) -> None:
    doc = (f"Import {module.TITLE} into hearts-game/1 records.\n\nA game that cannot be read is "
           "reported with its file, line and field (exit 2); the other games are still imported.\n\n"
           f"Example: hearts import {module.NAME} {_example(module)} -o games.jsonl")
    _register(import_app, module.NAME, doc, lambda paths, output: import_files(paths, output, module),
              LOGS_HELP, OUTPUT_OPTION_HELP)


def _terminal_form(module: ModuleType) -> str:
    """How a format's text is made inert on a terminal: cell by cell for CSV, as JSON for JSON events, else by line."""
    example = str(getattr(module, "FILE_EXAMPLE", "") or "").lower()
    return "csv" if example.endswith(".csv") or "csv" in module.TITLE.lower() else \
        "json" if example.endswith((".json", ".jsonl")) else "lines"


def export_games(paths: list[str], output: str, module: ModuleType) -> int:
    """Write every game the format can hold; report the others; the exit status. A format that keeps its games
    in several files (``outputs`` and ``write_set``) writes them all, beside the file named."""
    written = output_files(module, output)
    for file in written:
        check_output(file, paths)

    def unfit(item: Item, reason: str) -> None:
        typer.echo(terminal_safe(f"{item.source}: game {item.game.game_id or '?'}: not exported: {reason}"), err=True)
    chosen = exportable(iter_sources(paths), module, lambda item: typer.echo(error_line(item), err=True), unfit)
    games, errors = chosen.games, chosen.left_out
    sets = writes_set(module, output)
    if games and sets:
        try:
            module.write_set(games, output)
        except OSError as error:
            raise fail(os_error_text(error, output))
        except ExportError as error:
            raise fail(f"not exported: {error}")
    elif games:   # no game: an existing output is left as it was
        _write_text(output, lambda out: module.write(games, out), _terminal_form(module))
    files = f" into {', '.join(str(file) for file in written)}" if games and sets else ""
    only = getattr(module, "ONE_FILE_NOTE", "") if games and len(written) == 1 and (sets or output == "-") else ""
    typer.echo(terminal_safe(f"exported {len(games):,} game{'s' if len(games) != 1 else ''} as {module.TITLE}{files}"
                             + (f"; {errors:,} left out" if errors else "") + only + _nothing_written(games, output)),
               err=True)
    return EXIT_BAD_INPUT if errors else 0


def _register_export(module: ModuleType) -> None:
    doc = (f"Export games as {module.TITLE}.\n\nA game the format cannot hold is left out and reported "
           f"(exit 2).\n\nExample: hearts export {module.NAME} games.jsonl -o {_example(module)}")
    _register(export_app, module.NAME, doc, lambda paths, output: export_games(paths, output, module),
              "Game files, folders, or - for stdin.", "Output file; - for stdout.")


def _registered(group: typer.Typer) -> set[str]:
    return {info.name for info in group.registered_commands}


for _module in formats.formats().values():
    if _module.NAME not in _registered(import_app):
        _register_import(_module)
    if hasattr(_module, "write") and _module.NAME not in _registered(export_app):
        _register_export(_module)
