"""Who sits where, and on which cards: the duplicate schedule of a match.

Deal ``k`` is played once for each rotation ``r`` of the players: seat ``s`` holds player
``(s + r) % m`` of ``m``, so over the ``m`` rotations every player sits in every seat on the
same cards. Two players alternate round the table:

>>> rotations(2, 4)
[(0, 1, 0, 1), (1, 0, 1, 0)]
>>> rotations(3, 3)
[(0, 1, 2), (1, 2, 0), (2, 0, 1)]

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


def rotations(players: int, seats: int) -> list[tuple[int, ...]]:
    """The seatings of one deal: per rotation, the player index in each seat."""
    return [tuple((seat + r) % players for seat in range(seats)) for r in range(players)]


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
