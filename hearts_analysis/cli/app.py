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

from contextlib import contextmanager
from enum import Enum
from typing import Iterator, Optional

import typer
from typer.core import TyperGroup

from ..atomic import OutputError
from ..records.errors import Item, RecordError
from ..rules import RuleError, Rules, parse_override
from ..text import os_error_text, terminal_safe


class _Commands(TyperGroup):
    """Every command: an output that cannot or must not be written is a one-line message and exit 2."""

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
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_BAD_INPUT = 0, 1, 2


class Format(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"


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


def main() -> None:
    app()
