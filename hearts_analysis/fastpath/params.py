"""A rule set resolved for a table, as the plain numbers the vectorised screen works with.

One :class:`TableParams` per ``(rules, players)`` pair, built once per corpus
from the same :class:`~hearts_analysis.rules.Table` the reference engine uses,
so that both read the rules in exactly one way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import HEARTS_MASK, POINT_CARDS_MASK, QS_MASK, Mask
from ..records.model import DIRECTION_CODES, MOON_CODES
from ..rules import ANY_DIRECTION, PASS_DIRECTIONS, Rules, Table

FIRST_LEAD_LOWEST_CLUB, FIRST_LEAD_ANY_CLUB, FIRST_LEAD_LEFT_OF_DEALER = 0, 1, 2
HOLD = DIRECTION_CODES["hold"]
STATED = len(PASS_DIRECTIONS)
"""The cycle code of ``any``: the record states the hand's direction."""


@dataclass(frozen=True)
class TableParams:
    """Everything the screen needs to know about one rule set at one table size."""

    table: Table
    players: int
    hand_size: int
    deck: Mask
    deck_size: int
    pass_count: int
    cycle: tuple[int, ...]
    """Direction codes of the pass cycle (:data:`STATED` where the record states the direction)."""
    offsets: tuple[int, ...]
    """Seats from passer to receiver, by direction code."""
    first_lead: int
    points_on_first_trick: bool
    must_break: bool
    breakers: Mask
    only_hearts_allowed: bool
    """A leader holding only hearts and QS may lead a heart (``only_hearts_lead allowed``)."""
    ends_hand: bool
    """A leader holding only hearts while they are unbroken takes the rest (``ends_hand``)."""
    jack_of_diamonds: int
    queen_of_clubs_cancels: bool
    no_tricks_bonus: int
    moon_rule: str
    moon_cards: Mask
    """Hearts and QS in the deck: a seat taking them all shot the moon (0: no moons)."""
    point_total: int
    target: int
    exceed: bool



@lru_cache(maxsize=1024)
def table_params(rules: Rules, players: int) -> TableParams:
    """Resolve ``rules`` for ``players`` seats; raises :class:`~hearts_analysis.rules.RuleError`."""
    table = rules.table(players)
    first = {"lowest_club": FIRST_LEAD_LOWEST_CLUB, "any_club": FIRST_LEAD_ANY_CLUB,
             "left_of_dealer": FIRST_LEAD_LEFT_OF_DEALER}[rules.first_lead]
    if rules.pass_count == 0:
        cycle: tuple[int, ...] = (HOLD,)
    else:
        cycle = tuple(STATED if d == ANY_DIRECTION else DIRECTION_CODES[d] for d in table.pass_cycle)
    moon_cards = 0 if rules.moon == "none" else table.deck & POINT_CARDS_MASK
    return TableParams(
        table=table, players=players, hand_size=table.hand_size, deck=table.deck,
        deck_size=table.deck.bit_count(), pass_count=rules.pass_count, cycle=cycle,
        offsets=tuple(table.pass_offset(d) for d in PASS_DIRECTIONS),
        first_lead=first,
        points_on_first_trick=rules.points_on_first_trick, must_break=rules.hearts_must_be_broken,
        breakers=HEARTS_MASK | (QS_MASK if rules.hearts_broken_by == "heart_or_queen" else 0),
        only_hearts_allowed=rules.only_hearts_lead == "allowed",
        ends_hand=rules.only_hearts_lead == "ends_hand" and rules.hearts_must_be_broken,
        jack_of_diamonds=rules.jack_of_diamonds,
        queen_of_clubs_cancels=rules.queen_of_clubs_cancels_queen,
        no_tricks_bonus=rules.no_tricks_bonus, moon_rule=rules.moon, moon_cards=moon_cards,
        point_total=table.point_total, target=rules.target, exceed=rules.end_at == "exceed")
