"""The basic rollout player: a duck-and-dump heuristic for every lane at once.

The first model of the review (``Settings(model="basic")``), kept as a second,
independent model of the players beside the stronger :mod:`.policy`. It plays like the simulator's :class:`~hearts_analysis.simulate.bots.HeuristicBot`
(lead low and safe, duck under the trick, dump QS, then high spades and hearts
when void) but deterministically, so that all randomness in a review comes from
the sampled deals and every alternative meets the same deals and the same
replies. It sees only what its seat could know: its hand, the trick, the cards
played.

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
from .lanes import BELOW, BIT, NOT_POINTS, POINTS, QS_BIT, SUIT, U64, ZERO, Lanes, highest, keep_or, lowest, popcount

_FIELD = U64(0x1FFF)
_SHIFT_ROW = np.array([13 * suit for suit in range(4)], U64)
_SUIT_INDEX = np.arange(4)
_NONE = 1 << 20


def _rank_tables() -> tuple[np.ndarray, np.ndarray]:
    """Highest and lowest rank of every 13-bit suit pattern (-1 for none)."""
    patterns = np.arange(1 << 13)
    high = np.full(1 << 13, -1, np.int64)
    low = np.full(1 << 13, -1, np.int64)
    for rank in range(13):
        has = (patterns >> rank) & 1 == 1
        high[has] = rank
    for rank in reversed(range(13)):
        has = (patterns >> rank) & 1 == 1
        low[has] = rank
    return high, low


HIGH_RANK, LOW_RANK = _rank_tables()
_KING_ACE = (1 << 11) | (1 << 12)
_QUEEN_RANK = QS - 13 * SPADES


def suit_fields(masks: np.ndarray) -> np.ndarray:
    """``(lanes, 4)``: each suit's 13-bit pattern, for the rank tables."""
    return ((masks[:, None] >> _SHIFT_ROW) & _FIELD).astype(np.intp)


def choose_plays_basic(lanes: Lanes, seat: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The rollout player's card in every lane."""
    if lanes.position == 0:
        return _lead(legal)
    follow = legal & SUIT[lanes.led]
    card = _follow(lanes, follow)
    void = follow == ZERO
    if void.any():      # discards only where a lane cannot follow: most lanes follow, most tricks
        legal = legal[void]
        queen_out = ((lanes.all_taken()[void] | lanes.trick[void]) & QS_BIT) == ZERO
        card[void] = _discard(legal, queen_out)
    return card


def _lead(legal: np.ndarray) -> np.ndarray:
    """The lowest-ranked safe card (no heart, no QS when there is a choice); ties go to the lower suit."""
    low = LOW_RANK[suit_fields(keep_or(legal & NOT_POINTS, legal))]
    key = np.where(low >= 0, low * 4 + _SUIT_INDEX, _NONE).min(axis=1)     # rank, then suit
    return np.where(key < _NONE, key % 4 * 13 + key // 4, -1)      # -1 where the hand has ended


def _follow(lanes: Lanes, follow: np.ndarray) -> np.ndarray:
    """Duck as high as possible; else win cheaply, or high when last to a trick without points."""
    under = follow & BELOW[np.maximum(lanes.top, 0)]
    no_queen = keep_or(follow & ~QS_BIT, follow)
    if lanes.position == lanes.players - 1:
        clean = (lanes.trick & POINTS) == ZERO
        over = np.where(clean, highest(no_queen), lowest(no_queen))
    else:
        over = lowest(no_queen)
    return np.where(under != ZERO, highest(under), over)


def _discard(legal: np.ndarray, queen_out: np.ndarray) -> np.ndarray:
    """QS, then KS/AS while QS is out, then the highest heart, then the highest-ranked card."""
    fields = suit_fields(legal)
    high = HIGH_RANK[fields]
    key = np.where(high >= 0, high * 4 + 3 - _SUIT_INDEX, -1).max(axis=1)    # rank, then the lower suit
    card = (3 - key % 4) * 13 + key // 4
    card = np.where(high[:, HEARTS] >= 0, 13 * HEARTS + high[:, HEARTS], card)
    spades = fields[:, SPADES]
    king_ace = HIGH_RANK[spades & _KING_ACE]
    card = np.where(queen_out & (king_ace >= 0), 13 * SPADES + king_ace, card)
    return np.where((spades >> _QUEEN_RANK) & 1 == 1, QS, card)


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
