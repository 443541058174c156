"""Exact max^n play of the last tricks for every lane at once, by expanding the whole tree.

In lockstep every seat to move holds as many cards as there are tricks left,
so the tree has the same shape in every lane: at each play, child ``j`` plays
the mover's ``j``-th lowest card (or is marked illegal). The tree is played
out breadth-first, scored at the leaves, and backed up with each mover taking
its own minimum, ties to the lowest card — the rule of :mod:`.solver`, which
the tests hold this to. Two tricks make 16 leaves per lane with four seats.
"""

from __future__ import annotations

import numpy as np

from .lanes import BIT, ZERO, Lanes, lowest

_ILLEGAL = 1 << 20


def solve_lanes(lanes: Lanes, moon_choice: str = "add_to_others") -> tuple[np.ndarray, np.ndarray]:
    """Final points ``(lanes, seats)`` under perfect play from each lane's position, and the cards
    each seat took on that line of play (consumes ``lanes``)."""
    levels: list[tuple[np.ndarray, np.ndarray]] = []
    while not lanes.is_over:
        ways = lanes.tricks_left
        if ways == 1 and lanes.position == 0:
            lanes.play_last_trick()
            break
        seat = lanes.mover()
        legal = lanes.legal(seat)
        if ways == 1:
            lanes.play(lowest(legal), seat)
            continue
        hand = lanes.hand_of(seat)
        options = np.empty((lanes.count, ways), np.int64)
        for j in range(ways):
            options[:, j] = lowest(hand)
            hand = hand & ~np.where(options[:, j] >= 0, BIT[options[:, j]], ZERO)
        valid = (options >= 0) & ((legal[:, None] & BIT[options]) != ZERO)
        valid[:, 0] |= lanes.ended
        lanes = lanes.expand(ways)
        lanes.play(options.reshape(-1), np.repeat(seat, ways))
        levels.append((seat, valid))
    values = lanes.points(moon_choice)
    leaf = np.arange(lanes.count)
    for seat, valid in reversed(levels):
        count, ways = valid.shape
        values = values.reshape(count, ways, -1)
        own = np.take_along_axis(values, seat[:, None, None], axis=2)[:, :, 0]
        choice = np.argmin(np.where(valid, own, _ILLEGAL), axis=1)
        values = values[np.arange(count), choice]
        leaf = leaf.reshape(count, ways)[np.arange(count), choice]
    return values, lanes.taken[leaf]
