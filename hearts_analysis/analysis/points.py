"""Points taken: per hand and seat, and the story of every point card.

Hearts, QS, and — when the rules give them a value — JD and QC are point
cards; each one fell in a trick, was given by the seat that played it and taken
by the trick's winner. (Cards an ``ends_hand`` leader swept up unplayed fall in
the trick after the last one played and are "given" by the seat that held them.)

Under Omnibus JD counts -10, so a seat that takes it with QS and eleven hearts
scores 14, and the story of each card tells who gave it:

>>> from hearts_analysis.cards import card_name
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.analysis.trace import trace_game
>>> game = simulate_game(Rules.preset("omnibus", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> result = replay_game(game)
>>> table = game.rules.table(4)
>>> point_mask(table).bit_count()
15
>>> trace = next(trace_game(result))
>>> cards = point_cards(table, trace)
>>> [(card_name(p.card), p.trick, p.giver, p.taker) for p in cards if card_name(p.card) in ("QS", "JD")]
[('QS', 8, 3, 2), ('JD', 13, 0, 2)]
>>> [(s.hearts, s.points) for s in seat_points(table, trace, result.hands[0], cards)]
[(0, 0), (1, 1), (11, 14), (1, 1)]
>>> positions((10, 3, 10, 0))
(3, 2, 3, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import HEARTS_MASK, JD, QC, QS, QS_MASK, Card, Mask, iter_cards
from ..engine.replay import HandResult
from ..rules import Table, heart_points
from .trace import HandTrace


@dataclass(frozen=True, slots=True)
class PointCard:
    """Where one point card went."""

    card: Card
    trick: int
    """1-based; one past the last trick for cards swept up unplayed."""
    giver: int
    """The seat that played it (or held it, if swept)."""
    taker: int


@dataclass(frozen=True, slots=True)
class SeatPoints:
    """What one seat took in one hand and where that leaves it."""

    hearts: int
    qs: bool
    jd: bool
    qc_cancel: bool
    """It took QS and QC under ``queen_of_clubs_cancels_queen``, so QS scored 0."""
    tricks_won: int
    points_before_moon: int
    points: int
    total: int
    position: int
    """Standing after the hand: 1 for the lowest total; tied seats share the better place."""
    points_given: int
    """Hearts and QS this seat played into tricks that another seat won."""


def point_mask(table: Table) -> Mask:
    """The cards that score under these rules: hearts, QS, and JD / QC when the rules use them."""
    mask = table.deck & (HEARTS_MASK | QS_MASK)
    if table.rules.jack_of_diamonds:
        mask |= 1 << JD
    if table.rules.queen_of_clubs_cancels_queen:
        mask |= 1 << QC
    return mask & table.deck


def positions(totals: tuple[int, ...]) -> tuple[int, ...]:
    """Standing by total, low first, ties sharing the better place: (10, 3, 10, 0) -> (3, 2, 3, 1).

    A total's place is one more than the number of lower totals: its first index in the sorted totals.

    >>> positions((10, 3, 10, 0))
    (3, 2, 3, 1)
    """
    order = sorted(totals)
    return tuple(order.index(total) + 1 for total in totals)


def point_cards(table: Table, trace: HandTrace) -> tuple[PointCard, ...]:
    """Every point card that was taken, in the order it fell."""
    scoring = point_mask(table)
    found = [PointCard(play.card, trick.number, play.seat, trick.winner)
             for trick in trace.tricks if trick.cards & scoring
             for play in trick.plays if scoring >> play.card & 1]
    if trace.swept & scoring and trace.sweeper is not None:
        after = len(trace.tricks) + 1
        for card in iter_cards(trace.swept & scoring):
            holder = next((s for s, held in enumerate(trace.held) if held >> card & 1), trace.sweeper)
            found.append(PointCard(card, after, holder, trace.sweeper))
    return tuple(found)


def seat_points(table: Table, trace: HandTrace, result: HandResult,
                cards: tuple[PointCard, ...]) -> tuple[SeatPoints, ...]:
    """One :class:`SeatPoints` per seat."""
    cancels = table.rules.queen_of_clubs_cancels_queen
    standing = positions(result.totals)
    given = [0] * table.players
    for point in cards:
        if point.giver != point.taker and (HEARTS_MASK | QS_MASK) >> point.card & 1:
            given[point.giver] += heart_points(1 << point.card)
    out = []
    for seat, taken in enumerate(result.taken):
        has_qs = bool(taken >> QS & 1)
        out.append(SeatPoints(
            hearts=(taken & HEARTS_MASK).bit_count(), qs=has_qs, jd=bool(taken >> JD & 1),
            qc_cancel=cancels and has_qs and bool(taken >> QC & 1),
            tricks_won=result.tricks_won[seat], points_before_moon=result.raw_points[seat],
            points=result.points[seat], total=result.totals[seat], position=standing[seat],
            points_given=given[seat]))
    return tuple(out)
