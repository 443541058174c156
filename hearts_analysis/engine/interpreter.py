"""The rules of play, written once: which cards are legal, which card takes a trick, when a hand ends early,
how the pass moves cards.

Every lane asks these functions, reading the rules only through the facts of a
:class:`~hearts_analysis.rules.Table` (``first_lead_cards``, ``breakers``, ...):
the explaining replay (:class:`~hearts_analysis.engine.state.HandState`), the
replay's fast lane, the simulator and the review's rollouts and knowledge. The
numpy lanes spell the same steps in arrays, from the same facts.

Legality is an ordered cascade, as in OpenSpiel: first lead -> follow suit ->
no points on the first trick -> hearts broken. Each step keeps ``legal & F``
unless that would leave nothing. A *probe* sees every step that narrowed the
cards, with the violation code of its rule, so the validator explains a play
with the very cascade the legal-move generator runs.

>>> from hearts_analysis.cards import SUIT_MASKS, HEARTS, mask_of, names, parse_card
>>> from hearts_analysis.rules import Rules
>>> table = Rules.preset("standard").table(4)
>>> hand = mask_of(parse_card(c) for c in ("2C", "5H", "QS"))
>>> names(legal_cards(table, hand, 0, first_trick=True, broken=False))
['2C']
>>> names(legal_cards(table, hand, 0, first_trick=False, broken=False))
['2C', 'QS']
>>> names(legal_cards(table, hand, 0, first_trick=False, broken=True))
['2C', '5H', 'QS']
>>> names([winning_card(mask_of(parse_card(c) for c in ("4H", "AS", "9H")), SUIT_MASKS[HEARTS])])
['9H']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..cards import HEARTS_MASK, SUIT_MASKS, Card, Mask
from ..rules import Table
from ..violations import Code

FIRST_LEAD, REVOKE, FIRST_TRICK_POINTS, HEARTS_UNBROKEN = (
    Code.WRONG_FIRST_LEAD, Code.REVOKE, Code.POINTS_ON_FIRST_TRICK, Code.HEARTS_NOT_BROKEN)
"""The violation codes of the cascade's steps, in cascade order."""

Probe = Callable[[str, Mask, Mask], None]
"""Called as ``probe(code, before, kept)`` by each step that narrowed the legal cards."""


@dataclass(frozen=True)
class LeadRule:
    """A lead rule beyond the cascade's four steps: a step after the hearts step that drops the cards it
    bars from a lead, unless that would leave nothing. The seam where a new lead rule joins the engine:
    its field goes into :data:`~hearts_analysis.rules.RULE_TABLE`, where no fast lane declares it, so
    every hand under it is played and judged here (the reference engine) or refused."""

    code: str
    """Its violation code (an entry of the catalogue, :mod:`hearts_analysis.violations`)."""
    why: str
    """Why a barred card may not lead, in words (the violation's message)."""
    barred: Callable[[Table, bool], Mask]
    """``barred(table, broken)``: the cards it keeps off a lead now (0 where the rule is off)."""


LEAD_RULES: list[LeadRule] = []
"""The lead rules after the hearts step, in order; empty: the cascade is the four steps."""


def legal_cards(table: Table, hand: Mask, led: Mask, first_trick: bool, broken: bool,
                probe: Probe | None = None) -> Mask:
    """The cards of ``hand`` that may be played; ``led`` is the led suit's mask (0 when leading).

    Charges (a rule of imported logs) are a further step that only the
    reference engine applies, after this cascade.
    """
    if led:
        legal = hand & led or hand
        if probe is not None and legal != hand:
            probe(REVOKE, hand, legal)
        if first_trick and table.first_trick_barred:
            legal = _step(legal, legal & ~table.first_trick_barred, FIRST_TRICK_POINTS, probe)
        return legal
    legal = hand
    if first_trick:
        if table.first_lead_cards:
            legal = _step(legal, legal & table.first_lead_cards, FIRST_LEAD, probe)
        if table.first_trick_barred:
            legal = _step(legal, legal & ~table.first_trick_barred, FIRST_TRICK_POINTS, probe)
    if not broken and legal & ~table.heart_lead_hand:
        # a card outside heart_lead_hand is not a heart, so the step always keeps something
        keep = legal & ~HEARTS_MASK
        if probe is not None and keep != legal:
            probe(HEARTS_UNBROKEN, legal, keep)
        legal = keep
    if LEAD_RULES:
        for rule in LEAD_RULES:
            barred = rule.barred(table, broken)
            if barred:
                legal = _step(legal, legal & ~barred, rule.code, probe)
    return legal


def _step(legal: Mask, keep: Mask, code: str, probe: Probe | None) -> Mask:
    """One step of the cascade: the kept cards, unless none would be left."""
    if not keep or keep == legal:
        return legal
    if probe is not None:
        probe(code, legal, keep)
    return keep


def winning_card(trick: Mask, led: Mask) -> Card:
    """The card that takes a trick: the highest card of the suit led (``trick``: the cards played to it)."""
    return (trick & led).bit_length() - 1


def trick_taker(trick: Sequence[tuple[int, Card]]) -> int:
    """The seat that takes a trick, from its plays ``(seat, card)`` in order (the first leads): the seat
    of its :func:`winning_card`.

    >>> from hearts_analysis.cards import parse_card
    >>> trick_taker([(2, parse_card("4H")), (3, parse_card("AS")), (0, parse_card("9H")), (1, parse_card("2H"))])
    0
    """
    cards = 0
    for _, card in trick:
        cards |= 1 << card
    top = winning_card(cards, SUIT_MASKS[trick[0][1] // 13])
    return next(seat for seat, card in trick if card == top)


def breaks_hearts(table: Table, trick: Mask) -> bool:
    """Whether a finished trick breaks hearts (a heart fell on it, or QS under ``heart_or_queen``)."""
    return bool(trick & table.breakers)


def sweeps(table: Table, leader_hand: Mask, broken: bool) -> bool:
    """Whether the hand ends now (``only_hearts_lead ends_hand``): the leader holds only hearts while they
    are unbroken, and takes every card still held."""
    return table.ends_hand and not broken and bool(leader_hand) and not leader_hand & ~HEARTS_MASK


def exchange(hands: list[Mask], given: Sequence[Mask], offset: int) -> None:
    """The pass, in place: seat ``s`` gives ``given[s]`` (cards it holds) to seat ``s + offset``."""
    n = len(hands)
    for seat, cards in enumerate(given):
        hands[seat] &= ~cards
    for seat, cards in enumerate(given):
        hands[(seat + offset) % n] |= cards


__all__ = ["FIRST_LEAD", "FIRST_TRICK_POINTS", "HEARTS_UNBROKEN", "LEAD_RULES", "LeadRule", "Probe", "REVOKE",
           "breaks_hearts", "exchange", "legal_cards", "sweeps", "trick_taker", "winning_card"]
