"""The simulator's hand: the engine's one hand state machine, with every seat's view and the public record.

:class:`HandPlay` is a :class:`~hearts_analysis.engine.state.HandState`: the
pass, the tricks, their winners, hearts broken and the ``ends_hand`` sweep are
the state machine's, so the simulator, the review's rollouts with bots and the
reference engine play by one set of moves. On top it keeps what the bots may
read: each seat's :class:`~hearts_analysis.simulate.knowledge.SeatView` and the
:class:`~hearts_analysis.simulate.knowledge.PublicInfo` every seat sees (the
card winning so far, voids shown, who took points).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..cards import POINT_CARDS_MASK, Card, Mask, card_name, describe
from ..engine.interpreter import legal_cards
from ..engine.state import HandState
from ..rules import Table
from .knowledge import PublicInfo, SeatView

if TYPE_CHECKING:
    from .bots import Bot


class BotError(RuntimeError):
    """A bot chose a card it may not play."""


class HandPlay(HandState):
    """A hand from the deal to the last trick: the state machine, every seat's view, the public record.

    >>> from hearts_analysis.rules import Rules
    >>> from hearts_analysis.simulate.bots import HeuristicBot
    >>> import random
    >>> table = Rules.preset("standard").table(4)
    >>> hands = [sum(1 << c for c in range(s, 52, 4)) for s in range(4)]
    >>> play = HandPlay(table, hands)
    >>> play.start()
    >>> plays = play.play_out([HeuristicBot(random.Random(s)) for s in range(4)])
    >>> len(plays), play.public.ended, play.public.plays == plays == play.moves
    (52, True, True)
    """

    __slots__ = ("public", "views", "_next")

    def __init__(self, table: Table, hands: Sequence[Mask], hand_number: int = 1, dealer: int = 0,
                 totals: tuple[int, ...] | None = None, pass_direction: str = "hold"):
        HandState.__init__(self, table, list(hands), None)
        self.dealer = dealer
        # the record every seat sees reads the machine: one copy of each fact, and a play updates
        # only the machine
        p = self.public = PublicInfo(self, hand_number, dealer, totals, pass_direction)
        self.views = [SeatView(seat, self.hands, p) for seat in range(table.players)]
        n = table.players
        self._next = tuple((seat + 1) % n for seat in range(n))

    # -- setting up -------------------------------------------------------
    def exchange(self, given: Sequence[Mask], offset: int) -> None:
        """Apply the pass: seat ``s`` gives ``given[s]`` to seat ``s + offset``."""
        HandState.exchange(self, list(given), offset)
        views, n = self.views, len(self.views)
        for seat, cards in enumerate(given):
            views[seat].passed = cards
            views[seat].pass_offset = offset
            views[(seat + offset) % n].received = cards

    @classmethod
    def resume(cls, table: Table, hands: Sequence[Mask], plays: Sequence[tuple[int, Card]], leader: int,
               hand_number: int = 1, dealer: int = 0, totals: tuple[int, ...] | None = None,
               pass_direction: str = "hold", passed: Sequence[Mask] | None = None) -> "HandPlay":
        """A hand part-way through: ``hands`` are the cards held now, ``plays`` the cards played so far
        from trick 1 (led by ``leader``), ``passed`` what each seat gave. For rollouts on sampled deals:
        the bots then see the same public record (voids, points taken) as the real seats did."""
        start = list(hands)
        for seat, card in plays:
            start[seat] |= 1 << card
        play = cls(table, start, hand_number, dealer, totals, pass_direction)
        if passed is not None and pass_direction != "hold":
            offset = table.pass_offset(pass_direction)
            for seat, cards in enumerate(passed):
                view = play.views[seat]
                view.passed, view.pass_offset = cards, offset
                play.views[table.pass_target(seat, pass_direction)].received = cards
        play.start(leader)
        for seat, card in plays:
            play.push(seat, card)
        return play

    # -- playing ----------------------------------------------------------
    def legal(self, seat: int) -> Mask:
        """The cards ``seat`` may play now: the interpreter's cascade (the simulator deals no charges)."""
        return legal_cards(self.table, self.hands[seat], self.led, self.trick_number == 1, self.broken)

    def pop(self) -> tuple[int, Card]:
        raise NotImplementedError("the simulator's hand is played forward; pop a HandState")

    def play_out(self, bots: Sequence["Bot"], plays: list[tuple[int, Card]] | None = None) -> list[tuple[int, Card]]:
        """Let the bots play to the end of the hand; returns (and appends to) the plays."""
        plays = [] if plays is None else plays
        views, legal_of, push, record = self.views, self.legal, self.push, plays.append
        hands, following = self.hands, self._next
        choose = [bot.choose_play for bot in bots]
        seat = self.to_play
        while not self.ended and hands[seat]:  # what PublicInfo.ended says, read from the machine
            legal = legal_of(seat)
            card = choose[seat](views[seat], legal)
            if not legal >> card & 1:
                raise BotError(f"seat {seat} ({type(bots[seat]).__name__}) chose {card_name(card)} "
                               f"on trick {self.trick_number}; legal: {describe(legal)}")
            record((seat, card))
            push(seat, card)
            seat = following[seat] if self.trick else self.leader  # a trick over: its winner leads
        return plays

    def _took(self, seat: int) -> None:
        if self.taken[seat] & POINT_CARDS_MASK:
            self.public.point_seats |= 1 << seat
