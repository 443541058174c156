"""Hand points from the cards each seat took, and the moon adjustment: the one scoring routine.

The replay, the simulator and the analysis score hands here; the numpy lanes
(the review's rollouts, the columnar screen) spell the same sums in arrays,
from the same facts of the :class:`~hearts_analysis.rules.Table`
(``moon_cards``, ``point_total``, :data:`~hearts_analysis.rules.QUEEN_POINTS`).

Where the shooter may choose, a record without the choice is scored by the
option its recorded points fit:

>>> from hearts_analysis.cards import HEARTS_MASK, QS
>>> from hearts_analysis.rules import Rules
>>> table = Rules.preset("standard", moon="shooter_choice").table(4)
>>> score_hand(table, [HEARTS_MASK, 1 << QS, 0, 0], [10, 1, 1, 1])
([13, 13, 0, 0], [13, 13, 0, 0], None)
>>> score_hand(table, [HEARTS_MASK | 1 << QS, 0, 0, 0], [13, 0, 0, 0])
([26, 0, 0, 0], [0, 26, 26, 26], Moon(seat=0, choice='add_to_others'))
>>> score_hand(table, [HEARTS_MASK | 1 << QS, 0, 0, 0], [13, 0, 0, 0], recorded_points=(-26, 0, 0, 0))[1:]
([-26, 0, 0, 0], Moon(seat=0, choice='subtract_from_shooter'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import HEARTS_MASK, JD, QC, QS, Mask, parse_card
from ..rules import FOURFOLD, QUEEN_POINTS, Rules, Table


AH, TC = parse_card("AH"), parse_card("TC")


@dataclass(frozen=True, slots=True)
class Moon:
    """A seat took every heart and QS; ``choice`` is how it was scored."""

    seat: int
    choice: str

    def to_dict(self) -> dict:
        return {"seat": self.seat, "choice": self.choice}


def raw_points(table: Table, taken: Mask, tricks_won: int, charged: Mask = 0) -> int:
    """Points for the cards one seat took, before any moon adjustment (no-trick bonus included)."""
    return _raw_points(table.rules, (taken,), (tricks_won,), charged)[0]


def _raw_points(rules: Rules, taken: Sequence[Mask], tricks_won: Sequence[int], charged: Mask = 0) -> list[int]:
    """:func:`raw_points` of every seat at once (a replay scores each hand of a corpus)."""
    clubs_cancel, jack, bonus = rules.queen_of_clubs_cancels_queen, rules.jack_of_diamonds, rules.no_tricks_bonus
    if charged or rules.ten_of_clubs != 1:
        return [_charged_points(rules, cards, won, charged) for cards, won in zip(taken, tricks_won)]
    points = []
    for cards, won in zip(taken, tricks_won):
        value = (cards & HEARTS_MASK).bit_count()
        if cards >> QS & 1 and not (clubs_cancel and cards >> QC & 1):
            value += QUEEN_POINTS
        if cards >> JD & 1:
            value += jack
        if not won:
            value += bonus
        points.append(value)
    return points


def _double(charged: Mask, card: int) -> int:
    return 2 if charged >> card & 1 else 1


def _charged_points(rules: Rules, cards: Mask, won: int, charged: Mask) -> int:
    """One seat's points where charged cards double their penalty and TC multiplies its taker's points."""
    value = (cards & HEARTS_MASK).bit_count() * _double(charged, AH)
    if cards >> QS & 1 and not (rules.queen_of_clubs_cancels_queen and cards >> QC & 1):
        value += QUEEN_POINTS * _double(charged, QS)
    if cards >> JD & 1:
        value += rules.jack_of_diamonds * _double(charged, JD)
    if not won:
        value += rules.no_tricks_bonus
    return value * ten_multiplier(rules, cards, charged)


def ten_multiplier(rules: Rules, cards: Mask, charged: Mask) -> int:
    """What TC multiplies its taker's hand points by (1 for every other seat)."""
    if rules.ten_of_clubs == 1 and not charged >> TC & 1 or not cards >> TC & 1:
        return 1
    return rules.ten_of_clubs * _double(charged, TC)


def moon_value(table: Table, charged: Mask = 0) -> int:
    """What a moon moves: every heart and QS in the deck as the hand scores them (charges doubling)."""
    if not charged:
        return table.point_total
    hearts = (table.deck & HEARTS_MASK).bit_count() * _double(charged, AH)
    return hearts + (QUEEN_POINTS * _double(charged, QS) if table.deck >> QS & 1 else 0)


def moon_shooter(table: Table, taken: list[Mask]) -> int | None:
    """The seat that took every heart and QS in the deck, if one did and the rules know moons."""
    needed = table.moon_cards
    for seat, cards in enumerate(taken):
        if needed and cards & needed == needed:
            return seat
    return None


def moon_points(table: Table, taken: list[Mask], shooter: int, choice: str, charged: Mask = 0) -> list[int]:
    """Points for a moon hand: JD stays with its taker, no-trick bonuses do not apply, TC multiplies last.

    Under ``shooter_gains_fourfold`` (Trend Hearts' server) the shooter's ordinary points, charges and TC
    included, come back negated and fourfold; the others keep only JD. The real log's moon: AH exposed,
    every heart (26), QS (13), TC (x2): 78, and the shooter gains 312:

    >>> from hearts_analysis.cards import HEARTS_MASK, QS
    >>> trend = Rules.preset("trend_hearts").table(4)
    >>> moon_points(trend, [HEARTS_MASK | 1 << QS | 1 << TC, 0, 0, 0], 0, "shooter_gains_fourfold", 1 << AH)
    [-312, 0, 0, 0]
    """
    rules = table.rules
    jd = rules.jack_of_diamonds * _double(charged, JD)
    points = [jd if cards >> JD & 1 else 0 for cards in taken]
    value = moon_value(table, charged)
    if choice == "subtract_from_shooter":
        points[shooter] -= value
    elif choice == "shooter_gains_fourfold":
        points[shooter] = 0
    else:
        for seat in range(len(points)):
            if seat != shooter:
                points[seat] += value
    if charged or rules.ten_of_clubs != 1:
        points = [p * ten_multiplier(rules, cards, charged) for p, cards in zip(points, taken)]
    if choice == "shooter_gains_fourfold":
        points[shooter] = -FOURFOLD * abs(_raw_points(rules, (taken[shooter],), (1,), charged)[0])
    return points


def score_hand(table: Table, taken: list[Mask], tricks_won: list[int],
               recorded_choice: str | None = None,
               recorded_points: tuple[int, ...] | None = None,
               charged: Mask = 0) -> tuple[list[int], list[int], Moon | None]:
    """``(points before moon, points after moon, moon)`` for one hand; ``charged``: the cards charged.

    Under ``shooter_choice`` the recorded choice decides; without one, the
    option the recorded points fit, else ``add_to_others``.
    """
    raw = _raw_points(table.rules, taken, tricks_won, charged)
    shooter = moon_shooter(table, taken)
    if shooter is None:
        return raw, raw, None
    rule = table.rules.moon
    if rule != "shooter_choice":
        choice = rule
    elif recorded_choice is not None:
        choice = recorded_choice
    else:
        choice = "add_to_others"
        if recorded_points is not None:
            for option in ("add_to_others", "subtract_from_shooter"):
                if list(recorded_points) == moon_points(table, taken, shooter, option, charged):
                    choice = option
                    break
    # raw points of a moon hand exclude the no-trick bonus: nobody earns it when the moon is shot
    raw = _raw_points(table.rules, taken, (1,) * len(taken), charged)
    return raw, moon_points(table, taken, shooter, choice, charged), Moon(shooter, choice)
