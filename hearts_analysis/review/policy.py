"""The rollout player: a careful club player for every lane at once.

A review's verdict is what a decision cost against this model of the others,
so it has to play the way decent players do; a model that never flushes the
queen makes keeping a short QS look safe. It follows the heuristics of the
simulator's :class:`~hearts_analysis.simulate.bots.HeuristicBot` (the online
rules page 'Play Hearts online with friends for free'), deterministically, so
that every alternative meets the same replies on the same deal:

- **pass** QS/AS/KS without four spades, then the high cards of short suits
  without low exits (towards a void), at most two hearts; never a spade below
  the queen (they flush and guard it);
- **lead** low from short suits, never into the queen; without QS, AS or KS and
  while QS is out, a low spade to flush it; a sure top heart when one other
  seat has every point so far (that stops its moon);
- **follow** by ducking as high as possible, taking a clean last trick high,
  winning a trick the would-be shooter is winning;
- **discard** when void QS, then AS/KS while QS is out, then the highest heart
  or the high card of a short suit (towards another void); never a point card
  onto the would-be shooter;
- **run** for the moon with a hand of hearts and few losers while no other seat
  has a point card: sure winners first, low cards when void;
- under Omnibus rules, take JD when it is a sure winner and never give it away.

It sees only what its seat could know: its hand, the trick, the cards played
and who took them. The first, simpler player is :mod:`.basic`
(``Settings(model="basic")``). The plays are compiled in
:mod:`hearts_analysis.kernel.compiled` (``STRONG``); the passes, made once a
deal, are here in numpy.

The same hand :mod:`.basic` strips of KS and AS keeps its spades here: four
of them guard QS, and they are what flushes the queen later.

>>> from hearts_analysis.cards import mask_of, names, parse_card
>>> hand = mask_of(parse_card(c) for c in "2C 3C 4C 5C 6C 2D 3D 4D 9H QS KS AS 2S".split())
>>> names(int(choose_passes([hand], 3)[0]))
['6C', '4D', '9H']
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ..cards import DIAMONDS, HEARTS, JD, QS, SPADES
from ..kernel.masks import BELOW, BIT, QS_BIT, SUIT, U64, ZERO, highest
from ..kernel.compiled import BASIC, STRONG
from ..rules import Rules
from .basic import choose_passes_basic, suit_fields

_HEARTS = SUIT[HEARTS]
_SPADES = SUIT[SPADES]
_HIGH_SPADES = BIT[QS + 1] | BIT[QS + 2]
_LOW_SPADES = BELOW[QS] & _SPADES
_JD = BIT[JD]
_ABOVE_JD = SUIT[DIAMONDS] & ~(BELOW[JD] | _JD)
_LOW_RANKS = BIT[0] | BIT[1] | BIT[13] | BIT[14] | BIT[26] | BIT[27] | BIT[39] | BIT[40]


def choose_passes(hands: np.ndarray, count: int, direction: str = "left", rules: Rules | None = None) -> np.ndarray:
    """The ``count`` cards each hand passes, as masks: QS, AS, KS without four spades (only QS
    passing right with low spades to flush it back), then the high cards of short suits without
    low exits, at most two hearts, never a spade below the queen, a 2 or a 3 while others remain
    (nor, when JD scores for its taker, JD and the diamonds that catch it)."""
    hands = np.asarray(hands, U64)
    fields = suit_fields(hands)
    length = np.bitwise_count(fields).astype(np.int64)
    spades = length[:, SPADES]
    short = spades < 4
    low_spades = (hands & _LOW_SPADES) != ZERO
    danger = np.where((direction == "right") & low_spades, QS_BIT, QS_BIT | _HIGH_SPADES)
    danger = hands & np.where(short, danger, ZERO)
    keep = _LOW_SPADES | _LOW_RANKS | np.where(short, ZERO, _SPADES)
    if rules is not None and rules.jack_of_diamonds < 0:
        keep = keep | _JD | _ABOVE_JD
    hearts = hands & _HEARTS
    top = highest(hearts)
    keep = keep | np.where((length[:, HEARTS] == 1) & (top == 13 * HEARTS + 12), hearts, ZERO)
    pool = hands & ~keep & ~danger
    first = highest(pool & _HEARTS)
    second = highest(pool & _HEARTS & ~np.where(first >= 0, BIT[np.maximum(first, 0)], ZERO))
    allowed = np.where(first >= 0, BIT[np.maximum(first, 0)], ZERO) | np.where(second >= 0, BIT[np.maximum(second, 0)],
                                                                             ZERO)
    pool = pool & (~_HEARTS | allowed)
    has_low = (fields & 0b1111) != 0
    bonus = np.where((length <= 3) & ~has_low, (4 - length) * 5, np.where((length >= 5) & has_low, -8, 0))
    bonus[:, HEARTS] += 2
    cards = np.arange(52)
    rank = cards % 13
    score = rank[None, :] * 4 + bonus[:, cards // 13] + 16
    top_hearts = _top_three_hearts(hearts)
    held = (hands[:, None] & BIT[None, :]) != ZERO
    tier = np.select([(danger[:, None] & BIT) != ZERO, (pool[:, None] & BIT) != ZERO,
                      ((hands & ~_LOW_SPADES & ~top_hearts)[:, None] & BIT) != ZERO,
                      ((hands & ~top_hearts)[:, None] & BIT) != ZERO], [4, 3, 2, 1], 0)
    order = np.where(tier == 4, np.where(cards == QS, 3, cards - QS), np.where(tier == 3, score * 64 + cards, cards))
    key = np.where(held, tier * (1 << 16) + order, -(1 << 20))
    chosen = np.argsort(-key, axis=1, kind="stable")[:, :count]
    result = np.zeros(len(hands), U64)
    for column in range(count):
        result = result | BIT[chosen[:, column]]
    return result


def _top_three_hearts(hearts: np.ndarray) -> np.ndarray:
    out = np.zeros_like(hearts)
    rest = hearts
    for _ in range(3):
        top = highest(rest)
        bit = np.where(top >= 0, BIT[np.maximum(top, 0)], ZERO)
        out |= bit
        rest &= ~bit
    return out


class Model(NamedTuple):
    """A model of the players for the rollouts: ``plays``, the kernel's player
    (:mod:`hearts_analysis.kernel.compiled`), and ``passes(hands, count, direction, rules) -> masks``."""

    plays: int
    passes: Callable[..., np.ndarray]


MODELS = {"strong": Model(STRONG, choose_passes), "basic": Model(BASIC, choose_passes_basic)}
"""The rollout players a review can use (``Settings.model``)."""
OTHER_MODEL = {"strong": "basic", "basic": "strong"}
"""The second, independent model that confirms a flagged verdict of each (``Settings.confirm``)."""
MODEL_WORDS = {"strong": "the stronger opponent model", "basic": "the basic opponent model"}
"""How a verdict names each model to a player."""
