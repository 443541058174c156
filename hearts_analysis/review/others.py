"""The model of the other players in the rollouts: which rollout player each other seat plays, and the
judged seat's own later plays."""

from __future__ import annotations

import zlib
from typing import Callable

import numpy as np

from ..engine.state import HandState
from ..kernel.compiled import LOOK, one_seat
from ..kernel.masks import U64
from . import opponents
from .policy import MODELS, Model
from .rollout import History, Outcomes
from .settings import Settings

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


def _joined(outcomes: list[Outcomes]) -> Outcomes:
    """Outcomes of the same alternatives under several rollout players, as one set of more deals."""
    if len(outcomes) == 1:
        return outcomes[0]
    return Outcomes(np.concatenate([o.points for o in outcomes], axis=1),
                    np.concatenate([o.taken for o in outcomes], axis=1))
