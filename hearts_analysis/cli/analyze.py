"""``hearts analyze``: points taken, moon attempts and passes, game by game.

The text is for a person reading one game: who took QS from whom, and the story of a
run for the moon in a sentence:

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=48)
>>> text = render_text(analyze_game(game, "club.jsonl:1"))
>>> print("\\n".join(text.splitlines()[2:5]))
hand 1 (left): points  13   0  13   0  totals   13    0   13    0  QS: ann (trick 12, from ann)
  hearts taken: cy 13
  moon: cy ran from trick 5; stopped by ann in trick 12 (QS), costing 13 points
>>> text.splitlines()[-1]
'winner: ann'
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import Enum
from typing import IO, Optional

import orjson
import typer

from ..analysis.catalogue import TABLES
from ..analysis.export import TableWriter
from ..analysis.game import GameAnalysis, analyze_game, analysis_to_dict
from ..analysis.stats import Tally
from ..analysis.tables import ROWS
from ..atomic import atomic_open, check_output
from ..corpus_audit import error_report
from ..records.sources import iter_sources
from ..text import terminal_safe
from .streams import data_form
from .app import (EXIT_BAD_INPUT, EXIT_CLEAN, RULES_OPTION, SET_OPTION, app, error_line, fail,
                  rules_from_options)
from .progress import progress


class AnalyzeFormat(str, Enum):
    text = "text"
    json = "json"
    csv = "csv"
    parquet = "parquet"


AGGREGATES = {"pass_summary": Tally.pass_summary_rows, "pass_outcomes": Tally.pass_outcome_rows}
TableName = Enum("TableName", {name: name for name in [*ROWS, *AGGREGATES]}, type=str)


def _seat(analysis: GameAnalysis, seat: int | None) -> str:
    return "-" if seat is None else analysis.players[seat]


def render_text(analysis: GameAnalysis) -> str:
    """A readable account of one game."""
    data = analysis_to_dict(analysis)
    players = analysis.players
    lines = [f"{data['game_id'] or '(no game id)'}  [{analysis.source}]",
             "players: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(players))]
    moons = {moon["hand"]: moon for moon in data["moons"]}
    passes: dict[int, list[dict]] = {}
    for review in data["passes"]:
        passes.setdefault(review["hand"], []).append(review)
    for hand in data["hands"]:
        qs = next((p for p in hand["point_cards"] if p["card"] == "QS"), None)
        head = (f"hand {hand['hand']} ({hand['pass_direction']}): points "
                + " ".join(f"{p:>3}" for p in hand["points"]) + "  totals "
                + " ".join(f"{t:>4}" for t in hand["totals"]))
        if qs is not None:
            head += f"  QS: {players[qs['to']]} (trick {qs['trick']}, from {players[qs['from']]})"
        lines.append(head)
        if any(hand["hearts"]):
            lines.append("  hearts taken: " + ", ".join(f"{players[s]} {h}" for s, h in enumerate(hand["hearts"]) if h))
        if hand["sun"] is not None:
            lines.append(f"  {players[hand['sun']]} won every trick (shot the sun)")
        if hand["near_miss"] is not None:
            lines.append(f"  near miss: {players[hand['near_miss']]} took all the points but one")
        moon = moons.get(hand["hand"])
        if moon is not None:
            lines.append("  moon: " + moon_sentence(analysis, moon))
        for review in passes.get(hand["hand"], []):
            verdicts = f"  [{'; '.join(review['verdicts'])}]" if review["verdicts"] else ""
            lines.append(f"  pass {players[review['seat']]} -> {players[review['to']]}: "
                         f"{' '.join(review['cards'])}{verdicts}")
    standing = ", ".join(f"{players[s]} {t} ({p})" for s, (t, p) in enumerate(zip(data["totals"], data["positions"])))
    lines.append(f"final: {standing}")
    if data["complete"]:
        lines.append("winner: " + " and ".join(players[s] for s in data["winners"]))
    else:
        lines.append("game not finished: no total has reached the target")
    return "\n".join(map(terminal_safe, lines))


def moon_sentence(analysis: GameAnalysis, moon: dict) -> str:
    who = analysis.players[moon["seat"]]
    text = f"{who} ran from trick {moon['start_trick']}"
    if moon["outcome"] == "shot":
        text += " and shot the moon" + (" (and the sun)" if moon["sun"] else "")
        if moon["choice"]:
            text += f", scored {moon['choice'].replace('_', ' ')}"
            if moon["choice_correct"] is False:
                text += f" (better: {moon['better_choice'].replace('_', ' ')})"
    elif moon["outcome"] == "stopped":
        text += (f"; stopped by {_seat(analysis, moon['stopper'])} in trick {moon['trick']} ({moon['card']}), "
                 f"costing {moon['cost']} points")
    else:
        text += f"; gave up in trick {moon['trick'] or 'at the end'}, costing {moon['cost']} points"
    for missed in moon["missed_stops"]:
        who = analysis.players[missed["seat"]]
        text += f"; {who} could have stopped it in trick {missed['trick']} with {missed['card']}"
    return text


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
        if format in (AnalyzeFormat.csv, AnalyzeFormat.parquet):
            writer = stack.enter_context(TableWriter(table_name, format.value, output))
            if table_name in AGGREGATES:  # counts over the corpus: Parquet from its columns
                from ..analysis.corpus_tally import tally_corpus  # loads Arrow: only when counting
                from ..cluster import ClusterError
                try:
                    tally = tally_corpus(paths, forced, lambda games, hands: bar.advance(games, hands),
                                         on_error=lambda item: _unreadable(item, errors), scheduler=scheduler)
                except ClusterError as error:
                    raise fail(str(error))
                writer.write(AGGREGATES[table_name](tally))
            else:
                for item in items:
                    analysis = _analyse(item, errors, bar)
                    if analysis is not None:
                        writer.write(ROWS[table_name](analysis))
        else:
            out: IO[bytes] = (stack.enter_context(atomic_open(output, "wb")) if output is not None
                              else sys.stdout.buffer)
            first = True
            if format == AnalyzeFormat.json:
                out.write(b'{"games": [')
            for item in items:
                analysis = _analyse(item, errors, bar)
                if analysis is None:
                    continue
                if format == AnalyzeFormat.json:
                    out.write((b"" if first else b",\n ") + orjson.dumps(analysis_to_dict(analysis)))
                else:
                    out.write((b"" if first else b"\n") + render_text(analysis).encode() + b"\n")
                first = False
            if format == AnalyzeFormat.json:
                out.write(b'],\n "errors": ' + orjson.dumps(errors) + b"}\n")
            out.flush()
    raise typer.Exit(EXIT_BAD_INPUT if errors else EXIT_CLEAN)


def _unreadable(item, errors: list[dict]) -> None:
    errors.append(error_report(item))
    typer.echo(error_line(item), err=True)


def _analyse(item, errors: list[dict], bar) -> GameAnalysis | None:
    if item.game is None:
        _unreadable(item, errors)
        return None
    analysis = analyze_game(item.game, item.source)
    bar.advance(hands=len(analysis.hands))
    return analysis

