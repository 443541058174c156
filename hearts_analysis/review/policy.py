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

from ..kernel.masks import U64
from ..kernel.compiled import BASIC, GUARD, STRONG, passes_all
from ..rules import Rules
from .basic import choose_passes_basic

def choose_passes(hands: np.ndarray, count: int, direction: str = "left", rules: Rules | None = None) -> np.ndarray:
    """The ``count`` cards each hand passes, as masks: QS, AS, KS without four spades (only QS
    passing right with low spades to flush it back), then the high cards of short suits without
    low exits, at most two hearts, never a spade below the queen, a 2 or a 3 while others remain
    (nor, when JD scores for its taker, JD and the diamonds that catch it). Compiled:
    :func:`~hearts_analysis.kernel.compiled.passes_all`."""
    masks = np.ascontiguousarray(hands, dtype=U64).view(np.int64)
    jd_negative = rules is not None and rules.jack_of_diamonds < 0
    return passes_all(masks, count, STRONG, direction == "right", jd_negative).view(U64)


class Model(NamedTuple):
    """A model of the players for the rollouts: ``plays``, the kernel's player
    (:mod:`hearts_analysis.kernel.compiled`), and ``passes(hands, count, direction, rules) -> masks``."""

    plays: int
    passes: Callable[..., np.ndarray]


MODELS = {"strong": Model(STRONG, choose_passes), "basic": Model(BASIC, choose_passes_basic),
          "guard": Model(GUARD, choose_passes_basic)}
"""The rollout players a review can use (``Settings.model``)."""
OTHER_MODEL = {"strong": "basic", "basic": "strong", "guard": "strong"}
"""The second, independent model that confirms a flagged verdict of each (``Settings.confirm``)."""
MODEL_WORDS = {"strong": "the stronger opponent model", "basic": "the basic opponent model",
               "guard": "the basic opponent model that stops moons"}
"""How a verdict names each model to a player."""
