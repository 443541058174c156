"""``hearts validate``: the audit, as a linter report."""

from __future__ import annotations

import sys
from typing import Optional

import orjson
import typer

from ..audit import Summary, audit_paths, error_report
from .app import RULES_OPTION, SET_OPTION, Format, app, rules_from_options
from .progress import progress


def violation_line(source: str, violation: dict) -> str:
    where = [f"hand {violation['hand']}" if violation["hand"] is not None else "game"]
    if violation["trick"] is not None:
        where.append(f"trick {violation['trick']}")
    if violation["seat"] is not None:
        where.append(f"seat {violation['seat']}")
    return f"{source}: {' '.join(where)}: {violation['code']}: {violation['message']}"


def summary_line(summary: Summary) -> str:
    parts = [f"{summary.games:,} game{'s' if summary.games != 1 else ''} ({summary.hands:,} hands) checked"]
    if summary.violations:
        parts.append(f"{summary.violations:,} violation{'s' if summary.violations != 1 else ''} "
                     f"in {summary.invalid_games:,} game{'s' if summary.invalid_games != 1 else ''}")
    else:
        parts.append("no violations")
    if summary.errors:
        parts.append(f"{summary.errors:,} unreadable record{'s' if summary.errors != 1 else ''}")
    return ", ".join(parts)


@app.command()
def validate(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Game files (.json, .jsonl, .parquet), folders of them, or - for stdin."),
    format: Format = typer.Option(Format.text, "--format", "-f", help="text (one line per violation) or json."),
    rules: Optional[str] = RULES_OPTION,
    set_: Optional[list[str]] = SET_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Text format: print only the summary line."),
) -> None:
    """Replay every hand, re-score it and report every rule violation.

    Exit status: 0 every game is clean, 1 violations were found, 2 some input
    could not be read (reported with its file, line and field; the rest is
    still checked).

    Example: hearts validate games.jsonl --format json
    """
    forced = rules_from_options(rules, set_)
    summary = Summary()
    out = sys.stdout.buffer
    errors: list[dict] = []
    first = True
    if format == Format.json:
        out.write(b'{"games": [')
    with progress("validating", enabled="-" not in paths) as bar:
        for item, report in audit_paths(paths, forced):
            if report is None:
                summary.errors += 1
                errors.append(error_report(item))
                if format == Format.text:
                    typer.echo(f"{item.source}: error: {item.error.text()}")
                continue
            summary.add_game(report)
            bar.advance(hands=len(report["hands"]))
            if format == Format.json:
                out.write((b"" if first else b",\n ") + orjson.dumps(report))
                first = False
            elif not quiet:
                for violation in report["violations"]:
                    typer.echo(violation_line(item.source, violation))
    if format == Format.json:
        out.write(b'],\n "errors": ' + orjson.dumps(errors) + b',\n "summary": '
                  + orjson.dumps({"games": summary.games, "hands": summary.hands,
                                  "invalid_games": summary.invalid_games,
                                  "violations": summary.violations, "errors": summary.errors,
                                  "by_code": summary.by_code}) + b"}\n")
        out.flush()
    else:
        typer.echo(summary_line(summary))
    raise typer.Exit(summary.exit_code)
