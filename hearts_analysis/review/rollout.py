"""Play every alternative out over the same sampled deals (common random numbers).

Lane ``a * samples + i`` plays alternative ``a`` on deal ``i``. Every lane
takes its first card (or its pass) from the alternative, then the rollout
player (:mod:`.policy`) plays all seats until ``exact_tricks`` tricks remain,
and exact search (:mod:`.endgame`) finishes the hand. The rollout player is
deterministic, so two alternatives differ on a deal only through the
decision itself: differences are sharp with a few hundred deals.

:func:`play_out_with_bots` does the same with any simulator bots (the
:class:`~hearts_analysis.simulate.bots.Bot` protocol), one lane at a time: a
slower review with another model of the players, and a check on the fast path.

Seat 2, second to a 2C lead, weighs ducking with 9C against winning with AC
over the same eight deals its knowledge allows:

>>> from hearts_analysis.cards import mask_of, parse_card
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.review.information_set import at_play, observe
>>> from hearts_analysis.review.sampling import sample_hands
>>> deal = [mask_of(parse_card(c) for c in text.split()) for text in (
...     "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D", "8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S",
...     "9C TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H", "9H TH JH QH KH AH 8S 9S TS JS QS KS AS")]
>>> state = HandState(Rules.preset("standard").table(4), deal, 0)
>>> state.push(0, parse_card("2C"))
>>> shown = observe((0, 0, 0, 0), state, 1, parse_card("8D"))
>>> state.push(1, parse_card("8D"))
>>> hands = sample_hands(at_play(state, 2, shown), 8, np.random.default_rng(0))
>>> outcomes = play_out(state, hands, [parse_card("9C"), parse_card("AC")])
>>> outcomes.points.shape, outcomes.points[:, :, 2].mean(axis=1).tolist()
((2, 8, 4), [14.5, 16.5])
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..cards import Card, Mask, iter_cards
from ..engine.state import HandState
from ..fastpath.lockstep import exchange, first_leaders
from ..kernel.compiled import BROKEN, LEADER, NUMBER, SIZE, TAKEN, WON, facts, finish_all, play_out_all
from ..kernel.masks import U64
from ..rules import Table
from ..simulate.bots import BotFactory
from ..simulate.play import HandPlay
from .policy import MODELS, Model, STRONG
from .solver import Solver, final_points

DEFAULT_EXACT_TRICKS = 2

Policy = int
"""A rollout player of the kernel (:data:`~hearts_analysis.kernel.compiled.BASIC` or ``STRONG``): it
plays every lane, one after another."""


@dataclass(frozen=True)
class Outcomes:
    """How each alternative's hand ended on each sampled deal."""

    points: np.ndarray
    """``(alternatives, samples, seats)`` final hand points."""
    taken: np.ndarray
    """``(alternatives, samples, seats)`` masks of the cards each seat took."""


def _outcomes(points: np.ndarray, taken: np.ndarray, alternatives: int) -> Outcomes:
    shape = (alternatives, -1, points.shape[-1])
    return Outcomes(points.reshape(shape), taken.view(U64).reshape(shape))


def _masks(hands: np.ndarray) -> np.ndarray:
    """``hands`` as the kernel's ``int64`` masks (52 bits: the same numbers)."""
    return np.ascontiguousarray(hands, dtype=U64).view(np.int64)


def play_out(state: HandState, hands: np.ndarray, cards: Sequence[Card],
             exact_tricks: int = DEFAULT_EXACT_TRICKS, policy: Policy = STRONG) -> Outcomes:
    """Each of ``cards`` played by the seat to move at ``state``, on each deal of ``hands``
    (lane ``a * samples + i`` is alternative ``a`` on deal ``i``)."""
    if state.ended:
        raise ValueError("the hand is over")
    table = state.table
    base = np.zeros(SIZE, np.int64)
    n = table.players
    base[TAKEN:TAKEN + n] = state.taken
    base[WON:WON + n] = state.tricks_won
    base[LEADER], base[BROKEN], base[NUMBER] = state.leader, state.broken, state.trick_number
    seats = np.array([seat for seat, _ in state.trick], np.int64)
    played = np.array([card for _, card in state.trick], np.int64)
    points, taken = play_out_all(facts(table), base, seats, played, _masks(hands), np.asarray(cards, np.int64),
                                 exact_tricks, policy)
    return _outcomes(points, taken, len(cards))


def passed_hands(table: Table, seat: int, dealt: np.ndarray, direction: str, options: Sequence[Mask],
                 model: Model = MODELS["strong"]) -> np.ndarray:
    """Hands after the pass, ``(alternatives * samples, seats)``: ``seat`` passes each option, the
    others pass what the rollout player ``model`` would."""
    offset = table.pass_offset(direction)
    if offset == 0:     # held: every pass comes back to its passer, so none need be chosen
        return np.tile(dealt, (len(options), 1))
    # the others' passes once a deal, whichever option the seat passes
    given = model.passes(dealt.reshape(-1), table.rules.pass_count, direction, table.rules).reshape(dealt.shape)
    given = np.tile(given, (len(options), 1))
    given[:, seat] = np.repeat(np.asarray(options, U64), len(dealt))
    return exchange(np.tile(dealt, (len(options), 1)).T, given.T, np.full(len(given), offset)).T


def pass_out(table: Table, seat: int, dealt: np.ndarray, direction: str, options: Sequence[Mask],
             dealer: int, exact_tricks: int = DEFAULT_EXACT_TRICKS, model: Model = MODELS["strong"]) -> Outcomes:
    """Each pass in ``options`` made by ``seat`` on each sampled deal ``dealt``, the hand played out
    (the other seats' passes and every play by ``model``)."""
    hands = passed_hands(table, seat, dealt, direction, options, model)
    leaders = first_leaders(table, hands.T, np.full(len(hands), dealer)).astype(np.int64)
    points, taken = finish_all(facts(table), _masks(hands), leaders, exact_tricks, model.plays)
    return _outcomes(points, taken, len(options))


@dataclass(frozen=True)
class History:
    """The public past of a hand at a decision, for simulator bots (they read a seat's view of it)."""

    first_leader: int
    plays: tuple[tuple[int, Card], ...]
    """Every card played before the decision, from trick 1."""
    passed: tuple[Mask, ...] | None = None
    """What each seat gave; 0 for passes the reviewed seat cannot know."""
    hand_number: int = 1
    dealer: int = 0
    totals: tuple[int, ...] | None = None
    direction: str = "hold"


def play_out_with_bots(table: Table, history: History, seat: int, hands: np.ndarray, cards: Sequence[Card],
                       bot: BotFactory, seed: int = 0, exact_tricks: int = DEFAULT_EXACT_TRICKS) -> Outcomes:
    """:func:`play_out` with simulator bots instead of the rollout player, one lane at a time:
    ``seat`` (the seat to play after ``history``) plays each of ``cards``.

    Deal ``i`` gives every alternative bots seeded alike; the bots see the public record of the
    real hand (voids, points taken) through :meth:`HandPlay.resume`. Exact search
    (:mod:`.solver`) takes over with ``exact_tricks`` left.
    """
    n = table.players
    points = np.zeros((len(cards), len(hands), n), np.int64)
    taken = np.zeros((len(cards), len(hands), n), U64)
    for i, row in enumerate(hands.tolist()):
        for a, card in enumerate(cards):
            play = HandPlay.resume(table, row, history.plays, history.first_leader, history.hand_number,
                                   history.dealer, history.totals, history.direction, history.passed)
            bots = [bot(random.Random(f"{seed}:{i}:{s}")) for s in range(n)]
            plays = list(history.plays) + [(seat, card)]
            play.push(seat, card)
            public = play.public
            while not public.ended and table.hand_size - public.trick_number + 1 > exact_tricks:
                mover = public.turn
                choice = bots[mover].choose_play(play.views[mover], play.legal(mover))
                plays.append((mover, choice))
                play.push(mover, choice)
            points[a, i], taken[a, i] = _finished(table, history, row, plays)
    return Outcomes(points, taken)


def _start_hands(plays: Sequence[tuple[int, Card]], hands: Sequence[Mask]) -> list[Mask]:
    start = list(hands)
    for seat, card in plays:
        start[seat] |= 1 << card
    return start


def _replayed(table: Table, leader: int, start: list[Mask], plays: Sequence[tuple[int, Card]]) -> HandState:
    state = HandState(table, start, leader)
    for seat, card in plays:
        state.push(seat, card)
    return state


def _finished(table: Table, history: History, hands: Sequence[Mask], plays: list[tuple[int, Card]]
              ) -> tuple[tuple[int, ...], list[Mask]]:
    """Final points and taken cards: the hand as played, then the solver's line for what is left."""
    state = _replayed(table, history.first_leader, _start_hands(history.plays, hands), plays)
    if state.is_over:
        return final_points(state), state.taken
    solver = Solver(state)
    value = solver.value(state)
    while not state.is_over:
        mover = state.to_play
        for card in iter_cards(state.legal_cards(mover)):
            child = state.copy()
            child.push(mover, card)
            if solver.value(child) == value:
                state = child
                break
    return value, state.taken
