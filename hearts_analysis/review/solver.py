"""Exact play once every hand is known: each seat minimises its own points.

This is max^n search (a vector of points per node, each seat choosing the
child best for itself), the natural model of four independent players. Ties
go to the lowest card, so the value of a position is unique and the search,
the brute force that checks it, and the vectorised endgame in
:mod:`.endgame` agree to the point. Positions are memoised on everything that
can still change a score: the cards left, the trick so far, who leads,
whether hearts are broken, and the scoring cards (and tricks) each seat took.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.cards import parse_card, mask_of
>>> table = Rules.preset("standard").table(4)
>>> hands = [mask_of(parse_card(c) for c in cards) for cards in
...          (["2H", "AC"], ["QS", "3C"], ["4D", "5D"], ["KH", "2D"])]
>>> state = HandState(table, hands, 0)
>>> state.trick_number = 12; state.broken = True
>>> solve(state)
(0, 0, 13, 2)
"""

from __future__ import annotations

from ..cards import HEARTS_MASK, JD, QC, QS_MASK, Card, iter_cards
from ..engine.scoring import score_hand
from ..engine.state import HandState

Points = tuple[int, ...]

_SCORING_CARDS = HEARTS_MASK | QS_MASK | (1 << JD) | (1 << QC)


def final_points(state: HandState) -> Points:
    """The hand's points once it is over (moons added to the others under ``shooter_choice``)."""
    return tuple(score_hand(state.table, state.taken, state.tricks_won, "add_to_others")[1])


def _choose(state: HandState, values: list[tuple[Card, Points]]) -> Points:
    seat = state.to_play
    best = values[0][1]
    for _, value in values[1:]:
        if value[seat] < best[seat]:
            best = value
    return best


def _next(state: HandState, seat: int, card: Card) -> HandState:
    child = state.copy()
    child.push(seat, card)
    return child


def solve(state: HandState) -> Points:
    """The final hand points of every seat when all play perfectly from ``state``."""
    return Solver(state).value(state)


def solve_cards(state: HandState) -> dict[Card, Points]:
    """The final points after each legal card of the seat to play, then perfect play."""
    solver = Solver(state)
    seat = state.to_play
    return {card: solver.value(_next(state, seat, card)) for card in iter_cards(state.legal_cards(seat))}


class Solver:
    """One search with its transposition table (reuse it for positions of the same hand)."""

    def __init__(self, state: HandState):
        rules = state.table.rules
        self._track_tricks = bool(rules.no_tricks_bonus)
        self.memo: dict[tuple, Points] = {}

    def _key(self, state: HandState) -> tuple:
        taken = tuple(cards & _SCORING_CARDS for cards in state.taken)
        won = tuple(w > 0 for w in state.tricks_won) if self._track_tricks else ()
        return (tuple(state.hands), tuple(state.trick), state.leader, state.broken, state.ended, taken, won)

    def value(self, state: HandState) -> Points:
        if state.is_over:
            return final_points(state)
        key = self._key(state)
        found = self.memo.get(key)
        if found is not None:
            return found
        seat = state.to_play
        legal = state.legal_cards(seat)
        if legal & (legal - 1) == 0:
            result = self.value(_next(state, seat, legal.bit_length() - 1))
        else:
            result = _choose(state, [(card, self.value(_next(state, seat, card))) for card in iter_cards(legal)])
        self.memo[key] = result
        return result


def brute_force(state: HandState) -> Points:
    """Every play sequence, no memo, no shortcuts: the reference :func:`solve` is checked against."""
    if state.is_over:
        return final_points(state)
    seat = state.to_play
    return _choose(state, [(card, brute_force(_next(state, seat, card)))
                           for card in iter_cards(state.legal_cards(seat))])
