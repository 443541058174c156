"""Which rollout player each other seat plays like, read from its plays this hand.

A review's rollouts need a model of the others, and no one model fits every table: the judge
that assumes duck-and-dump players misreads careful ones, and the one that assumes careful
players misreads the rest. So each other seat is given the players of ``Settings.identify`` in
proportion to how well each explains the cards that seat has played so far this hand, under
the deals the seat's knowledge allows: the posterior of a uniform prior, with the likelihood of
GIB and the PIMC literature (a card the model would have played has chance
``1 - epsilon + epsilon / legal``, any other ``epsilon / legal``; :mod:`.deal_weights` reads the
same likelihoods). Before a seat has played, it is an even mix.

Every deal then gets one player per seat, drawn with its chance on that deal (:func:`tables`), and
the alternatives are played out on it by those players
(:func:`~hearts_analysis.kernel.compiled.seatwise`). A seat that plays like neither keeps both.

In a hand of four :class:`~hearts_analysis.simulate.HeuristicBot` players, seen by seat 0 after six
tricks (here with the true deal), the careful player explains every other seat better than the basic
one (a seat whose plays both would have made would stay even):

>>> import numpy as np
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.kernel.masks import U64
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> rules = Rules.preset("standard", pass_cycle=["hold"])
>>> game = simulate_game(rules, ["a", "b", "c", "d"], seed=0, max_hands=1)
>>> plays = game.hands[0].plays[:24]
>>> hands = np.array([replay_game(game).hands[0].held], U64)
>>> for who, card in plays:
...     hands[0, who] &= ~np.uint64(1 << card)
>>> logs = log_likelihoods(rules.table(4), plays[0][0], plays, 0, hands, ("basic", "strong"))
>>> posteriors(logs).round(2).tolist()     # seat 0 is the one that asks; then basic, strong for each other seat
[[0.5, 0.5], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0]]
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..cards import Card
from ..kernel.compiled import facts, model_choices, seatwise
from ..kernel.masks import BIT, U64
from ..rules import Table
from .policy import MODELS, Model

EPSILON = 0.2
"""Chance a model gives a seat of playing a card it would not choose, spread over the legal cards."""


def start_hands(hands: np.ndarray, plays: Sequence[tuple[int, Card]]) -> np.ndarray:
    """Each deal as dealt to trick 1 (after the pass): ``hands`` with every card played given back."""
    start = hands.astype(U64, copy=True)
    for seat, card in plays:
        start[:, seat] |= BIT[card]
    return start


def log_likelihoods(table: Table, first_leader: int, plays: Sequence[tuple[int, Card]], seat: int, hands: np.ndarray,
                    models: Sequence[str], epsilon: float = EPSILON) -> np.ndarray:
    """``(models, deals, seats)``: the log-likelihood of each seat's plays in ``plays`` (the hand from trick 1)
    under each of ``models``, on each deal of ``hands`` (each seat's cards now); 0 for ``seat`` itself and for
    plays with one legal card."""
    n = table.players
    seats = np.array([mover for mover, _ in plays], np.int64)
    cards = np.array([card for _, card in plays], np.int64)
    start = start_hands(hands, plays).view(np.int64)
    logs = np.zeros((len(models), len(hands), n))
    for m, model in enumerate(models):
        alike, count = model_choices(facts(table), start, first_leader, seats, cards, seat, MODELS[model].plays)
        legal = np.maximum(count, 1).astype(np.float64)
        chance = np.where(alike, 1.0 - epsilon, 0.0) + epsilon / legal
        per_play = np.where(count > 1, np.log(chance), 0.0)      # (deals, plays)
        for s in range(n):
            if s != seat:
                logs[m, :, s] = per_play[:, seats == s].sum(axis=1)
    return logs


def posteriors(logs: np.ndarray) -> np.ndarray:
    """``(seats, models)``: each seat's chance of each model, from :func:`log_likelihoods`, averaged over
    the deals (a uniform prior)."""
    evidence = np.exp(logs - logs.max(axis=(0, 1), keepdims=True)).mean(axis=1)
    return (evidence / evidence.sum(axis=0, keepdims=True)).T


def mixture_log_likelihood(logs: np.ndarray) -> np.ndarray:
    """Per deal, the log-likelihood of every seat's plays when each seat plays one of the models, each
    as likely a priori: the weight of the deal under :attr:`Settings.identify`."""
    top = logs.max(axis=0)
    return (top + np.log(np.exp(logs - top).mean(axis=0))).sum(axis=1)


def tables(logs: np.ndarray, seat: int, models: Sequence[str], rng: np.random.Generator
           ) -> list[tuple[tuple[str, ...], np.ndarray]]:
    """The deals of ``logs`` (:func:`log_likelihoods`) split among tables: each other seat gets one of
    ``models`` a deal, drawn with its chance on that deal given the seat's plays (all alike where nothing
    is seen: zero ``logs``). ``[(model by seat, deal indices)]``; ``seat``'s own entry is the first model's."""
    chances = np.exp(logs - logs.max(axis=0))
    chances /= chances.sum(axis=0)                                 # (models, deals, seats)
    count, seats = chances.shape[1:]
    # stratified: each seat's draws fall one in each of ``count`` equal slices, in a random order, so
    # the share of deals each player gets follows the chances without the noise of independent draws
    draws = (np.argsort(rng.random((seats, count)), axis=1).T + rng.random((count, seats))) / count
    picks = np.minimum((draws[None] > np.cumsum(chances, axis=0)).sum(axis=0), len(models) - 1)
    picks[:, seat] = 0
    rows, inverse = np.unique(picks, axis=0, return_inverse=True)
    return [(tuple(models[i] for i in row), np.flatnonzero(inverse.reshape(-1) == t))
            for t, row in enumerate(rows.tolist())]


def table_model(players: Sequence[str], own: int, seat: int) -> Model:
    """One :class:`~.policy.Model` of a table whose seat ``s`` passes and plays as ``players[s]``, ``seat``
    playing as the kernel's player ``own`` (its pass is the judge's own, never the model's)."""
    n = len(players)

    def passes(hands: np.ndarray, count: int, direction: str, rules=None) -> np.ndarray:
        out = np.zeros_like(hands)
        by_seat = np.arange(len(hands)) % n
        for name in set(players):
            lanes = np.isin(by_seat, [s for s in range(n) if players[s] == name])
            out[lanes] = MODELS[name].passes(hands[lanes], count, direction, rules)
        return out

    return Model(seatwise([own if s == seat else MODELS[players[s]].plays for s in range(n)]), passes)
