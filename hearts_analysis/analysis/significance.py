"""Fisher's exact test and the Wilson interval for the leak finder, without importing ``scipy.stats``.

``scipy.stats`` takes 1.5-2 s of CPU to import, a third of what ``hearts stats`` spends on a
10,000-game corpus, for two formulas: the tail of a hypergeometric law and the Wilson score
interval of a rate. Both are short and exact here, on the standard library and numpy; the
tests hold them equal to ``scipy.stats.hypergeom`` and ``scipy.stats.binomtest``.

>>> f"{fisher_tail(50, 100, 90, 300, more=True):.3g}"   # 50 of 100 against 40 of 200
'1.4e-07'
>>> low, high = wilson_interval(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_tail(hits: int, draws: int, events: int, population: int, more: bool) -> float:
    """One-sided p-value of Fisher's exact test: the chance of at least (``more``) or at most ``hits``
    events among ``draws`` drawn from a ``population`` holding ``events`` in all (a hypergeometric law).

    The probabilities of the support follow from the first by the ratio of neighbours, summed in log
    space, so a sample of a million hands costs a few arrays, not a million big binomials.
    """
    low, high = max(0, draws + events - population), min(draws, events)
    if not low <= hits <= high:
        return 0.0 if (hits > high) == more else 1.0
    k = np.arange(low, high, dtype=np.float64)
    steps = np.log((events - k) * (draws - k)) - np.log((k + 1) * (population - events - draws + k + 1))
    first = _log_choose(events, low) + _log_choose(population - events, draws - low) - _log_choose(population, draws)
    log_p = first + np.concatenate(([0.0], np.cumsum(steps)))
    tail = log_p[hits - low:] if more else log_p[:hits - low + 1]
    peak = tail.max()
    return float(min(1.0, math.exp(peak) * np.exp(tail - peak).sum()))


def wilson_interval(hits: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of the rate ``hits / trials``: it stays inside 0-1 and keeps close to its
    nominal coverage at small samples and extreme rates, where the normal approximation does not."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate, z2 = hits / trials, z * z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half) if hits else 0.0), (min(1.0, centre + half) if hits < trials else 1.0)


__all__ = ["fisher_tail", "wilson_interval"]
