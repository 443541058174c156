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
from typing import Callable, Iterable, Iterator, Sequence

from ..cards import Mask, mask_of
from ..engine.replay import GameResult, replay_game
from ..engine.state import HandState
from ..records.model import REFERENCE_ONLY, GameRecord, HandRecord, is_score_sheet
from .decision import Decision, Position
from .pass_review import review_pass
from .play_review import review_play
from .settings import Settings
from .streams import game_key
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


def unreviewed(record: HandRecord) -> bool:
    """The hand sets a field the review's play model does not read (a charge, a claim, an importer's
    ``unmodelled`` note): such hands are skipped, and said so."""
    return any(getattr(record, key) is not None for key in REFERENCE_ONLY)


UNMODELLED_WORDS = {"charged": "charged cards (their points are multiplied)", "claim": "a claim",
                   "unmodelled": "what the importer marked unmodelled"}
"""How a skip names each hand field the review's rollouts cannot play out."""


def unmodelled_words(rules_unmodelled: Sequence[str], record: HandRecord) -> str:
    """Why a hand is skipped, naming what in it the rollouts cannot play out (``rules_unmodelled``: the rule
    fields whose values the kernel does not declare, ``Table.unmodelled("kernel")``).

    >>> from hearts_analysis.records.model import HandRecord
    >>> unmodelled_words(("charges", "ten_of_clubs"), HandRecord(deal=((),) * 4, plays=()))
    'the review does not model these rules (charges, ten_of_clubs)'
    """
    parts = [UNMODELLED_WORDS[key] for key in REFERENCE_ONLY if getattr(record, key) is not None]
    if rules_unmodelled:
        parts.insert(0, f"these rules ({', '.join(rules_unmodelled)})")
    return "the review does not model " + ", ".join(parts)


@dataclass(frozen=True)
class HandStart:
    """What a hand's review starts from, replayed once with the whole game: the rules, the hand's number,
    the totals before it, the deal, the pass as applied and the hands after it, and the plays to judge.

    A worker reviews a hand from this alone, so a game is replayed once however many hands are sent out
    (sending the record would make each worker replay every hand before its own: O(hands²) a game).
    ``skip`` says why the hand is not reviewed (then nothing else is read).
    """

    game_id: str | None
    position: Position
    dealer: int
    direction: str
    dealt: tuple[Mask, ...]
    passed: tuple[Mask, ...]
    """The cards each seat gave (and held) as the pass was applied; zeros on a hold hand."""
    passing: bool
    """Whether the hand had a pass (its decisions are reviewed too)."""
    held: tuple[Mask, ...]
    plays: tuple[tuple[int, int], ...]
    skip: str | None = None

    @property
    def number(self) -> int:
        return self.position.hand


def hand_starts(game: GameRecord, hands: Iterable[int] | None = None,
                result: GameResult | None = None) -> Iterator[HandStart]:
    """The start of each hand of ``game`` numbered in ``hands`` (1-based; default: all), from one replay."""
    result = result or replay_game(game)
    table = game.rules.table(game.seats)
    wanted = None if hands is None else frozenset(hands)
    key = game_key(game.game_id)
    totals = (0,) * game.seats
    for record, hand in zip(game.hands, result.hands):
        if wanted is None or hand.number in wanted:
            skip = None
            if hand.violations:
                skip = f"rule violations ({', '.join(sorted({v.code for v in hand.violations}))})"
            elif not table.models("kernel") or unreviewed(record):
                skip = unmodelled_words(table.unmodelled("kernel"), record)
            position = Position(table, hand.number, totals, key, game.players)
            passing = hand.pass_direction != "hold" and bool(record.passes)
            yield HandStart(game.game_id, position, hand.dealer, hand.pass_direction,
                            tuple(mask_of(cards) for cards in record.deal), tuple(hand.passed), passing, tuple(hand.held),
                            tuple(record.plays), skip)
        totals = hand.totals


def review_start(start: HandStart, seats: Iterable[int] | None, settings: Settings) -> GameReview:
    """The review of the hand that begins at ``start``, for ``seats`` (default: all): what a worker runs."""
    players = start.position.players
    if start.skip is not None:
        return GameReview(start.game_id, players, (), ((start.number, start.skip),))
    wanted = frozenset(range(start.position.table.players) if seats is None else seats)
    try:
        decisions = tuple(review_hand(start, wanted, settings))
    except InconsistentKnowledge as error:
        return GameReview(start.game_id, players, (), ((start.number, str(error)),))
    return GameReview(start.game_id, players, decisions, ())


SHEET_SKIP = "a score sheet: no cards to review"


def sheet_review(game: GameRecord, hands: Iterable[int] | None = None) -> GameReview:
    """A score sheet's review: every hand skipped, said why (its points have no plays behind them)."""
    wanted = range(1, len(game.hands) + 1) if hands is None else sorted(set(hands) & set(range(1, len(game.hands) + 1)))
    return GameReview(game.game_id, game.players, (), tuple((number, SHEET_SKIP) for number in wanted))


def review_game(game: GameRecord, settings: Settings = Settings(), seats: Iterable[int] | None = None,
                hands: Iterable[int] | None = None, result: GameResult | None = None,
                progress: Progress | None = None) -> GameReview:
    """Review ``seats`` (default: all) in ``hands`` (1-based numbers; default: all) of ``game``."""
    if is_score_sheet(game):
        return sheet_review(game, hands)
    decisions: list[Decision] = []
    skipped: list[tuple[int, str]] = []
    for start in hand_starts(game, hands, result):
        review = review_start(start, seats, settings)
        decisions.extend(review.decisions)
        skipped.extend(review.skipped)
        if progress:
            progress(1)
    return GameReview(game.game_id, game.players, tuple(decisions), tuple(skipped))


def review_hand(start: HandStart, seats: frozenset[int], settings: Settings) -> list[Decision]:
    position = start.position
    table = position.table
    direction = start.direction
    passed = start.passed if start.passing else (0,) * table.players
    decisions: list[Decision] = []
    if start.passing:
        for seat in sorted(seats):
            decisions.append(review_pass(position, seat, start.dealt[seat], passed[seat], direction, start.dealer,
                                         settings))
    held = list(start.held)
    state = HandState(table, held, HandState.first_leader_for(table, held, start.dealer))
    first_leader = state.leader
    shown: tuple[Mask, ...] = (0,) * table.players
    for index, (seat, card) in enumerate(start.plays):
        if state.is_over:
            break
        if seat in seats:
            knowledge = at_play(state, seat, shown, passed[seat], table.pass_target(seat, direction))
            own_pass = tuple(cards if s == seat else 0 for s, cards in enumerate(passed))
            history = History(first_leader, start.plays[:index], own_pass, position.hand,
                              start.dealer, position.totals, direction)
            decisions.append(review_play(position, state, seat, card, knowledge, index + 1, settings, history))
        shown = observe(shown, state, seat, card)
        state.push(seat, card)
    return decisions


