"""The typer application, shared options, and the one place domain errors become exit codes.

Every command builds its forced rules the same way, so a bad ``--set`` reads the same
everywhere: one line on stderr and exit 2, before any game is read:

>>> rules_from_options(None, None) is None
True
>>> rules_from_options("omnibus", ["target=50"]).to_spec()
{'preset': 'omnibus', 'target': 50}
>>> import contextlib, io
>>> with contextlib.redirect_stderr(io.StringIO()) as err:
...     try:
...         rules_from_options("standard", ["target=x"])
...     except typer.Exit as stop:
...         print(stop.exit_code)
2
>>> err.getvalue()
'hearts: bad rules: target: expected a whole number, got "x"\\n'
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from enum import Enum
from typing import Iterator, Optional

import typer
from typer.core import TyperGroup

from ..atomic import OutputError
from ..records.errors import Item, RecordError
from ..rules import RuleError, Rules, parse_override
from ..text import os_error_text, terminal_safe
from .streams import printable_streams


_METAVARS = {"int": "N", "int range": "N", "integer": "N", "integer range": "N", "float": "X",
             "float range": "X", "path": "PATH", "str": "TEXT", "text": "TEXT"}
"""Placeholders in the help, in one style (``--workers N``, as the explicit ones), by the name of an option's
type (the click that typer carries is its own: its classes are not click's)."""


def _placeholder(param) -> str | None:
    return _METAVARS.get(getattr(param.type, "name", None))


def _placeholders(group) -> None:
    """Every option of every command under ``group`` (sub-apps too) without a placeholder gets one."""
    for command in group.commands.values():
        for param in command.params:
            if param.param_type_name == "option" and param.metavar is None and not param.is_flag:
                param.metavar = _placeholder(param)
        if getattr(command, "commands", None):
            _placeholders(command)


class _Commands(TyperGroup):
    """Every command: an output that cannot or must not be written is a one-line message and exit 2; every
    option without a placeholder of its own gets one of :func:`_placeholder`'s."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _placeholders(self)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OutputError as error:
            raise fail(str(error))


app = typer.Typer(
    name="hearts",
    cls=_Commands,
    help="Audit, re-score and review recorded games of Hearts (hearts-game/1 JSON, JSON Lines, Parquet).",
    epilog="""\b
Examples:
  hearts validate games.jsonl          audit every game, one line per violation
  hearts report examples/ -o reports/  HTML reports of every game
  hearts review game.json --player alice
  hearts validate --help               every command has --help with an example""",
    invoke_without_command=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_BAD_INPUT = 0, 1, 2

HINT = "hearts: give a command, e.g. hearts validate games.jsonl; hearts COMMAND --help shows its options"
"""What bare ``hearts`` says after the help: the next step."""


def _version(value: bool) -> None:
    if value:
        from .. import __version__
        typer.echo(f"hearts-analysis {__version__}")
        raise typer.Exit(EXIT_CLEAN)


@app.callback()
def _main(ctx: typer.Context,
          version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Bare ``hearts``: the help, and a hint of what to type (exit 0: nothing went wrong)."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        typer.echo(HINT, err=True)
        raise typer.Exit(EXIT_CLEAN)


class Format(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"


KEEP_DUPLICATES_OPTION = typer.Option(
    False, "--keep-duplicates",
    help="Count a game read twice (same game_id and cards, or the same deals and plays under another id) every "
         "time; by default it is counted once, with a warning on stderr naming both places.")
RULES_OPTION = typer.Option(
    None, "--rules", "-r", metavar="PRESET",
    help="Judge every game under this preset instead of the rules each record names "
         "(see `hearts rules`).")
SET_OPTION = typer.Option(
    None, "--set", "-s", metavar="FIELD=VALUE",
    help="Override one rule field, e.g. --set jack_of_diamonds=-10 (repeatable; implies --rules "
         "standard when --rules is not given).")


def fail(message: str, code: int = EXIT_BAD_INPUT) -> "typer.Exit":
    typer.echo(terminal_safe(f"hearts: {message}"), err=True)
    return typer.Exit(code)


def error_line(item: Item) -> str:
    """The one line that reports an unreadable record, its control characters shown as escapes."""
    return terminal_safe(f"{item.source}: error: {item.error.text()}")


def rules_from_options(preset: Optional[str], overrides: Optional[list[str]]) -> Rules | None:
    """The rule set forced by ``--rules`` / ``--set``, or ``None`` to use each record's own."""
    if preset is None and not overrides:
        return None
    try:
        spec = dict(parse_override(text) for text in overrides or [])
        return Rules.from_spec({"preset": preset or "standard", **spec})
    except RuleError as error:
        raise fail(f"bad rules: {error}")


@contextmanager
def domain_errors() -> Iterator[None]:
    """Turn the library's input errors into a one-line message and exit code 2."""
    try:
        yield
    except OSError as error:
        raise fail(os_error_text(error))
    except (RecordError, RuleError) as error:
        raise fail(str(error))


FOREGROUND_COMPILE = {"advise", "review"}
"""The commands that judge on the review's kernel: they start its background compile as they exit, not
beside their own work (a review compiles what it needs first, with a notice; an advice runs without it)."""


def main() -> None:
    printable_streams()
    _warm_up(sys.argv[1:])
    app()


def _warm_up(arguments: list[str]) -> None:
    """The first command after install starts the background compile of the review's kernel
    (:mod:`hearts_analysis.review.warmup`), so that a later ``hearts advise`` finds it ready; not for
    ``--help``, and at their exit for the commands that compile in the foreground."""
    if not arguments or "--help" in arguments:
        return
    from ..kernel.warmup import start
    if arguments[0] in FOREGROUND_COMPILE:
        import atexit
        atexit.register(start, "hearts_analysis.review.warmup")
    else:
        start("hearts_analysis.review.warmup")
