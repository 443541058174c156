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

from ..rules import Rules
from ..kernel.compiled import BASIC, passes_all
from ..kernel.masks import U64

def choose_passes_basic(hands: np.ndarray, count: int, direction: str = "left", rules: Rules | None = None
                        ) -> np.ndarray:
    """The ``count`` cards each hand passes, as masks: high cards of short suits, QS/KS/AS without
    four spades to guard them (QS is kept when guarded), never a spade below QS; the same in
    every direction and under every rule set (compiled: :func:`~hearts_analysis.kernel.compiled.passes_all`)."""
    masks = np.ascontiguousarray(hands, dtype=U64).view(np.int64)
    return passes_all(masks, count, BASIC, False, False).view(U64)
