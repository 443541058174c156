"""The card masks in numpy, for the code that samples and weighs deals in arrays (no numba here).

>>> names(int(BIT[QS] | BIT[JD])), int(popcount(np.array([HEARTS]))[0])
(['JD', 'QS'], 13)
"""

from __future__ import annotations

import numpy as np

from ..cards import HEARTS_MASK, JD, POINT_CARDS_MASK, QC, QS, QS_MASK, SUIT_MASKS, names  # noqa: F401
from ..rules import Table

U64 = np.uint64
BIT = np.left_shift(U64(1), np.arange(52, dtype=U64))
"""``BIT[c]``: the mask of card ``c``."""
BELOW = BIT - U64(1)
"""``BELOW[c]``: the cards lower than ``c`` (of every suit; intersect with a suit)."""
SUIT = np.array(SUIT_MASKS, dtype=U64)
HEARTS = U64(HEARTS_MASK)
POINTS = U64(POINT_CARDS_MASK)
QS_BIT = U64(QS_MASK)
ZERO = U64(0)


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks).astype(np.int64)


def special_cards(table: Table) -> int:
    """Cards that score on their own under the rules, so never equivalent to a neighbour."""
    rules = table.rules
    special = 1 << QS
    if rules.jack_of_diamonds:
        special |= 1 << JD
    if rules.queen_of_clubs_cancels_queen:
        special |= 1 << QC
    return special

