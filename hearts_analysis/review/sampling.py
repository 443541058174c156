"""Hidden deals drawn uniformly from all deals a seat's knowledge allows, exactly.

Unplaced cards fall into groups by the set of seats that may hold them (voids
make the groups). The number of deals that complete a partial deal is a small
dynamic programme over the groups and the seats' remaining room, so each
group's split between its seats is drawn with the probability of the deals it
leaves, then its cards are shuffled into that split. Nothing is rejected and
every consistent deal is equally likely. Samples are drawn together and share
the programme; only the splits differ.

Seat 0 holds 2C; 3C, 4C and 2H are hidden, one to a seat, and seat 1 has
shown it has no heart: four deals remain, and seat 1 always gets a club.

>>> from hearts_analysis.cards import mask_of, names, parse_card
>>> def cards(text): return mask_of(parse_card(c) for c in text.split())
>>> knowledge = Knowledge(0, cards("2C"), (1, 1, 1, 1), (cards("2C"), 0, 0, 0),
...                       (cards("2C"), cards("3C 4C"), cards("3C 4C 2H"), cards("3C 4C 2H")))
>>> count_deals(knowledge)
4
>>> hands = sample_hands(knowledge, 5, np.random.default_rng(0))
>>> sorted({names(int(row[1]))[0] for row in hands})
['3C', '4C']
"""

from __future__ import annotations

from functools import lru_cache
from math import factorial
from typing import NamedTuple

import numpy as np

from ..cards import iter_cards
from .information_set import Knowledge
from ..kernel.compiled import place_cards
from ..kernel.masks import U64


class InconsistentKnowledge(ValueError):
    """No deal fits what the seat knows (the record contradicts itself)."""


def _splits(size: int, room: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Ways to split ``size`` cards over seats with ``room`` places each."""
    if len(room) == 1:
        return [(size,)] if size <= room[0] else []
    rest = sum(room[1:])
    return [(first,) + tail for first in range(max(0, size - rest), min(room[0], size) + 1)
            for tail in _splits(size - first, room[1:])]


class _Deals:
    """Counts of completions: ``ways(i, room)`` deals of groups ``i..`` into ``room``.

    ``groups`` holds each group's seats (a bit per other seat) and its number of cards: the counts
    depend on nothing else, so knowledges with the same groups share one (see :func:`_deals_for`)."""

    def __init__(self, groups: tuple[tuple[int, int], ...]):
        self.groups = groups
        self.ways = lru_cache(maxsize=None)(self._ways)
        self._tables: dict[tuple[int, int], tuple[np.ndarray, np.ndarray | None]] = {}

    def options(self, index: int, room: tuple[int, ...]) -> tuple[list[tuple[int, ...]], np.ndarray]:
        """The splits of group ``index`` (over all seats, zeros for seats it cannot reach) and their
        probabilities given ``room``."""
        mask, size = self.groups[index]
        seats = [s for s in range(len(room)) if mask >> s & 1]
        splits, weights = [], []
        for part in _splits(size, tuple(room[s] for s in seats)):
            full = [0] * len(room)
            for seat, count in zip(seats, part):
                full[seat] = count
            left = tuple(r - f for r, f in zip(room, full))
            ways = self.ways(index + 1, left)
            if ways:
                multinomial = factorial(size)
                for count in part:
                    multinomial //= factorial(count)
                splits.append(tuple(full))
                weights.append(multinomial * ways)
        total = sum(weights)
        return splits, np.array([w / total for w in weights])

    def table(self, index: int, key: int, room: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """:meth:`options` as arrays, kept by ``(index, key)`` (``key`` names ``room``): the splits, one
        row each, and the cumulative distribution ``Generator.choice`` searches (None for one split).
        The cdf is numpy's own: ``p.cumsum()`` divided by its last entry."""
        found = self._tables.get((index, key))
        if found is None:
            splits, probabilities = self.options(index, tuple(int(r) for r in room))
            cdf = None
            if len(splits) > 1:
                cdf = probabilities.cumsum()
                cdf /= cdf[-1]
            found = self._tables[index, key] = (np.array(splits, np.int64), cdf)
        return found

    def _ways(self, index: int, room: tuple[int, ...]) -> int:
        if index == len(self.groups):
            return int(not any(room))
        mask, size = self.groups[index]
        seats = [s for s in range(len(room)) if mask >> s & 1]
        total = 0
        for part in _splits(size, tuple(room[s] for s in seats)):
            left = list(room)
            multinomial = factorial(size)
            for seat, count in zip(seats, part):
                left[seat] -= count
                multinomial //= factorial(count)
            total += multinomial * self.ways(index + 1, tuple(left))
        return total


@lru_cache(maxsize=4096)
def _deals_for(groups: tuple[tuple[int, int], ...]) -> _Deals:
    """One :class:`_Deals` for each shape of groups: its counts and split tables serve every knowledge
    with those groups (later decisions, other hands), not just the batches of one decision."""
    return _Deals(groups)


class _Programme(NamedTuple):
    """What every batch of deals for one knowledge shares."""

    others: tuple[int, ...]
    deals: _Deals
    room: tuple[int, ...]
    cards: tuple[np.ndarray, ...]
    """Each group's cards."""
    holds: np.ndarray
    seats: np.ndarray
    scale: np.ndarray
    """Weights that turn a row of rooms into one number, in the rooms' lexicographic order."""


def count_deals(knowledge: Knowledge) -> int:
    """How many deals of the hidden cards fit ``knowledge``."""
    programme = _programme(knowledge)
    return programme.deals.ways(0, programme.room)


@lru_cache(maxsize=64)
def _programme(knowledge: Knowledge) -> _Programme:
    """Kept for the few knowledges in use: a decision draws its deals in several batches, and the
    counts of completions (:class:`_Deals` memoises them) are the same for every batch."""
    others = tuple(s for s in range(len(knowledge.counts)) if s != knowledge.seat)
    room = tuple(knowledge.counts[s] - knowledge.holds[s].bit_count() for s in others)
    # a group's cards by masks, seat by seat: those the group's seats may hold and the rest may not
    by_mask = {0: knowledge.unplaced}
    for i, s in enumerate(others):
        may = knowledge.may_hold[s]
        by_mask = {key: cards for mask, group in by_mask.items()
                   for key, cards in ((mask, group & ~may), (mask | 1 << i, group & may)) if cards}
    groups = sorted(((mask, list(iter_cards(cards))) for mask, cards in by_mask.items()),
                    key=lambda item: (item[0].bit_count(), item[0]))
    deals = _deals_for(tuple((mask, len(cards)) for mask, cards in groups))
    scale = 16 ** np.arange(len(room) - 1, -1, -1, dtype=np.int64)   # a room is at most 13: one digit each
    return _Programme(others, deals, room, tuple(np.array(cards, np.int64) for _, cards in groups),
                      np.array(knowledge.holds, U64), np.array(others, np.int64), scale)


def sample_hands(knowledge: Knowledge, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` deals (rows of per-seat hand masks) drawn uniformly from those ``knowledge`` allows.

    Group by group, each row's split is chosen as ``rng.choice(len(splits), p=...)`` would choose
    it, one call per distinct room in the rooms' lexicographic order, and its cards are shuffled
    by ``rng.random((count, cards))``; those draws are made in one ``rng.random`` call per group
    (the same numbers in the same order: numpy's ``choice`` draws ``random(size)`` and searches
    the cumulative distribution), and the split tables are kept across calls."""
    others, deals, room, group_cards, holds, seats, scale = _programme(knowledge)
    if any(r < 0 for r in room) or not deals.ways(0, room):
        raise InconsistentKnowledge(f"no deal of the hidden cards fits what seat {knowledge.seat} knows")
    hands = np.empty((count, len(holds)), U64)
    hands[:] = holds
    rooms = np.empty((count, len(room)), np.int64)
    rooms[:] = room
    same = True   # every row has the same room (always so for the first group)
    key0 = int(np.dot(room, scale))
    for index, cards in enumerate(group_cards):
        size = len(cards)
        if same:
            splits, cdf = deals.table(index, key0, rooms[0])
            if cdf is None:
                draws = rng.random(count * size)
                split = np.broadcast_to(splits[0], rooms.shape)
            else:
                draws = rng.random(count + count * size)
                split = splits[cdf.searchsorted(draws[:count], side="right")]
                draws = draws[count:]
        else:
            keys = rooms @ scale
            order = np.argsort(keys, kind="stable")
            ordered = keys[order]
            bounds = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
            starts = [0, *bounds.tolist()]
            ends = [*bounds.tolist(), count]
            tables = [deals.table(index, int(ordered[a]), rooms[order[a]]) for a in starts]
            chosen = sum(b - a for a, b, (_, cdf) in zip(starts, ends, tables) if cdf is not None)
            draws = rng.random(chosen + count * size)
            split = np.empty_like(rooms)
            used = 0
            for a, b, (splits, cdf) in zip(starts, ends, tables):
                members = order[a:b]
                if cdf is None:
                    split[members] = splits[0]
                else:
                    split[members] = splits[cdf.searchsorted(draws[used:used + b - a], side="right")]
                    used += b - a
            draws = draws[chosen:]
        if index + 1 < len(group_cards):
            rooms = rooms - split
            same = same and cdf is None
            if same:
                key0 = int(np.dot(rooms[0], scale))
        place_cards(hands.view(np.int64), seats, np.ascontiguousarray(split), cards, draws.reshape(count, size),
                    np.empty(size, np.int64))
    return hands
