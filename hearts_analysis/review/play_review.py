"""The evaluation of a play: the deals it is played out on and their outcomes, for the review's verdicts
and the judge's own play alike."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..cards import Card
from ..engine.state import HandState
from .choices import equivalent_groups, play_choices
from .classes import mean_and_margin
from .deal_weights import inferred_hands
from .decision import Decision, Position, _decision, options_of
from .fresh import FreshDeals
from .information_set import Knowledge
from .line import likely_line
from .others import Others
from .rollout import History, Outcomes, play_out, play_out_with_bots
from .sampling import sample_hands
from .settings import FORCED_DEALS, Settings
from .streams import JUDGE, rng_for

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


def review_play(position: Position, state: HandState, seat: int, card: Card, knowledge: Knowledge,
                index: int, settings: Settings, history: History | None = None) -> Decision:
    """The review of ``seat`` playing ``card`` at ``state`` (``history`` is needed with ``settings.bot``
    or ``settings.infer``)."""
    groups = equivalent_groups(state, seat, state.legal_cards(seat))
    representatives, chosen = play_choices(state, seat, card)
    trick = state.trick_number
    rng = rng_for(settings, position.game_key, position.hand, index, seat)
    judging = rng_for(settings, position.game_key, position.hand, index, seat, JUDGE)
    others = Others.of(settings)
    plain = others.seat_model(others.model, seat).plays

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

    fresh = FreshDeals(draw, rollout, others.model)
    decision = _decision(position, state, seat, "play", trick, outcomes, alternatives, chosen, settings, fresh)
    merged = {group[0] if i != chosen else card: tuple(group) for i, group in enumerate(groups)}
    return replace(decision, equal=tuple(merged[o.cards[0]] for o in decision.options),
                   line=likely_line(state, deals, decision.best[0], plain))
