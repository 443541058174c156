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
resampling) then gives deals that look like the real one more often. Where the
weight rests on a few of the deals drawn, more are drawn (:func:`weighted_pool`),
so that the deals kept are not copies of a handful and two seeds agree.

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

from ..cards import Card, mask_of, rank_of, suit_of
from ..engine.state import HandState
from ..kernel.masks import U64, popcount
from ..rules import Table
from .information_set import Knowledge
from .opponents import EPSILON, log_likelihoods, mixture_log_likelihood
from .sampling import sample_hands

OVERSAMPLE = 4
"""Deals drawn for each one kept after resampling, at first."""

MAX_OVERSAMPLE = 64
"""At most this many deals drawn for each one kept, where the weight rests on a few deals."""


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
                   plays: Sequence[tuple[int, Card]], model: str | tuple[str, ...] | None = "basic",
                   epsilon: float = EPSILON, oversample: int = OVERSAMPLE, runner: int | None = None) -> np.ndarray:
    """``count`` deals drawn from ``oversample * count`` uniform ones in proportion to the likelihood of
    the others' plays (:func:`play_log_likelihood`, none with ``model=None``) and, where a seat is
    running for the moon, to :func:`run_log_weights`; uniform deals where neither reads anything."""
    reads = model is not None and any(mover != knowledge.seat for mover, _ in plays)
    if not reads and runner is None:
        return sample_hands(knowledge, count, rng)
    def draw(size: int) -> tuple[np.ndarray, np.ndarray]:
        pool = sample_hands(knowledge, size, rng)
        logs = np.zeros(len(pool))
        if reads:
            logs += play_log_likelihood(table, first_leader, plays, knowledge.seat, pool, model, epsilon)
        if runner is not None:
            logs += run_log_weights(pool, runner)
        return pool, logs

    pool, weights = weighted_pool(draw, count, oversample)
    return pool[rng.choice(len(pool), size=count, p=weights)]


def weighted_pool(draw, count: int, oversample: int = OVERSAMPLE, most: int = MAX_OVERSAMPLE
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Deals drawn ``oversample * count`` at a time by ``draw(size) -> (deals, log weights)`` until their
    effective number (:func:`effective_size`) reaches ``count`` or ``most * count`` are drawn, and their
    weights, summing to 1. Resampling ``count`` deals from fewer effective ones would keep copies of a
    handful, and what a seed's handful says would turn on the seed.

    >>> rng = np.random.default_rng(0)
    >>> flat = lambda size: (np.arange(size), np.zeros(size))
    >>> len(weighted_pool(flat, 10)[0])                      # every deal counts: one draw
    40
    >>> steep = lambda size: (np.arange(size), np.log(0.1) * rng.integers(0, 10, size))
    >>> len(weighted_pool(steep, 10)[0]) > 40                # a few deals weigh most: more are drawn
    True
    """
    pools, logs = [], []
    drawn = 0
    while True:
        deals, log = draw(oversample * count)
        pools.append(deals)
        logs.append(log)
        drawn += len(deals)
        weights = np.exp(_shifted(np.concatenate(logs)))
        weights /= weights.sum()
        if effective_size(weights) >= count or drawn >= most * count:
            return np.concatenate(pools), weights


def effective_size(weights: np.ndarray) -> float:
    """Kish's effective sample size of normalised ``weights``: how many equally weighted deals they are worth.

    >>> effective_size(np.full(4, 0.25)), effective_size(np.array([1.0, 0, 0, 0]))
    (4.0, 1.0)
    """
    return float(1.0 / np.square(weights).sum())


RUNNER_CARDS = 4
"""Point cards a seat must have taken, with no other seat holding any, before its play is read as a
run for the moon: one trick's QS and a heart or two is a queen eaten, not a run."""

RUNNER_DOUBT = 0.1
"""A deal's weight for each card past the first that the running seat could lose a trick with."""


def running_seat(state: HandState, seat: int) -> int | None:
    """The seat other than ``seat`` that has taken every point card taken so far, at least
    :data:`RUNNER_CARDS` of them, while some are still to take; ``None`` where there is none.

    A strong player reads such a seat as able to take the rest: a seat that could not would have
    stopped taking points. The judge draws its deals the same way (:func:`run_log_weights`)."""
    moon = state.table.moon_cards
    takers = [s for s in range(state.players) if state.taken[s] & moon]
    if len(takers) != 1 or takers[0] == seat:
        return None
    taken = state.taken[takers[0]] & moon
    if bin(taken).count("1") < RUNNER_CARDS or taken == moon:
        return None
    return takers[0]


_ABOVE = np.array([mask_of(c for c in range(52) if suit_of(c) == suit_of(card) and rank_of(c) > rank_of(card))
                   for card in range(52)], dtype=U64)
"""For each card, the cards of its suit that rank above it."""


def losers(hands: np.ndarray, runner: int) -> np.ndarray:
    """Per deal (a row of ``hands``, each seat's cards now), the cards ``runner`` could lose a trick
    with: in each suit its k-th highest card loses where at least k cards of the other seats rank above it.

    >>> from hearts_analysis.cards import parse_card
    >>> def cards(text): return mask_of(parse_card(c) for c in text.split())
    >>> hands = np.array([[cards("KS QS JS 2H"), cards("AS 3H")],      # KS loses to AS, 2H to 3H
    ...                   [cards("AS KS 3H"), cards("QS 2H")]])        # nothing loses
    >>> losers(hands, 0).tolist()
    [2, 0]
    """
    masks = hands.astype(U64)
    mine = masks[:, runner]
    out = np.bitwise_or.reduce(masks, axis=1) & ~mine
    count = np.zeros(len(masks), dtype=np.int64)
    for card in range(52):
        held = ((mine >> U64(card)) & U64(1)).astype(bool)
        above = _ABOVE[card]
        count += held & (popcount(out & above) >= popcount(mine & above) + 1)
    return count


def run_log_weights(hands: np.ndarray, runner: int) -> np.ndarray:
    """Log weight per deal of ``runner``'s hand as a running seat's: :data:`RUNNER_DOUBT` for each card
    past the first it could lose a trick with (:func:`losers`)."""
    return np.log(RUNNER_DOUBT) * np.maximum(losers(hands, runner) - 1, 0)


def _shifted(logs: np.ndarray) -> np.ndarray:
    return logs - logs.max()
