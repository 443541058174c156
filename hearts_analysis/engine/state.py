"""The one mutable type: a hand in play, with the legality cascade.

Legality is an ordered cascade, as in OpenSpiel: first lead -> follow suit ->
no points on the first trick -> hearts broken -> anything. Each step keeps a
subset of the cards still allowed, or falls through when it would leave none.
Every step carries the violation code of the rule it enforces, so the
legal-move generator and the validator share one source of truth.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import (CLUBS_MASK, HEARTS, HEARTS_MASK, POINT_CARDS_MASK, QS_MASK, SUIT_MASKS, Card,
                     Mask, card_name, describe, highest)
from ..rules import Table

_SUIT_NAMES = ("club", "diamond", "heart", "spade")


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Why a card is not legal: the rule's code and a plain sentence."""

    code: str
    message: str


class HandState:
    """A hand from the first lead to the last trick. ``push`` applies a play without checks."""

    __slots__ = ("table", "players", "hands", "taken", "tricks_won", "played", "trick",
                 "trick_cards", "leader", "trick_number", "broken", "ended", "first_leader",
                 "trick_winners", "_breakers", "charged", "led_suits")

    def __init__(self, table: Table, hands: list[Mask], first_leader: int, charged: Mask = 0):
        self.table = table
        self.players = table.players
        self.hands = list(hands)
        self.taken = [0] * self.players
        self.tricks_won = [0] * self.players
        self.played: Mask = 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_cards: Mask = 0
        self.leader = first_leader
        self.first_leader = first_leader
        self.trick_number = 1
        self.broken = False
        self.ended = False
        self.trick_winners: list[int] = []
        self.charged = charged
        """Cards charged (exposed) this hand: none may go to the first trick of its suit while others may."""
        self.led_suits: Mask = 0
        """The suits led in finished tricks, as a mask of their cards."""
        self._breakers = HEARTS_MASK | (QS_MASK if table.rules.hearts_broken_by == "heart_or_queen" else 0)
        self._check_only_hearts_end()

    @classmethod
    def first_leader_for(cls, table: Table, hands: list[Mask], dealer: int) -> int:
        """The seat that must lead trick 1 under the rules (the lowest club's holder, or dealer+1)."""
        if table.rules.first_lead != "left_of_dealer":
            bit = 1 << table.lowest_club
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat
        return (dealer + 1) % table.players

    def copy(self) -> "HandState":
        other = HandState.__new__(HandState)
        for name in HandState.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    # -- queries ----------------------------------------------------------
    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    @property
    def is_over(self) -> bool:
        return self.ended or not any(self.hands)

    def legal_cards(self, seat: int | None = None) -> Mask:
        """The cards ``seat`` (default: the seat to play) may play now."""
        seat = self.to_play if seat is None else seat
        return self._cascade(self.hands[seat], None)

    def exclusion(self, seat: int, card: Card) -> Exclusion | None:
        """Why ``seat`` may not play ``card`` (which it holds) now; ``None`` if it may."""
        hand = self.hands[seat]
        found: list[Exclusion] = []
        legal = self._cascade(hand, (card, found))
        if legal >> card & 1:
            return None
        return found[0] if found else Exclusion("card-not-held", f"{card_name(card)} is not in the hand")

    def clearly_legal(self, seat: int, card: Card) -> bool:
        """A shortcut for the common case, after trick 1: ``True`` only where the cascade allows ``card``.

        Following, the cascade keeps the led suit if the seat has it; leading,
        only the hearts step can exclude a card, and only a heart (a hand of
        hearts and QS is told to lead QS, which is then the card it holds).
        ``False`` means "ask :meth:`exclusion`".
        """
        if self.trick_number == 1 or self.charged:
            return False
        if self.trick:
            led = self.trick[0][1] // 13
            return card // 13 == led or not self.hands[seat] & SUIT_MASKS[led]
        return card // 13 != HEARTS or self.broken or not self.table.rules.hearts_must_be_broken

    def _cascade(self, hand: Mask, probe: tuple[Card, list[Exclusion]] | None) -> Mask:
        rules = self.table.rules
        legal = hand
        first_trick = self.trick_number == 1
        leading = not self.trick

        def step(keep: Mask, code: str, why: str) -> Mask:
            if not keep or keep == legal:
                return legal
            if probe is not None and not keep >> probe[0] & 1 and legal >> probe[0] & 1:
                probe[1].append(Exclusion(code, f"{why}; legal instead: {describe(keep)}"))
            return keep

        if leading and first_trick and rules.first_lead != "left_of_dealer":
            if rules.first_lead == "lowest_club":
                low = self.table.lowest_club
                legal = step(legal & (1 << low), "wrong-first-lead",
                             f"the holder of {card_name(low)} must lead it to the first trick")
            else:
                legal = step(legal & CLUBS_MASK, "wrong-first-lead",
                             "the first trick must be led with a club")
        if not leading:
            led = self.trick[0][1] // 13
            legal = step(legal & SUIT_MASKS[led], "revoke",
                         f"a {_SUIT_NAMES[led]} was led and a seat holding {_SUIT_NAMES[led]}s must follow suit")
        if first_trick and not rules.points_on_first_trick:
            legal = step(legal & ~POINT_CARDS_MASK, "points-on-first-trick",
                         "no heart or QS may be played to the first trick by a seat holding anything else")
        if leading and rules.hearts_must_be_broken and not self.broken:
            others = POINT_CARDS_MASK if rules.only_hearts_lead == "allowed" else HEARTS_MASK
            if legal & ~others:
                legal = step(legal & ~HEARTS_MASK, "hearts-not-broken",
                             "hearts are not broken, and a heart may be led only by a seat holding "
                             + ("nothing but hearts and QS" if others == POINT_CARDS_MASK else "nothing but hearts"))
            elif rules.only_hearts_lead != "allowed" and legal & QS_MASK:
                legal = step(legal & QS_MASK, "hearts-not-broken",
                             "hearts are not broken: a seat holding only hearts and QS must lead QS")
        if self.charged:
            if leading:
                unled = self.charged & ~self.led_suits
                legal = step(legal & ~unled, "charge-invalid",
                             "a charged card may not lead the first trick of its suit while other cards may be led")
            elif hand & SUIT_MASKS[led] and not self.led_suits & SUIT_MASKS[led]:
                legal = step(legal & ~self.charged, "charge-invalid",
                             "a charged card may not be played to the first trick of its suit while another "
                             f"{_SUIT_NAMES[led]} may be")
        return legal

    def claim(self, seat: int) -> None:
        """``seat`` claimed the rest, the others accepting: it takes every card not yet played."""
        rest = self.trick_cards
        for other in range(self.players):
            rest |= self.hands[other]
            self.hands[other] = 0
        tricks = -(-rest.bit_count() // self.players)
        self.taken[seat] |= rest
        self.tricks_won[seat] += tricks
        self.trick_winners += [seat] * tricks
        self.played |= rest
        self.trick = []
        self.trick_cards = 0
        self.ended = True

    # -- moves ------------------------------------------------------------
    def push(self, seat: int, card: Card) -> None:
        """Apply a play as given (the validator has already judged it)."""
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.played |= bit
        self.trick.append((seat, card))
        self.trick_cards |= bit
        if len(self.trick) == self.players:
            self._finish_trick()

    def _finish_trick(self) -> None:
        trick = self.trick
        led_cards = self.trick_cards & SUIT_MASKS[trick[0][1] // 13]
        top = highest(led_cards)
        winner = next(seat for seat, card in trick if card == top)
        self.taken[winner] |= self.trick_cards
        self.tricks_won[winner] += 1
        self.trick_winners.append(winner)
        self.led_suits |= SUIT_MASKS[trick[0][1] // 13]
        if self.trick_cards & self._breakers:
            self.broken = True
        self.trick = []
        self.trick_cards = 0
        self.leader = winner
        self.trick_number += 1
        self._check_only_hearts_end()

    def _check_only_hearts_end(self) -> None:
        """Under only_hearts_lead ``ends_hand`` a leader left with only hearts while unbroken takes the rest."""
        rules = self.table.rules
        hand = self.hands[self.leader]
        if (rules.only_hearts_lead == "ends_hand" and rules.hearts_must_be_broken and not self.broken
                and hand and not hand & ~HEARTS_MASK):
            rest = 0
            for seat in range(self.players):
                rest |= self.hands[seat]
                self.hands[seat] = 0
            remaining_tricks = rest.bit_count() // self.players
            self.taken[self.leader] |= rest
            self.tricks_won[self.leader] += remaining_tricks
            self.ended = True
