"""The evaluation of a play: the deals it is played out on and their outcomes, for the review's verdicts
and the judge's own play alike."""

from __future__ import annotations

import numpy as np

from ..cards import Card
from ..engine.state import HandState
from .deal_weights import inferred_hands
from .information_set import Knowledge
from .others import Others
from .rollout import History, Outcomes, play_out, play_out_with_bots
from .sampling import sample_hands
from .settings import Settings

def play_outcomes(state: HandState, seat: int, hands: np.ndarray, cards: list[Card], settings: Settings,
                  history: History | None = None, model: str | None = None,
                  logs: np.ndarray | None = None) -> Outcomes:
    """Each of ``cards`` played by ``seat`` at ``state`` on the deals ``hands``, under the rollout player
    ``model`` (the settings' by default) or the settings' simulator bots: the one evaluator of a play,
    for the review's verdicts and the judge's own play alike (``logs``: :meth:`.Others.logs`, if the caller has
    them already)."""
    others = Others.of(settings)
    if others.bot is None:
        runner = others.runner(state, seat)
        if others.reads(history, model):
            if logs is None:
                logs = others.logs(state, seat, hands, history)
            return others.over_tables(logs, seat, hands, len(cards), at_play=True, runner=runner,
                                      run=lambda table, lanes: play_out(state, hands[lanes], cards,
                                                                        settings.exact_tricks, table.plays))
        return play_out(state, hands, cards, settings.exact_tricks,
                        others.table(model or others.model, seat, state.players, runner).plays)
    if history is None:
        raise ValueError("reviewing with bots needs the hand's history")
    return play_out_with_bots(state.table, history, seat, hands, cards, others.bot, settings.seed,
                              settings.exact_tricks)


def play_deals(knowledge: Knowledge, count: int, rng: np.random.Generator, state: HandState, settings: Settings,
               history: History | None) -> np.ndarray:
    """``count`` deals the seat's knowledge allows, weighted by the others' plays under :attr:`.Others.infer`
    where it is set, and towards a hand that can take the rest where a seat is running for the moon
    (:func:`~.deal_weights.running_seat`): the deals of every play's evaluation, the review's and the
    judge's own alike."""
    others = Others.of(settings)
    runner = others.runner(state, knowledge.seat)
    model = others.infer if history is not None else None
    if model is None and runner is None:
        return sample_hands(knowledge, count, rng)
    return inferred_hands(knowledge, count, rng, state.table, history.first_leader if history else 0,
                          history.plays if history else (), model, runner=runner)
