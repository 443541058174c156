"""``hearts analyze``: points taken, moon attempts and passes, game by game.

The library writes the documents (:mod:`hearts_analysis.analysis.document`); this module reads the
options, opens the output, shows progress and reports the unreadable records.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import Enum
from typing import IO, Optional

import typer

from ..analysis.catalogue import TABLES
from ..analysis.export import TableWriter
from ..analysis.document import AGGREGATES, analyses, keep_error, write_document
from ..analysis.tables import ROWS
from ..atomic import atomic_open, check_output
from ..records.sources import iter_sources
from .streams import data_form
from .app import (EXIT_BAD_INPUT, EXIT_CLEAN, RULES_OPTION, SET_OPTION, app, error_line, fail,
                  rules_from_options)
from .progress import progress


class AnalyzeFormat(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    parquet = "parquet"


TableName = Enum("TableName", {name: name for name in [*ROWS, *AGGREGATES]}, type=str)


@app.command(help=f"""Analyse each game: points taken, moon attempts and pass choices.

For every hand and seat: hearts, QS, JD, tricks, where each point card fell
and who gave it, points before and after the moon, running totals and
positions; every run for the moon (shot, stopped or abandoned, with the
stopper and what it cost); every pass with the advisor's verdicts. Columns
are documented in docs/statistics.md.

Formats: text (readable), json (every game), csv and parquet (one --table;
parquet needs --output). Tables: {', '.join(TABLES[t].name for t in [*ROWS, *AGGREGATES])}.

Exit status: 0, or 2 if some input could not be read (the rest is still analysed).

Example: hearts analyze game.json --format json""")
def analyze(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Game files (.json, .jsonl, .parquet), folders, or - for stdin."),
    format: AnalyzeFormat = typer.Option(AnalyzeFormat.text, "--format", "-f", help="text, json, csv or parquet."),
    table: TableName = typer.Option("points", "--table", "-t", help="csv / parquet: which table to write."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write to FILE (atomically; - is standard output) instead of standard output."),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", metavar="ADDRESS",
        help=f"Count the corpus tables ({', '.join(AGGREGATES)}) on a Dask cluster, e.g. tcp://host:8786 (needs "
             "pip install 'hearts-analysis[dask]'; the workers must see the input files)."),
    rules: Optional[str] = RULES_OPTION,
    set_: Optional[list[str]] = SET_OPTION,
) -> None:
    forced = rules_from_options(rules, set_)
    table_name = table.value if isinstance(table, Enum) else str(table)
    if scheduler is not None and (format not in (AnalyzeFormat.csv, AnalyzeFormat.parquet)
                                  or table_name not in AGGREGATES):
        raise fail(f"--scheduler counts the corpus tables ({', '.join(AGGREGATES)}) with --format csv or parquet")
    if format == AnalyzeFormat.parquet and output is None:
        raise fail("--format parquet needs --output FILE.parquet")
    check_output(output, paths)
    errors: list[dict] = []
    with ExitStack() as stack:
        bar = stack.enter_context(progress("analysing", enabled="-" not in paths))
        stack.enter_context(data_form(format.value, output in (None, "-")))
        items = iter_sources(paths, forced)

        def unreadable(item) -> None:
            typer.echo(error_line(item), err=True)

        def advance(analysis) -> None:
            bar.advance(hands=len(analysis.hands))

        if format in (AnalyzeFormat.csv, AnalyzeFormat.parquet):
            writer = stack.enter_context(TableWriter(table_name, format.value, output))
            if table_name in AGGREGATES:  # counts over the corpus: Parquet from its columns
                from ..analysis.corpus_tally import tally_corpus  # loads Arrow: only when counting
                from ..cluster import ClusterError
                try:
                    tally = tally_corpus(paths, forced, lambda games, hands: bar.advance(games, hands),
                                         on_error=keep_error(errors, unreadable),
                                         scheduler=scheduler)
                except ClusterError as error:
                    raise fail(str(error))
                writer.write(AGGREGATES[table_name](tally))
            else:
                for analysis in analyses(items, errors, unreadable, advance):
                    writer.write(ROWS[table_name](analysis))
        else:
            out: IO[bytes] = (stack.enter_context(atomic_open(output, "wb")) if output is not None
                              else sys.stdout.buffer)
            errors = write_document(items, format.value, out, unreadable, advance)
            out.flush()
    raise typer.Exit(EXIT_BAD_INPUT if errors else EXIT_CLEAN)
