"""The rules of scoring and of the game's end over arrays: one vectorised owner for each fact.

The scalar owners are :func:`hearts_analysis.rules.heart_points`, :meth:`Table.game_over
<hearts_analysis.rules.Table.game_over>` and :func:`hearts_analysis.engine.scoring.score_hand`; the numpy
lanes (the columnar statistics, the screen, the review's sampled outcomes) ask these twins, which
compute the same numbers for thousands of hands at once.

>>> from hearts_analysis.cards import HEARTS_MASK, JD, QC, QS, mask_of, parse_card
>>> from hearts_analysis.rules import Rules
>>> taken = np.array([mask_of(parse_card(c) for c in cards) for cards in (["2H", "QS", "QC"], ["JD"], [])],
...                  dtype=np.uint64)
>>> heart_points(taken).tolist()
[14, 0, 0]
>>> omnibus = Rules.preset("omnibus", queen_of_clubs_cancels_queen=True, no_tricks_bonus=-5)
>>> raw_points(omnibus, taken, taken == 0).tolist()
[1, -10, -5]
>>> table = Rules().table(4)
>>> game_over(table, np.array([[99, 0, 0, 0], [100, 0, 0, 0]])).tolist()
[False, True]
>>> moon_scores(np.array([[0, -10, 0, 0]]), table.point_total, np.array([[True, False, False, False]]))[0].tolist()
[[0, 16, 26, 26]]
"""

from __future__ import annotations

import numpy as np

from .cards import HEARTS_MASK, JD, QC, QS_MASK
from .rules import QUEEN_POINTS, Rules, Table

U64 = np.uint64
_ONE = U64(1)
_HEARTS, _QS = U64(HEARTS_MASK), U64(QS_MASK)


def heart_points(masks: np.ndarray) -> np.ndarray:
    """:func:`hearts_analysis.rules.heart_points` of every mask: hearts 1, QS
    :data:`~hearts_analysis.rules.QUEEN_POINTS` (int64)."""
    return np.bitwise_count(masks & _HEARTS).astype(np.int64) + QUEEN_POINTS * ((masks & _QS) != 0)


def winning_card(tricks: np.ndarray, led: np.ndarray | int) -> np.ndarray:
    """:func:`hearts_analysis.engine.interpreter.winning_card` for arrays: the highest card of the suit led
    (``led``: its suit mask) in each mask of cards played, -1 where none is (int64). The exponent of the mask
    as a float: masks are below 2**52, exact as floats.

    >>> from hearts_analysis.cards import CLUBS, HEARTS, SUIT_MASKS, mask_of, parse_card
    >>> tricks = np.array([mask_of(parse_card(c) for c in ("4H", "AS", "9H")), 0], dtype=np.uint64)
    >>> winning_card(tricks, U64(SUIT_MASKS[HEARTS])).tolist() == [parse_card("9H"), -1]
    True
    """
    masks = tricks & led
    return np.maximum((masks.astype(np.float64).view(np.int64) >> 52) - 1023, -1)


def breaks_hearts(table: Table, masks: np.ndarray) -> np.ndarray:
    """:func:`hearts_analysis.engine.interpreter.breaks_hearts` for arrays: whether each mask of cards played
    holds a card that breaks hearts (``Table.breakers``: a heart, or QS under ``heart_or_queen``)."""
    return (masks & U64(table.breakers)) != 0


def took(masks: np.ndarray, card: int) -> np.ndarray:
    """Whether each mask holds ``card`` (bool)."""
    return ((masks >> U64(card)) & _ONE) != 0


def point_parts(rules: Rules, hearts: np.ndarray, queen: np.ndarray, clubs: np.ndarray | None,
                jack: np.ndarray | None, no_trick: np.ndarray | None) -> dict[str, np.ndarray]:
    """A seat's hand points before any moon, part by part (``engine.scoring.raw_points`` without charges
    or TC), from what it took: ``hearts`` (count), ``queen``, ``clubs`` (QC), ``jack`` (JD) and ``no_trick``
    (it won no trick, in a hand without a moon) as arrays of the same shape (``None``: nobody; read only
    where the rule needs it). The parts present: ``queen``, ``hearts``, then ``jack``, ``clubs`` and
    ``bonus`` where the rules score them."""
    parts = {"queen": QUEEN_POINTS * queen, "hearts": hearts}
    if rules.jack_of_diamonds and jack is not None:
        parts["jack"] = jack_points(rules, jack)
    if rules.queen_of_clubs_cancels_queen and clubs is not None:
        parts["clubs"] = -QUEEN_POINTS * (queen & clubs)
    if rules.no_tricks_bonus and no_trick is not None:
        parts["bonus"] = rules.no_tricks_bonus * no_trick
    return parts


def jack_points(rules: Rules, jack: np.ndarray) -> np.ndarray:
    """:func:`hearts_analysis.rules.jack_points` where ``jack`` (bool or 0/1) says who took JD."""
    return rules.jack_of_diamonds * jack


def total(parts: dict[str, np.ndarray]) -> np.ndarray:
    """The sum of :func:`point_parts` (the points before any moon)."""
    values = iter(parts.values())
    out = next(values) + next(values)  # queen and hearts are always there
    for value in values:
        out += value
    return out


def raw_points(rules: Rules, taken: np.ndarray, no_trick: np.ndarray | None) -> np.ndarray:
    """Each seat's hand points before any moon from the cards it took (``taken`` masks; ``no_trick``:
    where it won no trick in a hand without a moon): the sum of :func:`point_parts` (int64)."""
    hearts = np.bitwise_count(taken & _HEARTS).astype(np.int64)
    parts = point_parts(rules, hearts, (taken & _QS) != 0, took(taken, QC), took(taken, JD), no_trick)
    return total(parts)


def moon_scores(jack: np.ndarray | int, point_total: int, is_shooter: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A moon hand's points under each choice, ``(add_to_others, subtract_from_shooter)``: every other seat
    gains ``point_total``, or the shooter loses it; JD (``jack``, its points per seat) stays with its taker."""
    return jack + point_total * ~is_shooter, jack - point_total * is_shooter


def shot(taken: np.ndarray, needed: int) -> np.ndarray:
    """Whether each mask holds every card of ``needed`` (``Table.moon_cards``): a shot moon; never where the
    rules have no moon (``needed`` 0)."""
    need = U64(needed)
    return ((taken & need) == need) & (need != 0)


def lowest(totals: np.ndarray) -> np.ndarray:
    """:func:`hearts_analysis.rules.winners` for arrays: whether each seat's total is its row's lowest
    (seats on the last axis; a tie shares), as a bool array of the same shape.

    >>> lowest(np.array([[62, 101, 48, 48], [10, 20, 30, 40]])).tolist()
    [[False, False, True, True], [True, False, False, False]]
    """
    low = totals[..., 0].copy()
    for seat in range(1, totals.shape[-1]):  # a loop over the few seats beats a reduction over the last axis
        np.minimum(low, totals[..., seat], out=low)
    return totals == low[..., None]


def dealers(number: np.ndarray, recorded: np.ndarray, players: int) -> np.ndarray:
    """:meth:`Table.dealer <hearts_analysis.rules.Table.dealer>` for arrays: the recorded dealer of each hand
    where it is given (``recorded`` >= 0), else the rotation from seat 0 by hand ``number`` (1-based).

    >>> dealers(np.array([1, 2, 6, 6]), np.array([-1, -1, -1, 3]), 4).tolist()
    [0, 1, 1, 3]
    """
    return np.where(recorded < 0, (number - 1) % players, recorded)


def game_over(table: Table, totals: np.ndarray, deals: np.ndarray | int = 0) -> np.ndarray:
    """Rows of ``totals`` (seats on the last axis) after which the game has ended, ``deals`` hands in
    (broadcast against the rows): :meth:`Table.game_over <hearts_analysis.rules.Table.game_over>` for arrays."""
    top = totals.max(axis=-1)
    return over_at(table, top, deals)


def over_at(table: Table, top: np.ndarray, deals: np.ndarray | int = 0) -> np.ndarray:
    """:func:`game_over` from each row's highest total ``top``."""
    rules = table.rules
    if rules.deals_per_game:
        return np.broadcast_to(np.asarray(deals) >= rules.deals_per_game, np.shape(top))
    return top > rules.target if rules.end_at == "exceed" else top >= rules.target
