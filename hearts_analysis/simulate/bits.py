"""Per-card lookup masks, so the bots' inner loops are an index and a bit operation.

>>> from hearts_analysis.cards import QS, card_name, highest, names
>>> names(ABOVE[QS])
['KS', 'AS']
>>> RANK[QS], card_name(highest(SUIT_OF[QS]))
(10, 'AS')
"""

from __future__ import annotations

from ..cards import JD, QS, SPADES, SUIT_MASKS, Card, Mask, make_card

BIT: tuple[Mask, ...] = tuple(1 << c for c in range(52))
"""The one-card mask of each card."""
SUIT_OF: tuple[Mask, ...] = tuple(SUIT_MASKS[c // 13] for c in range(52))
"""The mask of the suit of each card."""
BELOW: tuple[Mask, ...] = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
"""Cards of the same suit ranked below each card."""
ABOVE: tuple[Mask, ...] = tuple(SUIT_MASKS[c // 13] & ~((1 << (c + 1)) - 1) for c in range(52))
"""Cards of the same suit ranked above each card."""
RANK: tuple[int, ...] = tuple(c % 13 for c in range(52))

SPADES_MASK: Mask = SUIT_MASKS[SPADES]
JD_MASK: Mask = 1 << JD
AS: Card = make_card(SPADES, 12)
KS: Card = make_card(SPADES, 11)
HIGH_SPADES: Mask = (1 << AS) | (1 << KS)
"""The spades above the queen: they win the trick it falls on."""
LOW_SPADES: Mask = BELOW[QS]
"""Spades below the queen: they protect it, and flush it out."""
LOW_RANKS: Mask = sum(1 << make_card(s, r) for s in range(4) for r in (0, 1))
"""The 2s and 3s: exit cards worth keeping."""


def above_all(mine: Mask, others: Mask) -> Mask:
    """The cards of ``mine`` (one suit) ranked above every card of ``others``: sure winners."""
    return mine & ~((1 << others.bit_length()) - 1) if others else mine
