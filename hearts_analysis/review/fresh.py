"""Judging a cost on fresh deals: the chosen and the best alternative played out on deals of their own,
in batches that double, until the cost's class is settled or the budget is spent; and the second
rollout player's check of a flag on the same deals."""

from __future__ import annotations

from typing import Callable

import numpy as np

from .classes import UNSETTLED, band, loss_or_not, mean_and_margin, settle
from .others import Others
from .rollout import Outcomes
from .settings import Settings

Fresh = Callable[[int, tuple[int, int]], np.ndarray]
"""``fresh(count, (chosen, best))``: points ``(2, count, seats)`` of the two alternatives on new deals."""


class FreshDeals:
    """A :data:`Fresh` that keeps the deals it drew and how they ended, so that another model can
    replay the same ones and the reason can be read off the deals that measured the cost.

    ``draw(count)`` samples deals; ``rollout(deals, pair, model)`` gives the :class:`Outcomes` of the
    pair of alternatives on them under the named rollout player."""

    def __init__(self, draw: Callable[[int], np.ndarray],
                 rollout: Callable[[np.ndarray, tuple[int, int], str], Outcomes], model: str):
        self.draw, self.rollout, self.model = draw, rollout, model
        self.drawn: list[np.ndarray] = []
        self.ended: list[Outcomes] = []

    def __call__(self, count: int, pair: tuple[int, int]) -> np.ndarray:
        deals = self.draw(count)
        outcomes = self.rollout(deals, pair, self.model)
        self.drawn.append(deals)
        self.ended.append(outcomes)
        return outcomes.points

    def again(self, pair: tuple[int, int], model: str, limit: int) -> np.ndarray:
        """The points of ``pair`` on the first ``limit`` deals drawn so far, under ``model``."""
        return self.rollout(np.concatenate(self.drawn)[:limit], pair, model).points

    def judged(self) -> Outcomes:
        """How the pair ended on every deal drawn so far: the deals its cost was measured on."""
        return Outcomes(np.concatenate([o.points for o in self.ended], axis=1),
                        np.concatenate([o.taken for o in self.ended], axis=1))


def judge_on_fresh_deals(fresh: Fresh, seat: int, chosen: int, best: int, settings: Settings,
                         chose: tuple[float, float] | None = None) -> tuple[float, float, str | None, int]:
    """``(cost, margin, class, deals)`` of ``chosen`` against ``best``, judged on fresh deals a batch
    at a time (:func:`_next_batch`) until the class settles or the budget is spent (class
    :data:`UNSETTLED`).

    ``chose`` is the cost and margin on the deals that chose ``best``. Where the fresh deals contradict
    it (the two intervals do not meet, and the costs fall in different classes), neither sample has
    shown its spread: a few deals with a moon can swing a cost by many points, and a batch without them
    looks settled. More fresh deals are then drawn, up to the budget; the fresh deals alone still give
    the cost."""
    def more(count: int) -> np.ndarray:
        points = fresh(count, (chosen, best))[:, :, seat].astype(np.float64)
        return points[0] - points[1]

    def contradicts(cost: float, margin: float) -> bool:
        return chose is not None and abs(cost - chose[0]) > margin + chose[1] and band(cost) != band(chose[0])

    verdict, cost, margin, deals = _until_settled(np.empty(0), more, settle, settings, contradicts)
    return max(cost, 0.0), margin, verdict, deals


def _until_settled(differences: np.ndarray, more: Callable[[int], np.ndarray],
                   decide: Callable[[float, float, float], str | None], settings: Settings,
                   doubtful: Callable[[float, float], bool] = lambda cost, margin: False
                   ) -> tuple[str | None, float, float, int]:
    """``(verdict, cost, margin, deals)``: the paired ``differences`` so far and ``more(count)`` of them a batch at
    a time (:func:`_next_batch`), until ``decide(cost, margin, early_tolerance)`` is not :data:`UNSETTLED` and the
    estimate is not ``doubtful``, or the budget is spent; then ``decide`` with the wider ``tolerance`` has the
    last word."""
    verdict: str | None = UNSETTLED
    cost = margin = 0.0
    if len(differences):
        cost, margin = mean_and_margin(differences, settings.confidence_z)
        verdict = decide(cost, margin, settings.early_tolerance)
    while (verdict == UNSETTLED or doubtful(cost, margin)) and len(differences) < settings.budget:
        differences = np.concatenate([differences, more(_next_batch(len(differences), settings))])
        cost, margin = mean_and_margin(differences, settings.confidence_z)
        verdict = decide(cost, margin, settings.early_tolerance)
    if verdict == UNSETTLED:
        verdict = decide(cost, margin, settings.tolerance)
    return verdict, cost, margin, len(differences)


def _next_batch(judged: int, settings: Settings) -> int:
    """Deals to draw next: a batch, then as many as were judged so far (the deals double), up to the
    budget. A rollout's time is mostly per call, not per deal, so a cost that takes the whole budget
    to settle is judged in four calls rather than eight.

    >>> [_next_batch(n, Settings()) for n in (0, 128, 256, 512, 1000)]
    [128, 128, 256, 512, 24]
    """
    return min(max(settings.batch, judged), settings.budget - judged)


def confirm(fresh: FreshDeals, seat: int, chosen: int, best: int, settings: Settings
            ) -> tuple[str, float, float, int]:
    """``(loss or not, cost, margin, deals)`` of ``chosen`` against ``best`` under the other rollout
    player: first on the deals that judged it, then on more fresh deals a batch at a time while it
    cannot tell whether the choice costs points, up to the budget. Two batches of the judging deals
    are enough to tell most (it needs no class), so no more of them are replayed."""
    other = Others.of(settings).second

    def differences(points: np.ndarray) -> np.ndarray:
        return points[0, :, seat].astype(np.float64) - points[1, :, seat]

    replayed = differences(fresh.again((chosen, best), other, 2 * settings.batch))
    verdict, cost, margin, deals = _until_settled(
        replayed, lambda count: differences(fresh.rollout(fresh.draw(count), (chosen, best), other).points),
        loss_or_not, settings)
    return verdict, max(cost, 0.0), margin, deals
