"""A hand of HeuristicBots played on the compiled kernel (:mod:`hearts_analysis.kernel.heuristic`).

The Python bots cost most of a simulated hand; their plays are the same on the kernel, given what
the bots decide in Python first, as their ``choose_play`` would at their first play: the rules they
learn and ``bold`` (a draw from the bot's stream on a hold hand, in the order the seats first play).
The kernel then says which seats ran for the moon (appended to ``moon_attempts``, as the bot does)
and which still were at the end (its ``shooting`` flag). The hand's state machine is left at the first
lead: the caller scores the cards the kernel says each seat took.

This module imports numba; :mod:`hearts_analysis.simulate.game` imports it only when a long run
(``KERNEL_GAMES``) meets a table of HeuristicBots, so the commands that neither simulate nor review,
and short runs, start without numba.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from ..cards import Card, Mask
from ..kernel.compiled import facts
from ..kernel.heuristic import SHOOTING, STARTED, play_hands
from .bots import HeuristicBot
from .play import HandPlay

_facts = lru_cache(maxsize=64)(facts)
"""The kernel's rules of a table, built once (the kernel only reads them)."""


def play_out(play: HandPlay, bots: Sequence[HeuristicBot]) -> tuple[list[tuple[int, Card]], list[Mask], list[int]]:
    """``(plays, taken, tricks won)`` of the hand from its first lead, the bots' moon records kept."""
    n, public = play.players, play.public
    if play.ended or not play.hands[play.to_play]:   # swept at the first lead: no seat plays
        return play.play_out(bots), play.taken, play.tricks_won
    plans = [()] * n
    for step in range(n):   # each bot plans at its first play, in the order of trick 1 (bold draws from its stream)
        seat = (play.leader + step) % n
        plans[seat] = bots[seat].plan(public)
    seats, cards, taken, won, moons = play_hands(_facts(play.table), np.array([play.hands], np.int64),
                                                 np.array([play.leader], np.int64), np.array([plans], np.int64))
    for bot, moon in zip(bots, moons[0].tolist()):
        bot.ran_for_moon(public.hand_number, bool(moon & STARTED), bool(moon & SHOOTING))
    seats_of, cards_of = seats[0].tolist(), cards[0].tolist()
    count = cards_of.index(-1) if -1 in cards_of else len(cards_of)
    return list(zip(seats_of[:count], cards_of[:count])), taken[0].tolist(), won[0].tolist()
