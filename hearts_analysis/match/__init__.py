"""Duplicate matches between any players: built-in bots, Python classes, programs in any language.

Each deal is played once for each seating (:mod:`.seating`), so every player sits in every
seat on the same cards; a player sees only its seat's view (:mod:`.view`); an outside bot's
bad answer goes to a fallback and is recorded (:mod:`.players`, :mod:`.exe`); the results
pair the players deal by deal (:mod:`.results`).

>>> from hearts_analysis.rules import Rules
>>> config = MatchConfig(players_of(["random", "heuristic"]), Rules.preset("standard"), seed=3)
>>> tally = Tally(["random", "heuristic"])
>>> for deal in run_match(config, 20):
...     tally.add(deal)
>>> doc = tally.summary()
>>> doc["deals"], doc["hands"], [p["hands"] for p in doc["players"]]
(20, 40, [80, 80])
>>> doc["pairs"][0]["difference"] > 0  # random takes more points than heuristic
True

In the ``one`` seating (:mod:`.seating`) the first player sits in one seat against the second in the
others, then the second in that seat: each deal counts one hand a player, of that seat.

>>> config = MatchConfig(players_of(["heuristic", "random"]), Rules.preset("standard"), seed=3, seating="one")
>>> tally = Tally(["heuristic", "random"])
>>> for deal in run_match(config, 20):
...     tally.add(deal)
>>> doc = tally.summary()
>>> doc["hands"], [p["hands"] for p in doc["players"]], doc["pairs"][0]["difference"] < 0
(40, [20, 20], True)
"""

from __future__ import annotations

from typing import Callable, Iterator

from ..executor import Task, open_executor, ordered
from .exe import ExeBot, Fault
from .play import DealResult, MatchConfig, close_rosters, play_deal, play_deals
from .players import PlayerError, PlayerSpec, bot_player, check_player, check_table, named, parse_player
from .results import Tally, csv_text, text
from .seating import SEATINGS, deal_rules, focus_seat, one_against_rest, rotations
from .view import seat_view

__all__ = ["DealResult", "ExeBot", "Fault", "MatchConfig", "PlayerError", "PlayerSpec", "SEATINGS", "Tally",
           "bot_player", "check_player", "check_table", "csv_text", "deal_rules", "focus_seat", "named",
           "one_against_rest", "parse_player", "play_deal", "players_of", "rotations", "run_match", "seat_view",
           "text"]

CHUNK = 10
"""Deals in one worker's task: small enough for a steady progress display, large enough to cost nothing."""


def players_of(texts: list[str]) -> tuple[PlayerSpec, ...]:
    """The players named by ``texts``, checked and uniquely named; a :class:`PlayerError` otherwise."""
    if len(texts) < 2:
        raise PlayerError("a match needs at least two players")
    specs = named([parse_player(t) for t in texts])
    for spec in specs:
        check_player(spec)
    return tuple(specs)


def run_match(config: MatchConfig, deals: int, workers: int = 1,
              progress: Callable[[DealResult], None] | None = None) -> Iterator[DealResult]:
    """Each deal's result, in deal order, played here or by ``workers`` processes (the project's executor)."""
    chunk = max(1, min(CHUNK, -(-deals // max(1, workers * 4))))
    tasks = (Task(play_deals, (config, start, min(deals, start + chunk))) for start in range(0, deals, chunk))
    try:
        with open_executor(min(workers, -(-deals // chunk))) as executor:
            for results in ordered(tasks, executor, ahead=2 * max(1, workers)):
                for deal in results:
                    if progress is not None:
                        progress(deal)
                    yield deal
    finally:
        close_rosters()
