"""The evaluation of a pass: the passes that compete, screened to finalists, and their outcomes, for the
review's verdicts and the judge's own pass alike."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import numpy as np

from ..analysis.passes import explaining_advice
from ..cards import Card, Mask, iter_cards, mask_of
from ..rules import Table
from .advice import AdviceBound, members
from .choices import canonical_pass, interchangeable, pass_choices
from .decision import Decision, Position, _decision
from .fresh import FreshDeals
from .information_set import Knowledge, before_pass
from .others import Others
from .pass_facts import lead_clauses
from .rollout import Outcomes, pass_out
from .sampling import sample_hands
from .settings import Settings
from .streams import JUDGE, rng_for

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
    others = Others.of(settings)
    model = others.seat_model(others.model, seat)
    even = bool(others.identify)

    def screened(deals: np.ndarray, masks: list[Mask]) -> np.ndarray:
        if even:
            return _even_pass_out(table, seat, deals, direction, masks, dealer, others, 1).points[:, :, seat]
        return pass_out(table, seat, deals, direction, masks, dealer, exact_tricks=1, model=model).points[:, :, seat]

    finalists = candidates
    if len(candidates) > settings.pass_finalists + 1:
        finalists = _screen(candidates, sample_hands(knowledge, settings.pass_screen_samples, rng), screened,
                            settings.pass_finalists)
    if keep is not None and keep not in finalists:
        finalists = finalists + [keep]
    deals = sample_hands(knowledge, settings.pass_deals, rng)
    if even:
        return finalists, _even_pass_out(table, seat, deals, direction, finalists, dealer, others,
                                         settings.exact_tricks)
    return finalists, pass_out(table, seat, deals, direction, finalists, dealer, settings.exact_tricks, model)


def _even_pass_out(table: Table, seat: int, deals: np.ndarray, direction: str, finalists: list[Mask], dealer: int,
                   others: Others, exact_tricks: int) -> Outcomes:
    """The finalists played out with each other seat passing and playing as one of :attr:`.Others.identify`,
    each as likely: at the pass nothing of theirs is seen yet."""
    nothing_seen = np.zeros((len(others.identify), len(deals), table.players))
    return others.over_tables(nothing_seen, seat, deals, len(finalists), at_play=False,
                              run=lambda model, lanes: pass_out(table, seat, deals[lanes], direction, finalists,
                                                                dealer, exact_tricks, model))


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
    others = Others.of(settings)

    def rollout(deals: np.ndarray, pair: tuple[int, int], model: str) -> Outcomes:
        return pass_out(table, seat, deals, direction, [finalists[i] for i in pair], dealer,
                        settings.exact_tricks, others.seat_model(model, seat))

    judging = rng_for(settings, position.game_key, position.hand, 0, seat, JUDGE)
    fresh = FreshDeals(lambda count: sample_hands(knowledge, count, judging), rollout, others.model)

    def facts(cause: str, played: tuple[Card, ...], better: tuple[Card, ...]) -> list[str]:
        # the facts in cards that tell the two passes apart, but for what the advice line says
        said = tuple(a.code for a in explaining_advice(dealt, mask_of(played), mask_of(better), direction))
        return lead_clauses(dealt, mask_of(played), mask_of(better), cause, said)

    decision = _decision(position, None, seat, "pass", None, outcomes, alternatives, chosen, settings, fresh,
                         facts)
    if decision.category is None:
        return decision
    advice = explaining_advice(dealt, actual, mask_of(decision.best), direction)
    if not advice:
        return decision
    rules = "; ".join(a.rule.rstrip(".") for a in advice)
    return replace(decision, reason=f"{decision.reason}. The passing advice agrees: {rules}")
