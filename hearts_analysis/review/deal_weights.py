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
from ..rules import Table
from .information_set import Knowledge
from .opponents import EPSILON, log_likelihoods, mixture_log_likelihood, start_hands
from .sampling import sample_hands

OVERSAMPLE = 4
"""Deals drawn for each one kept after resampling."""


def play_log_likelihood(table: Table, first_leader: int, plays: Sequence[tuple[int, Card]], seat: int,
                        hands: np.ndarray, model: str | tuple[str, ...] = "basic",
                        epsilon: float = EPSILON) -> np.ndarray:
    """Log-likelihood per deal of ``hands`` (each seat's cards now) of every card the seats other
    than ``seat`` played in ``plays`` (the hand from trick 1), under the rollout player ``model``, or under
    a tuple of them, each seat playing one (:func:`~.opponents.mixture_log_likelihood`)."""
    models = (model,) if isinstance(model, str) else tuple(model)
    logs = log_likelihoods(table, first_leader, plays, seat, hands, models, epsilon)
    return logs[0].sum(axis=1) if len(models) == 1 else mixture_log_likelihood(logs)


def inferred_hands(knowledge: Knowledge, count: int, rng: np.random.Generator, table: Table, first_leader: int,
                   plays: Sequence[tuple[int, Card]], model: str | tuple[str, ...] = "basic", epsilon: float = EPSILON,
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
