"""``hearts advise``: the judge's advice on a game in progress, for the seat that must decide.

The text lists every real choice, best first, with its expected points and a reason:

>>> from hearts_analysis.cards import mask_of, parse_card
>>> from hearts_analysis.review.board import AdvisedOption, Advice, Position
>>> from hearts_analysis.review.evaluate import Option
>>> best = AdvisedOption(Option((parse_card("QS"),), 3.14, 0.3, 2.0, 0.0), 0.41, "fewest points on average")
>>> near = AdvisedOption(Option((parse_card("AS"),), 3.3, 0.3, 2.0, 0.0), 0.4, "as good as QS within the noise", True)
>>> worse = AdvisedOption(Option((parse_card("KS"),), 5.0, 0.4, 2.1, 0.0), 0.5, "1.9 \u00b1 0.3 points more than QS")
>>> readings = ((0, {"basic": 0.05, "strong": 0.95}), (1, {"basic": 0.5, "strong": 0.5}),
...             (3, {"basic": 0.9, "strong": 0.1}))
>>> position = Position(("ann", "bob", "cy", "dee"), mask_of(map(parse_card, "AS KS QS 2H 3C".split())),
...                     ((1, parse_card("JS")),), (0, 0, 3, 0), (45, 60, 12, 80))
>>> print(advice_text(Advice(2, "play", (best, near, worse), 200, readings, position)))
cy (C) plays QS (expected points over 200 deals, best first; ≈ within the noise of the best):
  hand:  S AS KS QS   H 2H   D -   C 3C
  trick: bob (B) JS
  taken: ann (A) 0, bob (B) 0, cy (C) 3, dee (D) 0
  score: ann (A) 45, bob (B) 60, cy (C) 12, dee (D) 80
  QS   3.1 ± 0.4  fewest points on average
≈ AS   3.3 ± 0.4  as good as QS within the noise
  KS   5.0 ± 0.5  1.9 ± 0.3 points more than QS
the others, read from their plays this hand: ann (A) like the stronger opponent model (95%); bob (B) like either model (basic 50%, strong 50%); dee (D) like the basic opponent model (90%)
"""

from __future__ import annotations

from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import orjson
import typer

from ..records.sources import read_games
from ..rules import PRESETS
from ..text import shown, terminal_safe
from .streams import data_form
from .app import EXIT_BAD_INPUT, app, error_line, fail


class AdviceFormat(str, Enum):
    text = "text"
    json = "json"


def advice_text(advice) -> str:
    verb = "passes" if advice.kind == "pass" else "plays"
    position = advice.position
    name = (lambda s: position.players[s] if position.players[s] == "ABCDEFG"[s]
            else f"{position.players[s]} ({'ABCDEFG'[s]})") if position else (lambda s: f"seat {s}")
    width = max(len(" ".join(o.to_dict()["cards"])) for o in advice.options)
    measure = ("chance of winning the game, which decides here" if getattr(advice, "decided_by", "points") == "game"
               else "expected points")
    lines = [f"{name(advice.seat)} {verb} {' '.join(advice.best)} ({measure} over {advice.samples} deals, "
             "best first; \u2248 within the noise of the best):"]
    if position is not None:
        lines.extend(_position_lines(position, name))
    for option in advice.options:
        cards = " ".join(option.to_dict()["cards"])
        mark = "\u2248" if option.equal else " "
        lines.append(f"{mark} {cards:<{width}}  {option.expected:4.1f} \u00b1 {option.margin:.1f}  "
                     f"{terminal_safe(option.reason)}")
    if advice.readings:
        lines.append("the others, read from their plays this hand: " + "; ".join(
            f"{name(seat)} {_reading(chances)}" for seat, chances in advice.readings))
    return "\n".join(lines)


def _position_lines(position, name) -> list[str]:
    """The position judged: the hand by suit, the trick so far, the points taken, the game score."""
    from ..cards import SUIT_MASKS, iter_cards, names
    suits = [" ".join(reversed(names(iter_cards(position.hand & SUIT_MASKS[s])))) or "-" for s in (3, 2, 1, 0)]
    seats = range(len(position.players))
    lines = ["  hand:  " + "   ".join(f"{letter} {cards}" for letter, cards in zip("SHDC", suits))]
    if position.trick:
        lines.append("  trick: " + ", ".join(f"{terminal_safe(name(s))} {names((c,))[0]}" for s, c in position.trick))
    if any(position.taken):
        lines.append("  taken: " + ", ".join(f"{terminal_safe(name(s))} {position.taken[s]}" for s in seats))
    lines.append("  score: " + ", ".join(f"{terminal_safe(name(s))} {position.totals[s]}" for s in seats))
    return lines


def _reading(chances: dict[str, float]) -> str:
    """How a seat plays, in words: like the model it most likely follows, or either."""
    from ..review.policy import MODEL_WORDS  # loaded with the judge already; kept off the CLI's start-up
    model, chance = max(chances.items(), key=lambda item: item[1])
    if chance < 0.75:
        return "like either model (" + ", ".join(f"{m} {c:.0%}" for m, c in chances.items()) + ")"
    return f"like {MODEL_WORDS[model]} ({chance:.0%})"


@app.command("advise")
def advise_command(
    game: Optional[Path] = typer.Argument(None, metavar="[GAME]", help="A hearts-game/1 .json file whose last hand "
                                          "is in progress: a whole record, or the seat's view (docs/views.md). "
                                          "Leave it out to type the position with --hand and --plays."),
    seat: Optional[str] = typer.Option(None, "--seat", "-s", help="The seat to advise: a number (0-based) or a "
                                       "letter (A is seat 0). Required at the pass; at a play it must be the seat "
                                       "to move."),
    hand: Optional[str] = typer.Option(None, "--hand", help="Without GAME: the seat's cards as dealt, e.g. "
                                       "\"AS KS 3S 9H 6H ...\" (10H is TH)."),
    plays: str = typer.Option("", "--plays", help="Without GAME: every play from the first lead, "
                              "e.g. \"A:2C B:9C C:KC D:7C\"."),
    direction: Optional[str] = typer.Option(None, "--pass", help="Without GAME: the hand's pass direction "
                                            "(left, right, across, hold)."),
    passed: str = typer.Option("", "--passed", help="Without GAME: the cards the seat passed (none: it is "
                               "asked for its pass)."),
    received: str = typer.Option("", "--received", help="Without GAME: the cards the seat received."),
    rules: str = typer.Option("standard", "--rules", help="Without GAME: the rules preset."),
    scores: Optional[str] = typer.Option(None, "--scores", help="Without GAME: the game totals before the hand, "
                                         "one per seat, e.g. 45,60,12,80."),
    output_format: AdviceFormat = typer.Option(AdviceFormat.text, "--format", "-f",
                                               help="text (best first, with reasons) or json."),
) -> None:
    """Advise the seat to move in a game in progress: every real choice, best first.

    The judge is the review's: each choice is played out on deals drawn from
    what the seat could know (its cards, its pass, the public plays), and the
    same position always gets the same advice. On a hand that passes, with no
    passes recorded and no plays yet, it advises the pass of --seat;
    otherwise the play of the seat to move. Earlier hands give the totals.
    Without GAME, the position is typed: --hand, --plays and --seat.

    Example: hearts advise game.json --seat 2 --format json

    Example: hearts advise --hand "AS KS 3S 9H 6H 3C 5C 8D JD QD 4H TH 7S" --plays "A:2C B:9C" --seat C
    """
    if game is None:
        if hand is None or seat is None:
            raise fail("give a GAME file, or type the position with --hand, --plays and --seat")
        try:
            totals = None if scores is None else [int(v) for v in scores.replace(" ", "").split(",")]
        except ValueError:
            raise fail(f"--scores: expected whole numbers separated by commas, got {shown(scores)}")
        if rules not in PRESETS:
            raise fail(f"--rules: unknown preset {shown(rules)} (presets: {', '.join(PRESETS)})")
        try:
            with kernel_notice() as judge:
                advice = judge("advise_entry", hand, plays, seat, rules=rules, direction=direction, passed=passed,
                               received=received, scores=totals)
        except ValueError as error:
            raise fail(terminal_safe(str(error)))
        _print(advice, output_format)
        return
    if not game.is_file():
        raise fail(f"{game}: no such file")
    items = list(read_games(game))
    for item in items:
        if item.error is not None:
            typer.echo(error_line(item), err=True)
            raise typer.Exit(EXIT_BAD_INPUT)
    if len(items) != 1:
        raise fail(f"{game}: holds {len(items)} games; advise reads one")
    number = None
    if seat is not None:
        letter = "ABCDEFG".find(seat.upper()) if len(seat) == 1 and seat.isalpha() else -1
        number = letter if letter >= 0 else int(seat) if seat.isdigit() else None
        if number is None:
            raise fail(f"--seat: expected a number or a letter, got {shown(seat)}")
    try:
        with kernel_notice() as judge:
            advice = judge("advise", items[0].game, number)
    except ValueError as error:
        from ..review.board import PositionError
        if not isinstance(error, PositionError):
            raise fail(f"{game}: {shown(str(error))}")
        hint = " (--seat N)" if "name the seat" in str(error) else ""
        raise fail(f"{game}: {error}{hint}")
    _print(advice, output_format)


@contextmanager
def kernel_notice() -> Iterator[Callable[..., Any]]:
    """How to judge, as a call of a judgement of :mod:`hearts_analysis.review.board` by its name: directly
    when the review's kernel is compiled; without it, in a child process, while it compiles in the
    background after install; or directly after compiling it here. One line on stderr names any wait, and
    on a terminal a spinner shows the time spent (docs/first-run.md)."""
    from ..review import uncompiled
    from ..review.warmup import judged_uncompiled, prepare
    from .progress import progress

    def say(line: str) -> None:
        typer.echo(line, err=True)

    if judged_uncompiled(say):
        with progress("judging without the compiled kernel", note="it compiles in the background"):
            yield uncompiled.call
        return
    cold = prepare(say)
    with progress("compiling the review's kernel, then judging", enabled=cold, note="once after install"):
        yield uncompiled.here


def _print(advice, output_format: AdviceFormat) -> None:
    if output_format == AdviceFormat.json:
        with data_form("json"):
            typer.echo(orjson.dumps(advice.to_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        typer.echo(advice_text(advice))
