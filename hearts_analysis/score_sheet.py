"""The score sheet of a game, recomputed from its plays (what ``hearts score`` prints).

A sheet is a plain dict, so that its JSON and CSV forms read the same thing:

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.engine import replay_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> sheet = score_sheet(replay_game(game), "game.json")
>>> sheet["hands"][0]["points"], sheet["totals"] == list(game.hands[-1].totals)
([0, 1, 6, 19], True)
>>> next(score_rows(sheet))[:7]
['game.json', None, 1, 0, 'ann', 0, 0]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import orjson

from .engine.replay import GameResult, replay_game
from .records.errors import Item
from .records.model import SHEET_NOTE, is_score_sheet
from .records.sources import iter_sources
from .rules import Rules
from .text import terminal_safe


def score_sheet(result: GameResult, source: str) -> dict:
    """The score sheet of one game (``hearts score --format json``): points per hand, running totals, moons."""
    return {
        "source": source,
        "game_id": result.record.game_id,
        "players": list(result.record.players),
        "hands": [{"hand": h.number, "pass_direction": h.pass_direction,
                   "points_before_moon": list(h.raw_points), "points": list(h.points),
                   "totals": list(h.totals), "moon": None if h.moon is None else h.moon.to_dict(),
                   "violations": len(h.violations), "counted": not result.after_end(h)} for h in result.hands],
        "totals": list(result.totals),
        "ended_at": result.ended_at,
        "winners": list(result.winners),
        "complete": result.complete,
        "violations": len(result.violations),
        "plays_checked": not is_score_sheet(result.record),
    }


SCORE_CSV_COLUMNS = ("source", "game_id", "hand", "seat", "player", "points_before_moon", "points",
                     "total", "moon_seat", "moon_choice")
"""``hearts score --format csv``: one row per hand and seat."""


def score_rows(sheet: dict[str, Any]) -> Iterator[list[Any]]:
    """The rows of a score sheet, in :data:`SCORE_CSV_COLUMNS`."""
    for hand in sheet["hands"]:
        moon = hand["moon"] or {}
        for seat, player in enumerate(sheet["players"]):
            yield [sheet["source"], sheet["game_id"], hand["hand"], seat, player, hand["points_before_moon"][seat],
                   hand["points"][seat], hand["totals"][seat], moon.get("seat", ""), moon.get("choice", "")]


def score_sheets(paths: Iterable[str | Path], rules: Rules | None = None) -> Iterator[tuple[Item, dict | None]]:
    """Each game's score sheet, recomputed from the plays; an unreadable record comes with ``None``."""
    for item in iter_sources(paths, rules):
        yield item, None if item.game is None else score_sheet(replay_game(item.game), item.source)


def score_json(sheets: list[dict], errors: list[dict]) -> bytes:
    """``hearts score --format json``: the sheets and the unreadable records' reports, indented.

    >>> print(score_json([], [{"source": "g.jsonl:2", "message": "not JSON"}]).decode(), end="")
    {
      "games": [],
      "errors": [
        {
          "source": "g.jsonl:2",
          "message": "not JSON"
        }
      ]
    }
    """
    return orjson.dumps({"games": sheets, "errors": errors}, option=orjson.OPT_INDENT_2) + b"\n"


def sheet_text(sheet: dict, paint: Callable[[str, str], str] = lambda text, style: text) -> str:
    """A score sheet laid out for a person, the moon named on the hand it was shot; ``paint(text, style)``
    styles the totals (``"bold"``) and the winner (``"green"``).

    >>> from hearts_analysis.rules import Rules
    >>> from hearts_analysis.simulate import simulate_games
    >>> game = next(simulate_games(1, Rules.preset("standard", target=30), seed=19))
    >>> print(sheet_text(score_sheet(replay_game(game), "games.jsonl:1")))
    sim-19-1  [games.jsonl:1]
    hand       bot1       bot2       bot3       bot4  moon
          pts total  pts total  pts total  pts total
    ------------------------------------------------------
       1    3     3    0     0    2     2   21    21
       2   26    29    0     0   26    28   26    47  bot2 shot the moon (add to others)
    ------------------------------------------------------
    total         29          0         28         47
    winner: bot2
    """
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
