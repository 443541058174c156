"""``hearts validate``: the audit, as a linter report."""

from __future__ import annotations

import sys
from enum import Enum
from typing import Iterator, Optional

import orjson
import typer

from ..audit import Summary, error_report
from ..text import terminal_safe
from .app import RULES_OPTION, SET_OPTION, app, error_line, fail, rules_from_options
from .colour import Painter, painter, plain
from .progress import progress


def violation_line(source: str, violation: dict, paint: Painter = plain) -> str:
    where = [f"hand {violation['hand']}" if violation["hand"] is not None else "game"]
    if violation["trick"] is not None:
        where.append(f"trick {violation['trick']}")
    if violation["seat"] is not None:
        where.append(paint(f"seat {violation['seat']}", "cyan"))
    return (f"{terminal_safe(source)}: {' '.join(where)}: {paint(violation['code'], 'bold red')}: "
            f"{terminal_safe(violation['message'])}")


def summary_line(summary: Summary, paint: Painter = plain) -> str:
    parts = [f"{summary.games:,} game{'s' if summary.games != 1 else ''} ({summary.hands:,} hands) checked"]
    if summary.violations:
        parts.append(paint(f"{summary.violations:,} violation{'s' if summary.violations != 1 else ''} "
                           f"in {summary.invalid_games:,} game{'s' if summary.invalid_games != 1 else ''}", "bold red"))
    else:
        parts.append(paint("no violations", "bold green"))
    if summary.errors:
        parts.append(f"{summary.errors:,} unreadable record{'s' if summary.errors != 1 else ''}")
    return ", ".join(parts)


class Engine(str, Enum):
    reference = "reference"
    fast = "fast"
    dask = "dask"


def _entries(paths: list[str], rules, engine: Engine | None, workers: int, scheduler: Optional[str],
             render: bool) -> Iterator:
    """The audit as :mod:`hearts_analysis.fastpath` entries (imported here: it loads pyarrow)."""
    if engine == Engine.dask:
        from ..fastpath.cluster import DaskMissing, dask_entries
        try:
            yield from dask_entries(paths, rules, scheduler, workers, render)
        except DaskMissing as missing:
            raise fail(str(missing))
        return
    if scheduler is not None:
        raise fail("--scheduler goes with --engine dask")
    from ..fastpath import audit_entries
    yield from audit_entries(paths, rules, (engine or Engine.fast).value, workers, render)


class AuditFormat(str, Enum):
    text = "text"
    json = "json"


@app.command()
def validate(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Game files (.json, .jsonl, .parquet), folders of them, or - for stdin."),
    format: AuditFormat = typer.Option(AuditFormat.text, "--format", "-f", help="text (one line per violation) or json."),
    rules: Optional[str] = RULES_OPTION,
    set_: Optional[list[str]] = SET_OPTION,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Text format: print only the summary line."),
    engine: Optional[Engine] = typer.Option(
        None, "--engine", "-e", case_sensitive=False,
        help="reference (replay game by game), fast (vectorised screen of Parquet columns, and of JSON "
             "Lines encoded to columns in memory; the default; other JSON is always replayed) or dask (the fast path on a Dask cluster, for folders of "
             "Parquet part files; needs pip install 'hearts-analysis[dask]'). All give the same results."),
    workers: int = typer.Option(1, "--workers", "-w", min=1,
                                help="Processes for Parquet and JSON Lines input (row groups or chunks of "
                                     "lines in parallel; results in input order), at most one per CPU and "
                                     "per part of the input. With --engine dask: local workers when no "
                                     "--scheduler is given."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="Dask scheduler, e.g. tcp://host:8786 (with --engine dask)."),
) -> None:
    """Replay every hand, re-score it and report every rule violation.

    Exit status: 0 every game is clean, 1 violations were found, 2 some input
    could not be read (reported with its file, line and field; the rest is
    still checked).

    Parquet and JSON Lines input go through the fast path (a vectorised
    screen of the columns, JSON Lines encoded to columns in memory; any game
    with anything doubtful is read and replayed by the reference engine),
    with the reference engine's results.

    Examples:

      hearts validate games.jsonl --format json

      hearts validate corpus.parquet --workers 2

      hearts validate corpus/ --engine dask --scheduler tcp://host:8786
    """
    from ..fastpath import CleanRun
    forced = rules_from_options(rules, set_)
    summary = Summary()
    errors: list[dict] = []
    first = True
    as_json = format == AuditFormat.json
    paint = painter()
    with progress("validating", enabled="-" not in paths) as bar:
        out = sys.stdout.buffer   # taken inside: on a terminal, progress clears its line before each write
        if as_json:
            out.write(b'{"games": [')
        for entry in _entries(paths, forced, engine, workers, scheduler, as_json):
            if isinstance(entry, CleanRun):
                summary.games += entry.games
                summary.hands += entry.hands
                bar.advance(games=entry.games, hands=entry.hands)
                if as_json:
                    for text in entry.render():
                        out.write((b"" if first else b",\n ") + text)
                        first = False
                continue
            item, report = entry.item, entry.report
            if report is None:
                summary.errors += 1
                errors.append(error_report(item))
                if format == AuditFormat.text:
                    typer.echo(error_line(item))
                continue
            summary.add_game(report)
            bar.advance(hands=len(report["hands"]))
            if as_json:
                out.write((b"" if first else b",\n ") + orjson.dumps(report))
                first = False
            elif not quiet:
                for violation in report["violations"]:
                    typer.echo(violation_line(item.source, violation, paint))
    if as_json:
        out.write(b'],\n "errors": ' + orjson.dumps(errors) + b',\n "summary": '
                  + orjson.dumps({"games": summary.games, "hands": summary.hands,
                                  "invalid_games": summary.invalid_games,
                                  "violations": summary.violations, "errors": summary.errors,
                                  "by_code": summary.by_code}) + b"}\n")
        out.flush()
    else:
        typer.echo(summary_line(summary, paint))
    raise typer.Exit(summary.exit_code)
