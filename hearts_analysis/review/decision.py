"""The verdict on a decision: the best alternative, the cost of the choice and its class, and the words.

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

from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from ..cards import QS, Card, names, rank_of, suit_of
from ..engine.state import HandState
from ..rule_arrays import shot
from ..rules import Table, winners
from . import context
from ..kernel.masks import HEARTS, U64, popcount
from .reasons import differences, explain, point_parts_all, seat_name
from .policy import MODEL_WORDS, OTHER_MODEL
from .rollout import Outcomes
from .settings import Settings
from .classes import (AGREE, INACCURACY, LOSS, NO_LOSS, UNSETTLED, band,
                      mean_and_margin)
from .fresh import Fresh, FreshDeals, _until_settled, confirm, judge_on_fresh_deals


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


def _article(word: str | None) -> str:
    return "an" if word and word[0] in "aeiou" else "a"


# -- scoring alternatives -------------------------------------------------------
def options_of(table: Table, outcomes: Outcomes, seat: int, alternatives: list[tuple[Card, ...]]) -> list[Option]:
    """Each alternative as the review and the advice show it: its expected points and their parts, read off
    the same sampled outcomes (so that two alternatives are compared deal by deal)."""
    taken = outcomes.taken[:, :, seat]
    shots = shot(outcomes.taken, table.moon_cards)      # nothing when the rules have no moon
    against = shots.any(axis=2) & ~shots[:, :, seat]
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

    The choice is named, at no cost, where the deals cannot tell it from the lowest and it is within
    ``tolerance`` of it. Otherwise every alternative better than the choice and near the lowest is as
    good as the best, and the one most like the choice is named (the smallest change to what was played);
    of cards equally unlike it, the lowest; of passes, the fewest points. Near is within an inaccuracy
    (1 point) for a card, and within ``tolerance`` for a pass, whose deals are sixteen times as many. Two
    seeds' deals rank near-equal alternatives either way, so naming the fewest points alone would turn
    on the seed.
    """
    own = outcomes.points[:, :, seat].astype(np.float64)
    means = own.mean(axis=1)
    lowest = int(np.argmin(means))
    if means[chosen] <= means[lowest] or _within(own, chosen, lowest, settings):
        return chosen, 0.0, 0.0
    near = INACCURACY if len(alternatives[chosen]) == 1 else settings.tolerance
    tied = [i for i in range(len(means)) if means[i] < means[chosen] and means[i] - means[lowest] <= near]
    best = min(tied, key=lambda i: (_unlike(alternatives[i], alternatives[chosen]),
                                    _lowest_card(alternatives[i]) if len(alternatives[i]) == 1 else means[i], i))
    cost, margin = _paired(own, chosen, best, settings.confidence_z)
    return best, max(cost, 0.0), margin


def _within(own: np.ndarray, a: int, b: int, settings: Settings) -> bool:
    """``a`` is as good as ``b``: the deals cannot tell them apart (its extra points are within the
    margin), and its extra points are too few to matter (within the tolerance). Without the second
    condition, on high-stakes decisions (a wide margin) an alternative no better than the choice
    could be named the best, and the cost of the choice against it pass for nothing."""
    extra, margin = _paired(own, a, b, settings.confidence_z)
    return extra <= min(margin, settings.tolerance)


def _lowest_card(cards: tuple[Card, ...]) -> tuple[int, int]:
    """A card's rank, then its suit: of two equally good discards, the lower is named.

    >>> from hearts_analysis.cards import parse_card
    >>> sorted(["5D", "4S", "5C"], key=lambda c: _lowest_card((parse_card(c),)))
    ['4S', '5C', '5D']
    """
    return rank_of(cards[0]), suit_of(cards[0])


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


def _cause(played: Option, best: Option) -> str:
    """The part of the points that makes most of the cost (:func:`.reasons.differences`)."""
    diffs = differences(played, best)
    return max(diffs, key=diffs.get)


def _opened(clauses: list[str], reason: str) -> str:
    """``reason`` opened with ``clauses``, as a play's reason opens with its facts in cards.

    >>> _opened(["passing 9D 6D voids your diamonds"], "passing 9D 6D 2C instead of QS 2C 3C, you take ...")
    'passing 9D 6D voids your diamonds: passing 9D 6D 2C instead of QS 2C 3C, you take ...'
    >>> _opened([], "the figures")
    'the figures'
    """
    return f"{'; '.join(clauses)}: {reason}" if clauses else reason


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
              settings: Settings, fresh: Fresh,
              facts: Callable[[str, tuple[Card, ...], tuple[Card, ...]], list[str]] | None = None) -> Decision:
    options = options_of(position.table, outcomes, seat, alternatives)
    best, cost, margin = _judge(outcomes, seat, chosen, settings, alternatives)
    deals = outcomes.points.shape[1]
    # Where the hand can end the game, each alternative is also scored by the chance of winning; the game
    # decides where an alternative leads the points' best in it clearly (:func:`.context.game_choice`).
    chances = game = None
    per_deal = deal_wins(position.table, position.totals, outcomes.points, seat, position.hand, settings)
    if per_deal is not None:
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
        cost, margin, verdict, judged = judge_on_fresh_deals(fresh, seat, chosen, best, settings, (cost, margin))
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
    reason = None
    if category:
        pair = _judged_pair(position.table, fresh, seat, alternatives, chosen, best, options)
        reason = explain(state, seat, kind, *pair, position.players)
        if facts is not None and reason:
            reason = _opened(facts(_cause(*pair), alternatives[chosen], alternatives[best]), reason)
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
    ranked, margins = _in_order(options, outcomes, seat, settings, order)
    return Decision(position.hand, trick, seat, kind, alternatives[chosen], alternatives[best], cost, margin,
                    category, False, _spread(options), deals, ranked, reason, win,
                    unclear, doubt, None if other is None else other[1], margins)


def deal_wins(table: Table, totals: tuple[int, ...], points: np.ndarray, seat: int, hand: int,
              settings: Settings) -> np.ndarray | None:
    """Each alternative's chance of winning on each deal (:func:`.context.deal_chances`) where the hand can end
    the game and :attr:`~.settings.Settings.game_context` is on; otherwise ``None``: points alone decide (the
    review and the advice alike)."""
    if not settings.game_context or not context.can_end(table, tuple(totals), hand):
        return None
    return context.deal_chances(table, tuple(totals), points, seat, hand)


def _in_order(options: list[Option], outcomes: Outcomes, seat: int, settings: Settings,
              order: list[int]) -> tuple[tuple[Option, ...], tuple[float, ...]]:
    """``options`` in ``order``, and the margin of each one's expected points."""
    own = outcomes.points[:, :, seat].astype(np.float64)
    return (tuple(options[i] for i in order),
            tuple(mean_and_margin(own[i], settings.confidence_z)[1] for i in order))


def _spread(options: list[Option]) -> float:
    """What was at stake: the worst alternative's expected points minus the best's."""
    means = [o.expected for o in options]
    return max(means) - min(means)


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
        reason = _game_words(position, seat, alternatives, chosen, best, played_chance, best_chance,
                             outcomes if judged is None else judged, (chosen, best) if judged is None else (0, 1))
    elif unclear:
        higher = context.win_band(drop + drop_margin)
        doubt = reason = (f"unclear: after {deals} deals the chance of winning the game it loses is "
                          f"{drop:.0%} \u00b1 {drop_margin:.0%}: perhaps {_article(higher)} {higher}, perhaps nothing")
    ranked, margins = _in_order(options, outcomes, seat, settings, game_order(options))
    return Decision(position.hand, trick, seat, kind, alternatives[chosen], alternatives[best], cost, margin,
                    category, False, _spread(options), deals, ranked, reason,
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
    leaders = list(winners(position.totals))
    who = " and ".join(name(s) for s in leaders)
    verb = "lead" if leaders == [seat] or len(leaders) > 1 else "leads"
    return (f"to win the game: your chance of winning is {after(pair[0], played, alternatives[chosen])}, "
            f"{after(pair[1], better, alternatives[best])} ({who} {verb} the game with {low})")


def _namer(position: Position, seat: int) -> Callable[[int], str]:
    return lambda s: "you" if s == seat else seat_name(s, position.players)


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
