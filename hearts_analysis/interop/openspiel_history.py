"""OpenSpiel's ``hearts`` history, one hand as integer actions, <-> a hand of a ``hearts-game/1`` record.

An OpenSpiel history is one hand as a space-separated list of integer actions
(as OpenSpiel's C++ hearts game defines them; its xinxin game generator writes one
per line):

- action 0 is the pass direction: 0 no pass, 1 left, 2 across, 3 right; the
  receiver of a pass is ``(passer + direction) % 4`` (``PassDir``, ``ApplyPassAction``);
- 52 deal actions: the i-th card dealt goes to player ``i % 4`` (``ApplyDealAction``);
- unless the direction is 0, 12 pass actions: player 0's three cards, then
  player 1's, 2's, 3's (``current_player_`` moves on after every third card);
- up to 52 plays; who plays is implied: the holder of 2C leads, play goes to
  ``player + 1``, the trick winner leads the next trick.

Cards are ``rank * 4 + suit`` with suits clubs, diamonds, hearts, spades and
ranks 2 (0) to ace (12); players 0-3 are North, East, South, West and sit as our
seats 0-3 (clockwise, play passes to seat + 1, ``left`` is seat + 1).

>>> openspiel_card(parse_card("2C")), openspiel_card(parse_card("AS"))
(0, 51)
>>> game_string(rules_from_parameters(parse_game_string("hearts(jd_bonus=true)")))
'hearts(jd_bonus=true)'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

from ..cards import Card, mask_of, parse_card  # noqa: F401 (parse_card: doctest)
from ..engine.interpreter import exchange
from ..engine.state import HandState
from ..records.errors import RecordError
from ..records.model import GameRecord, HandRecord
from ..rules import RuleError, Rules
from ..text import shown, shown_number

GAME_NAME = "hearts"
PLAYERS = 4
CARDS = 52
PASS_CARDS = 3
PLAYER_NAMES = ("north", "east", "south", "west")
"""OpenSpiel's players 0-3 (``kDirChar`` ``NESW``)."""
_OPENSPIEL = Rules().table(PLAYERS)
"""OpenSpiel's own lead: the holder of 2C leads trick 1 (seat 0, left of a dealer at seat 3, where none does)."""

DIRECTIONS = ("hold", "left", "across", "right")
"""Our name for each OpenSpiel pass-direction action (``PassDir``: kNoPass, kLeft, kAcross, kRight)."""
DIRECTION_ACTION = {name: action for action, name in enumerate(DIRECTIONS)}

PARAMETER_DEFAULTS: dict[str, bool] = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
"""OpenSpiel's ``hearts`` parameters and defaults, in the order of its ``parameter_specification``."""

JD_BONUS, AVOID_ALL_TRICKS_BONUS = -10, -5
"""``kPointsForJD`` and ``kAvoidAllTricksBonus``."""

PRESET = "openspiel"


class OpenSpielError(ValueError):
    """A game string, history or record that cannot be carried across."""


# -- cards ---------------------------------------------------------------------
def openspiel_card(card: Card) -> int:
    """Our ``suit * 13 + rank`` as OpenSpiel's ``rank * 4 + suit``."""
    return (card % 13) * 4 + card // 13


def card_from_openspiel(action: int) -> Card:
    return (action % 4) * 13 + action // 4


# -- parameters <-> rules --------------------------------------------------------
def parse_game_string(text: str) -> dict[str, bool]:
    """``hearts(jd_bonus=true,...)`` in OpenSpiel's syntax -> every parameter's value.

    As OpenSpiel's ``GameParametersFromString``: ``true``/``True``/``false``/``False``;
    unknown names and non-boolean values are errors (OpenSpiel rejects them too).
    """
    text = text.strip()
    name, paren, rest = text.partition("(")
    name = name.strip()
    if name != GAME_NAME:
        raise OpenSpielError(f"--game: expected OpenSpiel's {shown(GAME_NAME)} game, got {shown(name or text)}")
    values = dict(PARAMETER_DEFAULTS)
    if not paren:
        return values
    if not rest.endswith(")"):
        raise OpenSpielError(f'--game: missing ")" in {shown(text)}')
    body = rest[:-1].strip()
    for part in filter(None, (p.strip() for p in body.split(","))):
        key, eq, value = (s.strip() for s in part.partition("="))
        if not eq:
            raise OpenSpielError(f"--game: expected name=value, got {shown(part)}")
        if key not in PARAMETER_DEFAULTS:
            raise OpenSpielError(f"--game: unknown hearts parameter {shown(key)} "
                                 f"(known: {', '.join(PARAMETER_DEFAULTS)})")
        if value not in ("true", "True", "false", "False"):
            raise OpenSpielError(f"--game: {shown(key)} takes true or false, got {shown(value)}")
        values[key] = value in ("true", "True")
    return values


def rules_from_parameters(params: Mapping[str, bool]) -> Rules:
    """The rule set that plays and scores exactly as OpenSpiel with these parameters."""
    p = {**PARAMETER_DEFAULTS, **params}
    overrides: dict[str, Any] = {}
    if not p["pass_cards"]:
        overrides["pass_count"] = 0
    if not p["no_pts_on_first_trick"]:
        overrides["points_on_first_trick"] = True
    if p["can_lead_any_club"]:
        overrides["first_lead"] = "any_club"
    if p["jd_bonus"]:
        overrides["jack_of_diamonds"] = JD_BONUS
    if p["avoid_all_tricks_bonus"]:
        overrides["no_tricks_bonus"] = AVOID_ALL_TRICKS_BONUS
    if not p["must_break_hearts"]:
        overrides["hearts_must_be_broken"] = False
    if not p["qs_breaks_hearts"]:
        overrides["hearts_broken_by"] = "heart"
    if p["can_lead_hearts_instead_of_qs"]:
        overrides["only_hearts_lead"] = "allowed"
    return Rules.preset(PRESET, **overrides)


@dataclass(frozen=True)
class ParameterFit:
    """OpenSpiel parameters for a rule set, and what of the rule set they cannot carry."""

    parameters: dict[str, bool]
    unplayable: tuple[str, ...]
    """Play rules OpenSpiel has no parameter for: its histories cannot follow them."""
    rescored: tuple[str, ...]
    """Scoring rules OpenSpiel has no parameter for: it scores those hands its own way."""


def parameters_for(rules: Rules) -> ParameterFit:
    """The OpenSpiel parameters closest to ``rules``; each difference is named."""
    p = dict(PARAMETER_DEFAULTS)
    unplayable: list[str] = []
    rescored: list[str] = []
    table = None
    try:
        table = rules.table(PLAYERS)
    except RuleError as error:
        unplayable.append(str(error))
    if table is not None and table.removed:
        unplayable.append(f"removed_cards {' '.join(table.removed_cards)}: OpenSpiel deals the full deck")
    if rules.pass_count == 0:
        p["pass_cards"] = False
    elif rules.pass_count != PASS_CARDS:
        unplayable.append(f"pass_count {rules.pass_count}: OpenSpiel passes {PASS_CARDS} cards or none")
    p["no_pts_on_first_trick"] = not rules.points_on_first_trick
    if rules.first_lead == "any_club":
        p["can_lead_any_club"] = True
    elif rules.first_lead != "lowest_club":
        unplayable.append(f"first_lead {rules.first_lead}: in OpenSpiel the holder of 2C leads")
    p["must_break_hearts"] = rules.hearts_must_be_broken
    p["qs_breaks_hearts"] = rules.hearts_broken_by == "heart_or_queen"
    if rules.only_hearts_lead == "allowed":
        p["can_lead_hearts_instead_of_qs"] = True
    elif rules.only_hearts_lead == "ends_hand":
        unplayable.append("only_hearts_lead ends_hand: an OpenSpiel hand always plays all 13 tricks")
    if rules.jack_of_diamonds == JD_BONUS:
        p["jd_bonus"] = True
    elif rules.jack_of_diamonds:
        rescored.append(f"jack_of_diamonds {rules.jack_of_diamonds}: OpenSpiel scores JD 0 or {JD_BONUS}")
    if rules.no_tricks_bonus == AVOID_ALL_TRICKS_BONUS:
        p["avoid_all_tricks_bonus"] = True
    elif rules.no_tricks_bonus:
        rescored.append(f"no_tricks_bonus {rules.no_tricks_bonus}: OpenSpiel's bonus is 0 or "
                        f"{AVOID_ALL_TRICKS_BONUS}")
    if rules.queen_of_clubs_cancels_queen:
        rescored.append("queen_of_clubs_cancels_queen: OpenSpiel always scores QS 13")
    if rules.moon != "add_to_others":
        rescored.append(f"moon {rules.moon}: OpenSpiel adds 26 to the others")
    if rules.charges:
        unplayable.append(f"charges {' '.join(rules.charges)}: OpenSpiel has no charged cards")
    if rules.claims:
        unplayable.append("claims: an OpenSpiel hand always plays all 13 tricks")
    if rules.ten_of_clubs != 1:
        rescored.append(f"ten_of_clubs {rules.ten_of_clubs}: TC is an ordinary card in OpenSpiel")
    return ParameterFit(p, tuple(unplayable), tuple(rescored))


def game_string(rules_or_params: Rules | Mapping[str, bool]) -> str:
    """OpenSpiel's game string: ``hearts`` plus the parameters that differ from its defaults."""
    params = (parameters_for(rules_or_params).parameters if isinstance(rules_or_params, Rules)
              else {**PARAMETER_DEFAULTS, **rules_or_params})
    changed = [f"{k}={'true' if v else 'false'}" for k, v in params.items() if v != PARAMETER_DEFAULTS[k]]
    return f"{GAME_NAME}({','.join(changed)})" if changed else GAME_NAME


# -- history -> record -------------------------------------------------------------
def _actions(line: str) -> list[int]:
    actions = []
    for index, token in enumerate(line.split()):
        try:
            value = int(token)
        except ValueError:
            got = "bytes that are not UTF-8 text" if _undecodable(token) else shown(token)
            raise RecordError(f"expected an integer action, got {got}", f"action {index}") from None
        if not 0 <= value < CARDS:
            raise RecordError(f"action {shown_number(token)} is out of range 0..{CARDS - 1}", f"action {index}")
        actions.append(value)
    return actions


def _undecodable(token: str) -> bool:
    """Whether the token holds bytes that were not UTF-8 (read as lone surrogates)."""
    try:
        token.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def hand_from_history(line: str, rules: Rules) -> HandRecord:
    """One OpenSpiel history as a hand; raises :class:`RecordError` naming the action at fault."""
    actions = _actions(line)
    if not actions:
        raise RecordError("empty history", "action 0")
    direction_action = actions[0]
    if direction_action >= len(DIRECTIONS):
        raise RecordError(f"pass direction {direction_action} is not one of 0 (no pass), 1 (left), "
                          "2 (across), 3 (right)", "action 0")
    direction = DIRECTIONS[direction_action]
    if direction != "hold" and rules.pass_count == 0:
        raise RecordError(f"pass direction {direction_action} ({direction}), but pass_cards=false "
                          "allows only 0 (no pass)", "action 0")
    dealt = actions[1:1 + CARDS]
    if len(dealt) < CARDS:
        raise RecordError(f"the deal stops after {len(dealt)} of {CARDS} cards", f"action {len(actions)}")
    deal = tuple(tuple(card_from_openspiel(a) for a in dealt[seat::PLAYERS]) for seat in range(PLAYERS))
    start = 1 + CARDS
    passes = None
    if direction != "hold":
        given = actions[start:start + PLAYERS * PASS_CARDS]
        if len(given) < PLAYERS * PASS_CARDS:
            raise RecordError(f"the pass stops after {len(given)} of {PLAYERS * PASS_CARDS} cards",
                              f"action {len(actions)}")
        passes = tuple(tuple(card_from_openspiel(a) for a in given[s * PASS_CARDS:(s + 1) * PASS_CARDS])
                       for s in range(PLAYERS))
        start += PLAYERS * PASS_CARDS
    cards = [card_from_openspiel(a) for a in actions[start:]]
    if len(cards) > CARDS:
        raise RecordError(f"{len(cards)} plays; a hand has {CARDS}", f"action {start + CARDS}")
    hand = HandRecord(deal=deal, plays=(), passes=passes, pass_direction=direction)
    return dataclasses.replace(hand, plays=_seat_plays(opening_state(hand, rules), cards))


def opening_state(hand: HandRecord, rules: Rules) -> HandState:
    """The hand after the pass, as OpenSpiel holds it: the holder of 2C to lead."""
    hands, table = [mask_of(cards) for cards in hand.deal], rules.table(PLAYERS)
    if hand.passes is not None:
        exchange(hands, [mask_of(p or ()) for p in hand.passes], table.pass_offset(hand.pass_direction or "hold"))
    return HandState(table, hands, HandState.first_leader_for(_OPENSPIEL, hands, PLAYERS - 1))


def _seat_plays(state: HandState, cards: list[Card]) -> tuple:
    """Who played each card: OpenSpiel's turn order (the trick winner leads the next trick)."""
    plays = []
    for card in cards:
        seat = state.to_play
        plays.append((seat, card))
        state.push(seat, card)
    return tuple(plays)


def game_from_history(line: str, rules: Rules, game_id: str | None = None) -> GameRecord:
    """A one-hand game from one history line."""
    hand = hand_from_history(line, rules)
    return GameRecord(players=PLAYER_NAMES, hands=(hand,), rules=rules, rules_spec=rules.to_spec(),
                      game_id=game_id)


