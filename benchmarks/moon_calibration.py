"""Whether the judge's moon claims come true: claimed chances binned against what happened.

A record is ``(hand, claimed, happened)``: the hand it was claimed in (any hashable name; the decisions of
one hand share its outcome, so the standard error is taken over hands), the chance claimed, and whether
the moon came. :func:`reliability` bins the records by the claim; :func:`table` prints the bins.

>>> records = [("a", 0.01, False), ("a", 0.015, False), ("b", 0.5, True), ("c", 0.4, False)]
>>> rows = reliability(records, bins=(0.0, 0.02, 0.3, 1.0))
>>> [(r.low, r.decisions, r.hands, round(r.claimed, 2), r.observed) for r in rows]
[(0.0, 2, 1, 0.01, 0.0), (0.3, 2, 2, 0.45, 0.5)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

BINS = (0.0, 0.02, 0.10, 0.30, 0.60, 1.0)
"""Edges of the bins of claimed chance: a bin holds ``low <= claim < high`` (the last also its ``high``)."""


@dataclass(frozen=True)
class Bin:
    """The records whose claim fell in ``[low, high)``."""

    low: float
    high: float
    decisions: int
    hands: int
    """Distinct hands among the decisions."""
    claimed: float
    """Mean claimed chance."""
    observed: float
    """Share of the decisions after which the moon came."""
    se: float
    """Standard error of :attr:`observed`, the decisions of a hand taken as one cluster (``nan`` with one hand)."""


def reliability(records: Iterable[tuple[Hashable, float, bool]], bins: Sequence[float] = BINS) -> list[Bin]:
    """The non-empty bins of ``records`` (``(hand, claimed, happened)``), lowest claim first.

    >>> reliability([("a", 1.5, True)])
    Traceback (most recent call last):
    ValueError: record 0: claimed 1.5 is not a chance (0 to 1)
    """
    grouped: list[list[tuple[Hashable, float, bool]]] = [[] for _ in bins[:-1]]
    for i, (hand, claimed, happened) in enumerate(records):
        if not 0.0 <= claimed <= 1.0:
            raise ValueError(f"record {i}: claimed {claimed} is not a chance (0 to 1)")
        b = next(j for j in range(len(bins) - 1) if claimed < bins[j + 1] or j == len(bins) - 2)
        grouped[b].append((hand, claimed, bool(happened)))
    out = []
    for j, rows in enumerate(grouped):
        if not rows:
            continue
        n = len(rows)
        rate = sum(h for _, _, h in rows) / n
        residual: dict[Hashable, float] = {}
        for hand, _, happened in rows:
            residual[hand] = residual.get(hand, 0.0) + happened - rate
        clusters = len(residual)
        se = (math.sqrt(sum(r * r for r in residual.values()) * clusters / (clusters - 1)) / n
              if clusters > 1 else float("nan"))
        out.append(Bin(bins[j], bins[j + 1], n, clusters, sum(c for _, c, _ in rows) / n, rate, se))
    return out


def table(records: Sequence[tuple[Hashable, float, bool]], what: str, bins: Sequence[float] = BINS) -> str:
    """A Markdown table of :func:`reliability`, and a row of all the records; ``what`` names the event."""
    rows = reliability(records, bins)
    lines = [f"| claimed chance {what} | decisions | hands | mean claimed | observed (± SE by hand) |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {100 * r.low:.0f}-{100 * r.high:.0f}% | {r.decisions} | {r.hands} | {r.claimed:.1%} "
                     f"| {r.observed:.1%} ± {r.se:.1%} |")
    whole = reliability(records, (0.0, 1.0))
    for r in whole:
        lines.append(f"| all | {r.decisions} | {r.hands} | {r.claimed:.1%} | {r.observed:.1%} ± {r.se:.1%} |")
    return "\n".join(lines)
