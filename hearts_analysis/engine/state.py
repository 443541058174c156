"""The one hand state machine: the deal, the pass, charges, play and scoring, every play explainable.

As python-chess has one ``Board``, every lane that plays a hand move by move
drives :class:`HandState`: the reference replay, the simulator (whose
:class:`~hearts_analysis.simulate.play.HandPlay` adds the seats' views to it)
and the review's scalar paths. Its phases follow OpenSpiel's ``HeartsState``:
dealt (:meth:`HandState.dealt`), then the pass (:meth:`~HandState.exchange`)
and charges (:meth:`~HandState.charge`), then play from :meth:`~HandState.start`
(:meth:`~HandState.push`, undone by :meth:`~HandState.pop`), then the score
(:meth:`~HandState.score`). The variants are data: the facts of the rule
:class:`~hearts_analysis.rules.Table`.

Legality is the cascade of :mod:`hearts_analysis.engine.interpreter` (first
lead -> follow suit -> no points on the first trick -> hearts broken), run with
a probe that names the step, and so the rule, that excluded a card; the
legal-move generator and the validator share that one source of truth. The
charge rule of imported logs is a last step that only this engine applies.

With the deck dealt round the table, seat 0 holds 2C and must lead it; then
seat 1 must follow in clubs, and the exclusion says so in words:

>>> from hearts_analysis.cards import mask_of, names, parse_card
>>> from hearts_analysis.rules import Rules
>>> table = Rules.preset("standard").table(4)
>>> hands = [mask_of(range(seat, 52, 4)) for seat in range(4)]
>>> state = HandState(table, hands, HandState.first_leader_for(table, hands, dealer=3))
>>> state.exclusion(0, parse_card("6C")).code
'wrong-first-lead'
>>> state.push(0, parse_card("2C"))
>>> state.to_play, names(state.legal_cards())
(1, ['3C', '7C', 'JC'])
>>> state.exclusion(1, parse_card("2D"))
Exclusion(code='revoke', message='a club was led and a seat holding clubs must follow suit; legal instead: 3C, 7C, JC')
>>> state.pop()
(0, 0)
>>> state.to_play, len(state.moves)
(0, 0)

A hand from the deal: the pass left, then the first lead falls to whoever holds 2C:

>>> dealt = HandState.dealt(table, hands, dealer=3)
>>> dealt.phase
'pass'
>>> dealt.exchange([1 << parse_card("2C"), 0, 0, 0], 1)
>>> dealt.start()
>>> dealt.phase, dealt.to_play
('play', 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import DECK, HEARTS, SUIT_MASKS, Card, Mask, card_name, describe
from ..rules import Table
from ..violations import Code
from .scoring import Moon, score_hand
from .interpreter import (FIRST_LEAD, FIRST_TRICK_POINTS, HEARTS_UNBROKEN, LEAD_RULES, REVOKE, Probe, breaks_hearts,
                          exchange, legal_cards, sweeps, winning_card)

CHARGE = Code.CHARGE_INVALID
"""The code of the charge step, which follows the interpreter's cascade in this engine only."""

_SUIT_NAMES = ("club", "diamond", "heart", "spade")
_SUIT_MASK_OF: tuple[Mask, ...] = tuple(SUIT_MASKS[card // 13] for card in range(52))


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Why a card is not legal: the rule's code and a plain sentence."""

    code: str
    message: str


PASS, PLAY, OVER = "pass", "play", "over"
"""The phases of a hand after the deal: passing (and charging), playing, over."""


class HandState:
    """A hand from the deal to the score. ``push`` applies a play without checks; ``pop`` takes it back."""

    __slots__ = ("table", "players", "hands", "taken", "tricks_won", "played", "trick",
                 "trick_cards", "leader", "trick_number", "broken", "ended", "first_leader",
                 "trick_winners", "charged", "led_suits", "moves", "dealer", "led", "top", "winner", "voids",
                 "_start", "_waiting", "_shortcut")

    def __init__(self, table: Table, hands: list[Mask], first_leader: int | None, charged: Mask = 0):
        """``hands``: the cards held at the first lead; ``first_leader`` ``None`` opens the pass phase
        instead (:meth:`dealt`); ``charged``: the cards charged (exposed) this hand."""
        self.table = table
        self.players = table.players
        self._shortcut = table.models("quick")
        """The rules are within the clean-hand lane's declaration, as :meth:`clearly_legal` reads them."""
        self.hands = list(hands)
        self.taken = [0] * self.players
        self.tricks_won = [0] * self.players
        self.played: Mask = 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_cards: Mask = 0
        self.led: Mask = 0
        """The mask of the suit led to the current trick; 0 while the trick is empty."""
        self.top: Card = -1
        """The card winning the current trick so far (-1 while it is empty), and its seat:"""
        self.winner = -1
        self.trick_number = 1
        self.broken = False
        self.ended = False
        self.trick_winners: list[int] = []
        self.voids: list[Mask] = [0] * self.players
        """Per seat, the union of the suit masks it has shown it is void in (by not following)."""
        self.charged = 0
        """Cards charged (exposed) this hand: they score double, and under charged_cards_wait none may
        go to the first trick of its suit while others may."""
        self._waiting: Mask = 0
        """The charged cards the cascade holds back (charged_cards_wait)."""
        self.led_suits: Mask = 0
        """The suits led in finished tricks, as a mask of their cards."""
        self.moves: list[tuple[int, Card]] = []
        """Every play pushed, from trick 1."""
        self._start: tuple[Mask, ...] = ()
        self.dealer = 0
        self.leader = self.first_leader = -1
        if charged:
            self.charge(charged)
        if first_leader is not None:
            self.start(first_leader)

    @classmethod
    def dealt(cls, table: Table, hands: list[Mask], dealer: int = 0) -> "HandState":
        """A hand as dealt, before the pass: :meth:`exchange`, :meth:`charge`, then :meth:`start`
        (``dealer`` names the first leader where the rules do not)."""
        state = cls(table, hands, None)
        state.dealer = dealer
        return state

    @property
    def phase(self) -> str:
        if self.first_leader < 0:
            return PASS
        return OVER if self.is_over else PLAY

    def exchange(self, given: list[Mask], offset: int) -> None:
        """The pass: seat ``s`` gives ``given[s]`` (cards it holds) to seat ``s + offset``."""
        if self.first_leader >= 0:
            raise ValueError("the pass comes before the first lead")
        exchange(self.hands, given, offset)

    def charge(self, cards: Mask) -> None:
        """Charge (expose) ``cards`` before the first lead; the rules say whether they must wait."""
        if self.moves:
            raise ValueError("cards are charged before the first lead")
        self.charged |= cards
        if self.table.rules.charged_cards_wait:
            self._waiting |= cards

    def start(self, leader: int | None = None) -> None:
        """Open trick 1, led by ``leader`` (default: the seat the rules name)."""
        if leader is None:
            leader = self.first_leader_for(self.table, self.hands, self.dealer)
        self.leader = self.first_leader = leader
        self._start = tuple(self.hands)
        self._check_only_hearts_end()

    @classmethod
    def first_leader_for(cls, table: Table, hands: list[Mask], dealer: int) -> int:
        """The seat that must lead trick 1 under the rules (the lowest club's holder, or dealer+1)."""
        if table.first_lead_cards:
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

    def score(self, recorded_choice: str | None = None, recorded_points: tuple[int, ...] | None = None
              ) -> tuple[list[int], list[int], Moon | None]:
        """``(points before moon, points after moon, moon)``: :func:`~hearts_analysis.engine.scoring.score_hand`
        of the cards each seat took, charges included."""
        return score_hand(self.table, self.taken, self.tricks_won, recorded_choice, recorded_points, self.charged)

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
        found: list[tuple[str, Mask]] = []

        def probe(code: str, before: Mask, kept: Mask) -> None:
            if not found and before >> card & 1 and not kept >> card & 1:
                found.append((code, kept))

        legal = self._cascade(self.hands[seat], probe)
        if legal >> card & 1:
            return None
        if not found:
            return Exclusion(Code.CARD_NOT_HELD, f"{card_name(card)} is not in the hand")
        code, kept = found[0]
        return Exclusion(code, f"{self._why(code)}; legal instead: {describe(kept)}")

    def clearly_legal(self, seat: int, card: Card) -> bool:
        """A shortcut for the common case, after trick 1: ``True`` only where the cascade allows ``card``.

        Following, the cascade keeps the led suit if the seat has it; leading,
        only the hearts step can exclude a card, and only a heart (a hand of
        hearts and QS is told to lead QS, which is then the card it holds).
        ``False`` means "ask :meth:`exclusion`". That reading of the rules is the
        clean-hand lane's: under a rule set it does not declare
        (``Table.models("quick")``) the answer is the cascade's own.
        """
        if self.trick_number == 1 or self._waiting:
            return False
        if not self._shortcut:
            return bool(self._cascade(self.hands[seat], None) >> card & 1)
        if self.trick:
            led = self.trick[0][1] // 13
            return card // 13 == led or not self.hands[seat] & SUIT_MASKS[led]
        return card // 13 != HEARTS or self.broken or self.table.heart_lead_hand == DECK

    def _cascade(self, hand: Mask, probe: Probe | None) -> Mask:
        """The interpreter's cascade, then the charge rule of imported logs (only this engine applies it)."""
        led = self.led
        legal = legal_cards(self.table, hand, led, self.trick_number == 1, self.broken, probe)
        waiting = self._waiting
        if not waiting:
            return legal
        if not led:
            keep = legal & ~(waiting & ~self.led_suits)
        elif hand & led and not self.led_suits & led:
            keep = legal & ~waiting
        else:
            return legal
        if not keep or keep == legal:
            return legal
        if probe is not None:
            probe(CHARGE, legal, keep)
        return keep

    def _why(self, code: str) -> str:
        """The sentence for a cascade step's code, in this position."""
        rules = self.table.rules
        led = self.trick[0][1] // 13 if self.trick else None
        if code == FIRST_LEAD:
            if rules.first_lead == "lowest_club":
                return f"the holder of {card_name(self.table.lowest_club)} must lead it to the first trick"
            return "the first trick must be led with a club"
        if code == REVOKE:
            return f"a {_SUIT_NAMES[led]} was led and a seat holding {_SUIT_NAMES[led]}s must follow suit"
        if code == FIRST_TRICK_POINTS:
            return "no heart or QS may be played to the first trick by a seat holding anything else"
        if code == HEARTS_UNBROKEN:
            return ("hearts are not broken, and a heart may be led only by a seat holding "
                    + ("nothing but hearts and QS" if rules.only_hearts_lead == "allowed" else "nothing but hearts"))
        for rule in LEAD_RULES:
            if code == rule.code:
                return rule.why
        if led is None:
            return "a charged card may not lead the first trick of its suit while other cards may be led"
        return ("a charged card may not be played to the first trick of its suit while another "
                f"{_SUIT_NAMES[led]} may be")

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
        self.trick_cards = self.led = 0
        self.top = self.winner = -1
        self.ended = True
        self._took(seat)

    # -- moves ------------------------------------------------------------
    def push(self, seat: int, card: Card) -> None:
        """Apply a play as given (the validator has already judged it)."""
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.played |= bit
        move = (seat, card)
        trick = self.trick
        trick.append(move)
        self.moves.append(move)
        self.trick_cards |= bit
        led = self.led
        if not led:  # the lead
            self.led, self.top, self.winner = _SUIT_MASK_OF[card], card, seat
        elif led & bit:
            if card > self.top:  # winning_card, kept as the trick goes
                self.top, self.winner = card, seat
        else:
            self.voids[seat] |= led
        if len(trick) == self.players:
            self._finish_trick()

    def pop(self) -> tuple[int, Card]:
        """Take back the last play (``(seat, card)``): at once inside a trick where it followed suit (a
        void shown cannot be taken back by a bit), else by replaying the moves before it."""
        seat, card = move = self.moves.pop()
        if self.trick and (len(self.trick) == 1 or self.led >> card & 1):
            bit = 1 << card
            self.hands[seat] |= bit
            self.played &= ~bit
            self.trick.pop()
            self.trick_cards &= ~bit
            if not self.trick:
                self.led, self.top, self.winner = 0, -1, -1
            else:
                self.top = winning_card(self.trick_cards, self.led)
                self.winner = next(s for s, c in self.trick if c == self.top)
            return move
        moves, table = self.moves, self.table
        fresh = HandState(table, list(self._start), self.first_leader, self.charged)
        fresh.dealer = self.dealer
        for seat_card in moves:
            HandState.push(fresh, *seat_card)
        for name in HandState.__slots__:
            setattr(self, name, getattr(fresh, name))
        return move

    def _finish_trick(self) -> None:
        table, cards, winner = self.table, self.trick_cards, self.winner
        self.taken[winner] |= cards
        self.tricks_won[winner] += 1
        self.trick_winners.append(winner)
        self.led_suits |= self.led
        if breaks_hearts(table, cards):
            self.broken = True
        self.trick = []
        self.trick_cards = self.led = 0
        self.top = self.winner = -1
        self.leader = winner
        self.trick_number += 1
        self._took(winner)
        if sweeps(table, self.hands[winner], self.broken):
            self._sweep()

    def _took(self, seat: int) -> None:
        """Called when ``seat`` has taken cards (a trick, the rest by a sweep or a claim): a hook for
        the lanes that keep more of the record (the simulator's public view)."""

    def _check_only_hearts_end(self) -> None:
        """Under only_hearts_lead ``ends_hand`` a leader left with only hearts while unbroken takes the rest."""
        if sweeps(self.table, self.hands[self.leader], self.broken):
            self._sweep()

    def _sweep(self) -> None:
        """The leader takes every card still held (:func:`~hearts_analysis.engine.interpreter.sweeps`)."""
        rest = 0
        for seat in range(self.players):
            rest |= self.hands[seat]
            self.hands[seat] = 0
        remaining_tricks = rest.bit_count() // self.players
        self.taken[self.leader] |= rest
        self.tricks_won[self.leader] += remaining_tricks
        self.ended = True
        self._took(self.leader)
