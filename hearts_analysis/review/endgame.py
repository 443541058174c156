"""Exact max^n play of the last tricks for every lane at once, by expanding the whole tree.

In lockstep every seat to move holds as many cards as there are tricks left,
so the tree has the same shape in every lane: at each play, child ``j`` plays
the mover's ``j``-th lowest card (or is marked illegal). The tree is played
out breadth-first, scored at the leaves, and backed up with each mover taking
its own minimum, ties to the lowest card — the rule of :mod:`.solver`, which
the tests hold this to. Two tricks make 16 leaves per lane with four seats.

Two tricks left, seat 0 to lead: whatever anyone plays, seat 3's AS wins
the spade trick that QS falls on.

>>> from hearts_analysis.cards import mask_of, names, parse_card
>>> from hearts_analysis.rules import Rules
>>> table = Rules.preset("standard").table(4)
>>> hands = [mask_of(parse_card(c) for c in text.split()) for text in ("2S 3C", "QS 4C", "KS 5C", "AS 6C")]
>>> lanes = Lanes(table, np.array([hands], np.uint64), np.array([0]), broken=np.array([True]), trick_number=12)
>>> points, taken = solve_lanes(lanes)
>>> points.tolist(), names(int(taken[0, 3]))
([[0, 0, 0, 13]], ['3C', '4C', '5C', '6C', '2S', 'QS', 'KS', 'AS'])
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
