"""OpenSpiel's bots as players of a match: ``openspiel:ismcts``, ``openspiel:mcts``, ``openspiel:random``.

A spec may name the simulations of a search (``openspiel:ismcts:500``; the default is
:data:`DEFAULT_SIMULATIONS`). The bot decides from the seat's view only, as every outside player
does: the view record's unseen cards are filled with a deal that fits what the seat knows (the
review's :func:`~hearts_analysis.review.views.stand_in`), the hand so far is replayed into OpenSpiel's
``hearts`` game (:mod:`hearts_analysis.interop.openspiel_history` numbers its cards and pass
directions), and the bot is asked for the seat's action; a pass is three actions, one card each.

ISMCTS starts every simulation from a world that OpenSpiel's hearts draws again from the seat's
information state (``ResampleFromInfostate``: the seat's own cards, its pass and the pass it
received, who played which card), so the filled cards never reach its search. MCTS searches the
filled deal itself as if every hand were open: that deal is a random one that fits the view, not the
real one ("MCTS on one sampled deal").

OpenSpiel's hearts is for four players and one family of rules; :func:`check_rules` refuses the rest
by the rule field:

>>> from hearts_analysis.rules import Rules
>>> check_rules(Rules.preset("openspiel"), 4)["can_lead_hearts_instead_of_qs"]
False
>>> check_rules(Rules.preset("black_queen"), 4)
Traceback (most recent call last):
...
hearts_analysis.match.openspiel_player.PlayerError: OpenSpiel's hearts cannot play these rules: only_hearts_lead ends_hand: an OpenSpiel hand always plays all 13 tricks (--rules openspiel plays them all)
>>> parse_bot("ismcts:300"), parse_bot("random")
(('ismcts', 300), ('random', 0))
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from typing import Any, Callable

from ..cards import card_name, parse_card
from ..interop.openspiel_history import (CARDS, DIRECTION_ACTION, PLAYERS, card_from_openspiel,
                                         game_string, openspiel_card, parameters_for)
from ..records.model import HandRecord
from ..rules import Rules

class PlayerError(ValueError):
    """An OpenSpiel player that cannot be had (:mod:`.players` gives it as its own ``PlayerError``)."""


BOTS = ("ismcts", "mcts", "random")
DEFAULT_SIMULATIONS = 2000
"""Simulations of a search per decision (one card) when the spec names none."""
UCT_C = 2.0
"""The exploration constant of both searches (OpenSpiel's examples use 2)."""
INSTALL = "pip install 'hearts-analysis[bench]'"
SCORING_ACCEPTED = ("moon shooter_choice",)
"""Scoring differences a bot may plan under: OpenSpiel's +26 to the others is one of the shooter's choices."""


def parse_bot(target: str) -> tuple[str, int]:
    """``ismcts`` or ``ismcts:SIMULATIONS`` -> (bot, simulations); a :class:`PlayerError` otherwise."""
    name, colon, count = target.partition(":")
    if name not in BOTS:
        from ..suggest import did_you_mean
        raise PlayerError(f"openspiel:{target}: unknown OpenSpiel bot{did_you_mean(name, BOTS)} "
                          f"(known: {', '.join(BOTS)})")
    if name == "random":
        if colon:
            raise PlayerError(f"openspiel:{target}: the random bot takes no simulation count")
        return name, 0
    if not colon:
        return name, DEFAULT_SIMULATIONS
    if not count.isdigit() or int(count) < 1:
        raise PlayerError(f"openspiel:{target}: the simulations must be a whole number of at least 1, "
                          f"got {count!r}")
    return name, int(count)


def pyspiel() -> Any:
    """OpenSpiel's module, or a :class:`PlayerError` that says how to install it."""
    if importlib.util.find_spec("pyspiel") is None:
        raise PlayerError(f"OpenSpiel bots need the open-spiel package, which is not installed: {INSTALL}")
    return importlib.import_module("pyspiel")


def check_rules(rules: Rules, seats: int) -> dict[str, bool]:
    """OpenSpiel's parameters for ``rules``; a :class:`PlayerError` naming each rule field it cannot play."""
    if seats != PLAYERS:
        raise PlayerError(f"OpenSpiel's hearts is for {PLAYERS} players; the match has {seats} (--players)")
    fit = parameters_for(rules)
    problems = [p for p in fit.unplayable if not p.startswith("claims")]  # a match's hands are never claimed
    problems += [p for p in fit.rescored if not p.startswith(SCORING_ACCEPTED)]
    if problems:
        raise PlayerError(f"OpenSpiel's hearts cannot play these rules: {'; '.join(problems)} "
                          "(--rules openspiel plays them all)")
    return fit.parameters


def _bot(module: Any, game: Any, name: str, simulations: int, seat: int, seed: int) -> tuple[Any, Any]:
    """The bot, and its evaluator (the bot holds it by a bare pointer: the caller keeps it alive)."""
    if name == "random":
        return module.make_uniform_random_bot(seat, seed), None
    evaluator = module.RandomRolloutEvaluator(1, seed)
    if name == "mcts":
        return module.MCTSBot(game, evaluator, UCT_C, simulations, 1000, False, seed, False), evaluator
    return module.ISMCTSBot(seed, evaluator, UCT_C, simulations, -1, module.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                            False, False), evaluator


def filled_hand(record: dict) -> tuple[HandRecord, str]:
    """The view record's hand with every unseen card placed as the seat's knowledge allows, and its pass
    direction (the view's seat is the one whose deal is not null)."""
    from ..records.json import game_from_dict
    from ..review.views import stand_in
    view = game_from_dict(record)
    seat = next(s for s, cards in enumerate(view.hands[0].deal) if cards is not None)
    whole = stand_in(view, seat).hands[0]
    return whole, whole.pass_direction or "hold"


def state_of(module: Any, game: Any, hand: HandRecord, direction: str, seat: int, passing: bool) -> Any:
    """OpenSpiel's state of ``hand`` (whole) as far as it is played, turned so that ``seat`` is OpenSpiel's
    player 0 (pass directions and the order of play are relative, so nothing else changes). When
    ``passing``, the state stops before the pass, with player 0 to pass first: OpenSpiel's players pass one
    after another, and its ISMCTS crashes (a segmentation fault, open-spiel 2.0.2) asked for the pass of a
    later player."""
    turned = [(seat + p) % PLAYERS for p in range(PLAYERS)]
    state = game.new_initial_state()
    actions = [DIRECTION_ACTION[direction]]
    actions += [openspiel_card(hand.deal[turned[p]][i]) for i in range(CARDS // PLAYERS) for p in range(PLAYERS)]
    if not passing:
        if direction != "hold":
            actions += [openspiel_card(c) for p in range(PLAYERS) for c in hand.passes[turned[p]]]
        actions += [openspiel_card(card) for _, card in hand.plays]
    for action in actions:
        state.apply_action(action)
    return state


def asker(target: str, rules: Rules, rng: random.Random) -> Callable[..., list[str]]:
    """The ``ask(kind, seat, record, legal, count)`` of an OpenSpiel bot in one seat (:class:`~.players.Guarded`)."""
    module = pyspiel()
    name, simulations = parse_bot(target)
    game = module.load_game(game_string(check_rules(rules, PLAYERS)))
    seed = rng.randrange(2 ** 31)

    def ask(kind: str, seat: int, record: dict, legal: list[str], count: int) -> list[str]:
        hand, direction = filled_hand(record)
        passing = kind == "pass"
        state = state_of(module, game, hand, direction, seat, passing)
        bot, evaluator = _bot(module, game, name, simulations, 0, (seed + len(hand.plays)) % 2 ** 31)
        chosen = []
        for _ in range(count if passing else 1):
            if state.current_player() != 0:
                raise RuntimeError(f"OpenSpiel's state has player {state.current_player()} to move, not 0 "
                                   f"(seat {seat})")
            action = bot.step(state)
            chosen.append(card_name(card_from_openspiel(action)))
            state.apply_action(action)
        del evaluator
        return chosen
    return ask


class OpenSpielBot:
    """An OpenSpiel bot as a simulator's bot (``choose_pass``/``choose_play`` on a seat's view), for tables
    outside a match (the judge's benchmark): it is shown the view's record, as in a match."""

    def __init__(self, target: str, rules: Rules, rng: random.Random):
        self.rules = rules
        self.ask = asker(target, rules, rng)

    def _cards(self, kind: str, view: Any, legal: int, count: int) -> list[int]:
        from .view import seat_view
        record = seat_view(view, self.rules, [f"seat{s}" for s in range(view.public.players)])
        names = self.ask(kind, view.seat, record, [card_name(c) for c in range(CARDS) if legal >> c & 1], count)
        return [parse_card(name) for name in names]

    def choose_pass(self, view: Any, count: int) -> int:
        return sum(1 << c for c in self._cards("pass", view, view.hand, count))

    def choose_play(self, view: Any, legal: int) -> int:
        return self._cards("play", view, legal, 1)[0]


def known_hand(state: Any, seat: int) -> int:
    """The cards ``seat`` holds in an OpenSpiel state (a mask), read from its information state."""
    text = state.information_state_string(seat)
    lines = text.split("Hand: \n", 1)[1].splitlines()[:4]
    mask = 0
    for line in lines:
        suit, _, ranks = line.partition(" ")
        if ranks != "none":
            for rank in ranks:
                mask |= 1 << parse_card(rank + suit)
    return mask


__all__ = ["BOTS", "DEFAULT_SIMULATIONS", "INSTALL", "OpenSpielBot", "PlayerError", "asker", "check_rules", "filled_hand",
           "known_hand", "parse_bot", "pyspiel", "state_of"]
