"""The classes of a cost: inaccuracy, mistake, blunder, and when a cost's class is settled.

A cost is judged with its margin (:func:`mean_and_margin`): :func:`settle` names the class that
``cost ± margin`` lies within, or :data:`UNSETTLED`; :func:`loss_or_not` says only whether it loses
points at all, for the second rollout player's check.
"""

from __future__ import annotations

import numpy as np

INACCURACY, MISTAKE, BLUNDER = 1.0, 3.0, 7.0
"""Cost thresholds in expected hand points (a heart is 1, QS 13)."""
CLASSES = ((BLUNDER, "blunder"), (MISTAKE, "mistake"), (INACCURACY, "inaccuracy"))


def band(cost: float) -> str | None:
    """The class a cost falls in, regardless of noise."""
    for threshold, name in CLASSES:
        if cost >= threshold:
            return name
    return None


BANDS = ((float("-inf"), INACCURACY, None), (INACCURACY, MISTAKE, "inaccuracy"),
         (MISTAKE, BLUNDER, "mistake"), (BLUNDER, float("inf"), "blunder"))
UNSETTLED = "unsettled"


def settle(cost: float, margin: float, tolerance: float) -> str | None:
    """The class of ``cost ± margin`` if the interval lies within one class widened by
    ``tolerance``; where it lies within two (close to a threshold), the class of ``cost``;
    :data:`UNSETTLED` if it lies within none.

    >>> settle(0.2, 0.3, 0.5), settle(2.9, 0.3, 0.5), settle(2.0, 2.0, 0.5)
    (None, 'inaccuracy', 'unsettled')
    """
    low, high = cost - margin, cost + margin
    fits = [name for bottom, top, name in BANDS if low >= bottom - tolerance and high <= top + tolerance]
    if not fits:
        return UNSETTLED
    return fits[0] if len(fits) == 1 else band(cost)


def classify(cost: float, margin: float) -> str | None:
    """The class of a cost, or ``None`` if it is under the thresholds or within the noise."""
    if cost <= margin:
        return None
    for threshold, name in CLASSES:
        if cost >= threshold:
            return name
    return None


def mean_and_margin(differences: np.ndarray, z: float) -> tuple[float, float]:
    """Mean of paired per-deal differences, and ``z`` standard errors of it."""
    error = differences.std(ddof=1) / np.sqrt(len(differences)) if len(differences) > 1 else float("inf")
    return float(differences.mean()), float(z * error)


LOSS, NO_LOSS = "loss", "no loss"


AGREE = INACCURACY / 2
"""Points the second model must find a choice to lose for the two to agree that it costs points:
half the first class, far from where the second model's costs gather (near 0 and from 1 up), so
that a larger budget seldom moves a decision across it."""


def loss_or_not(cost: float, margin: float, tolerance: float) -> str:
    """Whether ``cost ± margin`` lies above :data:`AGREE` (:data:`LOSS`) or below it
    (:data:`NO_LOSS`), each side widened by ``tolerance`` (where both, the side of ``cost``), or
    straddles both (:data:`UNSETTLED`).

    >>> loss_or_not(0.1, 0.5, 0.5), loss_or_not(1.2, 1.0, 0.5), loss_or_not(0.5, 2.0, 0.5)
    ('no loss', 'loss', 'unsettled')
    """
    low = cost - margin >= AGREE - tolerance
    high = cost + margin <= AGREE + tolerance
    if low and high:
        return LOSS if cost >= AGREE else NO_LOSS
    return LOSS if low else NO_LOSS if high else UNSETTLED
