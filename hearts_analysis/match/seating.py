"""Who sits where, and on which cards: the duplicate schedule of a match.

Deal ``k`` is played once for each rotation ``r`` of the players: seat ``s`` holds player
``(s + r) % m`` of ``m``, so over the ``m`` rotations every player sits in every seat on the
same cards. Two players alternate round the table:

>>> rotations(2, 4)
[(0, 1, 0, 1), (1, 0, 1, 0)]
>>> rotations(3, 3)
[(0, 1, 2), (1, 2, 0), (2, 0, 1)]

The other seating, ``one`` (:data:`SEATINGS`), puts player 0 in one seat against player 1 in
every other seat, then player 1 in every seat: the pair is the two hands of that one seat. The
seat turns one step every time the pass cycle comes round, so over ``seats`` turns of the cycle
every seat passes every way (as ``benchmarks/judge_strength.py`` measures the judge):

>>> one_against_rest(4, 4, 4)
[(1, 0, 1, 1), (1, 1, 1, 1)]
>>> [focus_seat(k, 4, 4) for k in range(0, 20, 4)]
[0, 1, 2, 3, 0]

The deal and its pass direction come from the stream ``"SEED:k"``, and the bot in seat ``s``
from ``"SEED:k:s"`` whoever sits there (as ``benchmarks/judge_strength.py`` seeds its deals).
The pass cycle turns one step a deal, so the deals of a match pass every way in turn:

>>> from hearts_analysis.rules import Rules
>>> [deal_rules(Rules.preset("standard"), 4, k).table(4).pass_direction(1) for k in range(5)]
['left', 'right', 'across', 'hold', 'left']
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..rules import Rules


SEATINGS = ("alternate", "one")
"""``alternate``: every player in every seat (:func:`rotations`, the default); ``one``: player 0 in one seat
against player 1 in the others, then player 1 in that seat (:func:`one_against_rest`; two players)."""


def rotations(players: int, seats: int) -> list[tuple[int, ...]]:
    """The seatings of one deal: per rotation, the player index in each seat."""
    return [tuple((seat + r) % players for seat in range(seats)) for r in range(players)]


def focus_seat(k: int, seats: int, cycle: int) -> int:
    """The one seat of deal ``k`` in the ``one`` seating: one step on each time a pass cycle of ``cycle``
    directions comes round."""
    return k // max(1, cycle) % seats


def one_against_rest(seats: int, k: int, cycle: int, players: int = 2) -> list[tuple[int, ...]]:
    """The seatings of deal ``k`` in the ``one`` seating: player 0 in :func:`focus_seat` and player 1 in the
    others, then player 1 in every seat."""
    if players != 2:
        raise ValueError(f"the one-against-the-rest seating is for two players, not {players}")
    seat = focus_seat(k, seats, cycle)
    return [tuple(0 if s == seat else 1 for s in range(seats)), (1,) * seats]


@lru_cache(maxsize=64)
def _turned(rules: Rules, seats: int, step: int) -> Rules:
    cycle = rules.table(seats).pass_cycle
    return rules.replace(pass_cycle=list(cycle[step:] + cycle[:step]))


def deal_rules(rules: Rules, seats: int, k: int) -> Rules:
    """The rules of deal ``k`` (0-based): the pass cycle started ``k`` steps on, so that its one hand
    passes the way the deal's place in the cycle says (and a record of it validates)."""
    step = k % len(rules.table(seats).pass_cycle)
    return rules if step == 0 else _turned(rules, seats, step)


def deal_stream(seed: int, k: int) -> random.Random:
    """The stream that deals deal ``k`` (and draws its direction where the cycle says ``any``)."""
    return random.Random(f"{seed}:{k}")


def seat_stream(seed: int, k: int, seat: int) -> random.Random:
    """The stream of the bot in ``seat`` on deal ``k``, whoever sits there."""
    return random.Random(f"{seed}:{k}:{seat}")
