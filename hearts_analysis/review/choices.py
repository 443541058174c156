"""The real choices of a decision: cards (or passes) that are interchangeable are one choice.

Equivalent cards (same suit, no card in play between them, same points) lead to the same outcomes,
so the review compares only one of each run, and a decision with one real choice is forced.
"""

from __future__ import annotations

from ..cards import HEARTS_MASK, Card, Mask, iter_cards, mask_of
from ..engine.state import HandState
from ..kernel.masks import special_cards
from ..rules import Table

def equivalent_groups(state: HandState, seat: int, legal: Mask) -> list[list[Card]]:
    """Legal cards grouped when they are interchangeable: same suit, same points, and no card
    still in play (held by another seat or on the table) ranked between them."""
    live = state.table.deck & ~state.played & ~state.hands[seat] | state.trick_cards
    return interchangeable(state.table, legal, live)


def interchangeable(table: Table, cards: Mask, live: Mask) -> list[list[Card]]:
    """``cards`` in runs that no card of ``live`` separates (same suit, same points), lowest first."""
    special = special_cards(table)
    groups: list[list[Card]] = []
    previous = -1
    for card in iter_cards(cards):
        between = ((1 << card) - 1) & ~((1 << (previous + 1)) - 1) if previous >= 0 else 0
        same = (previous >= 0 and previous // 13 == card // 13 and not between & live
                and not (special >> card & 1) and not (special >> previous & 1)
                and bool(HEARTS_MASK >> card & 1) == bool(HEARTS_MASK >> previous & 1))
        if same:
            groups[-1].append(card)
        else:
            groups.append([card])
        previous = card
    return groups


def pass_choices(table: Table, dealt: Mask, count: int) -> list[Mask]:
    """Every real choice of ``count`` cards to pass from ``dealt``: passing one card of a run of
    rank-neighbours (no card of the deck between them, same points) is passing any other, so each
    run contributes its lowest cards only."""
    groups = interchangeable(table, dealt, table.deck & ~dealt)
    choices: list[Mask] = []

    def choose(index: int, left: int, mask: Mask) -> None:
        if left == 0:
            choices.append(mask)
            return
        if index == len(groups) or left > sum(len(g) for g in groups[index:]):
            return
        for take in range(min(left, len(groups[index])), -1, -1):
            choose(index + 1, left - take, mask | mask_of(groups[index][:take]))

    choose(0, count, 0)
    return choices


def canonical_pass(table: Table, dealt: Mask, passed: Mask) -> Mask:
    """The member of :func:`pass_choices` that ``passed`` is interchangeable with."""
    canonical = 0
    for group in interchangeable(table, dealt, table.deck & ~dealt):
        canonical |= mask_of(group[:sum(passed >> card & 1 for card in group)])
    return canonical


def play_choices(state: HandState, seat: int, card: Card | None = None) -> tuple[list[Card], int | None]:
    """One card for each real choice of ``seat`` at ``state`` (``card`` for its own group), and the
    index of ``card``'s choice (``None`` without a card)."""
    groups = equivalent_groups(state, seat, state.legal_cards(seat))
    chosen = None if card is None else next(i for i, group in enumerate(groups) if card in group)
    return [card if i == chosen else group[0] for i, group in enumerate(groups)], chosen
