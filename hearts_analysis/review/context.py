"""Game context: what a hand's points do to a seat's chance of winning the game.

Hand points are the measure of a decision; near the end of a game the same
points can matter more or less (QS dumped on the leader, a moon that ends the
game). Where a hand can end the game, each outcome is also scored as the
chance of winning: exactly when the hand ends the game (the lowest total wins,
ties share), otherwise by a quick model of the hands still to come (QS and each
heart go to a uniformly random seat; a moon now and then), simulated with a
fixed seed so that a review stays deterministic.
"""

from __future__ import annotations

import numpy as np

from ..cards import HEARTS_MASK
from ..rules import Table

MOON_RATE = 0.02
"""Share of model hands that are moons (roughly what simulated heuristic play gives)."""
TRIALS = 256
MAX_HANDS = 60


def is_over(table: Table, totals: np.ndarray) -> np.ndarray:
    """Rows of ``totals`` in which the game has ended."""
    top = totals.max(axis=-1)
    return top > table.rules.target if table.rules.end_at == "exceed" else top >= table.rules.target


def can_end(table: Table, totals: tuple[int, ...]) -> bool:
    """Whether this hand can end the game (some total may reach the target)."""
    reach = max(totals) + max(table.point_total, 1)
    return bool(is_over(table, np.array([reach])))


def _share_of_win(totals: np.ndarray, seat: int) -> np.ndarray:
    low = totals.min(axis=-1)
    lowest = totals == low[..., None]
    return np.where(lowest[..., seat], 1.0 / lowest.sum(axis=-1), 0.0)


def win_probability(table: Table, totals: np.ndarray, seat: int) -> np.ndarray:
    """The chance that ``seat`` wins from each row of game totals (after a hand)."""
    totals = np.asarray(totals, np.int64)
    result = np.empty(len(totals))
    over = is_over(table, totals)
    result[over] = _share_of_win(totals[over], seat)
    if (~over).any():
        result[~over] = _simulated(table, totals[~over], seat)
    return result


def _simulated(table: Table, totals: np.ndarray, seat: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    n = table.players
    hearts = (table.deck & HEARTS_MASK).bit_count()
    queen = table.point_total - hearts
    state = np.repeat(totals[:, None, :], TRIALS, axis=1).astype(np.int64)
    running = np.ones(state.shape[:2], bool)
    for _ in range(MAX_HANDS):
        shape = state.shape[:2]
        seats = np.arange(n)
        takers = rng.integers(0, n, shape + (hearts,))
        points = (takers[..., None] == seats).sum(axis=-2)
        points += queen * (rng.integers(0, n, shape)[..., None] == seats)
        moon = rng.random(shape) < MOON_RATE
        shooter = rng.integers(0, n, shape)
        moon_points = np.where(seats == shooter[..., None], 0, table.point_total)
        points = np.where(moon[..., None], moon_points, points)
        state = np.where(running[..., None], state + points, state)
        running &= ~is_over(table, state)
        if not running.any():
            break
    return _share_of_win(state, seat).mean(axis=1)


def win_chances(table: Table, totals_before: tuple[int, ...], points: np.ndarray, seat: int) -> np.ndarray:
    """Mean chance of winning per alternative, from ``(alternatives, samples, seats)`` hand points."""
    finals = (np.asarray(totals_before, np.int64) + points).reshape(-1, points.shape[-1])
    unique, inverse = np.unique(finals, axis=0, return_inverse=True)
    chances = win_probability(table, unique, seat)[inverse.reshape(-1)]
    return chances.reshape(points.shape[:2]).mean(axis=1)
