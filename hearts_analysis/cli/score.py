"""``hearts score``: the score sheet of each game, recomputed from the plays.

The library builds the sheet (:func:`~hearts_analysis.score_sheet.score_sheet`); this
module only lays it out, the moon named on the hand it was shot:

>>> from hearts_analysis.score_sheet import score_sheet
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> print(render_text(score_sheet(replay_game(game), "games.jsonl:1")))
sim-0-1  [games.jsonl:1]
hand       bot1       bot2       bot3       bot4  moon
      pts total  pts total  pts total  pts total
------------------------------------------------------
   1   16    16    2     2    8     8    0     0
   2    0    16   26    28   26    34   26    26  bot1 shot the moon (add to others)
------------------------------------------------------
total         16         28         34         26
winner: bot1
"""

from __future__ import annotations

import sys
from typing import Optional

import orjson
import typer

from ..corpus_audit import error_report
from ..score_sheet import SCORE_CSV_COLUMNS, score_rows, score_sheets
from ..text import csv_writer, terminal_safe
from .app import RULES_OPTION, SET_OPTION, Format, app, error_line, rules_from_options
from .colour import Painter, painter, plain
from ..records.model import SHEET_NOTE
from .streams import data_form


def render_text(sheet: dict, paint: Painter = plain) -> str:
    players = [terminal_safe(name) for name in sheet["players"]]
    width = max(9, *(len(p) for p in players))
    head = f"{'hand':>4}  " + "  ".join(f"{p:>{width}}" for p in players) + "  moon"
    title = terminal_safe(f"{sheet['game_id'] or '(no game id)'}  [{sheet['source']}]")
    sub = f"{'':>4}  " + "  ".join(f"{'pts total':>{width}}" for _ in players)
    lines = [title, head, sub, "-" * len(head)]
    for hand in sheet["hands"]:
        cells = "  ".join(f"{f'{pts:>3} {tot:>5}':>{width}}" for pts, tot in zip(hand["points"], hand["totals"]))
        moon = hand["moon"]
        note = f"{players[moon['seat']]} shot the moon ({moon['choice'].replace('_', ' ')})" if moon else ""
        if not hand.get("counted", True):
            note = "; ".join(filter(None, [note, "after the end: not counted"]))
        lines.append(f"{hand['hand']:>4}  {cells}  {note}".rstrip())
    lines.append("-" * len(head))
    lines.append(paint(f"{'total':>4}  " + "  ".join(f"{t:>{width}}" for t in sheet["totals"]), "bold"))
    if sheet.get("ended_at") is not None and sheet["ended_at"] < len(sheet["hands"]):
        lines.append(f"the game ended after hand {sheet['ended_at']}; the totals are those at its end")
    if sheet["complete"]:
        names = " and ".join(players[s] for s in sheet["winners"])
        # the label plain, the name green: a bold line under the bold total reads as one run-on block
        label = "winner: " if len(sheet["winners"]) == 1 else "tied winners: "
        lines.append(label + paint(names, "green"))
    else:
        lines.append("game not finished: no total has reached the target")
    if not sheet.get("plays_checked", True):
        lines.append(SHEET_NOTE)
    if sheet["violations"]:
        lines.append(f"note: {sheet['violations']} rule violation(s); see `hearts validate`")
    return "\n".join(lines)


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
            typer.echo(render_text(sheet, painter()) + "\n")
    if format == Format.json:
        sys.stdout.buffer.write(orjson.dumps({"games": sheets, "errors": errors}, option=orjson.OPT_INDENT_2) + b"\n")
    return errors
