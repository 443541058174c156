"""``hearts match``: a duplicate match between any players, with the paired differences and their errors.

>>> import json
>>> from typer.testing import CliRunner
>>> from hearts_analysis.cli import app
>>> result = CliRunner().invoke(app, ["match", "random", "heuristic", "--deals", "6", "--format", "json"])
>>> doc = json.loads(result.stdout)
>>> result.exit_code, doc["deals"], doc["hands"], doc["pairs"][0]["a"], doc["pairs"][0]["b"]
(0, 6, 12, 'random', 'heuristic')
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import time
from enum import Enum
from pathlib import Path
from typing import Iterator, Optional

import typer

from ..atomic import check_output
from ..match import MatchConfig, PlayerError, Tally, check_table, csv_text, players_of, run_match, text
from ..records.model import GameRecord
from ..records.sources import JSON_SUFFIXES, PARQUET_SUFFIXES, write_any
from ..rules import MAX_PLAYERS, MIN_PLAYERS, RuleError
from ..text import counted, os_error_text, shown, terminal_safe
from .app import SET_OPTION, Format, app, fail, rules_from_options
from .progress import progress


PAGE_SUFFIXES = (".html", ".htm")


class Seating(str, Enum):
    alternate = "alternate"
    one = "one"


class Fallback(str, Enum):
    heuristic = "heuristic"
    random = "random"


@app.command()
def match(
    player: list[str] = typer.Argument(..., metavar="PLAYER...",
                                       help="Two or more players: random, heuristic, judge; "
                                            "python:MODULE_OR_FILE.py:Class; 'exe:COMMAND LINE' (one "
                                            "argument, quoted); openspiel:ismcts, openspiel:mcts or "
                                            "openspiel:random, a search's simulations after a colon "
                                            "(openspiel:ismcts:500; default 2000; needs "
                                            "pip install 'hearts-analysis[bench]')."),
    deals: int = typer.Option(100, "--deals", "-n", min=1, help="Deals to play, each once per seating."),
    seed: int = typer.Option(0, "--seed", help="The same seed, rules and players give the same deals."),
    rules: Optional[str] = typer.Option(None, "--rules", "-r", metavar="PRESET",
                                        help="Play under this preset (default standard; see `hearts rules`)."),
    set_: Optional[list[str]] = SET_OPTION,
    seats: int = typer.Option(4, "--players", "-p", min=MIN_PLAYERS, max=MAX_PLAYERS,
                              help="Seats at the table (3-7)."),
    seating: Seating = typer.Option(Seating.alternate, "--seating",
                                    help="alternate: the players alternate round the table, every player in "
                                         "every seat; one (two players): the first in one seat against the "
                                         "second in the others, then the second in that seat, the seat "
                                         "turning each pass cycle; the pair is that seat's two hands."),
    workers: int = typer.Option(1, "--workers", "-w", min=1, help="Processes to play in (at most one per CPU)."),
    timeout: float = typer.Option(10.0, "--timeout", min=0.001, metavar="SECONDS",
                                  help="Seconds a bot of python: or exe: may take for a decision; a later "
                                       "answer loses the decision to the fallback."),
    fallback: Fallback = typer.Option(Fallback.heuristic, "--fallback",
                                      help="The bot that makes a decision an outside bot lost (an illegal, "
                                           "late or garbled answer, a crash)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="OUT",
                                         help="Also write every game played as a corpus: .jsonl or .parquet."),
    page: Optional[str] = typer.Option(None, "--page", metavar="FILE.html",
                                       help="Also write the results as one offline HTML page: the players, the "
                                            "pairs, and each pair's difference over the deals."),
    format_: Format = typer.Option(Format.text, "--format", "-f", help="text, json or csv."),
) -> None:
    """Play a duplicate match: every deal once per seating, so every player sits in every seat on the
    same cards, and report each player's points per hand and each pair's paired difference with its
    standard error.

    Each deal is one hand; the pass direction turns one step a deal. A bot of python: or exe: sees
    only its seat's view (a hearts-game/1 record with the hidden cards null) and the legal cards; a
    bad answer is a fault, played by the fallback. The protocol: docs/match.md.

    Example: hearts match random heuristic --deals 1000 --workers 2

    Example: hearts match heuristic 'exe:perl examples/bots/lowest.pl' --deals 200 -o match.jsonl

    Example: hearts match random heuristic --deals 500 --page match.html

    Example (one heuristic against three random bots, then random in its seat):
    hearts match heuristic random --seating one --deals 1000 --workers 2

    Example (OpenSpiel's ISMCTS; pip install 'hearts-analysis[bench]'):
    hearts match heuristic openspiel:ismcts:500 --rules openspiel --deals 20
    """
    chosen = rules_from_options(rules or "standard", set_)
    try:
        chosen.table(seats)
    except RuleError as error:
        raise fail(f"bad rules for {seats} players: {error}")
    if output is not None:
        suffix = Path(output).suffix.lower()
        if suffix not in JSON_SUFFIXES + PARQUET_SUFFIXES or suffix == ".json":
            raise fail(f"{output}: unknown output format {shown(suffix)} (use .jsonl or .parquet)")
        if suffix in PARQUET_SUFFIXES and importlib.util.find_spec("hearts_analysis.records.parquet") is None:
            raise fail(f"{output}: Parquet output is not available in this installation; write .jsonl")
        check_output(output, folder=None)
    if page is not None:
        if Path(page).suffix.lower() not in PAGE_SUFFIXES:
            raise fail(f"{page}: a page is written as .html (or .htm)")
        check_output(page, [output] if output is not None else (), stdout=False)
    try:
        specs = players_of(player)
        check_table(specs, chosen, seats)
    except PlayerError as error:
        raise fail(str(error))
    if seating is Seating.one and len(specs) != 2:
        raise fail(f"--seating one: one player against another; {counted(len(specs), 'player')} given")
    config = MatchConfig(specs, chosen, seats, seed, timeout, fallback.value, records=output is not None,
                         seating=seating.value)
    tally = Tally([s.name for s in specs])
    started = time.perf_counter()
    with progress("playing", total_hands=deals * len(specs)) as bar:
        def advance(deal) -> None:
            tally.add(deal)
            bar.advance(games=len(specs), hands=len(specs), note=tally.running())

        played = run_match(config, deals, workers, advance)
        if output is None:
            for _ in played:
                pass
        else:
            try:
                write_any(_games(played), output)
            except OSError as error:
                raise fail(os_error_text(error, output))
    doc = tally.summary()
    if page is not None:
        settings = {"deals": deals, "seed": seed, "rules": rules or "standard", "set": " ".join(set_ or ()) or None,
                    "players at the table": seats,
                    "seating": seating.value, "timeout (seconds)": timeout, "fallback": fallback.value,
                    "players": " ".join(shlex.quote(text) for text in player)}
        from ..reports.match import write_match_page  # plotly and jinja2, loaded only when a page is written
        try:
            write_match_page(tally, page, {k: v for k, v in settings.items() if v is not None}, doc=doc)
        except OSError as error:
            raise fail(os_error_text(error, page))
    if format_ is Format.json:
        typer.echo(json.dumps(doc, indent=2))
    elif format_ is Format.csv:
        typer.echo(csv_text(doc), nl=False)
    else:
        typer.echo(text(doc))
    where = f"; wrote {counted(doc['hands'], 'game')} to {output}" if output else ""
    where += f"; wrote the page {page}" if page else ""
    typer.echo(terminal_safe(f"played {counted(doc['deals'], 'deal')} ({counted(doc['hands'], 'hand')}) in "
                             f"{time.perf_counter() - started:.1f}s{where}"), err=True)


def _games(played) -> Iterator[GameRecord]:
    for deal in played:
        yield from deal.games
