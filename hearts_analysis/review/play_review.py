"""The evaluation of a play: the deals it is played out on and their outcomes, for the review's verdicts
and the judge's own play alike."""

from __future__ import annotations

import numpy as np

from ..cards import Card
from ..engine.state import HandState
from .deal_weights import inferred_hands, running_seat
from .information_set import Knowledge
from .others import _joined, _over_tables, _with_runner, own_player, reads_others, seat_logs, seat_model
from . import opponents
from .rollout import History, Outcomes, play_out, play_out_with_bots
from .sampling import sample_hands
from .settings import Settings

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
