"""The evaluation of a pass: the passes that compete, screened to finalists, and their outcomes, for the
review's verdicts and the judge's own pass alike."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..cards import Mask
from ..rules import Table
from .advice import AdviceBound, members
from .choices import canonical_pass, interchangeable, pass_choices
from .information_set import Knowledge
from .others import Others
from .rollout import Outcomes, pass_out
from .sampling import sample_hands
from .settings import Settings

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
