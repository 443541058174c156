"""``hearts stats``: one row per player over a corpus, streamed.

On a terminal the leaderboard fits its width: the columns that matter least are dropped
first (the rating the board is sorted by, the games and the leaks last), a line says which,
and a leak's sentence wraps at a word, so a narrow window still shows who leads:

>>> from hearts_analysis.analysis.stats import tally_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> tally = tally_games(simulate_games(2, Rules.preset("standard", target=30), seed=7))
>>> print(render_text(tally, ("player", "games", "wins", "win_pct", "rating_conservative"), width=40))
player  games  wins  rating_conservative
  bot4      2     2                 5.89
  bot3      2     0                 0.92
  bot1      2     0                -1.05
  bot2      2     0                -1.52
2 games, 6 hands; best first by
    rating_conservative (rating - 3 x
    rating_sigma)
left out to fit the terminal: win_pct
    (choose with --columns)
leaks: significant ones only
    (--all-leaks shows every costly
    difference)
"""

from __future__ import annotations

import math
import shutil
import sys
import textwrap
from enum import Enum
from pathlib import Path
from typing import Optional

import orjson
import typer

from ..analysis import catalogue
from ..analysis.catalogue import help_text
from ..analysis.export import TableWriter
from ..analysis.leaks import ReviewCosts, read_review_costs
from ..analysis.stats import Tally
from ..atomic import atomic_open, check_output
from ..suggest import did_you_mean
from ..text import counted, terminal_safe
from .streams import data_form
from .app import (EXIT_BAD_INPUT, EXIT_CLEAN, KEEP_DUPLICATES_OPTION, RULES_OPTION, SET_OPTION, app, error_line, fail,
                  rules_from_options)
from .progress import progress


class StatsFormat(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    parquet = "parquet"


class StatsTable(str, Enum):
    players = "players"
    leaks = "leaks"
    pass_summary = "pass_summary"
    pass_outcomes = "pass_outcomes"
    ratings = "ratings"


ROWS = {StatsTable.players: Tally.player_rows, StatsTable.leaks: Tally.leak_rows,
        StatsTable.pass_summary: Tally.pass_summary_rows, StatsTable.pass_outcomes: Tally.pass_outcome_rows,
        StatsTable.ratings: Tally.rating_rows}
REVIEWED = (StatsTable.players, StatsTable.leaks)
"""Tables the review's costs change."""
PASS_TABLES = (StatsTable.pass_summary, StatsTable.pass_outcomes)
"""Tables of the pass details, counted only when asked for (see ``tally_corpus``)."""
SUFFIX_FORMATS = {".csv": StatsFormat.csv, ".json": StatsFormat.json, ".parquet": StatsFormat.parquet,
                  ".pq": StatsFormat.parquet, ".txt": StatsFormat.text}
TEXT_COLUMNS = ("player", "rating_conservative", "rating", "rating_sigma", "games", "hands", "wins", "win_pct", "avg_position",
                "points_per_hand", "qs_taken_pct", "moon_attempts", "moons_shot", "moon_attempts_stopped", "hearts_broken_pct",
                "violations_per_100_hands", "leaks")
KEPT_LONGEST = ("player", "rating_conservative", "games", "leaks", "wins")
"""Columns a narrow terminal keeps longest, most needed first: who, the rating the board is sorted by, the
sample, the leaks; the others are dropped from the right before any of these."""

_COLUMN_HELP = "\b\n" + help_text("players")


def render_text(tally: Tally, columns: tuple[str, ...] = TEXT_COLUMNS, width: int | None = None,
                all_leaks: bool = False, review: ReviewCosts | None = None) -> str:
    """The leaderboard (best conservative rating first) in the chosen columns, then each player's leaks.

    Given a ``width`` (a terminal's), columns are dropped from the right until the table
    fits, and a line says which were left out.
    """
    rows = tally.leaderboard_rows(review)
    if not rows:
        return f"{tally.games} games, {tally.hands} hands: no players"
    cells = [[_cell(row[column]) for column in columns] for row in rows]
    widths = [max(len(column), *(len(line[i]) for line in cells)) for i, column in enumerate(columns)]
    kept = list(range(len(columns)))
    drop_order = [i for i in reversed(kept) if columns[i] not in KEPT_LONGEST] + \
        sorted((i for i in kept if columns[i] in KEPT_LONGEST), key=lambda i: -KEPT_LONGEST.index(columns[i]))
    while width is not None and len(kept) > 1 and sum(widths[i] for i in kept) + 2 * (len(kept) - 1) > width:
        kept.remove(drop_order.pop(0))
    lines = ["  ".join(columns[i].rjust(widths[i]) for i in kept)]
    lines += ["  ".join(line[i].rjust(widths[i]) for i in kept) for line in cells]
    lines.append(f"{counted(tally.games, 'game')}, {counted(tally.hands, 'hand')}; best first by rating_conservative "
                 "(rating - 3 x rating_sigma)")
    if len(kept) < len(columns):
        left = [column for i, column in enumerate(columns) if i not in kept]
        lines.append(f"left out to fit the terminal: {', '.join(left)} (choose with --columns)")
    sentences = tally.leak_sentences(all_leaks, review)
    for row in rows:
        for sentence in sentences[row["player"]]:
            lines.append(f"leak: {row['player']}: {sentence}")
    if not all_leaks:
        lines.append("leaks: significant ones only (--all-leaks shows every costly difference)")
    lines = list(map(terminal_safe, lines))
    if width is not None:   # a long line wraps at a word, not wherever the terminal's edge falls
        lines = [wrapped for line in lines for wrapped in
                 (textwrap.wrap(line, width, subsequent_indent="    ", break_long_words=False,
                                break_on_hyphens=False) if len(line) > width else [line])]
    return "\n".join(lines)


def _cell(value) -> str:
    if isinstance(value, float):
        return "-" if math.isnan(value) else f"{value:.2f}"
    return str(value)


@app.command(help=f"""Player statistics over a corpus: one row per player (by the records' player ids).

Games, hands, wins, average finishing position, a skill rating with its
uncertainty (openskill's Plackett-Luce, from the finished games in played_at
order), points per hand, QS taken, moon attempts / shots / stops and choice
accuracy, hearts broken, pass tendencies, violations per 100 hands, and a leak
finder: the decisions where a player differs from the typical player, what
that costs in points per hand, and whether the difference is beyond luck
(significant after the correction for every player and statistic tested).
--review adds the review's cost per decision, the most direct evidence.
Parquet is counted from its card columns, a row group at a time, other files game by
game, in bounded memory.

Text is a leaderboard, best conservative rating (rating - 3 x rating_sigma)
first, then the significant leaks (--all-leaks: every costly difference).
The format follows --output's suffix (.csv, .json, .parquet, .txt) unless
--format is given; without --output, text goes to the terminal. --table picks
players (default), leaks, ratings (each player's rating after each game),
pass_summary or pass_outcomes for csv and parquet; json holds players, leaks
(every statistic tested, with its significance), ratings and pass_summary.

Exit status: 0, or 2 if some input could not be read (the rest is still counted).

Examples:

  hearts stats corpus.parquet -o stats.csv

  hearts stats corpus.parquet --columns player,games,win_pct,points_per_hand

  hearts stats club/ --review review.json --all-leaks

Columns of the players table (docs/statistics.md has every table):

{_COLUMN_HELP}""")
def stats(
    paths: list[str] = typer.Argument(..., metavar="CORPUS...",
                                      help="Game files (.json, .jsonl, .parquet), folders, or - for stdin."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write to FILE (atomically; - is standard output) instead of standard output."),
    format: Optional[StatsFormat] = typer.Option(
        None, "--format", "-f", help="text, json, csv or parquet (default: from --output, else text)."),
    table: StatsTable = typer.Option(StatsTable.players, "--table", "-t", help="csv / parquet: which table to write."),
    columns: Optional[str] = typer.Option(
        None, "--columns", "-c", metavar="A,B,C",
        help="Text: the players columns to show, e.g. --columns player,games,win_pct (default: "
             f"{','.join(TEXT_COLUMNS)}; on a terminal, those that fit its width)."),
    workers: Optional[int] = typer.Option(
        None, "--workers", "-w", min=1, show_default="one per CPU",
        help="Count in this many processes (at most one per CPU and per part of the input: a Parquet row group "
             "pair, or 2 MB of JSON Lines)."),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", metavar="ADDRESS",
        help="Count on a Dask cluster, e.g. tcp://host:8786 (needs pip install 'hearts-analysis[dask]'; the "
             "workers must see the input files)."),
    all_leaks: bool = typer.Option(False, "--all-leaks",
                                   help="Text: show every costly difference, not only the significant leaks."),
    review: Optional[list[Path]] = typer.Option(
        None, "--review", metavar="REVIEW.json",
        help="A `hearts review --format json` document of (some of) these games: adds the review's cost per "
             "decision to the leak finder (repeatable)."),
    rules: Optional[str] = RULES_OPTION,
    set_: Optional[list[str]] = SET_OPTION,
    keep_duplicates: bool = KEEP_DUPLICATES_OPTION,
) -> None:
    forced = rules_from_options(rules, set_)
    if format is None:
        format = SUFFIX_FORMATS.get(Path(output).suffix.lower(), StatsFormat.csv) if output else StatsFormat.text
    if format == StatsFormat.parquet and output is None:
        raise fail("--format parquet needs --output FILE.parquet")
    check_output(output, paths)
    chosen = _chosen_columns(columns)
    try:
        costs = read_review_costs(review) if review else None
    except ValueError as error:
        raise fail(f"--review: {error}")

    with progress("counting", enabled="-" not in paths) as bar:
        from ..analysis.count import count_corpus  # loads Arrow: only when counting
        details = format == StatsFormat.json or (format != StatsFormat.text and table in PASS_TABLES)
        from ..cluster import ClusterError
        try:
            tally = count_corpus(paths, forced, lambda games, hands: bar.advance(games, hands), workers, _report,
                                 details, scheduler, keep_duplicates)
        except ClusterError as error:
            raise fail(str(error))

    if format in (StatsFormat.csv, StatsFormat.parquet):
        with data_form(format.value, output in (None, "-")), TableWriter(table.value, format.value, output) as writer:
            writer.write(ROWS[table](tally, costs) if table in REVIEWED else ROWS[table](tally))
    else:
        if format == StatsFormat.json:
            data = orjson.dumps(tally.document(costs), option=orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY) + b"\n"
        else:
            fit = shutil.get_terminal_size().columns if output is None and columns is None and sys.stdout.isatty() else None
            data = render_text(tally, chosen, fit, all_leaks, costs).encode() + b"\n"
        if output is None:
            with data_form(format.value):
                sys.stdout.buffer.write(data)
                sys.stdout.flush()
        else:
            with atomic_open(output, "wb") as out:
                out.write(data)
    raise typer.Exit(EXIT_BAD_INPUT if tally.error_count else EXIT_CLEAN)


def _chosen_columns(text: Optional[str]) -> tuple[str, ...]:
    if text is None:
        return TEXT_COLUMNS
    known = catalogue.columns("players")
    chosen = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in chosen if name not in known]
    if unknown or not chosen:
        hints = "".join(f"; {name} was renamed {catalogue.RENAMED[name]}" if name in catalogue.RENAMED
                        else did_you_mean(name, known) for name in unknown)
        raise fail(f"--columns: unknown column {', '.join(unknown) or '(none given)'}{hints}; "
                   f"the players columns are {', '.join(known)}")
    return chosen


def _report(item) -> None:
    """Tell stderr about an unreadable record."""
    typer.echo(error_line(item), err=True)
