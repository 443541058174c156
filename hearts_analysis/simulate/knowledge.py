"""What a seat can know during a hand, kept apart from the full deal.

A bot is handed a :class:`SeatView`: its own cards, the cards it passed and
received, and the :class:`PublicInfo` every seat sees (cards played, who took
which trick, the voids each seat has shown, the score). It never sees another
seat's hand, so a decision is judged on the information the seat really had.

After one trick a seat has seen its own twelve cards and the four played; the other
36 are unseen, wherever they lie:

>>> from hearts_analysis.cards import parse_card
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate.play import HandPlay
>>> hands = [sum(1 << card for card in range(seat, 52, 4)) for seat in range(4)]
>>> play = HandPlay(Rules.preset("standard").table(4), hands)
>>> play.start()
>>> for seat, card in [(0, "2C"), (1, "3C"), (2, "4C"), (3, "5C")]:
...     play.push(seat, parse_card(card))
>>> view = play.views[1]
>>> view.public.trick_winners, view.unseen.bit_count()
([3], 36)
>>> view.unseen == play.hands[0] | play.hands[2] | play.hands[3]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card, Mask
from ..rules import Table

if TYPE_CHECKING:
    from ..engine.state import HandState


class PublicInfo:
    """The open record of a hand: what every seat at the table has seen.

    The facts of play are read from the hand's state machine
    (:class:`~hearts_analysis.engine.state.HandState`) as they are asked for,
    and its lists are shared, not copied: the record is never a second copy
    that a play has to update, and it shows nothing the machine holds
    privately (the hands). Bots only read it.
    """

    __slots__ = ("table", "players", "deck", "hand_number", "dealer", "totals", "pass_direction",
                 "point_seats", "taken", "tricks_won", "trick_winners", "voids", "plays", "_state")

    def __init__(self, state: "HandState", hand_number: int = 1, dealer: int = 0,
                 totals: tuple[int, ...] | None = None, pass_direction: str = "hold"):
        table: Table = state.table
        n = table.players
        self._state = state
        self.table = table
        self.players = n
        self.deck: Mask = table.deck
        """Cards in play this hand (the deck without the removed cards)."""
        self.hand_number = hand_number
        self.dealer = dealer
        self.totals: tuple[int, ...] = totals if totals is not None else (0,) * n
        """Game totals before this hand."""
        self.pass_direction = pass_direction
        self.point_seats = 0
        """A bit per seat that has taken a heart or QS (kept by the machine's ``_took`` hook)."""
        self.taken: list[Mask] = state.taken
        self.tricks_won: list[int] = state.tricks_won
        self.trick_winners: list[int] = state.trick_winners
        self.voids: list[Mask] = state.voids
        """Per seat, the union of the suit masks it has shown it is void in."""
        self.plays: list[tuple[int, Card]] = state.moves
        """Every ``(seat, card)`` played so far, from trick 1: what a player that reasons from the
        whole public record (the review's judge) reads."""

    @property
    def trick_number(self) -> int:
        return self._state.trick_number

    @property
    def leader(self) -> int:
        return self._state.leader

    @property
    def turn(self) -> int:
        """The seat to play next."""
        state = self._state
        return (state.leader + len(state.trick)) % self.players

    @property
    def trick(self) -> list[tuple[int, Card]]:
        return self._state.trick

    @property
    def trick_cards(self) -> Mask:
        return self._state.trick_cards

    @property
    def led(self) -> Mask:
        """The mask of the suit led to the current trick; 0 while the trick is empty."""
        return self._state.led

    @property
    def top(self) -> Card:
        """The card winning the current trick so far (-1 while it is empty)."""
        return self._state.top

    @property
    def winner(self) -> int:
        """The seat winning the current trick so far (-1 while it is empty)."""
        return self._state.winner

    @property
    def played(self) -> Mask:
        """Every card played so far, the current trick included."""
        return self._state.played

    @property
    def broken(self) -> bool:
        return self._state.broken

    @property
    def ended(self) -> bool:
        """The hand is over: swept or claimed, or the seat to play has no card left (every seat
        holds as many cards as the others between tricks)."""
        state = self._state
        return state.ended or not state.hands[(state.leader + len(state.trick)) % self.players]


class SeatView:
    """One seat's knowledge: its cards, its pass, and the public record.

    ``hand`` reads the machine's list of hands at this seat only (shared, so a
    play updates it without a copy).
    """

    __slots__ = ("seat", "public", "passed", "received", "pass_offset", "_hands")

    def __init__(self, seat: int, hands: list[Mask], public: PublicInfo):
        self.seat = seat
        self._hands = hands
        self.public = public
        self.passed: Mask = 0
        """The cards this seat gave in the pass (it knows who holds them until they are played)."""
        self.received: Mask = 0
        self.pass_offset = 0
        """Seats from this seat to the one it passed to (0 on a hold hand)."""

    @property
    def hand(self) -> Mask:
        """The cards this seat holds now."""
        return self._hands[self.seat]

    @hand.setter
    def hand(self, cards: Mask) -> None:
        self._hands[self.seat] = cards

    @property
    def unseen(self) -> Mask:
        """Cards this seat has not seen yet: held by the other seats."""
        return self.public.deck & ~self.public.played & ~self.hand
