"""A hand trick by trick: the hands after the pass, every play with the cards the seat could
have played instead, and who won.

The replay engine scores and audits but keeps only the outcome; the analysis
needs the story. The walk pushes the recorded plays through the engine's own
:class:`HandState`, so tricks, winners and legality are exactly the engine's,
even in a game with violations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..cards import HEARTS_MASK, QS_MASK, Card, Mask, mask_of
from ..engine.replay import GameResult, HandResult, _apply_passes, _Collector
from ..engine.state import HandState
from ..records.model import HandRecord
from ..rules import Table


@dataclass(frozen=True, slots=True)
class Play:
    """One card played, with what the seat held and could legally play just before."""

    seat: int
    card: Card
    held: Mask
    """The seat's hand just before this play."""
    legal: Mask
    """The cards the rules allowed the seat at that moment."""


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

    def breaker(self, breaks: Mask) -> tuple[int, int] | None:
        """``(trick, seat)`` of the first card of ``breaks`` played in the hand, if any."""
        for trick in self.tricks:
            if trick.cards & breaks:
                for play in trick.plays:
                    if breaks >> play.card & 1:
                        return trick.number, play.seat
        return None


def hearts_breakers(table: Table) -> Mask:
    """The cards that break hearts under these rules."""
    return HEARTS_MASK | (QS_MASK if table.rules.hearts_broken_by == "heart_or_queen" else 0)


def trace_hand(table: Table, record: HandRecord, result: HandResult, players: tuple[str, ...]) -> HandTrace:
    """Walk one recorded hand through the engine's state."""
    dealt = [mask_of(cards) for cards in record.deal]
    held = list(dealt)
    direction = _apply_passes(table, result.number, record, held, _Collector(result.number, players))
    if direction == "hold" or not record.passes:
        given = (0,) * table.players
    else:
        given = tuple(mask_of(cards or ()) & dealt[seat] for seat, cards in enumerate(record.passes))
    state = HandState(table, held, HandState.first_leader_for(table, held, result.dealer))
    expected = sum(hand.bit_count() for hand in held)
    tricks: list[Trick] = []
    current: list[Play] = []
    for index, (seat, card) in enumerate(record.plays):
        if state.ended or index >= expected:
            break
        current.append(Play(seat, card, state.hands[seat], state.legal_cards(seat)))
        cards = state.trick_cards | 1 << card
        state.push(seat, card)
        if not state.trick:
            tricks.append(Trick(len(tricks) + 1, tuple(current), state.trick_winners[-1], cards))
            current = []
    swept, sweeper = 0, None
    if state.ended:
        sweeper = state.leader
        swept = state.taken[sweeper] & ~state.played
    return HandTrace(result.number, direction, tuple(dealt), given, tuple(held), tuple(tricks), swept, sweeper)


def trace_game(result: GameResult) -> Iterator[HandTrace]:
    """Every hand of a replayed game."""
    record = result.record
    table = record.rules.table(record.seats)
    for hand, hand_result in zip(record.hands, result.hands):
        yield trace_hand(table, hand, hand_result, record.players)
