"""Players the judge was not built from, to measure it against (``judge_strength.py --baselines classic``).

The simulator's :class:`~hearts_analysis.simulate.HeuristicBot` and the review's ``strong`` rollout
player follow the same strategy notes, so a judge measured only against HeuristicBot could be
strong only against the bot its model copies. :class:`ClassicBot` is written to another, plainer
plan, the one the computer players of the classic desktop Hearts games are known for: pass the
three most dangerous cards, lead the lowest card, play the highest card that ducks the trick,
shed the queen, then the high spades, then the highest hearts. It never runs for the moon and
never flushes the queen. Nothing in the judge is tuned to it: it is only ever an opponent.

    >>> import random
    >>> from hearts_analysis.rules import Rules
    >>> from hearts_analysis.simulate import simulate_game
    >>> game = simulate_game(Rules.preset("standard", target=30), ["a", "b", "c", "d"], seed=1,
    ...                      bot=[ClassicBot] * 4)
    >>> sum(game.hands[0].points)
    26
"""

from __future__ import annotations

import random

from hearts_analysis.cards import HEARTS, HEARTS_MASK, QS, QS_MASK, SPADES, SUIT_MASKS, Card, Mask
from hearts_analysis.simulate import SeatView
from hearts_analysis.simulate.bits import BELOW, HIGH_SPADES, RANK


def _highest(mask: Mask) -> Card:
    return mask.bit_length() - 1


def _lowest(mask: Mask) -> Card:
    return (mask & -mask).bit_length() - 1


def _danger(card: Card, hand: Mask) -> float:
    """How much a card is worth passing: the queen, the spades over it, high hearts, then high cards,
    more in a short suit (towards a void)."""
    if card == QS:
        return 100.0
    suit, rank = card // 13, RANK[card]
    if suit == SPADES and rank > RANK[QS]:
        return 90.0 + rank
    score = rank * 2.0 + (12.0 if suit == HEARTS else 0.0)
    if (hand & SUIT_MASKS[suit]).bit_count() <= 2:
        score += 10.0
    return score


class ClassicBot:
    """The classic desktop computer player (module notes); deterministic, its ``rng`` unused."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose_pass(self, view: SeatView, count: int) -> Mask:
        hand = view.hand
        ranked = sorted((c for c in range(52) if hand >> c & 1), key=lambda c: (-_danger(c, hand), c))
        chosen = 0
        for card in ranked[:count]:
            chosen |= 1 << card
        return chosen

    def choose_play(self, view: SeatView, legal: Mask) -> Card:
        public = view.public
        led = public.led
        if not led:
            safe = legal & ~HEARTS_MASK & ~QS_MASK & ~(HIGH_SPADES if view.unseen & QS_MASK else 0)
            pool = safe or legal & ~QS_MASK or legal
            return min((c for c in range(52) if pool >> c & 1), key=lambda c: (RANK[c], c))
        follow = legal & led
        if follow:
            under = follow & BELOW[public.top]
            if under:
                return _highest(under)  # the highest card that still ducks
            if len(public.trick) == public.players - 1:
                return _highest(follow & ~QS_MASK or follow)  # taking it anyway: with the highest
            return _lowest(follow)
        if legal & QS_MASK:
            return QS
        if view.unseen & QS_MASK and legal & HIGH_SPADES:
            return _highest(legal & HIGH_SPADES)
        if legal & HEARTS_MASK:
            return _highest(legal & HEARTS_MASK)
        return max((c for c in range(52) if legal >> c & 1), key=lambda c: (RANK[c], c))


OUTSIDE_BOTS = {"classic": ClassicBot}
"""The benchmark's opponents from outside the simulator's bots, by name."""

__all__ = ["ClassicBot", "OUTSIDE_BOTS"]
