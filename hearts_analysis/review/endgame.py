"""Exact max^n play of the last tricks for every lane at once, by expanding the whole tree.

In lockstep every seat to move holds as many cards as there are tricks left,
and the tree is played out breadth-first: at each play, every lane gets a
child for each legal card of the mover, lowest first (a seat that must follow
with its one card of the suit has one child, not one per card held). The
leaves are scored, and the values backed up with each mover taking its own
minimum, ties to the lowest card: the rule of :mod:`.solver`, which the tests
hold this to. A card as good as the next lower legal one (the same suit, no
card in play between them, neither scoring on its own) gets no child: the tie
would go to the lower. Two tricks make at most 16 leaves per lane with four
seats.

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

from .lanes import BIT, U64, ZERO, Lanes, lowest, special_cards


def solve_lanes(lanes: Lanes, moon_choice: str = "add_to_others") -> tuple[np.ndarray, np.ndarray]:
    """Final points ``(lanes, seats)`` under perfect play from each lane's position, and the cards
    each seat took on that line of play (consumes ``lanes``)."""
    levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    special = U64(special_cards(lanes.table))
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
        options = np.empty((lanes.count, ways), np.int64)
        for j in range(ways):
            options[:, j] = lowest(legal)
            legal = legal & ~np.where(options[:, j] >= 0, BIT[options[:, j]], ZERO)
        valid = options >= 0
        live = np.bitwise_or.reduce(lanes.hands, axis=1) | lanes.trick
        for j in range(1, ways):
            valid[:, j] &= ~_equivalent(options[:, j - 1], options[:, j], live, special)
        valid[:, 0] |= lanes.ended      # a lane whose hand has ended plays nothing, once
        children = valid.sum(axis=1)
        parents = np.repeat(np.arange(lanes.count), children)
        lanes = lanes.select(parents)
        lanes.play(options[valid], seat[parents])
        levels.append((seat, children, parents))
    values = lanes.points(moon_choice)
    leaf = np.arange(lanes.count)
    for seat, children, parents in reversed(levels):
        own = values[np.arange(len(parents)), seat[parents]]
        first = np.cumsum(children) - children
        least = np.minimum.reduceat(own, first)
        # the first child (the lowest card) of each parent that reaches the parent's minimum
        best = np.flatnonzero(own == least[parents])
        chosen = best[np.unique(parents[best], return_index=True)[1]]
        values, leaf = values[chosen], leaf[chosen]
    return values, lanes.taken[leaf]


def _equivalent(lower: np.ndarray, higher: np.ndarray, live: np.ndarray, special: np.uint64) -> np.ndarray:
    """``higher`` is as good as ``lower`` (the next lower legal card): the same suit, no card still in
    play between them, neither scoring on its own (hearts score alike). Then it wins and loses the
    same tricks, and the tie would go to ``lower`` anyway, so it needs no child of its own."""
    both = (lower >= 0) & (higher >= 0)
    low, high = BIT[np.maximum(lower, 0)], BIT[np.maximum(higher, 0)]
    between = (high - low) & ~low
    return (both & (lower // 13 == higher // 13) & ((between & live) == ZERO)
            & (((low | high) & special) == ZERO))
