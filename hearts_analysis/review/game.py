"""The review of a game: every pass and play of the chosen seats, hand by hand, and accuracy.

Only hands that replay without a rule violation are reviewed: a hand with an
illegal play has no well-defined alternatives (its skips are listed).
Accuracy is the share of what was at stake that a seat kept:
``100 * (1 - sum of costs / sum of spreads)`` over its unforced decisions, where
a decision's spread is its worst alternative minus its best.

One seat's first hand: its pass and thirteen plays, some of them forced.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=1)
>>> review = review_game(game, Settings(samples=20), seats=[0], hands=[1])
>>> [d.kind for d in review.decisions].count("play"), sum(d.forced for d in review.decisions)
(13, 5)
>>> accuracy_percent(lost=2.0, stake=8.0), accuracy_percent(lost=0.0, stake=0.0)
(75.0, 100.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ..cards import Mask, mask_of
from ..engine.replay import CHARGED, CLAIM, UNMODELLED, GameResult, HandResult, replay_game
from ..engine.state import HandState
from ..records.model import GameRecord, HandRecord
from .evaluate import Decision, Position, Settings, game_key, review_pass, review_play
from .information_set import at_play, observe
from .rollout import History
from .sampling import InconsistentKnowledge


@dataclass(frozen=True)
class GameReview:
    """Every reviewed decision of a game, in play order."""

    game_id: str | None
    players: tuple[str, ...]
    decisions: tuple[Decision, ...]
    skipped: tuple[tuple[int, str], ...]
    """``(hand, why)`` for hands not reviewed."""

    def accuracy(self) -> dict[int, float]:
        """Accuracy per reviewed seat, in percent."""
        return accuracy(self.decisions)


def accuracy_percent(lost: float, stake: float) -> float:
    """The share of the points at stake that were kept, in percent (100 when nothing was at stake)."""
    return round(100.0 * (1.0 - lost / stake), 1) if stake > 0 else 100.0


def accuracy(decisions: Iterable[Decision]) -> dict[int, float]:
    lost: dict[int, float] = {}
    stake: dict[int, float] = {}
    for decision in decisions:
        lost.setdefault(decision.seat, 0.0)
        stake.setdefault(decision.seat, 0.0)
        if not decision.forced:
            lost[decision.seat] += decision.cost
            stake[decision.seat] += decision.spread
    return {seat: accuracy_percent(lost[seat], stake[seat]) for seat in sorted(lost)}


Progress = Callable[[int], None]


UNREVIEWED = (CHARGED, CLAIM, UNMODELLED)
"""A hand's extra fields that the review's play model does not read: such hands are skipped, and said so."""


def review_game(game: GameRecord, settings: Settings = Settings(), seats: Iterable[int] | None = None,
                hands: Iterable[int] | None = None, result: GameResult | None = None,
                progress: Progress | None = None) -> GameReview:
    """Review ``seats`` (default: all) in ``hands`` (1-based numbers; default: all) of ``game``."""
    result = result or replay_game(game)
    table = game.rules.table(game.seats)
    wanted_seats = frozenset(range(game.seats) if seats is None else seats)
    wanted_hands = None if hands is None else frozenset(hands)
    decisions: list[Decision] = []
    skipped: list[tuple[int, str]] = []
    totals = (0,) * game.seats
    for record, hand in zip(game.hands, result.hands):
        if wanted_hands is None or hand.number in wanted_hands:
            if hand.violations:
                codes = sorted({v.code for v in hand.violations})
                skipped.append((hand.number, f"rule violations ({', '.join(codes)})"))
            elif table.needs_reference or any(key in record.extra for key in UNREVIEWED):
                skipped.append((hand.number, "the review does not model charges, TC multipliers, claims, "
                                "fixed-length games or what an importer marked unmodelled"))
            else:
                position = Position(table, hand.number, totals, game_key(game.game_id), game.players)
                try:
                    decisions.extend(review_hand(position, record, hand, wanted_seats, settings))
                except InconsistentKnowledge as error:
                    skipped.append((hand.number, str(error)))
            if progress:
                progress(1)
        totals = hand.totals
    return GameReview(game.game_id, game.players, tuple(decisions), tuple(skipped))


def review_hand(position: Position, record: HandRecord, hand: HandResult, seats: frozenset[int],
                settings: Settings) -> list[Decision]:
    table = position.table
    n = table.players
    dealt = [mask_of(cards) for cards in record.deal]
    direction = hand.pass_direction
    passed = [0] * n
    decisions: list[Decision] = []
    if direction != "hold" and record.passes:
        passed = list(hand.passed)
        for seat in sorted(seats):
            decisions.append(review_pass(position, seat, dealt[seat], passed[seat], direction, hand.dealer,
                                         settings))
    held = list(hand.held)
    state = HandState(table, held, HandState.first_leader_for(table, held, hand.dealer))
    offset = table.pass_offset(direction)
    first_leader = state.leader
    shown: tuple[Mask, ...] = (0,) * n
    for index, (seat, card) in enumerate(record.plays):
        if state.is_over:
            break
        if seat in seats:
            knowledge = at_play(state, seat, shown, passed[seat], (seat + offset) % n if offset else None)
            own_pass = tuple(cards if s == seat else 0 for s, cards in enumerate(passed))
            history = History(first_leader, tuple(record.plays[:index]), own_pass, hand.number,
                              hand.dealer, position.totals, direction)
            decisions.append(review_play(position, state, seat, card, knowledge, index + 1, settings, history))
        shown = observe(shown, state, seat, card)
        state.push(seat, card)
    return decisions


