"""The replay's fast lane: a legal hand checked with a few bit operations per card.

Most recorded hands are legal. :func:`replay_clean` checks one in a tight loop
and returns what each seat took; at the first doubt it returns ``None`` and
the caller replays the hand with :class:`~hearts_analysis.engine.state.HandState`,
which names and explains every violation. :func:`legal_mask` is the legality
cascade without explanations, for the simulator and this lane; tests hold it
equal to ``HandState.legal_cards`` on every decision of many games.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Sequence

from ..cards import CLUBS_MASK, HEARTS_MASK, POINT_CARDS_MASK, QS_MASK, SUIT_MASKS, Card, Mask
from ..rules import Table


class Switches(NamedTuple):
    """The rule settings the cascade reads, resolved once per table."""

    first_lead: Mask
    """Cards allowed to lead trick 1 (0: any)."""
    no_first_points: bool
    must_break: bool
    points_may_lead: bool
    """A hand of only hearts and QS may lead a heart (only_hearts_lead allowed)."""
    breakers: Mask
    ends_hand: bool


@lru_cache(maxsize=64)
def switches(table: Table) -> Switches:
    rules = table.rules
    if rules.first_lead == "lowest_club":
        first = 1 << table.lowest_club
    elif rules.first_lead == "any_club":
        first = CLUBS_MASK
    else:
        first = 0
    return Switches(first, not rules.points_on_first_trick, rules.hearts_must_be_broken,
                    rules.only_hearts_lead == "allowed",
                    HEARTS_MASK | (QS_MASK if rules.hearts_broken_by == "heart_or_queen" else 0),
                    rules.only_hearts_lead == "ends_hand" and rules.hearts_must_be_broken)


def legal_mask(rules: Switches, hand: Mask, led: Mask, first_trick: bool, broken: bool) -> Mask:
    """The cards of ``hand`` that may be played; ``led`` is the led suit's mask (0 when leading)."""
    if led:
        legal = hand & led or hand
        if first_trick and rules.no_first_points:
            legal = legal & ~POINT_CARDS_MASK or legal
        return legal
    legal = hand
    if first_trick:
        if rules.first_lead:
            legal = legal & rules.first_lead or legal
        if rules.no_first_points:
            legal = legal & ~POINT_CARDS_MASK or legal
    if rules.must_break and not broken and not (rules.points_may_lead and not legal & ~POINT_CARDS_MASK):
        legal = legal & ~HEARTS_MASK or legal
    return legal


def replay_clean(table: Table, hands: Sequence[Mask], leader: int, plays: Sequence[tuple[int, Card]],
                 rules: Switches | None = None) -> tuple[list[Mask], list[int], list[int]] | None:
    """``(taken, tricks won, trick winners)`` if every play is legal and in turn, else ``None``.

    ``rules``: ``switches(table)``, for a caller that has them at hand.
    """
    rules = rules or switches(table)
    n = table.players
    expected = sum(map(int.bit_count, hands))
    if rules.ends_hand or len(plays) != expected or expected % n:
        return None
    hands = list(hands)
    taken, won, winners = [0] * n, [0] * n, []
    followers = _followers(n)
    must_break, breakers = rules.must_break, rules.breakers
    broken = False
    first = True
    stream = iter(plays)
    for seat, card in stream:
        bit = 1 << card
        hand = hands[seat]
        if seat != leader or not hand & bit:
            return None
        if (first or bit & HEARTS_MASK and must_break and not broken) \
                and not legal_mask(rules, hand, 0, first, broken) & bit:
            return None
        hands[seat] = hand ^ bit
        led = _SUIT_MASK_OF[card]
        top, winner, cards = card, seat, bit
        for expected_seat in followers[leader]:
            seat, card = next(stream)
            bit = 1 << card
            hand = hands[seat]
            if seat != expected_seat or not hand & bit:
                return None
            if bit & led:
                if card > top:
                    top, winner = card, seat
            elif hand & led:
                return None  # a revoke
            if first and not legal_mask(rules, hand, led, True, broken) & bit:
                return None
            hands[seat] = hand ^ bit
            cards |= bit
        taken[winner] |= cards
        won[winner] += 1
        winners.append(winner)
        if cards & breakers:
            broken = True
        leader = winner
        first = False
    return taken, won, winners


_SUIT_MASK_OF: tuple[Mask, ...] = tuple(SUIT_MASKS[card // 13] for card in range(52))


@lru_cache(maxsize=8)
def _followers(players: int) -> tuple[tuple[int, ...], ...]:
    """For each leader, the seats that follow it in a trick, in order."""
    return tuple(tuple((leader + k) % players for k in range(1, players)) for leader in range(players))
