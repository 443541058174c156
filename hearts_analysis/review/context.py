"""Game context: what a hand's points do to a seat's chance of winning the game.

Hand points are the measure of a decision; near the end of a game the same
points can matter more or less (QS dumped on the leader, a moon that ends the
game). Where a hand can end the game, each outcome is also scored as the
chance of winning: exactly when the hand ends the game (the lowest total wins,
ties share), otherwise by a quick model of the hands still to come (QS and each
heart go to a uniformly random seat; a moon now and then): a fixed set of
simulated futures, the same for every outcome compared, so a review stays
deterministic and the comparison sharp.

Seat 1's chance of winning after a hand that ends the game (alone lowest, then
tied), and after one that does not:

>>> from hearts_analysis.rules import Rules
>>> table = Rules.preset("standard").table(4)
>>> win_probability(table, [[101, 50, 60, 70], [101, 50, 50, 70], [80, 50, 60, 70]], 1).round(2).tolist()
[1.0, 0.5, 0.67]
>>> can_end(table, (80, 0, 0, 0)), can_end(table, (20, 0, 0, 0))
(True, False)

Under ``deals_per_game`` the game ends after its last deal, whatever the
totals: hand 3 of 4 cannot end it, hand 4 does (``hand``: the hand just played):

>>> fixed = Rules.preset("standard", deals_per_game=4).table(4)
>>> can_end(fixed, (150, 0, 0, 0), 3), can_end(fixed, (0, 0, 0, 0), 4)
(False, True)
>>> win_probability(fixed, [[150, 50, 60, 70]], 1, 4).tolist()
[1.0]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..cards import HEARTS_MASK
from ..rule_arrays import game_over, lowest
from ..rules import Table

MOON_RATE = 0.02
"""Share of model hands that are moons (roughly what simulated heuristic play gives)."""
TRIALS = 256
MAX_HANDS = 40
_CHUNK = 64


def is_over(table: Table, totals: np.ndarray, deals: np.ndarray | int = 0) -> np.ndarray:
    """Rows of ``totals`` in which the game has ended after ``deals`` hands (broadcast against the rows):
    :meth:`Table.game_over <hearts_analysis.rules.Table.game_over>` for arrays."""
    return game_over(table, totals, deals)


def can_end(table: Table, totals: tuple[int, ...], hand: int = 0) -> bool:
    """Whether hand ``hand`` can end the game (some total may reach the target; under deals_per_game,
    it is the last deal)."""
    reach = max(totals) + max(table.point_total, 1)
    return bool(is_over(table, np.array([reach]), hand))


def _share_of_win(totals: np.ndarray, seat: int) -> np.ndarray:
    won = lowest(totals)
    return np.where(won[..., seat], 1.0 / won.sum(axis=-1), 0.0)


def win_probability(table: Table, totals: np.ndarray, seat: int, hand: int = 0) -> np.ndarray:
    """The chance that ``seat`` wins from each row of game totals after hand ``hand``."""
    totals = np.asarray(totals, np.int64)
    result = np.empty(len(totals))
    over = is_over(table, totals, hand)
    result[over] = _share_of_win(totals[over], seat)
    if (~over).any():
        result[~over] = _simulated(table, totals[~over], seat, hand)
    return result


@lru_cache(maxsize=16)
def _futures(table: Table, hands: int) -> np.ndarray:
    """``(TRIALS, hands, seats)`` running points of model hands to come; fixed for a table, so every
    row of totals meets the same futures (common random numbers) and a row's chance does not depend
    on what else is computed with it."""
    rng = np.random.default_rng(0)
    n = table.players
    seats = np.arange(n)
    shape = (TRIALS, hands)
    hearts = (table.deck & HEARTS_MASK).bit_count()
    queen = table.point_total - hearts
    points = (rng.integers(0, n, shape + (hearts,))[..., None] == seats).sum(axis=-2)
    points += queen * (rng.integers(0, n, shape)[..., None] == seats)
    moon = rng.random(shape) < MOON_RATE
    shooter = rng.integers(0, n, shape)
    points = np.where(moon[..., None], np.where(seats == shooter[..., None], 0, table.point_total), points)
    return np.cumsum(points, axis=1)


@lru_cache(maxsize=16)
def _first_over(table: Table, hands: int) -> np.ndarray | None:
    """``(seats, top + 2, TRIALS)``: for seat ``s`` and future trial ``t``, the first future hand at which the
    seat has gained at least ``v`` points (``[s, v, t]``; ``hands`` where it never does), ``top`` being the
    most any seat gains. ``None`` where a seat's running points can fall (a rule
    with negative points), as the first hand a total passes a line is then not where its gain first does."""
    futures = _futures(table, hands)
    if (np.diff(futures, axis=1) < 0).any():
        return None
    trials, _, n = futures.shape
    top = int(futures.max()) + 1
    index = (np.arange(trials * n).reshape(trials, 1, n) * (top + 1) + futures).ravel()
    counts = np.bincount(index, minlength=trials * n * (top + 1)).reshape(trials * n, top + 1)
    first = np.zeros((trials * n, top + 2), np.int8)   # hands <= MAX_HANDS: small ints gather and compare fastest
    np.cumsum(counts, axis=1, out=first[:, 1:])
    return np.ascontiguousarray(first.reshape(trials, n, top + 2).transpose(1, 2, 0))


def _simulated(table: Table, totals: np.ndarray, seat: int, hand: int) -> np.ndarray:
    n = table.players
    per_hand = max(table.point_total, 1)
    if table.rules.deals_per_game:
        hands = table.rules.deals_per_game - hand
    else:
        hands = int(np.ceil((n * (table.rules.target + 1) - totals.sum(axis=1).min()) / per_hand)) + 1
    hands = max(1, min(hands, MAX_HANDS))
    first = None if table.rules.deals_per_game else _first_over(table, hands)
    if first is None or table.rules.target + first.shape[1] > np.iinfo(np.int16).max:   # int16 totals below
        return _simulated_paths(table, totals, seat, hand, hands)
    # the game ends at the first future in which some seat gains what it lacks to end it (running points
    # only grow); a game still going after the last future is scored at the first, as the paths do
    trials = first.shape[2]
    top = first.shape[1] - 1
    lacks = np.clip(table.rules.target - totals + (table.rules.end_at == "exceed"), 0, top)
    at = first[0][lacks[:, 0]]   # (rows, trials): a whole row of trials copied at once for each seat
    for s in range(1, n):
        np.minimum(at, first[s][lacks[:, s]], out=at)
    at = at.astype(np.int64)
    at[at == hands] = 0
    futures, width = _futures_packed(table, hands)
    picked = futures.take(np.arange(trials) * hands + at).view(np.int16).reshape(len(totals), trials, width)
    final = totals.astype(np.int16)[:, None, :] + picked[..., :n]
    return _share_of_win(final, seat).mean(axis=1)


@lru_cache(maxsize=16)
def _futures_packed(table: Table, hands: int) -> tuple[np.ndarray, int]:
    """The futures of :func:`_futures` as int16 points, each future's seats (padded to a power of two) in one
    item, so a future is picked by one gather; and the padded width."""
    futures = _futures(table, hands)
    width = 1 << (table.players - 1).bit_length()
    packed = np.zeros(futures.shape[:2] + (width,), np.int16)
    packed[..., :table.players] = futures
    return packed.reshape(-1, width).view(np.dtype((np.void, 2 * width))).ravel(), width


def _simulated_paths(table: Table, totals: np.ndarray, seat: int, hand: int, hands: int) -> np.ndarray:
    """:func:`_simulated` by walking every path of totals through the futures (any rules)."""
    futures = _futures(table, hands)
    # future k is hand ``hand + 1 + k``; a game still going after the last future ends there
    deals = hand + 1 + np.arange(futures.shape[1])
    deals[-1] = max(deals[-1], table.rules.deals_per_game)
    chances = np.empty(len(totals))
    for start in range(0, len(totals), _CHUNK):
        rows = totals[start:start + _CHUNK]
        paths = rows[:, None, None, :] + futures[None]
        over = is_over(table, paths, deals)
        first = np.argmax(over, axis=2)
        final = np.take_along_axis(paths, first[..., None, None], axis=2)[:, :, 0, :]
        chances[start:start + _CHUNK] = _share_of_win(final, seat).mean(axis=1)
    return chances


def deal_chances(table: Table, totals_before: tuple[int, ...], points: np.ndarray, seat: int,
                 hand: int = 0) -> np.ndarray:
    """``(alternatives, samples)``: the chance of winning after each alternative on each deal, from
    ``(alternatives, samples, seats)`` hand points of hand ``hand`` (paired deal by deal, as the points are)."""
    finals = (np.asarray(totals_before, np.int64) + points).reshape(-1, points.shape[-1])
    unique, inverse = np.unique(finals, axis=0, return_inverse=True)
    chances = win_probability(table, unique, seat, hand)[inverse.reshape(-1)]
    return chances.reshape(points.shape[:2])


def win_chances(table: Table, totals_before: tuple[int, ...], points: np.ndarray, seat: int,
                hand: int = 0) -> np.ndarray:
    """Mean chance of winning per alternative, from ``(alternatives, samples, seats)`` hand points of
    hand ``hand``."""
    return deal_chances(table, totals_before, points, seat, hand).mean(axis=1)


# -- when the game decides -------------------------------------------------------------------------------
GAME_LEAD = 0.02
"""Lead in the chance of winning, beyond its margin, by which an alternative must beat the points' best for
the game to decide: two points of percentage."""

WIN_INACCURACY, WIN_MISTAKE, WIN_BLUNDER = 0.03, 0.07, 0.15
"""Classes of a decision the game decides, by the drop in the chance of winning (3, 7 and 15 points of
percentage). A heart costs about one point of percentage near the end of a game, QS a dozen or more: so
the classes are about as wide as those of points (1, 3, 7) in what they cost at the table."""
WIN_CLASSES = ((WIN_BLUNDER, "blunder"), (WIN_MISTAKE, "mistake"), (WIN_INACCURACY, "inaccuracy"))
WIN_PER_POINT = 0.02
"""Points of percentage per hand point, to widen the classes of the drop as the points' are (a tolerance of
half a point is one point of percentage)."""


def game_choice(chances: np.ndarray, points_best: int, z: float) -> int | None:
    """The alternative the game chooses, from per-deal chances of winning ``(alternatives, samples)``: the one
    with the highest mean chance, where its paired lead over ``points_best`` is at least :data:`GAME_LEAD`
    beyond ``z`` standard errors; ``None`` where the game does not decide (points do).

    >>> import numpy as np
    >>> sure = np.array([[0.5] * 8, [1.0] * 8])
    >>> game_choice(sure, 0, 2.5), game_choice(sure, 1, 2.5), game_choice(np.array([[0.5] * 8, [0.51] * 8]), 0, 2.5)
    (1, None, None)
    >>> game_choice(np.array([[0.0, 1.0] * 4, [1.0, 0.0] * 3 + [1.0, 1.0]]), 0, 2.5) is None   # too noisy
    True
    """
    means = chances.mean(axis=1)
    top = int(np.argmax(means))
    if top == points_best:
        return None
    lead = chances[top] - chances[points_best]
    error = lead.std(ddof=1) / np.sqrt(len(lead)) if len(lead) > 1 else float("inf")
    return top if lead.mean() - z * error >= GAME_LEAD else None


def win_band(drop: float) -> str | None:
    """The class of a drop in the chance of winning, regardless of noise.

    >>> win_band(0.02), win_band(0.05), win_band(0.3)
    (None, 'inaccuracy', 'blunder')
    """
    for threshold, name in WIN_CLASSES:
        if drop >= threshold:
            return name
    return None


def settle_win(drop: float, margin: float, tolerance: float) -> str | None:
    """The class of ``drop ± margin`` (a chance), as :func:`~.evaluate.settle` settles a cost in points:
    ``tolerance`` in hand points, widened by :data:`WIN_PER_POINT`.

    >>> settle_win(0.4, 0.05, 0.5), settle_win(0.01, 0.01, 0.5), settle_win(0.1, 0.1, 0.5)
    ('blunder', None, 'unsettled')
    """
    low, high = drop - margin, drop + margin
    widen = tolerance * WIN_PER_POINT
    bands = ((float("-inf"), WIN_INACCURACY, None), (WIN_INACCURACY, WIN_MISTAKE, "inaccuracy"),
             (WIN_MISTAKE, WIN_BLUNDER, "mistake"), (WIN_BLUNDER, float("inf"), "blunder"))
    fits = [name for bottom, top, name in bands if low >= bottom - widen and high <= top + widen]
    if not fits:
        return "unsettled"
    return fits[0] if len(fits) == 1 else win_band(drop)
