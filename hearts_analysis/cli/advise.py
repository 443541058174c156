"""``hearts advise``: the judge's advice on a game in progress, for the seat that must decide.

The text lists every real choice, best first, with its expected points and a reason:

>>> from hearts_analysis.cards import parse_card
>>> from hearts_analysis.review.board import AdvisedOption, Advice
>>> from hearts_analysis.review.evaluate import Option
>>> best = AdvisedOption(Option((parse_card("QS"),), 3.14, 0.3, 2.0, 0.0), 0.41, "fewest points on average")
>>> worse = AdvisedOption(Option((parse_card("KS"),), 5.0, 0.4, 2.1, 0.0), 0.5, "1.9 \u00b1 0.3 points more than QS")
>>> readings = ((0, {"basic": 0.05, "strong": 0.95}), (1, {"basic": 0.5, "strong": 0.5}),
...             (3, {"basic": 0.9, "strong": 0.1}))
>>> print(advice_text(Advice(2, "play", (best, worse), 200, readings)))
seat 2 plays QS (expected points over 200 deals, best first):
  QS   3.1 ± 0.4  fewest points on average
  KS   5.0 ± 0.5  1.9 ± 0.3 points more than QS
the others, read from their plays this hand: seat 0 like the stronger opponent model (95%); seat 1 like either model (basic 50%, strong 50%); seat 3 like the basic opponent model (90%)
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import orjson
import typer

from ..records.sources import read_games
from ..text import shown, terminal_safe
from .streams import data_form
from .app import EXIT_BAD_INPUT, app, error_line, fail


class AdviceFormat(str, Enum):
    text = "text"
    json = "json"


def advice_text(advice) -> str:
    verb = "passes" if advice.kind == "pass" else "plays"
    width = max(len(" ".join(o.to_dict()["cards"])) for o in advice.options)
    lines = [f"seat {advice.seat} {verb} {' '.join(advice.best)} (expected points over {advice.samples} deals, "
             "best first):"]
    for option in advice.options:
        cards = " ".join(option.to_dict()["cards"])
        lines.append(f"  {cards:<{width}}  {option.expected:4.1f} \u00b1 {option.margin:.1f}  "
                     f"{terminal_safe(option.reason)}")
    if advice.readings:
        lines.append("the others, read from their plays this hand: " + "; ".join(
            f"seat {seat} {_reading(chances)}" for seat, chances in advice.readings))
    return "\n".join(lines)


def _reading(chances: dict[str, float]) -> str:
    """How a seat plays, in words: like the model it most likely follows, or either."""
    from ..review.policy import MODEL_WORDS  # loaded with the judge already; kept off the CLI's start-up
    model, chance = max(chances.items(), key=lambda item: item[1])
    if chance < 0.75:
        return "like either model (" + ", ".join(f"{m} {c:.0%}" for m, c in chances.items()) + ")"
    return f"like {MODEL_WORDS[model]} ({chance:.0%})"


@app.command("advise")
def advise_command(
    game: Path = typer.Argument(..., metavar="GAME", help="A hearts-game/1 .json file whose last hand is in "
                                "progress (its deal holds every seat's cards)."),
    seat: Optional[int] = typer.Option(None, "--seat", "-s", min=0, help="The seat to advise (0-based). "
                                       "Required at the pass; at a play it must be the seat to move."),
    output_format: AdviceFormat = typer.Option(AdviceFormat.text, "--format", "-f",
                                               help="text (best first, with reasons) or json."),
) -> None:
    """Advise the seat to move in a game in progress: every real choice, best first.

    The judge is the review's: each choice is played out on deals drawn from
    what the seat could know (its cards, its pass, the public plays), and the
    same position always gets the same advice. On a hand that passes, with no
    passes recorded and no plays yet, it advises the pass of --seat;
    otherwise the play of the seat to move. Earlier hands give the totals.

    Example: hearts advise game.json --seat 2 --format json
    """
    from ..review.board import PositionError, advise

    if not game.is_file():
        raise fail(f"{game}: no such file")
    items = list(read_games(game))
    for item in items:
        if item.error is not None:
            typer.echo(error_line(item), err=True)
            raise typer.Exit(EXIT_BAD_INPUT)
    if len(items) != 1:
        raise fail(f"{game}: holds {len(items)} games; advise reads one")
    try:
        advice = advise(items[0].game, seat)
    except PositionError as error:
        hint = " (--seat N)" if "name the seat" in str(error) else ""
        raise fail(f"{game}: {error}{hint}")
    except ValueError as error:
        raise fail(f"{game}: {shown(str(error))}")
    if output_format == AdviceFormat.json:
        with data_form("json"):
            typer.echo(orjson.dumps(advice.to_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        typer.echo(advice_text(advice))
