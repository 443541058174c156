"""``hearts convert``: JSON, JSON Lines and Parquet corpora into one another.

>>> import tempfile, pathlib
>>> from typer.testing import CliRunner
>>> from hearts_analysis.cli import app
>>> from hearts_analysis.records.sources import iter_sources
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> runner = CliRunner()
>>> runner.invoke(app, ["simulate", "-n", "2", "--seed", "7", "--set", "target=30", "-o", str(folder / "games.jsonl")]).exit_code
0
>>> done = runner.invoke(app, ["convert", str(folder / "games.jsonl"), str(folder / "games.parquet")])
>>> done.exit_code, done.stderr.split(" into ")[0]
(0, 'converted 2 games (6 hands)')
>>> def games(name):
...     return [item.game for item in iter_sources([folder / name])]
>>> games("games.parquet") == games("games.jsonl")
True

An output that is also an input is refused before anything is written:

>>> same = CliRunner().invoke(app, ["convert", str(folder / "games.jsonl"), str(folder / "games.jsonl")])
>>> same.exit_code, same.stderr.endswith("choose another output\\n")
(2, True)
"""

from __future__ import annotations

from typing import Optional

import typer

from ..records.convert import convert as convert_games
from ..records.errors import Item
from ..text import counted, os_error_text, terminal_safe
from .streams import data_form
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
    append: bool = typer.Option(
        False, "--append", "-a",
        help="Add the games to the corpus folder DST as new part files, leaving its files as they are; a game "
             "whose game_id is already in DST (or earlier in SRC) is skipped and counted on stderr."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="With --append: also name each game skipped, one line each."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print no summary line."),
) -> None:
    """Convert games between JSON, JSON Lines and Parquet, in either direction, without loss.

    The format of DST follows its suffix: .jsonl (one game per line), .json
    (exactly one game), .parquet, or a folder (no suffix, or an existing folder)
    of Parquet part files. Records are copied field for field, unknown fields
    and explicit nulls included; cards are written in canonical notation (QS, TH).
    The output appears only when complete. Unreadable records are reported on
    stderr with their file, line or row, and field; the rest is converted.

    With --append, DST is a corpus folder that grows: the new games go into
    new part files numbered after its last one (part-00007.parquet, ...); the
    files already there are not rewritten, and a game whose game_id is already
    in the folder is skipped and counted in the summary (--verbose names each;
    skipping is not an error). Then run
    hearts stats or hearts report on the folder: they read every part.

    Exit status: 0 every record converted, 2 some input could not be read (or
    the command could not run).

    Examples:

      hearts convert games.jsonl corpus.parquet

      hearts convert corpus.parquet games.jsonl

      hearts convert games/ corpus/ --partition-size 1000000

      hearts convert week-49.jsonl club/ --append
    """
    def report(item: Item) -> None:
        typer.echo(error_line(item), err=True)

    if append:
        _append(sources, target, partition_size, report, quiet, verbose)

    try:
        with progress("converting", enabled="-" not in sources) as bar, data_form("json", str(target) == "-"):
            done = convert_games(sources, target, partition_size=partition_size, on_error=report,
                                 on_progress=lambda games, hands: bar.advance(games, hands))
    except OSError as error:
        raise fail(os_error_text(error, target))
    except ValueError as error:
        raise fail(str(error))
    if not quiet:
        summary = f"converted {counted(done.games, 'game')} ({counted(done.hands, 'hand')}) into {target}"
        if done.errors:
            summary += f"; {done.errors:,} unreadable record{'s' if done.errors != 1 else ''} skipped"
        typer.echo(summary, err=True)
    raise typer.Exit(EXIT_BAD_INPUT if done.errors else EXIT_CLEAN)


def _append(sources: list[str], target: str, partition_size: Optional[int], report, quiet: bool,
            verbose: bool = False) -> None:
    from ..records.append import append as append_games   # pyarrow: only when appending
    def skipped(item: Item, where: str) -> None:
        if verbose:   # a second append of the same week would otherwise print a line per game
            typer.echo(terminal_safe(f"{item.source}: skipped: game_id {item.game.game_id!r} is {where}"), err=True)

    try:
        with progress("appending", enabled="-" not in sources) as bar:
            done = append_games(sources, target, partition_size, on_error=report, on_skip=skipped,
                                on_progress=lambda games, hands: bar.advance(games, hands))
    except OSError as error:
        raise fail(os_error_text(error, target))
    except ValueError as error:
        raise fail(str(error))
    if not quiet:
        parts = f" as {', '.join(done.parts)}" if done.parts else ""
        summary = f"appended {counted(done.games, 'game')} ({counted(done.hands, 'hand')}) to {target}{parts}"
        if done.skipped:
            summary += f"; skipped {done.skipped:,} already there" + ("" if verbose else " (--verbose names them)")
        if done.without_id:
            summary += f"; {done.without_id:,} without a game_id could not be checked for repeats"
        if done.errors:
            summary += f"; {done.errors:,} unreadable record{'s' if done.errors != 1 else ''} skipped"
        typer.echo(summary, err=True)
    raise typer.Exit(EXIT_BAD_INPUT if done.errors else EXIT_CLEAN)
