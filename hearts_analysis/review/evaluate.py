"""The review of a decision: expected points for every legal alternative, and the cost of the choice.

For a play, the seat's knowledge at that moment (:mod:`.information_set`) gives the
hidden deals (:mod:`.sampling`); every alternative is played out on the same
deals (:mod:`.rollout`). Equivalent cards (same suit, no card in play between
them, same points) are one alternative, so only real choices are compared; a
decision with one real choice is forced and never flagged.

A decision is judged in two steps, so that the deals that choose the best
alternative are never the deals that judge it (the winner of a contest is
lucky on the deals it won):

1. **Choose.** Every alternative is played out on ``samples`` deals; the one
   with the fewest expected points is the best. For a pass, every set of cards
   the seat could pass is first screened on a few deals, and the best
   ``pass_finalists`` and the actual pass go on to this step.
2. **Judge.** Where the choice was not the best, the two are played out on
   fresh deals (a random stream of their own), in batches that double, until
   the cost's class is settled: until ``confidence_z`` standard errors either
   side of the cost lie within one class widened by ``early_tolerance``
   points, or ``budget`` fresh deals are spent. Then each class is widened by
   ``tolerance`` (a cost right on a threshold takes the class of the cost); a
   decision still unsettled is flagged with the least class its interval
   allows if that is a class at all, and is otherwise *unclear*: never
   flagged, and said so.

So a verdict does not depend on how many deals happened to be drawn: a larger
budget adds deals after the same ones, and only settles decisions that were
unclear or flagged at least a class.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from ..cards import HEARTS_MASK, QS, Card, Mask, iter_cards, mask_of, names
from ..analysis.passes import explaining_advice
from ..engine.state import HandState
from ..rules import Table
from ..simulate.bots import BotFactory
from . import context, opponents
from .advice import AdviceBound, members
from .information_set import Knowledge, before_pass
from ..kernel.masks import HEARTS, U64, popcount, special_cards
from .reasons import explain, point_parts_all
from ..kernel.compiled import LOOK, one_seat
from .policy import MODEL_WORDS, MODELS, OTHER_MODEL, Model
from .rollout import DEFAULT_EXACT_TRICKS, History, Outcomes, pass_out, play_out, play_out_with_bots
from .deal_weights import inferred_hands, running_seat
from .line import likely_line
from .sampling import sample_hands

INACCURACY, MISTAKE, BLUNDER = 1.0, 3.0, 7.0
"""Cost thresholds in expected hand points (a heart is 1, QS 13)."""
CLASSES = ((BLUNDER, "blunder"), (MISTAKE, "mistake"), (INACCURACY, "inaccuracy"))

FORCED_DEALS = 64
"""Deals a forced play's one option is played out on (by the plain players: it is shown, never judged)."""

PASS_DEALS_PER_PLAY_DEAL = 16
"""A pass's choosing deals for each of a play's. On 400 passes of games no tuning used, two seeds named
the same better pass for 74% of the passes flagged in either at 4 (800 deals), 83% at 8, 86% at 16 and
91% at 32, at 40, 57, 86 and 143 ms a pass (the judge's strength did not change from 4 to 24)."""


@dataclass(frozen=True)
class Settings:
    """How hard to look. The defaults review a whole hand (four seats) in well under two seconds on
    one core (``benchmarks/bench_review.py``)."""

    samples: int = 200
    """Sampled deals on which every alternative is played out to choose the best."""
    seed: int = 0
    exact_tricks: int = DEFAULT_EXACT_TRICKS
    """Tricks left at which rollouts switch to exact search."""
    confidence_z: float = 2.5
    """Standard errors either side of a cost that must lie within one class for a verdict."""
    budget: int = 1024
    """Most fresh deals spent judging one decision against the best alternative."""
    batch: int = 128
    """Fresh deals drawn at a time while judging."""
    tolerance: float = 0.5
    """Points by which each class is widened when the budget is spent (costs this close to a
    threshold may take either class: the class of the cost)."""
    early_tolerance: float = 0.25
    """Points by which each class is widened before the budget is spent: narrower, so that a cost
    near a threshold is judged on more deals, and its class turns less on the deals drawn."""
    pass_screen_samples: int = 128
    """Deals on which every candidate pass is screened for the finalists (the passing advice leaves
    about 40 candidates, so the screen can afford enough deals that the finalists seldom turn on
    the deals drawn)."""
    pass_finalists: int = 8
    pass_samples: int | None = None
    """Sampled deals on which the finalist passes and the actual pass are played out to choose the
    best; ``None`` is :data:`PASS_DEALS_PER_PLAY_DEAL` times ``samples`` (:attr:`pass_deals`). More
    than a play's: the nine are often within a point of each other, so with fewer deals two seeds
    name different better passes, and a seat passes once a hand."""
    game_context: bool = True
    """Also estimate the chance of winning where the hand can end the game, and let it decide where an
    alternative leads the points' best in it clearly (:func:`.context.game_choice`; docs/review.md)."""
    bot: BotFactory | None = None
    """Play rollouts with these simulator bots instead of the fast rollout player (much slower;
    passes always use the rollout player)."""
    confirm: bool = True
    """Judge a flagged decision again under the other rollout player (:data:`OTHER_MODEL`) on the same
    fresh deals, and flag it only when both find that it costs points (otherwise *unclear*)."""
    read_runner: bool = True
    """Draw a play's deals towards a hand that can take the rest where another seat has taken every
    point so far (:func:`~.deal_weights.running_seat`), as a strong player reads a running seat."""
    infer: str | tuple[str, ...] | None = None
    """Weight the sampled deals of a play by how likely the others' plays so far were under this
    rollout player, or under a tuple of them with each seat playing one (:mod:`.deal_weights`); ``None``
    draws every consistent deal alike."""
    model: str = "basic"
    """The fast rollout player (:data:`~.policy.MODELS`): ``basic`` ducks and dumps; ``strong`` plays
    like a careful club player (flushes the queen, voids, stops and runs moons), 1.6 times slower.
    ``basic`` stays the default until the strong player is shown better on something it was not
    built to imitate (it agrees with the simulator's heuristic bot on 99% of plays). ``guard`` is
    ``basic`` that stops a lone point-taker's moon; it is not the default either: in the duplicate
    matches of ``benchmarks/judge_strength.py`` its gain was within the noise (benchmarks/README.md)."""
    own_model: str | None = "strong"
    """The rollout player of the judged seat's own later plays (:data:`~.policy.MODELS`); ``None``: the
    same as the others' (:attr:`model`). It models this seat, not the others, so a stronger one here
    copies nobody at the table. ``strong`` by default: a judge that expects to play its own later cards
    as a duck-and-dump player never sees the moons it could run, nor the queens it could keep out of;
    in the duplicate matches of ``benchmarks/judge_strength.py`` it took 0.69-0.81 fewer points a hand
    than ``None`` against HeuristicBot (1,000 deals on each of two seeds), and no more against the
    simulator's other bots (benchmarks/README.md)."""
    look_ahead: bool = True
    """At a play, the judged seat's own later decisions look a step ahead on each deal: every real choice is
    played out under the rollout players and the one that leaves the seat the fewest points is played
    (:data:`~hearts_analysis.kernel.compiled.LOOK`). The judge then plays its later cards closer to how it will
    really play them, searching, than :attr:`own_model` alone does. A pass keeps :attr:`own_model` alone: its
    many deals would take about fifteen times as long."""
    identify: tuple[str, ...] = ("basic", "strong")
    """Rollout players between which each other seat's is read from its plays this hand (:mod:`.opponents`):
    every deal that chooses a play gets one of them per seat, in proportion to how well it explains that
    seat's cards (at the pass, before anything is seen, each as likely); ``()`` plays every other seat by
    :attr:`model`. The fresh deals that judge a cost stay with :attr:`model` and :data:`OTHER_MODEL`. In the
    duplicate matches of ``benchmarks/judge_strength.py`` (benchmarks/README.md) it took 0.83 ± 0.20 fewer
    points a hand than ``()`` against HeuristicBot, whom the strong player copies, 0.45 ± 0.14 fewer against
    a table of HeuristicBots and RandomBots, as many as ``()`` against three judges without it, and 0.22 ±
    0.12 more against a plain player neither model was built from (``benchmarks/outside_bots.py``); the
    costs the review claims came true (calibration 0.81 against HeuristicBot, 0.31 before)."""
    level: str = "deep"
    """The review level whose defaults these settings start from (:mod:`.levels`), named in the review's
    documents and pages."""
    mix: tuple[str, ...] = ()
    """Other rollout players under which every alternative is also played out on the same deals when
    the best is chosen, as so many more deals (the fresh deals that judge a cost stay with
    :attr:`model`): a best choice that holds against more than one model of the others. Set, it takes
    the place of :attr:`identify`."""

    @property
    def pass_deals(self) -> int:
        """The deals that choose the best pass (:attr:`pass_samples`)."""
        return PASS_DEALS_PER_PLAY_DEAL * self.samples if self.pass_samples is None else self.pass_samples


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
    parts: tuple[tuple[str, float, float], ...] = ()
    """``(cause, expected points, rate)`` per cause of the points (:func:`~.reasons.point_parts`)."""


POINTS, GAME = "points", "game"
"""The two measures a decision can be decided by (:attr:`Decision.decided_by`)."""


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
    unclear: bool = False
    """The budget ran out before the class of the cost was settled, or the two rollout players
    disagree on whether it costs points (never flagged)."""
    unclear_reason: str | None = None
    """Why the decision is unclear, in words (which model thinks what)."""
    other_cost: float | None = None
    """The cost under the other rollout player on the same fresh deals, where it was judged."""
    margins: tuple[float, ...] = ()
    """``confidence_z`` standard errors of each option's expected points, in the order of :attr:`options`."""
    equal: tuple[tuple[Card, ...], ...] = ()
    """At a play, the cards merged into each option (interchangeable with it), in the order of :attr:`options`."""
    line: tuple[tuple[int, Card], ...] = ()
    """At a play, the likely plays after :attr:`best` (:mod:`.line`), starting with it."""
    decided_by: str = POINTS
    """Which measure chose :attr:`best` and the class: :data:`POINTS` (expected hand points), or :data:`GAME`
    (the chance of winning the game, where the hand can end it: :func:`.context.game_choice`)."""
    win_cost: float | None = None
    """Where the game decided: the chance of winning lost against :attr:`best` (>= 0), on the fresh deals that
    judged it; :attr:`cost` stays the points lost against it."""
    win_margin: float | None = None
    """``confidence_z`` standard errors of :attr:`win_cost`."""


def band(cost: float) -> str | None:
    """The class a cost falls in, regardless of noise."""
    for threshold, name in CLASSES:
        if cost >= threshold:
            return name
    return None


BANDS = ((float("-inf"), INACCURACY, None), (INACCURACY, MISTAKE, "inaccuracy"),
         (MISTAKE, BLUNDER, "mistake"), (BLUNDER, float("inf"), "blunder"))
UNSETTLED = "unsettled"


def settle(cost: float, margin: float, tolerance: float) -> str | None:
    """The class of ``cost ± margin`` if the interval lies within one class widened by
    ``tolerance``; where it lies within two (close to a threshold), the class of ``cost``;
    :data:`UNSETTLED` if it lies within none.

    >>> settle(0.2, 0.3, 0.5), settle(2.9, 0.3, 0.5), settle(2.0, 2.0, 0.5)
    (None, 'inaccuracy', 'unsettled')
    """
    low, high = cost - margin, cost + margin
    fits = [name for bottom, top, name in BANDS if low >= bottom - tolerance and high <= top + tolerance]
    if not fits:
        return UNSETTLED
    return fits[0] if len(fits) == 1 else band(cost)


def _article(word: str | None) -> str:
    return "an" if word and word[0] in "aeiou" else "a"


def classify(cost: float, margin: float) -> str | None:
    """The class of a cost, or ``None`` if it is under the thresholds or within the noise."""
    if cost <= margin:
        return None
    for threshold, name in CLASSES:
        if cost >= threshold:
            return name
    return None


CHOOSE, JUDGE = 0, 1
"""The two streams of deals of a decision: those that choose the best alternative, and the fresh
ones that judge it. Apart, so that more samples to choose with never change the deals a verdict
rests on, and a larger budget only adds deals after them: a class settled within the default
budget is settled the same way with any larger one."""


def rng_for(settings: Settings, game_key: int, hand: int, index: int, seat: int,
            stream: int = CHOOSE) -> np.random.Generator:
    """One independent stream per decision (``index`` 0 is the pass, ``k`` the k-th play of the hand),
    so a decision's review does not depend on which others are reviewed."""
    key = [settings.seed, game_key, hand, index, seat]
    return np.random.default_rng(key + [stream] if stream != CHOOSE else key)


def game_key(game_id: str | None) -> int:
    return zlib.crc32((game_id or "").encode())


# -- equivalent cards ----------------------------------------------------------
def equivalent_groups(state: HandState, seat: int, legal: Mask) -> list[list[Card]]:
    """Legal cards grouped when they are interchangeable: same suit, same points, and no card
    still in play (held by another seat or on the table) ranked between them."""
    live = state.table.deck & ~state.played & ~state.hands[seat] | state.trick_cards
    return interchangeable(state.table, legal, live)


def interchangeable(table: Table, cards: Mask, live: Mask) -> list[list[Card]]:
    """``cards`` in runs that no card of ``live`` separates (same suit, same points), lowest first."""
    special = special_cards(table)
    groups: list[list[Card]] = []
    previous = -1
    for card in iter_cards(cards):
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


def pass_choices(table: Table, dealt: Mask, count: int) -> list[Mask]:
    """Every real choice of ``count`` cards to pass from ``dealt``: passing one card of a run of
    rank-neighbours (no card of the deck between them, same points) is passing any other, so each
    run contributes its lowest cards only."""
    groups = interchangeable(table, dealt, table.deck & ~dealt)
    choices: list[Mask] = []

    def choose(index: int, left: int, mask: Mask) -> None:
        if left == 0:
            choices.append(mask)
            return
        if index == len(groups) or left > sum(len(g) for g in groups[index:]):
            return
        for take in range(min(left, len(groups[index])), -1, -1):
            choose(index + 1, left - take, mask | mask_of(groups[index][:take]))

    choose(0, count, 0)
    return choices


def canonical_pass(table: Table, dealt: Mask, passed: Mask) -> Mask:
    """The member of :func:`pass_choices` that ``passed`` is interchangeable with."""
    canonical = 0
    for group in interchangeable(table, dealt, table.deck & ~dealt):
        canonical |= mask_of(group[:sum(passed >> card & 1 for card in group)])
    return canonical


# -- scoring alternatives -------------------------------------------------------
def options_of(table: Table, outcomes: Outcomes, seat: int, alternatives: list[tuple[Card, ...]]) -> list[Option]:
    """Each alternative as the review and the advice show it: its expected points and their parts, read off
    the same sampled outcomes (so that two alternatives are compared deal by deal)."""
    taken = outcomes.taken[:, :, seat]
    needed = U64(table.moon_cards)      # nothing when the rules have no moon
    shot = (outcomes.taken & needed) == needed
    against = shot.any(axis=2) & ~shot[:, :, seat] & (needed != 0)
    means = outcomes.points[:, :, seat].mean(axis=1)
    queen = ((taken >> U64(QS)) & U64(1)).mean(axis=1)
    hearts = popcount(taken & HEARTS).mean(axis=1)
    parts = point_parts_all(table, outcomes.taken, outcomes.points[:, :, seat], seat)
    return [Option(cards, float(m), float(q), float(h), float(a), parts=parts[i])
            for i, (cards, m, q, h, a) in enumerate(zip(alternatives, means, queen, hearts, against.mean(axis=1)))]


def _paired(own: np.ndarray, a: int, b: int, z: float) -> tuple[float, float]:
    """Mean of ``a``'s points minus ``b``'s over the same deals, and ``z`` standard errors of it."""
    return mean_and_margin(own[a] - own[b], z)


def _judge(outcomes: Outcomes, seat: int, chosen: int, settings: Settings,
           alternatives: list[tuple[Card, ...]]) -> tuple[int, float, float]:
    """``(best index, cost, margin)`` from paired per-deal points.

    Alternatives the deals cannot tell from the lowest, and within ``tolerance`` of it, are all
    best; of them the one most like the choice is named (the smallest change to what was played),
    so that which of several equal answers is named does not turn on the luck of the deals. The
    choice is one of them when it ties: then it is named, at no cost.
    """
    own = outcomes.points[:, :, seat].astype(np.float64)
    means = own.mean(axis=1)
    lowest = int(np.argmin(means))
    if means[chosen] <= means[lowest] or _within(own, chosen, lowest, settings):
        return chosen, 0.0, 0.0
    tied = [i for i in range(len(means)) if i == lowest or _within(own, i, lowest, settings)]
    best = min(tied, key=lambda i: (_unlike(alternatives[i], alternatives[chosen]), means[i], i))
    cost, margin = _paired(own, chosen, best, settings.confidence_z)
    return best, max(cost, 0.0), margin


def _within(own: np.ndarray, a: int, b: int, settings: Settings) -> bool:
    """``a`` is as good as ``b``: the deals cannot tell them apart (its extra points are within the
    margin), and its extra points are too few to matter (within the tolerance). Without the second
    condition, on high-stakes decisions (a wide margin) an alternative no better than the choice
    could be named the best, and the cost of the choice against it pass for nothing."""
    extra, margin = _paired(own, a, b, settings.confidence_z)
    return extra <= min(margin, settings.tolerance)


def _unlike(cards: tuple[Card, ...], other: tuple[Card, ...]) -> tuple[int, int]:
    """How far one choice is from another: cards not in common, then for one card, another suit,
    and within the suit the distance in rank. Ranks of two suits are not near each other: AD is
    no more like KS than like 2C.

    >>> from hearts_analysis.cards import parse_card
    >>> ad, ks, c2, kd = (parse_card(c) for c in ("AD", "KS", "2C", "KD"))
    >>> _unlike((ks,), (ad,)) == _unlike((c2,), (ad,)), _unlike((kd,), (ad,))
    (True, (0, 1))
    """
    if len(cards) == 1 and len(other) == 1:
        if cards[0] // 13 != other[0] // 13:
            return 1, 0
        return 0, abs(cards[0] % 13 - other[0] % 13)
    return len(set(cards) - set(other)), 0


@dataclass(frozen=True)
class Position:
    """Where a decision was taken: the rules, the hand, the game totals before it."""

    table: Table
    hand: int
    totals: tuple[int, ...]
    game_key: int = 0
    players: tuple[str, ...] = field(default=())


def play_choices(state: HandState, seat: int, card: Card | None = None) -> tuple[list[Card], int | None]:
    """One card for each real choice of ``seat`` at ``state`` (``card`` for its own group), and the
    index of ``card``'s choice (``None`` without a card)."""
    groups = equivalent_groups(state, seat, state.legal_cards(seat))
    chosen = None if card is None else next(i for i, group in enumerate(groups) if card in group)
    return [card if i == chosen else group[0] for i, group in enumerate(groups)], chosen


RUNNER_MODEL = "strong"
"""The rollout player of a seat read as running for the moon (:func:`~.deal_weights.running_seat`): the
one that runs."""


def _with_runner(players: tuple[str, ...], runner: int | None) -> tuple[str, ...]:
    """``players`` (a rollout player's name per seat) with a seat read as running playing :data:`RUNNER_MODEL`."""
    return players if runner is None else tuple(RUNNER_MODEL if s == runner else name
                                                 for s, name in enumerate(players))


def own_player(settings: Settings, model: str, at_play: bool) -> int:
    """The kernel's player of the judged seat's own later plays: :attr:`Settings.own_model` (``model`` where
    that is ``None``), looking ahead at a play when :attr:`Settings.look_ahead` says so."""
    own = MODELS[settings.own_model or model].plays
    return own | LOOK if at_play and settings.look_ahead else own


def seat_model(settings: Settings, model: str, seat: int, at_play: bool = False) -> Model:
    """The rollout player ``model`` at the other seats, with ``seat`` played by :func:`own_player`."""
    own = own_player(settings, model, at_play)
    if own == MODELS[model].plays:
        return MODELS[model]
    return MODELS[model]._replace(plays=one_seat(MODELS[model].plays, seat, own))


def reads_others(settings: Settings, history: History | None, model: str | None = None) -> bool:
    """Whether a play's evaluation draws each other seat's player from its plays (:attr:`Settings.identify`)."""
    return settings.bot is None and model is None and not settings.mix and bool(settings.identify) \
        and history is not None


def seat_logs(state: HandState, seat: int, hands: np.ndarray, settings: Settings, history: History) -> np.ndarray:
    """What the others' plays so far say of their players on each deal (:func:`.opponents.log_likelihoods`)."""
    return opponents.log_likelihoods(state.table, history.first_leader, history.plays, seat, hands, settings.identify)


def play_outcomes(state: HandState, seat: int, hands: np.ndarray, cards: list[Card], settings: Settings,
                  history: History | None = None, model: str | None = None,
                  logs: np.ndarray | None = None) -> Outcomes:
    """Each of ``cards`` played by ``seat`` at ``state`` on the deals ``hands``, under the rollout player
    ``model`` (the settings' by default) or the settings' simulator bots: the one evaluator of a play,
    for the review's verdicts and the judge's own play alike (``logs``: :func:`seat_logs`, if the caller has
    them already)."""
    if settings.bot is None:
        runner = running_seat(state, seat) if settings.read_runner else None
        if model is None and settings.mix:
            return _joined([play_out(state, hands, cards, settings.exact_tricks,
                                     seat_model(settings, m, seat, at_play=True).plays)
                            for m in (settings.model,) + settings.mix])
        if reads_others(settings, history, model):
            if logs is None:
                logs = seat_logs(state, seat, hands, settings, history)
            return _over_tables(logs, seat, hands, len(cards), settings, at_play=True, runner=runner,
                                run=lambda table, lanes: play_out(state, hands[lanes], cards, settings.exact_tricks,
                                                                  table.plays))
        name = model or settings.model
        if runner is not None:
            players = _with_runner((name,) * state.players, runner)
            return play_out(state, hands, cards, settings.exact_tricks,
                            opponents.table_model(players, own_player(settings, name, True), seat).plays)
        return play_out(state, hands, cards, settings.exact_tricks, seat_model(settings, name, seat, at_play=True).plays)
    if history is None:
        raise ValueError("reviewing with bots needs the hand's history")
    return play_out_with_bots(state.table, history, seat, hands, cards, settings.bot, settings.seed,
                              settings.exact_tricks)


def _over_tables(logs: np.ndarray, seat: int, deals: np.ndarray, alternatives: int, settings: Settings,
                 *, at_play: bool, run: Callable[[Model, np.ndarray], Outcomes], runner: int | None = None) -> Outcomes:
    """The outcomes of ``run(model, lanes)`` on each table of :func:`.opponents.tables`, put together deal by deal
    (the seat's own player: :func:`own_player`; a ``runner`` plays :data:`RUNNER_MODEL`). The draws are seeded
    by the deals, so the same deals always meet the same players."""
    n = logs.shape[2]
    points = np.zeros((alternatives, len(deals), n), np.int64)
    taken = np.zeros((alternatives, len(deals), n), U64)
    rng = np.random.default_rng(zlib.crc32(np.ascontiguousarray(deals).tobytes()))
    own = own_player(settings, settings.model, at_play)
    for players, lanes in opponents.tables(logs, seat, settings.identify, rng):
        part = run(opponents.table_model(_with_runner(players, runner), own, seat), lanes)
        points[:, lanes], taken[:, lanes] = part.points, part.taken
    return Outcomes(points, taken)


def play_deals(knowledge: Knowledge, count: int, rng: np.random.Generator, state: HandState, settings: Settings,
               history: History | None) -> np.ndarray:
    """``count`` deals the seat's knowledge allows, weighted by the others' plays under :attr:`Settings.infer`
    where it is set, and towards a hand that can take the rest where a seat is running for the moon
    (:func:`~.deal_weights.running_seat`): the deals of every play's evaluation, the review's and the
    judge's own alike."""
    runner = running_seat(state, knowledge.seat) if settings.read_runner else None
    model = settings.infer if history is not None else None
    if model is None and runner is None:
        return sample_hands(knowledge, count, rng)
    return inferred_hands(knowledge, count, rng, state.table, history.first_leader if history else 0,
                          history.plays if history else (), model, runner=runner)


def review_play(position: Position, state: HandState, seat: int, card: Card, knowledge: Knowledge,
                index: int, settings: Settings, history: History | None = None) -> Decision:
    """The review of ``seat`` playing ``card`` at ``state`` (``history`` is needed with ``settings.bot``
    or ``settings.infer``)."""
    groups = equivalent_groups(state, seat, state.legal_cards(seat))
    representatives, chosen = play_choices(state, seat, card)
    trick = state.trick_number
    rng = rng_for(settings, position.game_key, position.hand, index, seat)
    judging = rng_for(settings, position.game_key, position.hand, index, seat, JUDGE)
    plain = seat_model(settings, settings.model, seat).plays

    def draw(count: int, generator: np.random.Generator = judging) -> np.ndarray:
        return play_deals(knowledge, count, generator, state, settings, history)

    if len(representatives) == 1:
        # forced: its one option's expected points from a few deals and the plain players, for the page alone
        deals = draw(min(FORCED_DEALS, settings.samples), rng)
        outcomes = play_out(state, deals, [card], settings.exact_tricks, plain)
        margin = mean_and_margin(outcomes.points[0, :, seat].astype(np.float64), settings.confidence_z)[1]
        return Decision(position.hand, trick, seat, "play", (card,), (card,), 0.0, 0.0, None, True, 0.0, 0,
                        tuple(options_of(position.table, outcomes, seat, [(card,)])), margins=(margin,),
                        equal=(tuple(groups[0]),), line=likely_line(state, deals, card, plain))
    deals = draw(settings.samples, rng)
    outcomes = play_outcomes(state, seat, deals, representatives, settings, history)
    alternatives = [(c,) for c in representatives]

    def rollout(deals: np.ndarray, pair: tuple[int, int], model: str) -> Outcomes:
        return play_outcomes(state, seat, deals, [representatives[i] for i in pair], settings, history, model)

    fresh = FreshDeals(draw, rollout, settings.model)
    decision = _decision(position, state, seat, "play", trick, outcomes, alternatives, chosen, settings, fresh)
    merged = {group[0] if i != chosen else card: tuple(group) for i, group in enumerate(groups)}
    return replace(decision, equal=tuple(merged[o.cards[0]] for o in decision.options),
                   line=likely_line(state, deals, decision.best[0], plain))


def pass_candidates(table: Table, dealt: Mask, bound: Mask, direction: str) -> dict[Mask, Mask]:
    """``{choice: shown}``: every real pass (:func:`pass_choices`) that breaks no passing advice the
    pass ``bound`` kept (:mod:`.advice`), each shown as the interchangeable pass that keeps it
    (``bound`` itself for its own choice)."""
    bounding = AdviceBound(dealt, bound, direction)
    groups = interchangeable(table, dealt, table.deck & ~dealt)
    own = canonical_pass(table, dealt, bound)
    shown = {}
    for choice in pass_choices(table, dealt, table.rules.pass_count):
        member = bound if choice == own else bounding.shown(members(groups, choice))
        if member is not None:
            shown[choice] = member
    return shown


def pass_outcomes(table: Table, seat: int, knowledge: Knowledge, direction: str, dealer: int,
                  candidates: list[Mask], settings: Settings, rng: np.random.Generator,
                  keep: Mask | None = None) -> tuple[list[Mask], Outcomes]:
    """``(finalists, outcomes)``: ``candidates`` screened to ``pass_finalists`` (with ``keep`` among them),
    then played out on ``pass_deals`` deals: the one evaluator of a pass, for the review's verdicts
    and the judge's own pass alike."""
    model = seat_model(settings, settings.model, seat)
    even = bool(settings.identify) and not settings.mix

    def screened(deals: np.ndarray, masks: list[Mask]) -> np.ndarray:
        if even:
            return _even_pass_out(table, seat, deals, direction, masks, dealer, settings, 1).points[:, :, seat]
        return pass_out(table, seat, deals, direction, masks, dealer, exact_tricks=1, model=model).points[:, :, seat]

    finalists = candidates
    if len(candidates) > settings.pass_finalists + 1:
        finalists = _screen(candidates, sample_hands(knowledge, settings.pass_screen_samples, rng), screened,
                            settings.pass_finalists)
    if keep is not None and keep not in finalists:
        finalists = finalists + [keep]
    deals = sample_hands(knowledge, settings.pass_deals, rng)
    if even:
        return finalists, _even_pass_out(table, seat, deals, direction, finalists, dealer, settings,
                                         settings.exact_tricks)
    outcomes = _joined([pass_out(table, seat, deals, direction, finalists, dealer, settings.exact_tricks,
                                 seat_model(settings, m, seat)) for m in (settings.model,) + settings.mix])
    return finalists, outcomes


def _even_pass_out(table: Table, seat: int, deals: np.ndarray, direction: str, finalists: list[Mask], dealer: int,
                   settings: Settings, exact_tricks: int) -> Outcomes:
    """The finalists played out with each other seat passing and playing as one of :attr:`Settings.identify`,
    each as likely: at the pass nothing of theirs is seen yet."""
    nothing_seen = np.zeros((len(settings.identify), len(deals), table.players))
    return _over_tables(nothing_seen, seat, deals, len(finalists), settings, at_play=False,
                        run=lambda model, lanes: pass_out(table, seat, deals[lanes], direction, finalists, dealer,
                                                          exact_tricks, model))


def _joined(outcomes: list[Outcomes]) -> Outcomes:
    """Outcomes of the same alternatives under several rollout players, as one set of more deals."""
    if len(outcomes) == 1:
        return outcomes[0]
    return Outcomes(np.concatenate([o.points for o in outcomes], axis=1),
                    np.concatenate([o.taken for o in outcomes], axis=1))


def review_pass(position: Position, seat: int, dealt: Mask, passed: Mask, direction: str, dealer: int,
                settings: Settings) -> Decision:
    """The review of ``seat`` passing ``passed`` from ``dealt``: every pass that breaks no passing
    advice the played pass kept (:mod:`.advice`), screened, then the finalists and the actual pass
    on fresh deals."""
    table = position.table
    rng = rng_for(settings, position.game_key, position.hand, 0, seat)
    knowledge = before_pass(table, seat, dealt)
    actual, passed = passed, canonical_pass(table, dealt, passed)
    # One judge per page: only passes that break no passing advice the played pass kept compete
    # (:mod:`.advice`), each shown as the interchangeable pass that keeps it.
    shown = pass_candidates(table, dealt, actual, direction)
    finalists, outcomes = pass_outcomes(table, seat, knowledge, direction, dealer, list(shown), settings, rng,
                                        keep=passed)
    chosen = finalists.index(passed)
    alternatives = [tuple(iter_cards(shown[m])) for m in finalists]

    def rollout(deals: np.ndarray, pair: tuple[int, int], model: str) -> Outcomes:
        return pass_out(table, seat, deals, direction, [finalists[i] for i in pair], dealer,
                        settings.exact_tricks, seat_model(settings, model, seat))

    judging = rng_for(settings, position.game_key, position.hand, 0, seat, JUDGE)
    fresh = FreshDeals(lambda count: sample_hands(knowledge, count, judging), rollout, settings.model)

    decision = _decision(position, None, seat, "pass", None, outcomes, alternatives, chosen, settings, fresh)
    if decision.category is None:
        return decision
    advice = explaining_advice(dealt, actual, mask_of(decision.best), direction)
    if not advice:
        return decision
    rules = "; ".join(a.rule.rstrip(".") for a in advice)
    return replace(decision, reason=f"{decision.reason}. The passing advice agrees: {rules}")


def _screen(candidates: list[Mask], deals: np.ndarray, points: Callable[[np.ndarray, list[Mask]], np.ndarray],
            keep: int) -> list[Mask]:
    """The ``keep`` candidates with the fewest points over ``deals``, screened in two rounds: every
    candidate on the first third of the deals, and the best ``2 * keep`` of them on all, so that
    the deals go to the contenders (the same finalists as screening every candidate on every deal,
    but for a candidate far behind after the first third)."""
    first = max(1, len(deals) // 3)
    early = points(deals[:first], candidates).sum(axis=1)
    contenders = np.argsort(early, kind="stable")[:2 * keep]
    total = early[contenders]
    if len(deals) > first:
        total = total + points(deals[first:], [candidates[i] for i in contenders]).sum(axis=1)
    return [candidates[contenders[i]] for i in np.argsort(total, kind="stable")[:keep]]


Fresh = Callable[[int, tuple[int, int]], np.ndarray]
"""``fresh(count, (chosen, best))``: points ``(2, count, seats)`` of the two alternatives on new deals."""


class FreshDeals:
    """A :data:`Fresh` that keeps the deals it drew and how they ended, so that another model can
    replay the same ones and the reason can be read off the deals that measured the cost.

    ``draw(count)`` samples deals; ``rollout(deals, pair, model)`` gives the :class:`Outcomes` of the
    pair of alternatives on them under the named rollout player."""

    def __init__(self, draw: Callable[[int], np.ndarray],
                 rollout: Callable[[np.ndarray, tuple[int, int], str], Outcomes], model: str):
        self.draw, self.rollout, self.model = draw, rollout, model
        self.drawn: list[np.ndarray] = []
        self.ended: list[Outcomes] = []

    def __call__(self, count: int, pair: tuple[int, int]) -> np.ndarray:
        deals = self.draw(count)
        outcomes = self.rollout(deals, pair, self.model)
        self.drawn.append(deals)
        self.ended.append(outcomes)
        return outcomes.points

    def again(self, pair: tuple[int, int], model: str, limit: int) -> np.ndarray:
        """The points of ``pair`` on the first ``limit`` deals drawn so far, under ``model``."""
        return self.rollout(np.concatenate(self.drawn)[:limit], pair, model).points

    def judged(self) -> Outcomes:
        """How the pair ended on every deal drawn so far: the deals its cost was measured on."""
        return Outcomes(np.concatenate([o.points for o in self.ended], axis=1),
                        np.concatenate([o.taken for o in self.ended], axis=1))


def judge_on_fresh_deals(fresh: Fresh, seat: int, chosen: int, best: int, settings: Settings
                         ) -> tuple[float, float, str | None, int]:
    """``(cost, margin, class, deals)`` of ``chosen`` against ``best``, judged on fresh deals a batch
    at a time (:func:`_next_batch`) until the class settles or the budget is spent (class
    :data:`UNSETTLED`)."""
    def more(count: int) -> np.ndarray:
        points = fresh(count, (chosen, best))[:, :, seat].astype(np.float64)
        return points[0] - points[1]

    verdict, cost, margin, deals = _until_settled(np.empty(0), more, settle, settings)
    return max(cost, 0.0), margin, verdict, deals


def _until_settled(differences: np.ndarray, more: Callable[[int], np.ndarray],
                   decide: Callable[[float, float, float], str | None], settings: Settings
                   ) -> tuple[str | None, float, float, int]:
    """``(verdict, cost, margin, deals)``: the paired ``differences`` so far and ``more(count)`` of them a batch at
    a time (:func:`_next_batch`), until ``decide(cost, margin, early_tolerance)`` is not :data:`UNSETTLED` or the
    budget is spent; then ``decide`` with the wider ``tolerance`` has the last word."""
    verdict: str | None = UNSETTLED
    cost = margin = 0.0
    if len(differences):
        cost, margin = mean_and_margin(differences, settings.confidence_z)
        verdict = decide(cost, margin, settings.early_tolerance)
    while verdict == UNSETTLED and len(differences) < settings.budget:
        differences = np.concatenate([differences, more(_next_batch(len(differences), settings))])
        cost, margin = mean_and_margin(differences, settings.confidence_z)
        verdict = decide(cost, margin, settings.early_tolerance)
    if verdict == UNSETTLED:
        verdict = decide(cost, margin, settings.tolerance)
    return verdict, cost, margin, len(differences)


def _next_batch(judged: int, settings: Settings) -> int:
    """Deals to draw next: a batch, then as many as were judged so far (the deals double), up to the
    budget. A rollout's time is mostly per call, not per deal, so a cost that takes the whole budget
    to settle is judged in four calls rather than eight.

    >>> [_next_batch(n, Settings()) for n in (0, 128, 256, 512, 1000)]
    [128, 128, 256, 512, 24]
    """
    return min(max(settings.batch, judged), settings.budget - judged)


def mean_and_margin(differences: np.ndarray, z: float) -> tuple[float, float]:
    """Mean of paired per-deal differences, and ``z`` standard errors of it."""
    error = differences.std(ddof=1) / np.sqrt(len(differences)) if len(differences) > 1 else float("inf")
    return float(differences.mean()), float(z * error)


LOSS, NO_LOSS = "loss", "no loss"


AGREE = INACCURACY / 2
"""Points the second model must find a choice to lose for the two to agree that it costs points:
half the first class, far from where the second model's costs gather (near 0 and from 1 up), so
that a larger budget seldom moves a decision across it."""


def loss_or_not(cost: float, margin: float, tolerance: float) -> str:
    """Whether ``cost ± margin`` lies above :data:`AGREE` (:data:`LOSS`) or below it
    (:data:`NO_LOSS`), each side widened by ``tolerance`` (where both, the side of ``cost``), or
    straddles both (:data:`UNSETTLED`).

    >>> loss_or_not(0.1, 0.5, 0.5), loss_or_not(1.2, 1.0, 0.5), loss_or_not(0.5, 2.0, 0.5)
    ('no loss', 'loss', 'unsettled')
    """
    low = cost - margin >= AGREE - tolerance
    high = cost + margin <= AGREE + tolerance
    if low and high:
        return LOSS if cost >= AGREE else NO_LOSS
    return LOSS if low else NO_LOSS if high else UNSETTLED


def confirm(fresh: FreshDeals, seat: int, chosen: int, best: int, settings: Settings
            ) -> tuple[str, float, float, int]:
    """``(loss or not, cost, margin, deals)`` of ``chosen`` against ``best`` under the other rollout
    player: first on the deals that judged it, then on more fresh deals a batch at a time while it
    cannot tell whether the choice costs points, up to the budget. Two batches of the judging deals
    are enough to tell most (it needs no class), so no more of them are replayed."""
    other = OTHER_MODEL[settings.model]

    def differences(points: np.ndarray) -> np.ndarray:
        return points[0, :, seat].astype(np.float64) - points[1, :, seat]

    replayed = differences(fresh.again((chosen, best), other, 2 * settings.batch))
    verdict, cost, margin, deals = _until_settled(
        replayed, lambda count: differences(fresh.rollout(fresh.draw(count), (chosen, best), other).points),
        loss_or_not, settings)
    return verdict, max(cost, 0.0), margin, deals


def _leans_to_loss(verdict: str, cost: float) -> bool:
    """The second model spent the budget without telling whether the choice loses points, and its
    estimate is a loss (at least :data:`AGREE`): then the two are taken to agree. Left unclear, such a
    decision would be flagged by a larger budget about as often as its estimate says, so the flag
    count would grow with the budget; decided by the estimate, it does not.

    >>> _leans_to_loss(UNSETTLED, 0.6), _leans_to_loss(UNSETTLED, 0.4), _leans_to_loss(NO_LOSS, 0.6)
    (True, False, False)
    """
    return verdict == UNSETTLED and cost >= AGREE


def _disagreement(settings: Settings, verdict: str, played: str, best: str, cost: float, margin: float,
                  other_cost: float, other_margin: float, deals: int) -> str:
    other, model = MODEL_WORDS[OTHER_MODEL[settings.model]], MODEL_WORDS[settings.model]
    finds = "finds no loss" if verdict == NO_LOSS else "cannot tell whether it costs points"
    return (f"unclear: {other} {finds}: with it, {played} costs {other_cost:.1f} \u00b1 {other_margin:.1f} "
            f"points against {best} over {deals} deals, where {model} finds {cost:.1f} \u00b1 {margin:.1f}")


def _decision(position: Position, state: HandState | None, seat: int, kind: str, trick: int | None,
              outcomes: Outcomes, alternatives: list[tuple[Card, ...]], chosen: int,
              settings: Settings, fresh: Fresh) -> Decision:
    options = options_of(position.table, outcomes, seat, alternatives)
    best, cost, margin = _judge(outcomes, seat, chosen, settings, alternatives)
    deals = outcomes.points.shape[1]
    # Where the hand can end the game, each alternative is also scored by the chance of winning; the game
    # decides where an alternative leads the points' best in it clearly (:func:`.context.game_choice`).
    chances = game = None
    if settings.game_context and context.can_end(position.table, position.totals, position.hand):
        per_deal = context.deal_chances(position.table, position.totals, outcomes.points, seat, position.hand)
        chances = per_deal.mean(axis=1)
        options = [replace(o, win_chance=float(c)) for o, c in zip(options, chances)]
        game = context.game_choice(per_deal, best, settings.confidence_z)
    if game is not None:
        return _game_decision(position, state, seat, kind, trick, outcomes, alternatives, chosen, settings,
                              fresh, options, chances, game)
    verdict = None
    # The choosing deals favour the best (it won on them), so every cost is measured on fresh
    # deals: a cost the deals that chose the alternative claim would overstate what it saves. Where
    # the fresh deals find it saves nothing, the choice is named: a decision that costs nothing
    # names what was played.
    other: tuple[str, float, float, int] | None = None
    at_least = None
    if best != chosen:
        cost, margin, verdict, judged = judge_on_fresh_deals(fresh, seat, chosen, best, settings)
        deals += judged
        if cost <= 0.0:
            best = chosen
        floor = band(cost - margin + settings.tolerance)
        if verdict == UNSETTLED and floor is not None:
            # The budget is spent, but the loss is beyond doubt: flagged with the least class the
            # interval allows, which no larger budget takes away.
            verdict = at_least = floor
        # Only a flag is confirmed: the second model costs time on the few decisions that need it.
        if (settings.confirm and settings.bot is None and isinstance(fresh, FreshDeals)
                and verdict not in (None, UNSETTLED)):
            other = confirm(fresh, seat, chosen, best, settings)
    win = None if chances is None else (float(chances[chosen]), float(chances[best]))
    unclear = verdict == UNSETTLED
    doubt = None
    # Unsettled: never flagged (a flag must not depend on how many deals the budget allowed); the
    # reason says which classes the interval spans.
    category = None if unclear else verdict
    if unclear:     # never above the first class: that is flagged at least (above)
        higher = band(cost + margin)
        doubt = (f"unclear: after {deals} deals the cost is {cost:.1f} \u00b1 {margin:.1f} points: "
                 f"perhaps {_article(higher)} {higher}, perhaps nothing")
    elif other is not None and other[0] != LOSS and (kind == "pass" or not _leans_to_loss(*other[:2])):
        # A pass is flagged only when the second model, too, finds the loss clear: passes are where
        # the first model's claims came true least often (benchmarks/README.md).
        unclear, category = True, None
        doubt = _disagreement(settings, other[0], _choice_words(alternatives[chosen]),
                              _choice_words(alternatives[best]), cost, margin, *other[1:])
    means = [o.expected for o in options]
    reason = None
    if category:
        reason = explain(state, seat, kind, *_judged_pair(position.table, fresh, seat, alternatives, chosen, best,
                                                           options), position.players)
    if other is not None and category and other[0] == UNSETTLED:
        reason = (f"{reason} ({MODEL_WORDS[OTHER_MODEL[settings.model]]} finds {other[1]:.1f} \u00b1 "
                  f"{other[2]:.1f} points over {other[3]} deals: a loss, though not beyond doubt)")
    if doubt:
        reason = doubt if reason is None else f"{reason} ({doubt})"
    elif at_least and category:
        higher = band(cost + margin)
        reason = (f"{reason} (after {deals} deals the cost is {cost:.1f} \u00b1 {margin:.1f} points: "
                  f"{_article(at_least)} {at_least} at least, perhaps {_article(higher)} {higher})")
    order = sorted(range(len(options)), key=lambda i: (options[i].expected, i))   # as the advice ranks them
    own = outcomes.points[:, :, seat].astype(np.float64)
    margins = tuple(mean_and_margin(own[i], settings.confidence_z)[1] for i in order)
    return Decision(position.hand, trick, seat, kind, alternatives[chosen], alternatives[best], cost, margin,
                    category, False, max(means) - min(means), deals, tuple(options[i] for i in order), reason, win,
                    unclear, doubt, None if other is None else other[1], margins)


def game_order(options: list[Option]) -> list[int]:
    """Indices of ``options`` as a decision the game decides ranks them: the highest chance of winning first,
    then the fewest points (the review and the advice alike)."""
    return sorted(range(len(options)), key=lambda i: (-(options[i].win_chance or 0.0), options[i].expected, i))


def judge_game_on_fresh_deals(fresh: Fresh, position: Position, seat: int, chosen: int, best: int,
                              settings: Settings) -> tuple[float, float, str | None, int, float, float]:
    """``(drop, margin, class, deals, cost, cost margin)``: the chance of winning ``chosen`` loses against
    ``best`` (:func:`.context.settle_win`), judged on fresh deals a batch at a time as a cost in points is
    (:func:`judge_on_fresh_deals`), and the points it loses on the same deals."""
    costs: list[np.ndarray] = []

    def more(count: int) -> np.ndarray:
        points = fresh(count, (chosen, best))
        chances = context.deal_chances(position.table, position.totals, points, seat, position.hand)
        costs.append(points[0, :, seat].astype(np.float64) - points[1, :, seat])
        return chances[1] - chances[0]

    verdict, drop, margin, deals = _until_settled(np.empty(0), more, context.settle_win, settings)
    cost, cost_margin = mean_and_margin(np.concatenate(costs), settings.confidence_z)
    return max(drop, 0.0), margin, verdict, deals, max(cost, 0.0), cost_margin


def _game_decision(position: Position, state: HandState | None, seat: int, kind: str, trick: int | None,
                   outcomes: Outcomes, alternatives: list[tuple[Card, ...]], chosen: int, settings: Settings,
                   fresh: Fresh, options: list[Option], chances: np.ndarray, best: int) -> Decision:
    """A decision the game decides: ``best`` is the alternative with the clearly highest chance of winning
    (:func:`.context.game_choice`), and the class comes from the chance the choice loses against it
    (:data:`.context.WIN_CLASSES`), judged on fresh deals. The second rollout player does not confirm it."""
    deals = outcomes.points.shape[1]
    cost = margin = 0.0
    drop = drop_margin = 0.0
    verdict = None
    played_chance, best_chance = float(chances[chosen]), float(chances[best])
    judged = None
    if best != chosen:
        drop, drop_margin, verdict, spent, cost, margin = judge_game_on_fresh_deals(
            fresh, position, seat, chosen, best, settings)
        deals += spent
        if isinstance(fresh, FreshDeals) and fresh.ended:
            judged = fresh.judged()
            played_chance, best_chance = context.win_chances(position.table, position.totals, judged.points, seat,
                                                             position.hand)
        if drop <= 0.0:
            best, cost, margin = chosen, 0.0, 0.0
        floor = context.win_band(drop - drop_margin + settings.tolerance * context.WIN_PER_POINT)
        if verdict == UNSETTLED and floor is not None:
            verdict = floor
    unclear = verdict == UNSETTLED
    category = None if unclear else verdict
    reason = doubt = None
    if category:
        reason = _game_words(position, seat, alternatives, chosen, best, float(played_chance), float(best_chance),
                             outcomes if judged is None else judged, (chosen, best) if judged is None else (0, 1))
    elif unclear:
        higher = context.win_band(drop + drop_margin)
        doubt = reason = (f"unclear: after {deals} deals the chance of winning the game it loses is "
                          f"{drop:.0%} \u00b1 {drop_margin:.0%}: perhaps {_article(higher)} {higher}, perhaps nothing")
    means = [o.expected for o in options]
    order = game_order(options)
    own = outcomes.points[:, :, seat].astype(np.float64)
    margins = tuple(mean_and_margin(own[i], settings.confidence_z)[1] for i in order)
    return Decision(position.hand, trick, seat, kind, alternatives[chosen], alternatives[best], cost, margin,
                    category, False, max(means) - min(means), deals, tuple(options[i] for i in order), reason,
                    (float(chances[chosen]), float(chances[best])), unclear, doubt, None, margins,
                    decided_by=GAME, win_cost=drop if best != chosen else 0.0,
                    win_margin=drop_margin if best != chosen else 0.0)


def _game_words(position: Position, seat: int, alternatives: list[tuple[Card, ...]], chosen: int, best: int,
                played: float, better: float, outcomes: Outcomes, pair: tuple[int, int]) -> str:
    """``to win the game: your chance of winning is 31% after KS (QS to bob in 90%), 44% after 9S (QS to ann
    in 85%) (ann leads the game with 52)``."""
    name = _namer(position, seat)

    def after(index: int, chance: float, cards: tuple[Card, ...]) -> str:
        holder = ((outcomes.taken[index] >> U64(QS)) & U64(1)).mean(axis=0)
        top = int(np.argmax(holder)) if len(holder) else 0
        queen = f" (QS to {name(top)} in {holder[top]:.0%})" if len(holder) and holder[top] >= 0.5 else ""
        return f"{chance:.0%} after {_choice_words(cards)}{queen}"

    low = min(position.totals)
    leaders = [s for s, total in enumerate(position.totals) if total == low]
    who = " and ".join(name(s) for s in leaders)
    verb = "lead" if leaders == [seat] or len(leaders) > 1 else "leads"
    return (f"to win the game: your chance of winning is {after(pair[0], played, alternatives[chosen])}, "
            f"{after(pair[1], better, alternatives[best])} ({who} {verb} the game with {low})")


def _namer(position: Position, seat: int) -> Callable[[int], str]:
    return lambda s: "you" if s == seat else position.players[s] if s < len(position.players) else f"seat {s}"


def _judged_pair(table: Table, fresh: Fresh, seat: int, alternatives: list[tuple[Card, ...]], chosen: int,
                 best: int, options: list[Option]) -> tuple[Option, Option]:
    """The played and the best option as they ended on the fresh deals that measured the cost, so
    that the reason's figures add up to it; the choosing deals' where no fresh deal was kept."""
    if not isinstance(fresh, FreshDeals) or not fresh.ended:
        return options[chosen], options[best]
    played, better = options_of(table, fresh.judged(), seat, [alternatives[chosen], alternatives[best]])
    return played, better


def _choice_words(cards: tuple[Card, ...]) -> str:
    return " ".join(names(cards))

