"""``hearts validate``: the audit, as a linter report.

One line per violation, ``source: place: code: message``, as linters print them, and a closing count:

>>> import dataclasses
>>> from hearts_analysis.corpus_audit import game_report
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> first = dataclasses.replace(game.hands[0], points=(0, 2, 8, 0))
>>> report = game_report(replay_game(dataclasses.replace(game, hands=(first, *game.hands[1:]))), "games.jsonl:1")
>>> print(violation_line(report["source"], report["violations"][0]))
games.jsonl:1: hand 1 seat 0: points-mismatch: seat 0 (bot1) is recorded with 0 points for hand 1; the tricks give 17
>>> summary = Summary()
>>> summary.add_game(report)
>>> summary_line(summary), summary.exit_code
('1 game (2 hands) checked, 2 violations in 1 game', 1)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from enum import Enum
from typing import Optional

import typer

from ..corpus_audit import Summary
from ..text import counted, terminal_safe
from .streams import data_form
from .app import KEEP_DUPLICATES_OPTION, RULES_OPTION, SET_OPTION, app, error_line, fail, rules_from_options
from .colour import Painter, painter, plain
from .progress import progress


JSON_SPOOL_BYTES = 8 << 20
"""The JSON document is held until the run ends, so that a run stopped part way (dead Dask workers) prints no
half document; past this size it is held in a temporary file, not in memory."""


def violation_line(source: str, violation: dict, paint: Painter = plain) -> str:
    where = [f"hand {violation['hand']}" if violation["hand"] is not None else "game"]
    if violation["trick"] is not None:
        where.append(f"trick {violation['trick']}")
    if violation["seat"] is not None:
        where.append(paint(f"seat {violation['seat']}", "cyan"))
    return (f"{terminal_safe(source)}: {' '.join(where)}: {paint(violation['code'], 'bold red')}: "
            f"{terminal_safe(violation['message'])}")


def summary_line(summary: Summary, paint: Painter = plain) -> str:
    parts = [f"{counted(summary.games, 'game')} ({counted(summary.hands, 'hand')}) checked"]
    if summary.violations:
        parts.append(paint(f"{summary.violations:,} violation{'s' if summary.violations != 1 else ''} "
                           f"in {summary.invalid_games:,} game{'s' if summary.invalid_games != 1 else ''}", "bold red"))
    else:
        parts.append(paint("no violations", "bold green"))
    if summary.notes:
        parts.append(f"{summary.notes:,} note{'s' if summary.notes != 1 else ''} (what was not checked: view-unchecked, unmodelled)")
    if summary.errors:
        parts.append(f"{summary.errors:,} unreadable record{'s' if summary.errors != 1 else ''}")
    return ", ".join(parts)


class Engine(str, Enum):
    reference = "reference"
    fast = "fast"
    dask = "dask"


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
    workers: Optional[int] = typer.Option(
        None, "--workers", "-w", min=1, show_default="one per CPU for JSON Lines, else 1",
        help="Processes for Parquet and JSON Lines input (row groups or chunks of lines in parallel; results "
             "in input order), at most one per CPU and per part of the input. By default JSON Lines of more "
             "than a few MB use every CPU (their lines are parsed in Python, one core each), and Parquet one "
             "process (Arrow decodes it on several threads). With --engine dask: local workers when no "
             "--scheduler is given."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="Dask scheduler, e.g. tcp://host:8786 (with --engine dask)."),
    keep_duplicates: bool = KEEP_DUPLICATES_OPTION,
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

      hearts validate games.jsonl --workers 1      # one process, whatever the CPUs

      hearts validate corpus/ --engine dask --scheduler tcp://host:8786
    """
    from ..cluster import ClusterError
    from ..fastpath import AUTO
    from ..fastpath.audit_api import CorpusAudit, EngineMisuse
    from ..fastpath.run import CleanRun
    as_json = format == AuditFormat.json
    try:
        audit = CorpusAudit(paths, rules_from_options(rules, set_), (engine or Engine.fast).value,
                            AUTO if workers is None else workers, scheduler, render=as_json,
                            keep_duplicates=keep_duplicates)
    except EngineMisuse as misuse:
        raise fail(str(misuse))
    paint = painter()

    def advance(entry) -> None:
        if isinstance(entry, CleanRun):
            bar.advance(games=entry.games, hands=entry.hands)
        elif entry.report is not None:
            bar.advance(hands=len(entry.report["hands"]))

    try:
        with progress("validating", enabled="-" not in paths) as bar:
            if as_json:
                with tempfile.SpooledTemporaryFile(max_size=JSON_SPOOL_BYTES) as held:
                    audit.write_json(held, advance)
                    held.seek(0)
                    with data_form("json"):
                        shutil.copyfileobj(held, sys.stdout.buffer)   # only a whole document: a stopped run prints none
                        sys.stdout.buffer.flush()
            else:
                for entry in audit:
                    advance(entry)
                    if isinstance(entry, CleanRun):
                        continue
                    if entry.report is None:
                        typer.echo(error_line(entry.item))
                    elif not quiet:
                        for violation in [*entry.report["violations"], *entry.report.get("notes", ())]:
                            typer.echo(violation_line(entry.item.source, violation, paint))
    except ClusterError as missing:
        raise fail(str(missing))
    if not as_json:
        typer.echo(summary_line(audit.summary, paint))
    raise typer.Exit(audit.summary.exit_code)
