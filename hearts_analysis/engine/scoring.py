"""Hand points from the cards each seat took, and the moon adjustment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import HEARTS_MASK, JD, POINT_CARDS_MASK, QC, QS, Mask
from ..rules import Rules, Table


@dataclass(frozen=True, slots=True)
class Moon:
    """A seat took every heart and QS; ``choice`` is how it was scored."""

    seat: int
    choice: str

    def to_dict(self) -> dict:
        return {"seat": self.seat, "choice": self.choice}


def raw_points(table: Table, taken: Mask, tricks_won: int) -> int:
    """Points for the cards one seat took, before any moon adjustment (no-trick bonus included)."""
    return _raw_points(table.rules, (taken,), (tricks_won,))[0]


def _raw_points(rules: Rules, taken: Sequence[Mask], tricks_won: Sequence[int]) -> list[int]:
    """:func:`raw_points` of every seat at once (a replay scores each hand of a corpus)."""
    clubs_cancel, jack, bonus = rules.queen_of_clubs_cancels_queen, rules.jack_of_diamonds, rules.no_tricks_bonus
    points = []
    for cards, won in zip(taken, tricks_won):
        value = (cards & HEARTS_MASK).bit_count()
        if cards >> QS & 1 and not (clubs_cancel and cards >> QC & 1):
            value += 13
        if cards >> JD & 1:
            value += jack
        if not won:
            value += bonus
        points.append(value)
    return points


def moon_shooter(table: Table, taken: list[Mask]) -> int | None:
    """The seat that took every heart and QS in the deck, if one did and the rules know moons."""
    if table.rules.moon == "none":
        return None
    needed = table.deck & POINT_CARDS_MASK
    for seat, cards in enumerate(taken):
        if needed and cards & needed == needed:
            return seat
    return None


def moon_points(table: Table, taken: list[Mask], shooter: int, choice: str) -> list[int]:
    """Points for a moon hand: JD stays with its taker, no-trick bonuses do not apply."""
    jd = table.rules.jack_of_diamonds
    points = [jd if cards >> JD & 1 else 0 for cards in taken]
    if choice == "subtract_from_shooter":
        points[shooter] -= table.point_total
    else:
        for seat in range(len(points)):
            if seat != shooter:
                points[seat] += table.point_total
    return points


def score_hand(table: Table, taken: list[Mask], tricks_won: list[int],
               recorded_choice: str | None = None,
               recorded_points: tuple[int, ...] | None = None) -> tuple[list[int], list[int], Moon | None]:
    """``(points before moon, points after moon, moon)`` for one hand.

    Under ``shooter_choice`` the recorded choice decides; without one, the
    option the recorded points fit, else ``add_to_others``.
    """
    raw = _raw_points(table.rules, taken, tricks_won)
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
                if list(recorded_points) == moon_points(table, taken, shooter, option):
                    choice = option
                    break
    # raw points of a moon hand exclude the no-trick bonus: nobody earns it when the moon is shot
    raw = _raw_points(table.rules, taken, (1,) * len(taken))
    return raw, moon_points(table, taken, shooter, choice), Moon(shooter, choice)
