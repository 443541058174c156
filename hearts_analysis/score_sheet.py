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
from typing import Any, Iterable, Iterator

from .engine.replay import GameResult, replay_game
from .records.errors import Item
from .records.model import is_score_sheet
from .records.sources import iter_sources
from .rules import Rules


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
