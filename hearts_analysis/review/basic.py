"""The basic rollout player: a duck-and-dump heuristic for every lane at once.

The first model of the review (``Settings(model="basic")``), kept as a second,
independent model of the players beside the stronger :mod:`.policy`. It plays like the simulator's :class:`~hearts_analysis.simulate.bots.HeuristicBot`
(lead low and safe, duck under the trick, dump QS, then high spades and hearts
when void) but deterministically, so that all randomness in a review comes from
the sampled deals and every alternative meets the same deals and the same
replies. It sees only what its seat could know: its hand, the trick, the cards
played. Its plays are compiled in :mod:`hearts_analysis.kernel.compiled` (``BASIC``); its passes,
made once a deal, are here in numpy.

Passing shows the difference from :mod:`.policy`: with four spades to guard it
this player keeps QS but still gives away the spades above it.

>>> from hearts_analysis.cards import mask_of, names, parse_card
>>> hand = mask_of(parse_card(c) for c in "2C 3C 4C 5C 6C 2D 3D 4D 9H QS KS AS 2S".split())
>>> names(int(choose_passes_basic([hand], 3)[0]))
['9H', 'KS', 'AS']
"""

from __future__ import annotations

import numpy as np

from ..cards import HEARTS, QS, SPADES
from ..rules import Rules
from ..kernel.masks import BIT, SUIT, U64, ZERO, popcount

_FIELD = U64(0x1FFF)
_SHIFT_ROW = np.array([13 * suit for suit in range(4)], U64)


def suit_fields(masks: np.ndarray) -> np.ndarray:
    """``(lanes, 4)``: each suit's 13-bit pattern, for the rank tables."""
    return ((masks[:, None] >> _SHIFT_ROW) & _FIELD).astype(np.intp)


def choose_passes_basic(hands: np.ndarray, count: int, direction: str = "left", rules: Rules | None = None
                        ) -> np.ndarray:
    """The ``count`` cards each hand passes, as masks: high cards of short suits, QS/KS/AS without
    four spades to guard them (QS is kept when guarded), never a spade below QS; the same in
    every direction and under every rule set."""
    hands = np.asarray(hands, U64)
    held = (hands[:, None] & BIT[None, :]) != ZERO
    cards = np.arange(52)
    suit, rank = cards // 13, cards % 13
    length = np.stack([popcount(hands & SUIT[s]) for s in range(4)], axis=1)[:, suit]
    spades = length[:, 13 * SPADES][:, None]
    danger = rank[None, :] + (4 - length) + np.where(suit == HEARTS, 2, 0)[None, :]
    danger = danger + np.where((suit == SPADES) & (cards >= QS), np.where(spades < 4, 20, 0), 0)
    danger = danger - np.where(cards == QS, np.where(spades < 4, 0, 15), 0)
    danger = danger - np.where((suit == SPADES) & (cards < QS), 10, 0)[None, :]
    key = np.where(held, danger * 64 + cards, -(1 << 20))
    top = np.argsort(-key, axis=1, kind="stable")[:, :count]
    result = BIT[top[:, 0]]
    for column in range(1, count):
        result = result | BIT[top[:, column]]
    return result
