"""The players of a match: built-in bots, Python classes and programs, each seat guarded by a fallback.

A player is named as on the command line:

>>> [parse_player(text).kind for text in ["heuristic", "python:examples/bots/lowest.py:LowestBot",
...                                       "exe:perl examples/bots/lowest.pl"]]
['builtin', 'python', 'exe']
>>> parse_player("heurstic")
Traceback (most recent call last):
...
hearts_analysis.match.players.PlayerError: heurstic: unknown player (did you mean "heuristic"?); a built-in bot (random, heuristic, judge), python:MODULE_OR_FILE.py:Class, exe:COMMAND LINE or openspiel:ismcts[:SIMULATIONS]

A built-in bot plays a seat directly (:class:`Timed`). Any other player plays through
:class:`Guarded`: it is shown the seat's view record (:mod:`.view`) and the legal cards as
strings, and an answer that is not legal, late, garbled or missing (the bot crashed) loses the
decision to the fallback bot of that seat, and is recorded as a fault.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..cards import CardError, card_name, iter_cards, parse_card
from ..rules import Rules
from ..simulate.bots import HeuristicBot, RandomBot
from ..simulate.knowledge import SeatView
from ..suggest import did_you_mean
from . import openspiel_player
from .exe import ExeBot, Fault, command_words
from .view import seat_view

def judge_bot(rng: random.Random) -> Any:
    """The review's judge (imported when a table has one: it loads the review and its compiled kernel)."""
    from ..review.judge_bot import JudgeBot
    return JudgeBot(rng)


BUILTIN: dict[str, Callable[[random.Random], Any]] = {"random": RandomBot, "heuristic": HeuristicBot,
                                                      "judge": judge_bot}
"""The built-in bots a player can be, by name."""
KINDS = ("a built-in bot (random, heuristic, judge), python:MODULE_OR_FILE.py:Class, exe:COMMAND LINE or "
         "openspiel:ismcts[:SIMULATIONS]")


class PlayerError(ValueError):
    """A player that cannot be had: unknown name, missing class or program, package not installed."""


@dataclass(frozen=True)
class PlayerSpec:
    text: str
    """As given on the command line."""
    kind: str
    """``builtin``, ``python``, ``exe``, ``openspiel``, or ``bot`` (:func:`bot_player`, from a library)."""
    target: str
    name: str = ""
    """The player's name in the results and the records (the text, made unique)."""
    make: Callable[[random.Random], Any] | None = None
    """A ``bot`` player's maker: the seat's stream in, a bot of the simulator's protocol out."""


def bot_player(name: str, make: Callable[[random.Random], Any]) -> PlayerSpec:
    """A player from a library: ``make(rng)`` gives a bot of the simulator's protocol (``choose_pass(view,
    count)``, ``choose_play(view, legal)`` on the seat's :class:`~hearts_analysis.simulate.knowledge.SeatView`),
    trusted and timed as a built-in bot is. ``make`` must pickle for ``workers`` (a class, a module's
    function, a :func:`functools.partial` of them) and hash (the match keeps a process's players by it).

    >>> from hearts_analysis.simulate.bots import HeuristicBot
    >>> bot_player("mine", HeuristicBot).kind
    'bot'
    """
    return PlayerSpec(name, "bot", name, name, make)


def parse_player(text: str) -> PlayerSpec:
    """What ``text`` names (see the module notes); a :class:`PlayerError` if it names nothing."""
    prefix, colon, rest = text.partition(":")
    if not colon:
        if text in BUILTIN:
            return PlayerSpec(text, "builtin", text, text)
        raise PlayerError(f"{text}: unknown player{did_you_mean(text, BUILTIN)}; {KINDS}")
    if prefix == "python":
        module, _, cls = rest.rpartition(":")
        if not module or not cls:
            raise PlayerError(f"{text}: write python:MODULE_OR_FILE.py:Class")
        return PlayerSpec(text, "python", rest, text)
    if prefix == "exe":
        try:
            command_words(rest)
        except ValueError as error:
            raise PlayerError(f"{text}: bad command line: {error}") from None
        return PlayerSpec(text, "exe", rest, text)
    if prefix == "openspiel":
        try:
            openspiel_player.parse_bot(rest)
        except openspiel_player.PlayerError as error:
            raise PlayerError(str(error)) from None
        return PlayerSpec(text, "openspiel", rest, text)
    raise PlayerError(f"{text}: unknown kind of player {prefix!r}; {KINDS}")


def named(specs: list[PlayerSpec]) -> list[PlayerSpec]:
    """The players with unique names: a second ``random`` is ``random#2``.

    >>> [s.name for s in named([parse_player("random")] * 2 + [parse_player("heuristic")])]
    ['random', 'random#2', 'heuristic']
    """
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec.text] = seen.get(spec.text, 0) + 1
        count = seen[spec.text]
        out.append(PlayerSpec(spec.text, spec.kind, spec.target, spec.text if count == 1 else f"{spec.text}#{count}",
                              spec.make))
    return out


def load_class(target: str) -> type:
    """The class of ``MODULE_OR_FILE.py:Class``; a :class:`PlayerError` naming what is missing."""
    module_name, _, cls_name = target.rpartition(":")
    try:
        if module_name.endswith(".py") or "/" in module_name:
            path = Path(module_name)
            if not path.is_file():
                raise PlayerError(f"python:{target}: no file {module_name}")
            key = f"_hearts_match_bot_{abs(hash(str(path.resolve())))}"
            module = sys.modules.get(key)
            if module is None:
                spec = importlib.util.spec_from_file_location(key, path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                sys.modules[key] = module
        else:
            module = importlib.import_module(module_name)
    except PlayerError:
        raise
    except Exception as error:  # the bot's own module failed to load: say why, in one line
        raise PlayerError(f"python:{target}: cannot load {module_name}: {type(error).__name__}: {error}") from None
    cls = getattr(module, cls_name, None)
    if not isinstance(cls, type):
        raise PlayerError(f"python:{target}: {module_name} has no class {cls_name}")
    missing = [m for m in ("pass_cards", "play") if not callable(getattr(cls, m, None))]
    if missing:
        raise PlayerError(f"python:{target}: {cls_name} has no method {' or '.join(missing)}")
    return cls


def check_player(spec: PlayerSpec) -> None:
    """Raise a :class:`PlayerError` now if the player cannot be had (before any deal is played)."""
    if spec.kind == "python":
        load_class(spec.target)
    elif spec.kind == "exe":
        program = command_words(spec.target)[0]
        if shutil.which(program) is None:
            raise PlayerError(f"{spec.text}: no program {program!r} (not a file, nor on the PATH)")
    elif spec.kind == "openspiel":
        try:
            openspiel_player.pyspiel()
        except openspiel_player.PlayerError as error:
            raise PlayerError(f"{spec.text}: {error}") from None


def check_table(specs: list[PlayerSpec] | tuple[PlayerSpec, ...], rules: Rules, seats: int) -> None:
    """Raise a :class:`PlayerError` now if a player cannot play at this table (OpenSpiel's bots play only
    the rules its hearts game has: :func:`.openspiel_player.check_rules`)."""
    for spec in specs:
        if spec.kind == "openspiel":
            try:
                openspiel_player.check_rules(rules, seats)
            except openspiel_player.PlayerError as error:
                raise PlayerError(f"{spec.text}: {error}") from None


def _accepts_argument(cls: type) -> bool:
    try:
        parameters = list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):
        return False
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters)


@dataclass
class Clock:
    """A player's decisions in a run: how many, their seconds, the faults by kind, the fallback's."""

    decisions: int = 0
    seconds: float = 0.0
    faults: dict[str, int] = field(default_factory=dict)
    fallback: int = 0
    """Decisions its fallback made (each fault, and every decision after a program was replaced)."""

    def add(self, other: "Clock") -> None:
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.fallback += other.fallback
        for kind, count in other.faults.items():
            self.faults[kind] = self.faults.get(kind, 0) + count


class Timed:
    """A built-in bot in one seat, its decisions timed."""

    __slots__ = ("bot", "clock")

    def __init__(self, bot: Any, clock: Clock):
        self.bot, self.clock = bot, clock

    def choose_pass(self, view: SeatView, count: int) -> int:
        started = time.perf_counter()
        chosen = self.bot.choose_pass(view, count)
        self.clock.seconds += time.perf_counter() - started
        self.clock.decisions += 1
        return chosen

    def choose_play(self, view: SeatView, legal: int) -> int:
        started = time.perf_counter()
        card = self.bot.choose_play(view, legal)
        self.clock.seconds += time.perf_counter() - started
        self.clock.decisions += 1
        return card


@dataclass
class Where:
    """What a fault names besides the player: the deal, rotation, game and the players at the table."""

    player: str
    deal: int
    rotation: int
    game_id: str
    rules: Rules
    names: tuple[str, ...]


class Guarded:
    """An outside player in one seat: asked through ``ask(kind, seat, view record, legal, count)``, its
    answer checked; a fault gives the decision to ``fallback`` and is appended to ``faults``."""

    def __init__(self, ask: Callable[..., Any], fallback: Any, clock: Clock, faults: list[dict], where: Where,
                 timeout: float, replaced: Callable[[], bool] = lambda: False):
        self.ask, self.fallback, self.clock, self.faults, self.where = ask, fallback, clock, faults, where
        self.timeout, self.replaced = timeout, replaced

    def choose_pass(self, view: SeatView, count: int) -> int:
        cards = self._answer("pass", view, view.hand, count)
        if cards is None:
            return self.fallback.choose_pass(view, count)
        return sum(1 << c for c in cards)

    def choose_play(self, view: SeatView, legal: int) -> int:
        cards = self._answer("play", view, legal, 1)
        return self.fallback.choose_play(view, legal) if cards is None else cards[0]

    def _answer(self, kind: str, view: SeatView, legal: int, count: int) -> list[int] | None:
        if self.replaced():
            self.clock.fallback += 1
            return None
        where = self.where
        record = seat_view(view, where.rules, where.names, where.game_id)
        legal_names = [card_name(c) for c in iter_cards(legal)]
        started = time.perf_counter()
        try:
            answer = self.ask(kind, view.seat, record, legal_names, count)
            elapsed = time.perf_counter() - started
            if elapsed > self.timeout:
                raise Fault("late", f"answered in {elapsed:.2f} s (timeout {self.timeout:g} s)")
            cards = _checked(answer, legal, count)
        except Fault as fault:
            elapsed = time.perf_counter() - started
            self._fault(kind, view, fault)
            cards = None
        self.clock.decisions += 1
        self.clock.seconds += elapsed
        return cards

    def _fault(self, kind: str, view: SeatView, fault: Fault) -> None:
        clock, where = self.clock, self.where
        clock.faults[fault.kind] = clock.faults.get(fault.kind, 0) + 1
        clock.fallback += 1
        self.faults.append({"player": where.player, "deal": where.deal, "rotation": where.rotation,
                            "game_id": where.game_id, "seat": view.seat, "decision": kind,
                            "trick": view.public.trick_number if kind == "play" else 0,
                            "kind": fault.kind, "detail": fault.detail})


def _checked(answer: Any, legal: int, count: int) -> list[int]:
    """The cards of an answer (a list of card strings, or one string for a play), or a :class:`Fault`."""
    if isinstance(answer, str) and count == 1:
        answer = [answer]
    if not isinstance(answer, (list, tuple)):
        raise Fault("garbled", f"not a list of cards: {str(answer)[:60]!r}")
    try:
        cards = [parse_card(text) for text in answer]
    except CardError as error:
        raise Fault("garbled", str(error)) from None
    if len(cards) != count or len(set(cards)) != count:
        raise Fault("illegal", f"{len(set(cards))} different cards where {count} are wanted")
    bad = [card_name(c) for c in cards if not legal >> c & 1]
    if bad:
        raise Fault("illegal", f"{', '.join(bad)} not among the legal cards")
    return cards


class Roster:
    """The players of a match in one process: their programs (started once), and a bot for each seat."""

    def __init__(self, specs: list[PlayerSpec], timeout: float, fallback: str, rules: Rules | None = None,
                 seats: int = 4):
        self.specs, self.timeout, self.fallback = specs, timeout, fallback
        if rules is not None:
            check_table(specs, rules, seats)
        self.classes = {i: load_class(s.target) for i, s in enumerate(specs) if s.kind == "python"}
        self.programs = {i: ExeBot(s.target) for i, s in enumerate(specs) if s.kind == "exe"}

    def seat_bot(self, player: int, seat: int, rng: random.Random, fallback_seed: str, clock: Clock,
                 faults: list[dict], where: Where) -> Any:
        """The bot of ``player`` in ``seat``, on the seat's stream ``rng``; its fallback on ``fallback_seed``."""
        spec = self.specs[player]
        if spec.kind == "builtin":
            return Timed(BUILTIN[spec.target](rng), clock)
        if spec.kind == "bot":
            return Timed(spec.make(rng), clock)
        fallback = BUILTIN[self.fallback](random.Random(fallback_seed))
        if spec.kind == "python":
            cls = self.classes[player]
            bot = cls(rng) if _accepts_argument(cls) else cls()
            return Guarded(_python_ask(bot), fallback, clock, faults, where, self.timeout)
        if spec.kind == "openspiel":  # in this process: timed, never late
            ask = _python_ask_openspiel(openspiel_player.asker(spec.target, where.rules, rng))
            return Guarded(ask, fallback, clock, faults, where, float("inf"))
        program = self.programs[player]
        timeout = self.timeout

        def ask(kind, seat, record, legal, count):
            answer = program.ask({"kind": kind, "seat": seat, "view": record, "legal": legal, "count": count},
                                 timeout)
            if not isinstance(answer, dict) or "cards" not in answer:
                raise Fault("garbled", f"no \"cards\" in the answer {str(answer)[:60]!r}")
            return answer["cards"]
        return Guarded(ask, fallback, clock, faults, where, timeout, lambda: program.replaced)

    def close(self) -> None:
        for program in self.programs.values():
            program.close()


def _python_ask_openspiel(ask: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(kind, seat, record, legal, count):
        try:
            return ask(kind, seat, record, legal, count)
        except Exception as error:  # OpenSpiel's failure (a fatal error is a RuntimeError) loses the decision
            raise Fault("crash", f"{type(error).__name__}: {error}"[:200]) from None
    return guarded


def _python_ask(bot: Any) -> Callable[..., Any]:
    def ask(kind, seat, record, legal, count):
        try:
            return bot.pass_cards(record, legal) if kind == "pass" else bot.play(record, legal)
        except Exception as error:  # the bot's own failure loses it the decision, nothing more
            raise Fault("crash", f"{type(error).__name__}: {error}"[:200]) from None
    return ask
