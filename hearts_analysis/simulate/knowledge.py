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

from ..cards import Card, Mask
from ..rules import Table


class PublicInfo:
    """The open record of a hand: what every seat at the table has seen.

    Updated in place by :class:`~hearts_analysis.simulate.play.HandPlay`; bots only read it.
    """

    __slots__ = ("table", "players", "deck", "hand_number", "dealer", "totals", "pass_direction",
                 "trick_number", "leader", "turn", "trick", "trick_cards", "led", "top", "winner",
                 "played", "taken", "tricks_won", "trick_winners", "voids", "point_seats",
                 "broken", "ended", "plays")

    def __init__(self, table: Table, hand_number: int = 1, dealer: int = 0,
                 totals: tuple[int, ...] | None = None, pass_direction: str = "hold"):
        n = table.players
        self.table = table
        self.players = n
        self.deck: Mask = table.deck
        """Cards in play this hand (the deck without the removed cards)."""
        self.hand_number = hand_number
        self.dealer = dealer
        self.totals: tuple[int, ...] = totals if totals is not None else (0,) * n
        """Game totals before this hand."""
        self.pass_direction = pass_direction
        self.trick_number = 1
        self.leader = 0
        self.turn = 0
        """The seat to play next."""
        self.trick: list[tuple[int, Card]] = []
        self.trick_cards: Mask = 0
        self.led: Mask = 0
        """The mask of the suit led to the current trick; 0 while the trick is empty."""
        self.top: Card = -1
        """The card winning the current trick so far."""
        self.winner = -1
        """The seat winning the current trick so far."""
        self.played: Mask = 0
        """Every card played so far, the current trick included."""
        self.taken: list[Mask] = [0] * n
        self.tricks_won: list[int] = [0] * n
        self.trick_winners: list[int] = []
        self.voids: list[Mask] = [0] * n
        """Per seat, the union of the suit masks it has shown it is void in."""
        self.point_seats = 0
        """A bit per seat that has taken a heart or QS."""
        self.broken = False
        self.ended = False
        self.plays: list[tuple[int, Card]] = []
        """Every ``(seat, card)`` played so far, from trick 1: what a player that reasons from the
        whole public record (the review's judge) reads."""


class SeatView:
    """One seat's knowledge: its cards, its pass, and the public record."""

    __slots__ = ("seat", "hand", "public", "passed", "received", "pass_offset")

    def __init__(self, seat: int, hand: Mask, public: PublicInfo):
        self.seat = seat
        self.hand: Mask = hand
        """The cards this seat holds now."""
        self.public = public
        self.passed: Mask = 0
        """The cards this seat gave in the pass (it knows who holds them until they are played)."""
        self.received: Mask = 0
        self.pass_offset = 0
        """Seats from this seat to the one it passed to (0 on a hold hand)."""

    @property
    def unseen(self) -> Mask:
        """Cards this seat has not seen yet: held by the other seats."""
        return self.public.deck & ~self.public.played & ~self.hand
