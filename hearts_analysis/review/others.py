"""The model of the other players: one object, :class:`Others`, built from the settings (:meth:`Others.of`).

Every rollout plays the other seats, and the judged seat's own later cards, by some player. Which ones is
decided here, once: the others play :attr:`~.settings.Settings.model`, or each the player its plays this hand
say it plays like (:attr:`~.settings.Settings.identify`, :mod:`.opponents`); a seat read as running for the
moon plays :data:`RUNNER_MODEL` (:attr:`~.settings.Settings.read_runner`); the judged seat's own later plays
are :attr:`~.settings.Settings.own_model`'s, looking a step ahead at a play
(:attr:`~.settings.Settings.look_ahead`); or simulator bots play every seat (:attr:`~.settings.Settings.bot`).
The play and the pass review ask this object, never the settings' fields.

>>> from hearts_analysis.review.settings import Settings
>>> others = Others.of(Settings())
>>> others.model, others.second, others.own, others.identify, others.read_runner
('basic', 'strong', 'strong', ('basic', 'strong'), True)
>>> others.reads(history=None), Others.of(Settings(identify=())).identify
(False, ())
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from ..engine.state import HandState
from ..kernel.compiled import LOOK, one_seat
from ..kernel.masks import U64
from ..simulate.bots import BotFactory
from . import opponents
from .deal_weights import running_seat
from .policy import MODELS, OTHER_MODEL, Model
from .rollout import History, Outcomes

if TYPE_CHECKING:
    from .settings import Settings

RUNNER_MODEL = "strong"
"""The rollout player of a seat read as running for the moon (:func:`~.deal_weights.running_seat`): the
one that runs."""


@dataclass(frozen=True)
class Others:
    """Who plays the other seats, and the judged seat's own later cards, in the rollouts."""

    model: str
    """The others' rollout player (:data:`~.policy.MODELS`), under which a cost is judged on fresh deals."""
    own: str | None
    """The rollout player of the judged seat's own later plays; ``None``: :attr:`model`."""
    look_ahead: bool
    """At a play, the judged seat's own later decisions look a step ahead (:data:`~hearts_analysis.kernel.compiled.LOOK`)."""
    identify: tuple[str, ...]
    """Rollout players between which each other seat's is read from its plays; ``()``: all play :attr:`model`."""
    read_runner: bool
    """A seat that has taken every point so far is read as running: deals drawn towards a hand that can take
    the rest, and the seat plays :data:`RUNNER_MODEL`."""
    infer: str | tuple[str, ...] | None = None
    """A play's deals weighted by the others' plays under this rollout player (:mod:`.deal_weights`)."""
    bot: BotFactory | None = None
    """Simulator bots at every seat instead of the rollout players (plays only)."""

    @classmethod
    def of(cls, settings: Settings) -> Others:
        """The model the settings describe."""
        return cls(settings.model, settings.own_model, settings.look_ahead, tuple(settings.identify),
                   settings.read_runner, settings.infer, settings.bot)

    @property
    def second(self) -> str:
        """The other rollout player (:data:`~.policy.OTHER_MODEL`), which checks a flag on the same fresh deals."""
        return OTHER_MODEL[self.model]

    def own_player(self, model: str, at_play: bool) -> int:
        """The kernel's player of the judged seat's own later plays: :attr:`own` (``model`` where that is
        ``None``), looking ahead at a play when :attr:`look_ahead` says so."""
        own = MODELS[self.own or model].plays
        return own | LOOK if at_play and self.look_ahead else own

    def seat_model(self, model: str, seat: int, at_play: bool = False) -> Model:
        """The rollout player ``model`` at the other seats, with ``seat`` played by :meth:`own_player`."""
        own = self.own_player(model, at_play)
        if own == MODELS[model].plays:
            return MODELS[model]
        return MODELS[model]._replace(plays=one_seat(MODELS[model].plays, seat, own))

    def table(self, model: str, seat: int, players: int, runner: int | None) -> Model:
        """At a play, every other seat playing ``model`` (a ``runner``: :data:`RUNNER_MODEL`), ``seat`` its own."""
        if runner is None:
            return self.seat_model(model, seat, at_play=True)
        return opponents.table_model(_with_runner((model,) * players, runner), self.own_player(model, True), seat)

    def runner(self, state: HandState, seat: int) -> int | None:
        """The seat read as running for the moon at ``state`` (:func:`~.deal_weights.running_seat`), if read."""
        return running_seat(state, seat) if self.read_runner else None

    def reads(self, history: History | None, model: str | None = None) -> bool:
        """Whether a play's evaluation draws each other seat's player from its plays (:attr:`identify`)."""
        return self.bot is None and model is None and bool(self.identify) and history is not None

    def logs(self, state: HandState, seat: int, hands: np.ndarray, history: History) -> np.ndarray:
        """What the others' plays so far say of their players on each deal (:func:`.opponents.log_likelihoods`)."""
        return opponents.log_likelihoods(state.table, history.first_leader, history.plays, seat, hands, self.identify)

    def over_tables(self, logs: np.ndarray, seat: int, deals: np.ndarray, alternatives: int, *, at_play: bool,
                    run: Callable[[Model, np.ndarray], Outcomes], runner: int | None = None) -> Outcomes:
        """The outcomes of ``run(model, lanes)`` on each table of :func:`.opponents.tables`, put together deal by
        deal (the seat's own player: :meth:`own_player`; a ``runner`` plays :data:`RUNNER_MODEL`). The draws are
        seeded by the deals, so the same deals always meet the same players."""
        n = logs.shape[2]
        points = np.zeros((alternatives, len(deals), n), np.int64)
        taken = np.zeros((alternatives, len(deals), n), U64)
        rng = np.random.default_rng(zlib.crc32(np.ascontiguousarray(deals).tobytes()))
        own = self.own_player(self.model, at_play)
        for players, lanes in opponents.tables(logs, seat, self.identify, rng):
            part = run(opponents.table_model(_with_runner(players, runner), own, seat), lanes)
            points[:, lanes], taken[:, lanes] = part.points, part.taken
        return Outcomes(points, taken)


def _with_runner(players: tuple[str, ...], runner: int | None) -> tuple[str, ...]:
    """``players`` (a rollout player's name per seat) with a seat read as running playing :data:`RUNNER_MODEL`."""
    return players if runner is None else tuple(RUNNER_MODEL if s == runner else name
                                                 for s, name in enumerate(players))


# The same, for callers that hold the settings.
def own_player(settings: Settings, model: str, at_play: bool) -> int:
    """:meth:`Others.own_player` of the settings' model of the others."""
    return Others.of(settings).own_player(model, at_play)


def seat_model(settings: Settings, model: str, seat: int, at_play: bool = False) -> Model:
    """:meth:`Others.seat_model` of the settings' model of the others."""
    return Others.of(settings).seat_model(model, seat, at_play)


def reads_others(settings: Settings, history: History | None, model: str | None = None) -> bool:
    """:meth:`Others.reads` of the settings' model of the others."""
    return Others.of(settings).reads(history, model)


def seat_logs(state: HandState, seat: int, hands: np.ndarray, settings: Settings, history: History) -> np.ndarray:
    """:meth:`Others.logs` of the settings' model of the others."""
    return Others.of(settings).logs(state, seat, hands, history)
