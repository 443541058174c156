"""Seeded players for the simulator: a random legal player and a heuristic one.

Bots see the :class:`HandState` but only use what their seat could know: their
own hand, the current trick, the cards already played.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..cards import (HEARTS_MASK, QS, QS_MASK, SPADES, SUIT_MASKS, Card, Mask, highest, iter_cards,
                     lowest, rank_of, suit_of)
from ..engine.state import HandState


class Bot(Protocol):
    def choose_pass(self, hand: Mask, count: int, direction: str) -> list[Card]: ...
    def choose_play(self, state: HandState, seat: int) -> Card: ...


class RandomBot:
    """Plays a uniformly random legal card and passes random cards."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose_pass(self, hand: Mask, count: int, direction: str) -> list[Card]:
        return self.rng.sample(list(iter_cards(hand)), count)

    def choose_play(self, state: HandState, seat: int) -> Card:
        return self.rng.choice(list(iter_cards(state.legal_cards(seat))))


class HeuristicBot:
    """Ducks under the trick when it can, dumps QS and high hearts when void, passes danger cards."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose_pass(self, hand: Mask, count: int, direction: str) -> list[Card]:
        spades = hand & SUIT_MASKS[SPADES]
        def danger(card: Card) -> float:
            suit, rank = suit_of(card), rank_of(card)
            score = rank + self.rng.random() * 0.5
            if suit == SPADES and card >= QS and spades.bit_count() < 4:
                score += 20
            elif suit == SPADES and card < QS:
                score -= 10  # spades below the queen protect it
            if suit == 2:
                score += 2
            short = (hand & SUIT_MASKS[suit]).bit_count()
            return score + (4 - short)
        return sorted(iter_cards(hand), key=danger, reverse=True)[:count]

    def choose_play(self, state: HandState, seat: int) -> Card:
        legal = state.legal_cards(seat)
        if legal & (legal - 1) == 0:
            return lowest(legal)
        if not state.trick:
            safe = legal & ~HEARTS_MASK & ~QS_MASK
            pool = safe or legal
            # lead the lowest card of a random suit we hold
            suits = [s for s in range(4) if pool & SUIT_MASKS[s]]
            return lowest(pool & SUIT_MASKS[self.rng.choice(suits)])
        led = suit_of(state.trick[0][1])
        follow = legal & SUIT_MASKS[led]
        top = highest(state.trick_cards & SUIT_MASKS[led])
        if follow:
            under = follow & ((1 << top) - 1)
            if under:
                return highest(under)  # duck as high as possible
            last = len(state.trick) == state.players - 1
            if last and not state.trick_cards & (HEARTS_MASK | QS_MASK):
                over = follow & ~QS_MASK
                return highest(over or follow)
            return lowest(follow & ~QS_MASK or follow)
        # void: dump the worst card
        if legal & QS_MASK:
            return QS
        hearts = legal & HEARTS_MASK
        if hearts:
            return highest(hearts)
        return max(iter_cards(legal), key=rank_of)
