"""A hand trick by trick: the hands after the pass, every play with the hand it came from,
and who won.

The replay engine scores and audits but keeps only the outcome; the analysis
needs the story. The walk splits the recorded plays into the tricks the engine
completed and takes their winners from the replay, so tricks and winners are
exactly the engine's, even in a game with violations.

>>> from hearts_analysis.cards import card_name, names
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> hand = next(trace_game(replay_game(next(simulate_games(1, Rules.preset("standard", target=30))))))
>>> hand.direction, names(hand.given[3]), len(hand.tricks)
('left', ['AC', 'QS', 'KS'], 13)
>>> first = hand.tricks[0]
>>> [(play.seat, card_name(play.card)) for play in first.plays], first.winner
([(3, '2C'), (0, 'AC'), (1, 'QC'), (2, 'TC')], 0)
>>> hand.breaker(Rules.preset("standard").table(4))  # (trick, seat) of the first heart or QS
(4, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..cards import Card, Mask, mask_of
from ..engine.interpreter import breaks_hearts
from ..engine.replay import GameResult, HandResult
from ..engine.state import HandState
from ..records.model import HandRecord
from ..rules import Table


@dataclass(frozen=True, slots=True)
class Play:
    """One card played, with what the seat held just before.

    A seat holding the led suit may play only that suit, so ``held & suit`` is
    also what it could legally have played of the led suit.
    """

    seat: int
    card: Card
    held: Mask
    """The seat's hand just before this play."""


@dataclass(frozen=True, slots=True)
class Trick:
    number: int
    """1-based."""
    plays: tuple[Play, ...]
    winner: int
    cards: Mask

    @property
    def leader(self) -> int:
        return self.plays[0].seat

    @property
    def led_suit(self) -> int:
        return self.plays[0].card // 13


@dataclass(frozen=True, slots=True)
class HandTrace:
    """The story of one hand, as the engine replayed it."""

    number: int
    direction: str
    """The pass direction the engine used (``hold`` when nothing was passed)."""
    dealt: tuple[Mask, ...]
    given: tuple[Mask, ...]
    """The cards each seat passed (only cards it was dealt; nothing on a hold hand)."""
    held: tuple[Mask, ...]
    """Each seat's hand after the pass, before trick 1."""
    tricks: tuple[Trick, ...]
    """The completed tricks in order; a trailing incomplete trick is left out."""
    swept: Mask = 0
    """Cards a leader took unplayed when ``only_hearts_lead`` ``ends_hand`` ended the hand."""
    sweeper: int | None = None

    def breaker(self, table: Table) -> tuple[int, int] | None:
        """``(trick, seat)`` of the card that broke hearts
        (:func:`~hearts_analysis.engine.interpreter.breaks_hearts`), if any."""
        for trick in self.tricks:
            if breaks_hearts(table, trick.cards):
                for play in trick.plays:
                    if breaks_hearts(table, 1 << play.card):
                        return trick.number, play.seat
        return None


def trace_hand(table: Table, record: HandRecord, result: HandResult, players: tuple[str, ...]) -> HandTrace:
    """Walk one recorded hand, trick by trick, with the winners the engine found."""
    n = table.players
    held, given = result.held, result.passed
    hands = list(held)
    plays = record.plays
    tricks = []
    for number, winner in enumerate(result.trick_winners, 1):
        current = []
        cards = 0
        for seat, card in plays[(number - 1) * n:number * n]:
            current.append(Play(seat, card, hands[seat]))
            hands[seat] &= ~(1 << card)
            cards |= 1 << card
        tricks.append(Trick(number, tuple(current), winner, cards))
    swept, sweeper = 0, None
    if sum(result.tricks_won) > len(tricks):  # only_hearts_lead ends_hand: the leader took the rest
        sweeper = tricks[-1].winner if tricks else HandState.first_leader_for(table, held, result.dealer)
        for hand in hands:
            swept |= hand
    dealt = tuple(mask_of(cards or ()) for cards in record.deal)   # a view: 0 for a seat it cannot see
    return HandTrace(result.number, result.pass_direction, dealt, given, tuple(held), tuple(tricks), swept, sweeper)


def trace_game(result: GameResult) -> Iterator[HandTrace]:
    """Every hand of a replayed game."""
    record = result.record
    table = record.rules.table(record.seats)
    for hand, hand_result in zip(record.hands, result.hands):
        yield trace_hand(table, hand, hand_result, record.players)
