"""``hearts score``: the score sheet of each game, recomputed from the plays.

The library builds and lays out the sheet (:mod:`hearts_analysis.score_sheet`); this
module reads the options and prints each sheet in the form asked for.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ..corpus_audit import error_report
from ..score_sheet import SCORE_CSV_COLUMNS, score_json, score_rows, score_sheets, sheet_text
from ..text import csv_writer
from .app import RULES_OPTION, SET_OPTION, Format, app, error_line, rules_from_options
from .colour import painter
from .streams import data_form


@app.command()
def score(
    paths: list[str] = typer.Argument(..., metavar="PATH...", help="Game files, folders, or - for stdin."),
    format: Format = typer.Option(Format.text, "--format", "-f", help="text, json or csv."),
    rules: Optional[str] = RULES_OPTION,
    set_: Optional[list[str]] = SET_OPTION,
) -> None:
    """Print each game's score sheet: points per hand, running totals, moons, winner.

    Points are recomputed from the plays; recorded points are audited by
    `hearts validate`.

    Example: hearts score game.json --format csv
    """
    forced = rules_from_options(rules, set_)
    with data_form(format.value):
        errors = _print_sheets(paths, format, forced)
    raise typer.Exit(2 if errors else 0)


def _print_sheets(paths: list[str], format: Format, forced) -> list[dict]:
    sheets, errors = [], []
    writer = csv_writer(sys.stdout) if format == Format.csv else None
    if writer:
        writer.writerow(SCORE_CSV_COLUMNS)
    for item, sheet in score_sheets(paths, forced):
        if sheet is None:
            errors.append(error_report(item))
            typer.echo(error_line(item), err=True)
        elif format == Format.json:
            sheets.append(sheet)
        elif writer:
            writer.writerows(score_rows(sheet))
        else:
            typer.echo(sheet_text(sheet, painter()) + "\n")
    if format == Format.json:
        sys.stdout.buffer.write(score_json(sheets, errors))
    return errors
