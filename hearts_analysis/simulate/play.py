"""A hand played at speed: the deal as masks, the legality cascade as a few bit operations.

:class:`HandPlay` keeps every seat's view and the public record; the rules
themselves are the interpreter's (:mod:`hearts_analysis.engine.interpreter`),
which the reference engine asks too, so the simulator and the review's
rollouts, which call it hundreds of thousands of times, play by the same
cascade. Tests check that both agree on every decision of simulated games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..cards import POINT_CARDS_MASK, Card, Mask, card_name, describe
from ..engine.interpreter import legal_cards, sweeps
from ..engine.state import HandState
from ..rules import Table
from .bits import SUIT_OF
from .knowledge import PublicInfo, SeatView

if TYPE_CHECKING:
    from .bots import Bot


class BotError(RuntimeError):
    """A bot chose a card it may not play."""


class HandPlay:
    """A hand from the deal to the last trick: every seat's view, the public record, legality.

    >>> from hearts_analysis.rules import Rules
    >>> from hearts_analysis.simulate.bots import HeuristicBot
    >>> import random
    >>> table = Rules.preset("standard").table(4)
    >>> hands = [sum(1 << c for c in range(s, 52, 4)) for s in range(4)]
    >>> play = HandPlay(table, hands)
    >>> play.start()
    >>> plays = play.play_out([HeuristicBot(random.Random(s)) for s in range(4)])
    >>> len(plays), play.public.ended
    (52, True)
    """

    __slots__ = ("table", "public", "views", "_breakers", "_ends_hand", "_next")

    def __init__(self, table: Table, hands: Sequence[Mask], hand_number: int = 1, dealer: int = 0,
                 totals: tuple[int, ...] | None = None, pass_direction: str = "hold"):
        self.table = table
        self.public = PublicInfo(table, hand_number, dealer, totals, pass_direction)
        self.views = [SeatView(seat, hand, self.public) for seat, hand in enumerate(hands)]
        self._breakers, self._ends_hand = table.breakers, table.ends_hand
        n = table.players
        self._next = tuple((seat + 1) % n for seat in range(n))

    @property
    def hands(self) -> list[Mask]:
        return [view.hand for view in self.views]

    # -- setting up -------------------------------------------------------
    def exchange(self, given: Sequence[Mask], offset: int) -> None:
        """Apply the pass: seat ``s`` gives ``given[s]`` to seat ``s + offset``."""
        views, n = self.views, len(self.views)
        for seat, cards in enumerate(given):
            views[seat].hand &= ~cards
            views[seat].passed = cards
            views[seat].pass_offset = offset
        for seat, cards in enumerate(given):
            receiver = views[(seat + offset) % n]
            receiver.hand |= cards
            receiver.received = cards

    def start(self, leader: int | None = None) -> None:
        """Open trick 1; the leader defaults to the one the rules name."""
        p = self.public
        if leader is None:
            leader = HandState.first_leader_for(self.table, self.hands, p.dealer)
        p.leader = p.turn = leader
        self._check_only_hearts_end()

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
            offset, n = table.pass_offset(pass_direction), table.players
            for seat, cards in enumerate(passed):
                view = play.views[seat]
                view.passed, view.pass_offset = cards, offset
                play.views[(seat + offset) % n].received = cards
        play.start(leader)
        for seat, card in plays:
            play.push(seat, card)
        return play

    # -- playing ----------------------------------------------------------
    def legal(self, seat: int) -> Mask:
        """The cards ``seat`` may play now: the same cascade as ``HandState.legal_cards``."""
        p = self.public
        return legal_cards(self.table, self.views[seat].hand, p.led, p.trick_number == 1, p.broken)

    def push(self, seat: int, card: Card) -> None:
        """Apply a play without checks (``play_out`` checks the bots' choices)."""
        p = self.public
        bit = 1 << card
        self.views[seat].hand ^= bit
        p.played |= bit
        p.trick.append((seat, card))
        p.plays.append((seat, card))
        p.trick_cards |= bit
        led = p.led
        if not led:
            p.led = SUIT_OF[card]
            p.top = card
            p.winner = seat
        elif bit & led:  # winning_card, kept as the trick goes: the bots read the card winning so far
            if card > p.top:
                p.top = card
                p.winner = seat
        else:
            p.voids[seat] |= led
        if len(p.trick) == p.players:
            self._finish_trick()
        else:
            p.turn = self._next[seat]

    def play_out(self, bots: Sequence["Bot"], plays: list[tuple[int, Card]] | None = None) -> list[tuple[int, Card]]:
        """Let the bots play to the end of the hand; returns (and appends to) the plays."""
        plays = [] if plays is None else plays
        p, views, legal_of, push, record = self.public, self.views, self.legal, self.push, plays.append
        choose = [bot.choose_play for bot in bots]
        while not p.ended:
            seat = p.turn
            legal = legal_of(seat)
            card = choose[seat](views[seat], legal)
            if not legal >> card & 1:
                raise BotError(f"seat {seat} ({type(bots[seat]).__name__}) chose {card_name(card)} "
                               f"on trick {p.trick_number}; legal: {describe(legal)}")
            record((seat, card))
            push(seat, card)
        return plays

    def _finish_trick(self) -> None:
        p = self.public
        winner, cards = p.winner, p.trick_cards
        p.taken[winner] |= cards
        p.tricks_won[winner] += 1
        p.trick_winners.append(winner)
        if cards & POINT_CARDS_MASK:
            p.point_seats |= 1 << winner
        if cards & self._breakers:
            p.broken = True
        p.trick.clear()
        p.trick_cards = p.led = 0
        p.top = p.winner = -1
        p.leader = p.turn = winner
        p.trick_number += 1
        if not self.views[winner].hand:
            p.ended = True
        elif self._ends_hand and not p.broken:
            self._check_only_hearts_end()

    def _check_only_hearts_end(self) -> None:
        """``only_hearts_lead ends_hand``: a leader with only hearts while unbroken takes the rest."""
        p = self.public
        if not sweeps(self.table, self.views[p.leader].hand, p.broken):
            return
        rest = 0
        for view in self.views:
            rest |= view.hand
            view.hand = 0
        p.taken[p.leader] |= rest
        p.tricks_won[p.leader] += rest.bit_count() // p.players
        if rest & POINT_CARDS_MASK:
            p.point_seats |= 1 << p.leader
        p.ended = True
