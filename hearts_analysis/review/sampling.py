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
    """Counts of completions: ``ways(i, room)`` deals of groups ``i..`` into ``room``."""

    def __init__(self, groups: list[tuple[int, list[int]]]):
        self.groups = groups
        self.ways = lru_cache(maxsize=None)(self._ways)

    def options(self, index: int, room: tuple[int, ...]) -> tuple[list[tuple[int, ...]], np.ndarray]:
        """The splits of group ``index`` (over all seats, zeros for seats it cannot reach) and their
        probabilities given ``room``."""
        mask, cards = self.groups[index]
        seats = [s for s in range(len(room)) if mask >> s & 1]
        size = len(cards)
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

    def _ways(self, index: int, room: tuple[int, ...]) -> int:
        if index == len(self.groups):
            return int(not any(room))
        mask, cards = self.groups[index]
        seats = [s for s in range(len(room)) if mask >> s & 1]
        total = 0
        for part in _splits(len(cards), tuple(room[s] for s in seats)):
            left = list(room)
            multinomial = factorial(len(cards))
            for seat, count in zip(seats, part):
                left[seat] -= count
                multinomial //= factorial(count)
            total += multinomial * self.ways(index + 1, tuple(left))
        return total


def count_deals(knowledge: Knowledge) -> int:
    """How many deals of the hidden cards fit ``knowledge``."""
    deals, room = _programme(knowledge)[1:]
    return deals.ways(0, room)


@lru_cache(maxsize=64)
def _programme(knowledge: Knowledge) -> tuple[tuple[int, ...], _Deals, tuple[int, ...]]:
    """Kept for the few knowledges in use: a decision draws its deals in several batches, and the
    counts of completions (:class:`_Deals` memoises them) are the same for every batch."""
    others = [s for s in range(len(knowledge.counts)) if s != knowledge.seat]
    room = tuple(knowledge.counts[s] - knowledge.holds[s].bit_count() for s in others)
    by_mask: dict[int, list[int]] = {}
    for card in iter_cards(knowledge.unplaced):
        mask = sum(1 << i for i, s in enumerate(others) if knowledge.may_hold[s] >> card & 1)
        by_mask.setdefault(mask, []).append(card)
    groups = sorted(by_mask.items(), key=lambda item: (bin(item[0]).count("1"), item[0]))
    return tuple(others), _Deals(groups), room


def sample_hands(knowledge: Knowledge, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` deals (rows of per-seat hand masks) drawn uniformly from those ``knowledge`` allows."""
    others, deals, room = _programme(knowledge)
    if any(r < 0 for r in room) or not deals.ways(0, room):
        raise InconsistentKnowledge(f"no deal of the hidden cards fits what seat {knowledge.seat} knows")
    hands = np.tile(np.array(knowledge.holds, U64), (count, 1))
    rooms = np.tile(np.array(room, np.int64), (count, 1))
    scale = 16 ** np.arange(len(room) - 1, -1, -1, dtype=np.int64)   # a room is at most 13: one digit each
    seats = np.array(others, np.int64)
    for index, (_, cards) in enumerate(deals.groups):
        split = np.zeros_like(rooms)
        # the distinct rooms in lexicographic order (as np.unique over rows), by one number a row
        keys, first, inverse = np.unique(rooms @ scale, return_index=True, return_inverse=True)
        for state_index in range(len(keys)):
            splits, probabilities = deals.options(index, tuple(int(r) for r in rooms[first[state_index]]))
            members = np.flatnonzero(inverse.reshape(-1) == state_index)
            if len(splits) == 1:
                split[members] = splits[0]
            else:
                split[members] = np.array(splits)[rng.choice(len(splits), size=len(members), p=probabilities)]
        rooms -= split
        place_cards(hands.view(np.int64), seats, split, np.array(cards, np.int64), rng.random((count, len(cards))),
                    np.empty(len(cards), np.int64))
    return hands
