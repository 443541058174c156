"""The review's judge as a player at a simulated table (``hearts simulate --bots judge=1,heuristic=3``).

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import HeuristicBot, simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["judge", "b", "c", "d"], seed=4,
...                      bot=[JudgeBot, HeuristicBot, HeuristicBot, HeuristicBot], max_hands=1)
>>> len(game.hands[0].plays)
52
"""

from __future__ import annotations

import random

from ..cards import Card, Mask, mask_of
from ..simulate.knowledge import SeatView
from .board import Advice, advise_pass, advise_play
from .settings import Settings


class JudgeBot:
    """The review's judge as a player: each pass and play is the best choice of the evaluator whose
    verdicts the review gives (:mod:`.board`), read from the seat's view only.

    It is deterministic for what the seat knows, whatever ``rng`` is: the judge's deals are seeded
    from the seat's information state. ``settings`` are the review's (the default: its defaults). It
    passes the game totals and the hand's number, so where the hand can end the game it plays for the
    game as the review judges (:attr:`Settings.game_context`).
    """

    __slots__ = ("rng", "settings", "advice")

    def __init__(self, rng: random.Random, settings=None):
        self.rng = rng
        self.settings = settings
        self.advice: Advice | None = None   # the last unforced decision's (benchmarks read the chosen option's figures)

    def _settings(self) -> Settings:
        if self.settings is None:
            self.settings = Settings()
        return self.settings

    def choose_pass(self, view: SeatView, count: int) -> Mask:
        public = view.public
        if count != public.table.rules.pass_count:
            raise ValueError(f"the judge passes the rules' {public.table.rules.pass_count} cards, not {count}")
        advice = advise_pass(public.table, view.seat, view.hand, public.pass_direction, public.dealer,
                             tuple(public.totals), self._settings(), public.hand_number)
        self.advice = advice
        return mask_of(advice.best_cards)

    def choose_play(self, view: SeatView, legal: Mask) -> Card:
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        public = view.public
        plays = public.plays
        first = plays[0][0] if plays else public.leader
        advice = advise_play(public.table, view.seat, view.hand, plays, first, tuple(public.totals),
                             self._settings(), view.passed, view.pass_offset, public.hand_number, public.dealer,
                             public.pass_direction)
        self.advice = advice
        return advice.best_cards[0]
