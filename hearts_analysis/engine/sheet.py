"""Whether a score sheet's hand could have been scored so: points without the cards.

A score sheet records each hand's points but not its tricks. A hand's points are possible when
some way of taking the point cards scores them under the rules: the hearts shared out, QS (and
JD, QC, TC where the rules score them) each with one seat, a seat that took nothing earning the
no-trick bonus, or one seat taking every heart and QS (the moon). Every candidate is scored by
:mod:`.scoring` itself, so the rules are not written twice.

>>> from hearts_analysis.rules import Rules
>>> table = Rules.preset("standard").table(4)
>>> possible(table, (0, 13, 8, 5)), possible(table, (0, 13, 8, 4)), possible(table, (0, 26, 26, 26))
(True, False, True)
>>> omnibus = Rules.preset("omnibus").table(4)
>>> possible(omnibus, (-10, 13, 8, 5)), possible(omnibus, (-10, 13, 8, 6))
(True, False)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from ..cards import HEARTS_MASK, JD, QC, QS, Mask, parse_card
from ..rules import Table
from .scoring import TC, _raw_points, moon_points

__all__ = ["moon_pattern", "possible"]


def _specials(table: Table) -> tuple[int, ...]:
    """The cards other than hearts whose place changes a seat's points under these rules."""
    rules = table.rules
    cards = [QS]
    if rules.jack_of_diamonds:
        cards.append(JD)
    if rules.queen_of_clubs_cancels_queen:
        cards.append(QC)
    if rules.ten_of_clubs != 1 or "TC" in rules.charges:
        cards.append(TC)
    return tuple(card for card in cards if table.deck >> card & 1)


def _hearts(table: Table) -> list[int]:
    deck_hearts = table.deck & HEARTS_MASK
    return [card for card in range(52) if deck_hearts >> card & 1]


@lru_cache(maxsize=64)
def _options(table: Table, charged: Mask) -> dict[int, tuple[tuple[int, int, bool], ...]]:
    """One seat's possible takings by the points they score: ``(hearts, specials taken as bits, won a trick)``."""
    hearts, specials = _hearts(table), _specials(table)
    found: dict[int, list[tuple[int, int, bool]]] = {}
    for count in range(len(hearts) + 1):
        heart_mask = sum(1 << card for card in hearts[:count])
        for bits in range(1 << len(specials)):
            taken = heart_mask | sum(1 << card for i, card in enumerate(specials) if bits >> i & 1)
            for won in ((True,) if taken else (False, True)):
                points = _raw_points(table.rules, (taken,), (int(won),), charged)[0]
                found.setdefault(points, []).append((count, bits, won))
    return {points: tuple(options) for points, options in found.items()}


def _plain(table: Table, points: tuple[int, ...], charged: Mask) -> bool:
    """Points some sharing of the cards gives without a moon (a seat with every heart and QS would shoot it)."""
    options = _options(table, charged)
    hearts, specials = len(_hearts(table)), _specials(table)
    every, queen = (1 << len(specials)) - 1, 1 << specials.index(QS) if QS in specials else 0
    short_allowed = table.ends_hand
    states = {(0, 0, False)}
    for value in points:
        step = set()
        for used, bits, anyone_won in states:
            for count, mine, won in options.get(value, ()):
                if mine & bits or used + count > hearts:
                    continue
                if table.moon_cards and count == hearts and (mine & queen or not queen):
                    continue
                step.add((used + count, bits | mine, anyone_won or won))
        states = step
        if not states:
            return False
    return any(anyone_won and bits == every and (used == hearts or short_allowed)
               for used, bits, anyone_won in states)


def moon_pattern(table: Table, points: tuple[int, ...], choice: str | None, charged: Mask | None = None) -> bool:
    """Whether ``points`` are a moon's: some seat took every heart and QS (the other scoring cards anywhere),
    scored by ``choice`` (``None``: any the rules allow); ``charged`` as for :func:`possible`."""
    return any(_moon(table, tuple(points), choice, mask) for mask in charge_sets(table, charged))


def _moon(table: Table, points: tuple[int, ...], choice: str | None, charged: Mask) -> bool:
    rule = table.rules.moon
    if not table.moon_cards or rule == "none":
        return False
    choices = (choice,) if choice is not None else (("add_to_others", "subtract_from_shooter")
                                                    if rule == "shooter_choice" else (rule,))
    others = [card for card in _specials(table) if card != QS]
    n = len(points)
    wanted = list(points)
    for shooter in range(n):
        for places in product(range(n), repeat=len(others)):
            taken = [0] * n
            taken[shooter] = table.moon_cards
            for card, seat in zip(others, places):
                taken[seat] |= 1 << card
            for option in choices:
                if moon_points(table, taken, shooter, option, charged) == wanted:
                    return True
    return False


def charge_sets(table: Table, charged: Mask | None) -> list[Mask]:
    """The charges a hand may have had: those recorded, else any of the cards the rules let a seat charge."""
    if charged is not None:
        return [charged]
    cards = [parse_card(name) for name in table.rules.charges]
    return [sum(1 << card for i, card in enumerate(cards) if bits >> i & 1) for bits in range(1 << len(cards))]


def possible(table: Table, points: tuple[int, ...], moon: str | None = None, charged: Mask | None = None) -> bool:
    """Whether a hand can score ``points`` (one a seat) under the table's rules; ``moon``: the recorded choice.

    ``charged``: the cards charged (exposed) that hand, if the sheet says; ``None``: any the rules allow.

    >>> from hearts_analysis.rules import Rules
    >>> turbo = Rules.preset("turbo_hearts").table(4)
    >>> possible(turbo, (13, 16, 0, 0)), possible(turbo, (13, 16, 0, 0), charged=0)  # QS charged: 26 - 10
    (True, False)
    """
    if len(points) != table.players:
        return False
    points = tuple(points)
    return any(_plain(table, points, mask) or _moon(table, points, moon, mask)
               for mask in charge_sets(table, charged))

