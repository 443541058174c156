"""The review of a decision: expected points for every legal alternative, and the cost of the choice.

For a play, the seat's knowledge at that moment (:mod:`.knowledge`) gives the
hidden deals (:mod:`.sampling`); every alternative is played out on the same
deals (:mod:`.rollout`). Equivalent cards (same suit, no card in play between
them, same points) are one alternative, so only real choices are compared; a
decision with one real choice is forced and never flagged.

The cost is the chosen alternative's mean points minus the best one's. On the
same deals the difference per deal is paired, so its standard error is small;
a cost is flagged only when it reaches a class threshold *and* exceeds
``confidence_z`` standard errors (the noise rule).

For a pass, every set of cards the seat could pass is screened on a few deals
with the last trick played out directly, then the best ``pass_finalists`` and
the actual pass are compared on fresh deals at full strength, so that the
winner of the screen is not also its own judge.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from ..cards import HEARTS_MASK, JD, POINT_CARDS_MASK, QC, QS, Card, Mask, iter_cards, mask_of
from ..engine.state import HandState
from ..rules import Table
from ..simulate.bots import BotFactory
from . import context
from .knowledge import Knowledge, before_pass
from .lanes import HEARTS, U64, popcount
from .reasons import explain
from .rollout import DEFAULT_EXACT_TRICKS, History, Outcomes, pass_out, play_out, play_out_with_bots
from .sampling import sample_hands

INACCURACY, MISTAKE, BLUNDER = 1.0, 3.0, 7.0
"""Cost thresholds in expected hand points (a heart is 1, QS 13)."""
CLASSES = ((BLUNDER, "blunder"), (MISTAKE, "mistake"), (INACCURACY, "inaccuracy"))


@dataclass(frozen=True)
class Settings:
    """How hard to look. The defaults review a whole hand (four seats) in well under two seconds on
    one core (``benchmarks/bench_review.py``)."""

    samples: int = 200
    """Sampled deals per decision."""
    seed: int = 0
    exact_tricks: int = DEFAULT_EXACT_TRICKS
    """Tricks left at which rollouts switch to exact search."""
    confidence_z: float = 3.0
    """Standard errors a cost must exceed to be flagged."""
    pass_screen_samples: int = 48
    pass_finalists: int = 8
    game_context: bool = True
    """Also estimate the chance of winning where the hand can end the game."""
    bot: BotFactory | None = None
    """Play rollouts with these simulator bots instead of the fast rollout player (much slower;
    passes always use the rollout player)."""


@dataclass(frozen=True)
class Option:
    """One alternative and what it leads to, averaged over the sampled deals."""

    cards: tuple[Card, ...]
    """The card played (one), or the cards passed."""
    expected: float
    """Expected hand points for the seat."""
    queen: float
    """Chance the seat takes QS."""
    hearts: float
    """Expected hearts the seat takes."""
    moon_against: float
    """Chance another seat shoots the moon."""
    win_chance: float | None = None


@dataclass(frozen=True)
class Decision:
    """The review of one play or pass."""

    hand: int
    trick: int | None
    """Trick number; ``None`` for the pass."""
    seat: int
    kind: str
    """``play`` or ``pass``."""
    played: tuple[Card, ...]
    best: tuple[Card, ...]
    cost: float
    """Expected points lost against the best alternative (>= 0)."""
    margin: float
    """``confidence_z`` standard errors of the cost."""
    category: str | None
    """``inaccuracy``, ``mistake``, ``blunder``, or ``None`` when not clearly a loss."""
    forced: bool
    """Only one real choice (one legal card, or only equivalent ones)."""
    spread: float
    """Worst minus best expected points: what was at stake."""
    samples: int
    options: tuple[Option, ...] = ()
    """Alternatives compared, best first."""
    reason: str | None = None
    win_chance: tuple[float, float] | None = None
    """Chance of winning the game with the played and with the best alternative, where it was at stake."""


def classify(cost: float, margin: float) -> str | None:
    """The class of a cost, or ``None`` if it is under the thresholds or within the noise."""
    if cost <= margin:
        return None
    for threshold, name in CLASSES:
        if cost >= threshold:
            return name
    return None


def rng_for(settings: Settings, game_key: int, hand: int, index: int, seat: int) -> np.random.Generator:
    """One independent stream per decision (``index`` 0 is the pass, ``k`` the k-th play of the hand),
    so a decision's review does not depend on which others are reviewed."""
    return np.random.default_rng([settings.seed, game_key, hand, index, seat])


def game_key(game_id: str | None) -> int:
    return zlib.crc32((game_id or "").encode())


# -- equivalent cards ----------------------------------------------------------
def special_cards(table: Table) -> Mask:
    """Cards that score on their own under the rules, so never equivalent to a neighbour."""
    rules = table.rules
    special = 1 << QS
    if rules.jack_of_diamonds:
        special |= 1 << JD
    if rules.queen_of_clubs_cancels_queen:
        special |= 1 << QC
    return special


def equivalent_groups(state: HandState, seat: int, legal: Mask) -> list[list[Card]]:
    """Legal cards grouped when they are interchangeable: same suit, same points, and no card
    still in play (held by another seat or on the table) ranked between them."""
    live = state.table.deck & ~state.played & ~state.hands[seat] | state.trick_cards
    special = special_cards(state.table)
    groups: list[list[Card]] = []
    previous = -1
    for card in iter_cards(legal):
        between = ((1 << card) - 1) & ~((1 << (previous + 1)) - 1) if previous >= 0 else 0
        same = (previous >= 0 and previous // 13 == card // 13 and not between & live
                and not (special >> card & 1) and not (special >> previous & 1)
                and bool(HEARTS_MASK >> card & 1) == bool(HEARTS_MASK >> previous & 1))
        if same:
            groups[-1].append(card)
        else:
            groups.append([card])
        previous = card
    return groups


# -- scoring alternatives -------------------------------------------------------
def _options(table: Table, outcomes: Outcomes, seat: int, alternatives: list[tuple[Card, ...]]) -> list[Option]:
    taken = outcomes.taken[:, :, seat]
    needed = U64(table.deck & POINT_CARDS_MASK)
    shot = (outcomes.taken & needed) == needed
    against = shot.any(axis=2) & ~shot[:, :, seat] & (needed != 0) & (table.rules.moon != "none")
    means = outcomes.points[:, :, seat].mean(axis=1)
    queen = ((taken >> U64(QS)) & U64(1)).mean(axis=1)
    hearts = popcount(taken & HEARTS).mean(axis=1)
    return [Option(cards, float(m), float(q), float(h), float(a))
            for cards, m, q, h, a in zip(alternatives, means, queen, hearts, against.mean(axis=1))]


def _judge(outcomes: Outcomes, seat: int, chosen: int, settings: Settings) -> tuple[int, float, float]:
    """``(best index, cost, margin)`` from paired per-deal points."""
    own = outcomes.points[:, :, seat].astype(np.float64)
    means = own.mean(axis=1)
    best = int(np.argmin(means))
    if means[chosen] <= means[best]:
        return chosen, 0.0, 0.0
    cost = float(means[chosen] - means[best])
    difference = own[chosen] - own[best]
    error = difference.std(ddof=1) / np.sqrt(len(difference)) if len(difference) > 1 else float("inf")
    return best, cost, float(settings.confidence_z * error)


@dataclass(frozen=True)
class Position:
    """Where a decision was taken: the rules, the hand, the game totals before it."""

    table: Table
    hand: int
    totals: tuple[int, ...]
    game_key: int = 0
    players: tuple[str, ...] = field(default=())


def review_play(position: Position, state: HandState, seat: int, card: Card, knowledge: Knowledge,
                index: int, settings: Settings, history: History | None = None) -> Decision:
    """The review of ``seat`` playing ``card`` at ``state`` (``history`` is needed with ``settings.bot``)."""
    legal = state.legal_cards(seat)
    groups = equivalent_groups(state, seat, legal)
    chosen = next(i for i, group in enumerate(groups) if card in group)
    trick = state.trick_number
    if len(groups) == 1:
        return Decision(position.hand, trick, seat, "play", (card,), (card,), 0.0, 0.0, None, True, 0.0, 0)
    rng = rng_for(settings, position.game_key, position.hand, index, seat)
    hands = sample_hands(knowledge, settings.samples, rng)
    representatives = [card if i == chosen else group[0] for i, group in enumerate(groups)]
    if settings.bot is None:
        outcomes = play_out(state, hands, representatives, settings.exact_tricks)
    else:
        if history is None:
            raise ValueError("reviewing with bots needs the hand's history")
        outcomes = play_out_with_bots(state.table, history, seat, hands, representatives, settings.bot,
                                      settings.seed, settings.exact_tricks)
    alternatives = [(c,) for c in representatives]
    return _decision(position, state, seat, "play", trick, outcomes, alternatives, chosen, settings)


def review_pass(position: Position, seat: int, dealt: Mask, passed: Mask, direction: str, dealer: int,
                settings: Settings) -> Decision:
    """The review of ``seat`` passing ``passed`` from ``dealt``: every possible pass, screened, then
    the finalists and the actual pass on fresh deals."""
    table = position.table
    count = table.rules.pass_count
    rng = rng_for(settings, position.game_key, position.hand, 0, seat)
    knowledge = before_pass(table, seat, dealt)
    candidates = [mask_of(cards) for cards in combinations(iter_cards(dealt), count)]
    finalists = candidates
    if len(candidates) > settings.pass_finalists + 1:
        screen = pass_out(table, seat, sample_hands(knowledge, settings.pass_screen_samples, rng), direction,
                          candidates, dealer, exact_tricks=1)
        order = np.argsort(screen.points[:, :, seat].mean(axis=1), kind="stable")
        finalists = [candidates[i] for i in order[:settings.pass_finalists]]
    if passed not in finalists:
        finalists = finalists + [passed]
    chosen = finalists.index(passed)
    outcomes = pass_out(table, seat, sample_hands(knowledge, settings.samples, rng), direction, finalists,
                        dealer, settings.exact_tricks)
    alternatives = [tuple(iter_cards(m)) for m in finalists]
    return _decision(position, None, seat, "pass", None, outcomes, alternatives, chosen, settings)


def _decision(position: Position, state: HandState | None, seat: int, kind: str, trick: int | None,
              outcomes: Outcomes, alternatives: list[tuple[Card, ...]], chosen: int,
              settings: Settings) -> Decision:
    options = _options(position.table, outcomes, seat, alternatives)
    best, cost, margin = _judge(outcomes, seat, chosen, settings)
    win = None
    if settings.game_context and context.can_end(position.table, position.totals):
        chances = context.win_chances(position.table, position.totals, outcomes.points, seat)
        options = [Option(o.cards, o.expected, o.queen, o.hearts, o.moon_against, float(c))
                   for o, c in zip(options, chances)]
        win = (float(chances[chosen]), float(chances[best]))
    category = classify(cost, margin)
    means = [o.expected for o in options]
    reason = explain(state, seat, kind, options[chosen], options[best], position.players) if category else None
    ranked = tuple(sorted(options, key=lambda o: o.expected))
    return Decision(position.hand, trick, seat, kind, alternatives[chosen], alternatives[best], cost, margin,
                    category, False, max(means) - min(means), outcomes.points.shape[1], ranked, reason, win)

