"""A second, independently written moon-running player, for measuring the moon-attempt detector.

The simulator's :class:`HeuristicBot` runs for the moon when it is dealt high
hearts and control, and decides before trick 1. :class:`MoonBot` plays like it
but also runs on looser hands (passing its lowest cards away) and, now and
then, on a run that falls into its lap in mid-hand. Both write down the hands
they run on, so a simulated corpus comes with the truth the detector is
measured against.
"""

from __future__ import annotations

import random

from hearts_analysis.cards import (HEARTS, HEARTS_MASK, POINT_CARDS_MASK, SUIT_MASKS, Card, Mask, highest,
                                   iter_cards, lowest, rank_of, suit_of)
from hearts_analysis.simulate import HeuristicBot, PublicInfo, RandomBot, SeatView


def strength(hand: Mask) -> float:
    """High cards and long hearts: what a moon needs."""
    score = 0.0
    for card in iter_cards(hand):
        rank = rank_of(card)
        score += {12: 3, 11: 2, 10: 1}.get(rank, 0)
        if suit_of(card) == HEARTS and rank >= 8:
            score += 1
    return score + max(0, (hand & HEARTS_MASK).bit_count() - 3)


class MoonBot(HeuristicBot):
    """A heuristic player that runs for the moon more readily; ``runs`` maps hand -> first trick."""

    def __init__(self, rng: random.Random, threshold: float = 15.0, opportunist: bool = True):
        super().__init__(rng)
        self.threshold = threshold
        self.opportunist = opportunist
        self.runs: dict[int, int] = {}
        self.running = False
        self._pending = False
        self._hand: PublicInfo | None = None

    def choose_pass(self, view: SeatView, count: int) -> Mask:
        self._pending = strength(view.hand) + self.rng.random() * 3 >= self.threshold
        if not self._pending:
            return super().choose_pass(view, count)
        chosen = 0
        for card in sorted(iter_cards(view.hand), key=lambda c: (suit_of(c) == HEARTS, rank_of(c)))[:count]:
            chosen |= 1 << card
        return chosen

    def choose_play(self, view: SeatView, legal: Mask) -> Card:
        public = view.public
        if public is not self._hand:
            self._hand = public
            self.running = self._pending or (self.rng.random() < 0.5 and strength(view.hand) >= self.threshold)
            self._pending = False
            if self.running:
                self.runs[public.hand_number] = 1
        if public.point_seats & ~(1 << view.seat):
            self.running = False
        elif (not self.running and self.opportunist and public.hand_number not in self.runs
              and (public.taken[view.seat] & POINT_CARDS_MASK).bit_count() >= 5 and strength(view.hand) >= 6):
            self.running = True
            self.runs[public.hand_number] = public.trick_number
        if not self.running or not legal & (legal - 1):
            return super().choose_play(view, legal)
        return self._take(view, public, legal)

    @staticmethod
    def _take(view: SeatView, public: PublicInfo, legal: Mask) -> Card:
        unseen = view.unseen
        if not public.led:
            suits = [s for s in range(4) if legal & SUIT_MASKS[s]]
            masters = [s for s in suits if highest(legal & SUIT_MASKS[s]) > highest(unseen & SUIT_MASKS[s])]
            suit = max(masters or suits, key=lambda s: (legal & SUIT_MASKS[s]).bit_count())
            return highest(legal & SUIT_MASKS[suit])
        follow = legal & public.led
        if follow:
            over = follow & ~((2 << public.top) - 1)
            return highest(over) if over else lowest(follow)
        safe = legal & ~POINT_CARDS_MASK
        return lowest(safe or legal)


KINDS = ("heuristic", "moonbot", "random", "mixed")
"""Tables of simulator heuristic bots, of MoonBots, of random players, and of random and heuristic
players in alternate seats (random players never run; their moons are accidents)."""


def labelled_factory(kind: str, bots: list, **options):
    """A bot factory that keeps every bot it builds (in seat order) so their runs can be read back."""
    def build(rng: random.Random):
        if kind == "moonbot":
            bot = MoonBot(rng, **options)
        elif kind == "random" or kind == "mixed" and len(bots) % 2 == 0:
            bot = RandomBot(rng)
        else:
            bot = HeuristicBot(rng)
        bots.append(bot)
        return bot
    return build


def runs_of(bots: list) -> dict[tuple[int, int], int]:
    """``(hand, seat) -> first trick`` of every run the bots of one game made."""
    out: dict[tuple[int, int], int] = {}
    for seat, bot in enumerate(bots):
        for hand in getattr(bot, "moon_attempts", ()):
            out.setdefault((hand, seat), 1)
        for hand, trick in getattr(bot, "runs", {}).items():
            out[(hand, seat)] = min(trick, out.get((hand, seat), trick))
    return out
