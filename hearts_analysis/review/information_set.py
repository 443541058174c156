"""A seat's information set: what it could know when it decided.

A seat knows its own cards, every card played and who took it, how many cards
each seat holds, the cards it passed (still in the receiver's hand until
played) and what others' plays revealed. A play reveals what the rules would
have forbidden: a seat that did not follow suit holds none of that suit; a
seat that led a heart before hearts were broken holds nothing else it could
have led; a point card dropped on the first trick means nothing else was
playable. :func:`revealed` asks the one cascade of
:func:`~hearts_analysis.engine.interpreter.legal_cards` which cards would
have forbidden the play, so every rule variant is covered and nothing is
inferred that the rules do not imply.

Seat 1 discards 8D on the 2C lead, so seat 2 knows it has no club left:

>>> from hearts_analysis.cards import CLUBS, mask_of, names, parse_card
>>> from hearts_analysis.engine.state import HandState
>>> from hearts_analysis.rules import Rules
>>> deal = [mask_of(parse_card(c) for c in text.split()) for text in (
...     "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D", "8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S",
...     "9C TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H", "9H TH JH QH KH AH 8S 9S TS JS QS KS AS")]
>>> state, shown = HandState(Rules.preset("standard").table(4), deal, 0), (0, 0, 0, 0)
>>> for seat, card in ((0, parse_card("2C")), (1, parse_card("8D"))):
...     shown = observe(shown, state, seat, card)
...     state.push(seat, card)
>>> knowledge = at_play(state, 2, shown)
>>> names(knowledge.may_hold[1] & SUIT_MASKS[CLUBS]), len(names(knowledge.may_hold[3] & SUIT_MASKS[CLUBS]))
([], 6)
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import Sequence

from ..cards import SUIT_MASKS, Card, Mask, iter_cards
from ..engine.interpreter import legal_cards
from ..engine.state import HandState
from ..rules import Table


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What ``seat`` knows about where the unplayed cards are."""

    seat: int
    hand: Mask
    """The seat's own cards."""
    counts: tuple[int, ...]
    """Cards each seat holds (public: everyone sees how many were played)."""
    holds: tuple[Mask, ...]
    """Cards each seat is known to hold: its own hand; the cards it was passed and has not played."""
    may_hold: tuple[Mask, ...]
    """Cards each seat could hold (a superset of ``holds``)."""

    @property
    def unplaced(self) -> Mask:
        """Hidden cards whose holder is not known."""
        known = 0
        for cards in self.holds:
            known |= cards
        hidden = 0
        for cards in self.may_hold:
            hidden |= cards
        return hidden & ~known

    def admits(self, hands: list[Mask] | tuple[Mask, ...]) -> bool:
        """Whether a deal of the unplayed cards fits everything the seat knows."""
        return all(h & known == known and h & ~may == 0 and h.bit_count() == count
                   for h, known, may, count in zip(hands, self.holds, self.may_hold, self.counts))


def before_pass(table: Table, seat: int, dealt: Mask) -> Knowledge:
    """At the pass a seat knows only its own dealt cards."""
    n = table.players
    others = table.deck & ~dealt
    return Knowledge(seat, dealt, (table.hand_size,) * n,
                     tuple(dealt if s == seat else 0 for s in range(n)),
                     tuple(dealt if s == seat else others for s in range(n)))


def at_play(state: HandState, seat: int, shown: tuple[Mask, ...], passed: Mask = 0,
            receiver: int | None = None) -> Knowledge:
    """``seat``'s knowledge at ``state``; ``shown[s]``: cards ``s`` revealed it does not hold."""
    hand = state.hands[seat]
    hidden = state.table.deck & ~state.played & ~hand
    holds, may_hold = [], []
    for other in range(state.players):
        if other == seat:
            holds.append(hand)
            may_hold.append(hand)
            continue
        holds.append(passed & hidden if other == receiver else 0)
        may_hold.append(hidden & ~shown[other] | holds[-1])
    counts = tuple(cards.bit_count() for cards in state.hands)
    return Knowledge(seat, hand, counts, tuple(holds), tuple(may_hold))


def revealed(state: HandState, seat: int, card: Card) -> Mask:
    """Cards ``seat`` cannot hold, since it played ``card`` legally at ``state`` (before the play).

    A card ``c`` is shown absent when a hand of just ``card`` and ``c`` would have made ``card``
    illegal. The cascade's steps each keep a fixed set of cards unless that leaves none, so
    whether ``c`` forbids ``card`` does not depend on the rest of the hand, and a set of cards
    forbids it exactly when one of them does: so the deck is asked whole, and halved only where
    it forbids (one call for a card that follows suit, the commonest play). Asking the one
    cascade (:func:`~hearts_analysis.engine.interpreter.legal_cards`) rather than inverting it
    here keeps what a play shows in step with every rule the cascade gains.
    """
    led = SUIT_MASKS[state.trick[0][1] // 13] if state.trick else 0
    first_trick, broken, table = state.trick_number == 1, state.broken, state.table
    bit = 1 << card

    def forbidding(cards: Mask) -> Mask:
        if not cards or legal_cards(table, bit | cards, led, first_trick, broken) & bit:
            return 0
        if not cards & (cards - 1):
            return cards
        middle = ((cards & -cards).bit_length() + cards.bit_length()) // 2   # both halves hold a card
        low = cards & ((1 << middle) - 1)
        return forbidding(low) | forbidding(cards & ~low)

    return forbidding(table.deck & ~bit)


def observe(shown: tuple[Mask, ...], state: HandState, seat: int, card: Card) -> tuple[Mask, ...]:
    """``shown`` after ``seat`` plays ``card`` at ``state`` (call before pushing the play)."""
    extra = revealed(state, seat, card)
    if not extra:
        return shown
    return tuple(cards | extra if s == seat else cards for s, cards in enumerate(shown))


def seat_state(table: Table, seat: int, hand: Mask, plays: Sequence[tuple[int, Card]], first_leader: int,
               passed: Mask = 0, receiver: int | None = None) -> tuple[HandState, tuple[Mask, ...]]:
    """The hand as ``seat`` sees it after ``plays``, holding ``hand``: ``(state, shown)``. The other
    seats hold cards that fit their counts (the cards ``seat`` passed with the receiver while
    unplayed, then the rest, other suits before hearts), never their own: nothing of theirs can
    leak into what is read from it. ``shown`` is what their plays revealed (:func:`.information_set.observe`)."""
    n = table.players
    played_by = [0] * n
    played = 0
    for who, card in plays:
        played_by[who] |= 1 << card
        played |= 1 << card
    start = [cards for cards in played_by]
    start[seat] |= hand
    room = [table.hand_size - start[s].bit_count() for s in range(n)]
    room[seat] = 0
    unseen = table.deck & ~played & ~hand
    if receiver is not None:
        kept = passed & unseen
        start[receiver] |= kept
        room[receiver] -= kept.bit_count()
        unseen &= ~kept
    if unseen.bit_count() != sum(room):
        raise ValueError(f"the other seats hold {sum(room)} cards, but {unseen.bit_count()} are unseen")
    hearts_last = sorted(iter_cards(unseen), key=lambda c: (c // 13 == 2, c))
    others = [s for s in range(n) if s != seat]
    turn = 0
    for card in hearts_last:
        while room[others[turn % len(others)]] <= 0:
            turn += 1
        start[others[turn % len(others)]] |= 1 << card
        room[others[turn % len(others)]] -= 1
        turn += 1
    state = HandState(table, start, first_leader)
    shown: tuple[Mask, ...] = (0,) * n
    for who, card in plays:
        shown = observe(shown, state, who, card)
        state.push(who, card)
    return state, shown


__all__ = ["Knowledge", "at_play", "before_pass", "observe", "revealed", "seat_state"]
