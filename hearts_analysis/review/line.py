"""The likely line after a choice: the plays the rollout players make next, on the sampled deals.

A review names a better card; the line says what happens after it ("7S; the AS wins; you exit with
the 3D"). On each of a few of the deals that chose the card (:data:`LINE_DEALS`), the card is played
and the rollout players play on to the end of the next trick (:data:`LINE_TRICKS` tricks after the
current one), each seat by its plain player (no lookahead, no search: a line is shown, not judged).
The line is then read off those sequences one play at a time: the most common next play among the
deals whose line so far is the same, ties to the lowest card. So every play of the line is the one
the rollout players made on at least one deal the seat's knowledge allows, and the line is legal
from the position on that deal.

Seat 2, second to a 2C lead, playing the AC: the line is the rest of the trick and the next one.

>>> from hearts_analysis.cards import card_name, mask_of, parse_card
>>> from hearts_analysis.engine.state import HandState
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.review.information_set import at_play, observe
>>> from hearts_analysis.review.sampling import sample_hands
>>> from hearts_analysis.kernel.compiled import BASIC
>>> deal = [mask_of(parse_card(c) for c in text.split()) for text in (
...     "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D", "8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S",
...     "9C TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H", "9H TH JH QH KH AH 8S 9S TS JS QS KS AS")]
>>> state = HandState(Rules.preset("standard").table(4), deal, 0)
>>> state.push(0, parse_card("2C"))
>>> shown = observe((0, 0, 0, 0), state, 1, parse_card("8D"))
>>> state.push(1, parse_card("8D"))
>>> hands = sample_hands(at_play(state, 2, shown), 16, np.random.default_rng(0))
>>> line = likely_line(state, hands, parse_card("AC"), BASIC)
>>> [(seat, card_name(card)) for seat, card in line][:2], [seat for seat, _ in line][2:]
([(2, 'AC'), (3, '8C')], [2, 3, 0, 1])
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from numba import njit

from ..cards import Card
from ..engine.state import HandState
from ..kernel.compiled import (BROKEN, HANDS, LEADER, NUMBER, SIZE, TAKEN, WON, _copy, bit, choose, facts, is_over,
                               look_flags, mover, play, sweep)
from .rollout import _masks

LINE_DEALS = 32
"""Deals a line is read from: the first of those that chose the better card."""
LINE_TRICKS = 1
"""Whole tricks the line runs on after the rest of the current one."""


@njit(cache=True, error_model="numpy")
def continuations(rules, base, trick_seats, trick_cards, hands, card, player, tricks):
    """On each deal of ``hands`` (the cards each seat holds now), ``card`` played by the seat to move after
    ``base`` and the trick's plays so far, then ``player`` on to the end of ``tricks`` more tricks:
    ``(seats, cards)``, each ``(deals, length)``, -1 past a deal's last play."""
    count, players = hands.shape
    length = players * (tricks + 1)
    seats = np.full((count, length), -1, np.int64)
    cards = np.full((count, length), -1, np.int64)
    state = np.zeros(SIZE, np.int64)
    for lane in range(count):
        _copy(base, state)
        for seat in range(players):
            state[HANDS + seat] = hands[lane, seat]
        for k in range(len(trick_seats)):
            state[HANDS + trick_seats[k]] |= bit(trick_cards[k])
        sweep(state, rules)
        for k in range(len(trick_seats)):
            play(state, rules, trick_seats[k], trick_cards[k])
        last = state[NUMBER] + tricks
        seat, chosen, k = mover(state, rules), card, 0
        while True:
            seats[lane, k], cards[lane, k] = seat, chosen
            play(state, rules, seat, chosen)
            k += 1
            if is_over(state, rules) or state[NUMBER] > last or k == length:
                break
            seat = mover(state, rules)
            chosen = choose(state, rules, seat, player)
            if chosen < 0:
                break
    return seats, cards


def likely_line(state: HandState, hands: np.ndarray, card: Card, player: int,
                tricks: int = LINE_TRICKS, deals: int = LINE_DEALS) -> tuple[tuple[int, Card], ...]:
    """The likely plays after the seat to move at ``state`` plays ``card`` (the line starts with it), read off
    the first ``deals`` of ``hands`` under the kernel player ``player`` (without its lookahead flags)."""
    plain = int(player) & ~int(look_flags(int(player)))
    table = state.table
    base = np.zeros(SIZE, np.int64)
    n = table.players
    base[TAKEN:TAKEN + n] = state.taken
    base[WON:WON + n] = state.tricks_won
    base[LEADER], base[BROKEN], base[NUMBER] = state.leader, state.broken, state.trick_number
    trick_seats = np.array([s for s, _ in state.trick], np.int64)
    trick_cards = np.array([c for _, c in state.trick], np.int64)
    seats, cards = continuations(facts(table), base, trick_seats, trick_cards, _masks(hands[:deals]), int(card),
                                 plain, tricks)
    return read_line(seats, cards)


def read_line(seats: np.ndarray, cards: np.ndarray) -> tuple[tuple[int, Card], ...]:
    """The line of :func:`likely_line` from the sequences of every deal: at each step the most common play
    among the deals whose line so far is the same (ties to the lowest card).

    >>> seats = np.array([[0, 1, 2], [0, 1, 2], [0, 1, -1]])
    >>> cards = np.array([[5, 9, 3], [5, 8, 4], [5, 8, -1]])
    >>> read_line(seats, cards)
    ((0, 5), (1, 8), (2, 4))
    """
    alive = np.arange(len(cards))
    line: list[tuple[int, Card]] = []
    for step in range(cards.shape[1] if len(cards) else 0):
        alive = alive[cards[alive, step] >= 0]
        if not len(alive):
            break
        counts = Counter(zip(seats[alive, step].tolist(), cards[alive, step].tolist()))
        (seat, card), _ = min(counts.items(), key=lambda item: (-item[1], item[0][1]))
        line.append((int(seat), int(card)))
        alive = alive[cards[alive, step] == card]
    return tuple(line)
