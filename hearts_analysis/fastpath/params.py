"""A rule set resolved for a table, as the plain numbers the vectorised screen works with.

One :class:`TableParams` per ``(rules, players)`` pair, built once per corpus
from the same :class:`~hearts_analysis.rules.Table` the reference engine uses,
so that both read the rules in exactly one way.

>>> from hearts_analysis.rules import Rules
>>> four, three = table_params(Rules.preset("standard"), 4), table_params(Rules.preset("standard"), 3)
>>> (four.hand_size, four.deck_size, four.point_total), (three.hand_size, three.deck_size)
((13, 52, 26), (17, 51))
>>> table_params(Rules.preset("omnibus"), 4).jack_of_diamonds
-10
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import Mask
from ..records.model import DIRECTION_CODES
from ..rules import ANY_DIRECTION, PASS_DIRECTIONS, Rules, Table

HOLD = DIRECTION_CODES["hold"]
STATED = len(PASS_DIRECTIONS)
"""The cycle code of ``any``: the record states the hand's direction."""


@dataclass(frozen=True)
class TableParams:
    """Everything the screen needs to know about one rule set at one table size.

    The legality and scoring facts (``first_lead_cards`` to ``moon_cards``, ``point_total``) are the
    :class:`~hearts_analysis.rules.Table`'s own, copied, so the screen and the interpreter of
    :mod:`hearts_analysis.engine.interpreter` read the rules in one way.
    """

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
    first_lead_cards: Mask
    points_on_first_trick: bool
    first_trick_barred: Mask
    heart_lead_hand: Mask
    breakers: Mask
    ends_hand: bool
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
    if rules.pass_count == 0:
        cycle: tuple[int, ...] = (HOLD,)
    else:
        cycle = tuple(STATED if d == ANY_DIRECTION else DIRECTION_CODES[d] for d in table.pass_cycle)
    return TableParams(
        table=table, players=players, hand_size=table.hand_size, deck=table.deck,
        deck_size=table.deck.bit_count(), pass_count=rules.pass_count, cycle=cycle,
        offsets=tuple(table.pass_offset(d) for d in PASS_DIRECTIONS),
        first_lead_cards=table.first_lead_cards, points_on_first_trick=rules.points_on_first_trick,
        first_trick_barred=table.first_trick_barred, heart_lead_hand=table.heart_lead_hand,
        breakers=table.breakers, ends_hand=table.ends_hand,
        jack_of_diamonds=rules.jack_of_diamonds,
        queen_of_clubs_cancels=rules.queen_of_clubs_cancels_queen,
        no_tricks_bonus=rules.no_tricks_bonus, moon_rule=rules.moon, moon_cards=table.moon_cards,
        point_total=table.point_total, target=rules.target, exceed=rules.end_at == "exceed")
