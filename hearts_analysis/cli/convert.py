"""``hearts convert``: JSON, JSON Lines and Parquet corpora into one another."""

from __future__ import annotations

from typing import Optional

import typer

from ..records.convert import convert as convert_games
from ..records.jsonio import Item
from ..text import os_error_text
from .app import EXIT_BAD_INPUT, EXIT_CLEAN, app, error_line, fail
from .progress import progress


@app.command()
def convert(
    sources: list[str] = typer.Argument(
        ..., metavar="SRC", help="Games to read: .json, .jsonl or .parquet files, folders of them, or - for stdin."),
    target: str = typer.Argument(..., metavar="DST", help="Where to write them; the suffix names the format."),
    partition_size: Optional[int] = typer.Option(
        None, "--partition-size", "-p", metavar="HANDS", min=1,
        help="Write DST as a folder of Parquet files part-00000.parquet, ... of about HANDS hands each "
             "(whole games per file)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print no summary line."),
) -> None:
    """Convert games between JSON, JSON Lines and Parquet, in either direction, without loss.

    The format of DST follows its suffix: .jsonl (one game per line), .json
    (exactly one game), .parquet, or a folder (no suffix, or an existing folder)
    of Parquet part files. Records are copied field for field, unknown fields
    and explicit nulls included; cards are written in canonical notation (QS, TH).
    The output appears only when complete. Unreadable records are reported on
    stderr with their file, line or row, and field; the rest is converted.

    Exit status: 0 every record converted, 2 some input could not be read (or
    the command could not run).

    Examples:

      hearts convert games.jsonl corpus.parquet

      hearts convert corpus.parquet games.jsonl

      hearts convert games/ corpus/ --partition-size 1000000
    """
    def report(item: Item) -> None:
        typer.echo(error_line(item), err=True)

    try:
        with progress("converting", enabled="-" not in sources) as bar:
            done = convert_games(sources, target, partition_size=partition_size, on_error=report,
                                 on_progress=lambda games, hands: bar.advance(games, hands))
    except OSError as error:
        raise fail(os_error_text(error, target))
    except ValueError as error:
        raise fail(str(error))
    if not quiet:
        plural = "s" if done.games != 1 else ""
        summary = f"converted {done.games:,} game{plural} ({done.hands:,} hands) into {target}"
        if done.errors:
            summary += f"; {done.errors:,} unreadable record{'s' if done.errors != 1 else ''} skipped"
        typer.echo(summary, err=True)
    raise typer.Exit(EXIT_BAD_INPUT if done.errors else EXIT_CLEAN)
