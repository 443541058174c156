"""Hidden deals weighted by what the other seats did with them.

The rules alone (:mod:`.information_set`) say only which deals are possible; a
seat's plays also say which are likely. A player who ducked under the king of
spades with the ace still in hand is rarer than one who had no higher spade.
Following GIB and the PIMC literature on Hearts, each sampled deal is weighted
by the likelihood of every card the other seats played so far, under the
rollout player as a model of them with an ``epsilon`` of doubt: a card the
model would have played (or one interchangeable with it) has chance
``1 - epsilon + epsilon / legal``; any other legal card ``epsilon / legal``.
Drawing more deals than needed and resampling by weight (sampling importance
resampling) then gives deals that look like the real one more often.

Only plays are read: the others' passes are hidden from the seat, except the
cards it received, and the passer's dealt hand is unknown.

The weighted deals still fit everything the seat knows (here seat 2, after
seat 1 showed a void in clubs):

>>> from hearts_analysis.cards import mask_of, parse_card
>>> from hearts_analysis.engine.state import HandState
>>> from hearts_analysis.review.information_set import at_play, observe
>>> from hearts_analysis.rules import Rules
>>> deal = [mask_of(parse_card(c) for c in text.split()) for text in (
...     "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D", "8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S",
...     "9C TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H", "9H TH JH QH KH AH 8S 9S TS JS QS KS AS")]
>>> state, shown = HandState(Rules.preset("standard").table(4), deal, 0), (0, 0, 0, 0)
>>> plays = [(0, parse_card("2C")), (1, parse_card("8D"))]
>>> for seat, card in plays:
...     shown = observe(shown, state, seat, card)
...     state.push(seat, card)
>>> knowledge = at_play(state, 2, shown)
>>> hands = inferred_hands(knowledge, 4, np.random.default_rng(0), state.table, 0, plays)
>>> hands.shape, all(knowledge.admits([int(cards) for cards in row]) for row in hands)
((4, 4), True)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..cards import Card
from ..kernel.compiled import facts, model_choices
from ..kernel.masks import BIT, U64
from ..rules import Table
from .information_set import Knowledge
from .policy import MODELS
from .sampling import sample_hands

EPSILON = 0.2
"""Chance the model gives a seat of playing a card it would not choose, spread over the legal cards."""
OVERSAMPLE = 4
"""Deals drawn for each one kept after resampling."""


def start_hands(hands: np.ndarray, plays: Sequence[tuple[int, Card]]) -> np.ndarray:
    """Each deal as dealt to trick 1 (after the pass): ``hands`` with every card played given back."""
    start = hands.astype(U64, copy=True)
    for seat, card in plays:
        start[:, seat] |= BIT[card]
    return start


def play_log_likelihood(table: Table, first_leader: int, plays: Sequence[tuple[int, Card]], seat: int,
                        hands: np.ndarray, model: str = "basic", epsilon: float = EPSILON) -> np.ndarray:
    """Log-likelihood per deal of ``hands`` (each seat's cards now) of every card the seats other
    than ``seat`` played in ``plays`` (the hand from trick 1), under the rollout player ``model``."""
    seats = np.array([mover for mover, _ in plays], np.int64)
    cards = np.array([card for _, card in plays], np.int64)
    alike, count = model_choices(facts(table), start_hands(hands, plays).view(np.int64), first_leader, seats, cards,
                                 seat, MODELS[model].plays)
    total = np.zeros(len(hands))
    for k in range(len(plays)):
        if seats[k] != seat:
            legal = count[:, k].astype(np.float64)
            chance = np.where(alike[:, k], 1.0 - epsilon, 0.0) + epsilon / legal
            total += np.where(legal > 1, np.log(chance), 0.0)
    return total


def inferred_hands(knowledge: Knowledge, count: int, rng: np.random.Generator, table: Table, first_leader: int,
                   plays: Sequence[tuple[int, Card]], model: str = "basic", epsilon: float = EPSILON,
                   oversample: int = OVERSAMPLE) -> np.ndarray:
    """``count`` deals drawn from ``oversample * count`` uniform ones in proportion to the likelihood of
    the others' plays (:func:`play_log_likelihood`); uniform deals where no other seat has played."""
    if not any(mover != knowledge.seat for mover, _ in plays):
        return sample_hands(knowledge, count, rng)
    pool = sample_hands(knowledge, oversample * count, rng)
    weights = np.exp(_shifted(play_log_likelihood(table, first_leader, plays, knowledge.seat, pool, model, epsilon)))
    return pool[rng.choice(len(pool), size=count, p=weights / weights.sum())]


def _shifted(logs: np.ndarray) -> np.ndarray:
    return logs - logs.max()
