"""OpenSpiel ``hearts`` histories <-> ``hearts-game/1`` records.

An OpenSpiel history is one hand as a space-separated list of integer actions
(:mod:`.openspiel_history` reads and writes one).

OpenSpiel's game is a single hand, so a plain history file (one history per
line, nothing else) becomes games of one hand under the ``openspiel`` preset,
whose ``pass_cycle`` ``any`` takes the direction from the hand's ``pass_direction``.

Export writes one history per hand, and comment lines that keep what a history
cannot hold, so that importing the file gives the games back:

- ``# game_string: hearts(jd_bonus=true)`` before each game: OpenSpiel's game string, the
  parameters that game's histories replay under (each game keeps its own);
- ``# record: {...}`` after it: the ``hearts-game/1`` record
  without its cards (game id, players, rules, and each hand's other fields, such
  as the moon choice, points and totals); the history lines that follow, up to
  the next ``# record:``, are its hands in order.

Other lines starting with ``#`` are comments. A tool that reads histories line by
line without skipping comments takes the file without them (``grep -v '^#'``), or
``hearts export openspiel --plain``.

Either file, and OpenSpiel's playthrough of a hand
(:mod:`hearts_analysis.interop.openspiel_playthrough`), is recognised from its content
(:func:`sniff`): ``hearts import FILE`` needs no format name.

The history of one hand, and OpenSpiel's game strings, are :mod:`.openspiel_history`'s.

>>> game_string(rules_from_parameters(parse_game_string("hearts(jd_bonus=true)")))
'hearts(jd_bonus=true)'
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Iterator, Mapping

from ..engine.replay import replay_game
from ..records.errors import Item, RecordError
from ..records.sources import SNIFF_BYTES
from ..records.json import game_from_dict, game_to_dict, hand_to_dict
from ..records.model import GameRecord, HandRecord, is_score_sheet
from ..rules import Rules
from ..violations import Code
from . import openspiel_playthrough
from .openspiel_history import (CARDS, DIRECTION_ACTION, DIRECTIONS, GAME_NAME, PARAMETER_DEFAULTS, PASS_CARDS,  # noqa: F401
                                PLAYER_NAMES, PLAYERS, PRESET, OpenSpielError, card_from_openspiel, game_from_history,
                                game_string, hand_from_history, opening_state, openspiel_card, parameters_for,
                                parse_game_string, rules_from_parameters)


NAME = "openspiel"
TITLE = "OpenSpiel hearts histories (or its playthrough of a hand)"
FILE_EXAMPLE = "histories.txt"


GAME_STRING_HEADER = "# game_string:"
RECORD_HEADER = "# record:"
CARD_KEYS = ("deal", "passes", "plays", "pass_direction")
"""The hand fields a history holds; a ``# record:`` line holds the others."""


def sniff(head: str) -> bool:
    """A ``# game_string: hearts`` line, an OpenSpiel playthrough of hearts, or lines of 0..51 actions that
    open as a history does: a pass direction 0-3, then at least the 52 cards of the deal."""
    first = next((line.strip() for line in head.splitlines() if line.strip()), "")
    if first.startswith(GAME_STRING_HEADER):
        return first[len(GAME_STRING_HEADER):].strip().partition("(")[0].strip() == GAME_NAME
    if openspiel_playthrough.looks_like(head):
        return first[len(openspiel_playthrough.HEADER):].strip().partition("(")[0].strip() == GAME_NAME
    lines = [line for line in head.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if len(head) >= SNIFF_BYTES and len(lines) > 1:
        lines = lines[:-1]  # the last line of a long head may be cut
    if not lines:
        return False
    for line in lines[:3]:
        tokens = line.split()
        if len(tokens) < 1 + CARDS or len(tokens) > 1 + CARDS + PLAYERS * PASS_CARDS + CARDS \
                or not all(t.isdigit() and int(t) < CARDS for t in tokens) or int(tokens[0]) >= len(DIRECTIONS):
            return False
    return True


def read(stream: Iterable[str], name: str) -> Iterator[Item]:
    """The registry's reader: :func:`read_histories` under each file's own game string."""
    return read_histories(stream, name)


def read_histories(stream: Iterable[str], name: str, rules: Rules | None = None) -> Iterator[Item]:
    """Every game of a stream; a bad line or record is an error item, the rest go on.

    ``rules`` (OpenSpiel's ``--game``) replace the file's ``# game_string:`` and the
    rules its records name; without them, a history parses under the file's game string
    (OpenSpiel's defaults where it has none) and a game is judged under its record's rules.
    A history line after a ``# record:`` line is a hand of that game; any other is a game
    of one hand.
    """
    lines = iter(stream)
    opening: list[str] = []
    for line in lines:
        opening.append(line)
        if line.strip():
            break
    if opening and opening[-1].lstrip().startswith(openspiel_playthrough.HEADER):
        yield from openspiel_playthrough.read(itertools.chain(opening, lines), name, rules)
        return
    stem = Path(name).stem or name
    parsing = rules or Rules.preset(PRESET)
    game: _Gathered | None = None
    for number, line in enumerate(itertools.chain(opening, lines), 1):
        text = line.strip()
        if not text:
            continue
        source = f"{name}:{number}"
        if text.startswith("#"):
            if text.startswith((RECORD_HEADER, GAME_STRING_HEADER)) and game is not None:
                yield game.item(rules)
                game = None
            try:
                if text.startswith(GAME_STRING_HEADER):
                    if rules is None:
                        parsing = rules_from_parameters(parse_game_string(text[len(GAME_STRING_HEADER):]))
                elif text.startswith(RECORD_HEADER):
                    game = _Gathered(source, _record_header(text[len(RECORD_HEADER):]), parsing)
            except (OpenSpielError, RecordError) as error:
                failed = error if isinstance(error, RecordError) else RecordError(str(error), "game_string")
                game = _Gathered(source, {}, parsing, failed.at(source))
            continue
        if game is not None:
            game.add(text, number)
            continue
        try:
            yield Item(source, game_from_history(text, parsing, game_id=f"{stem}-{number}"))
        except RecordError as error:
            yield Item(source, error=error.at(source))
    if game is not None:
        yield from game.items(rules, at_end=True)


def _record_header(text: str) -> dict:
    try:
        header = json.loads(text)
    except ValueError as error:
        if "Exceeds the limit" in str(error):   # Python's own bound on reading a number of 4,300 digits or more
            raise RecordError("expected whole numbers within 64 bits, got one of thousands of digits",
                              "record") from None
        raise RecordError(f"the record is not JSON: {error}", "record") from None
    except RecursionError:
        raise RecordError("the record is nested too deeply to read", "record") from None
    if not isinstance(header, dict):
        raise RecordError("the record is not a JSON object", "record")
    return header


class _Gathered:
    """A ``# record:`` line and the history lines that follow it: one game."""

    def __init__(self, source: str, header: dict, rules: Rules, error: RecordError | None = None):
        self.source, self.header, self.rules, self.error = source, header, rules, error
        self.hands: list[HandRecord] = []
        self.last = self.error_line = 0

    def add(self, line: str, number: int) -> None:
        self.last = number
        if self.error is None:
            try:
                self.hands.append(hand_from_history(line, self.rules))
            except RecordError as error:
                self.error = error.at(f"{self.source.rpartition(':')[0]}:{number}")
                self.error_line = number

    def items(self, forced: Rules | None, at_end: bool = False) -> list[Item]:
        """The game; where the file ends inside it (``at_end``: a last history cut, or fewer histories than
        the record's hands), the hands it does hold, the lost ones named: a cut-off hand costs only itself."""
        skipped: list[Item] = []
        extras = self.header.get("hands")
        if at_end and self.hands and self.error is not None and self.error_line == self.last \
                and (not isinstance(extras, list) or len(extras) > len(self.hands)):
            skipped.append(Item(self.error.source or self.source, error=RecordError(
                f"the file ends inside this hand ({self.error.detail}): it is left out, the {len(self.hands)} "
                "before it are kept", self.error.field, self.error.source)))
            self.error = None
        if at_end and self.error is None and self.hands and isinstance(extras, list) \
                and len(extras) > len(self.hands):
            if not skipped:
                skipped.append(Item(self.source, error=RecordError(
                    f"the record has {len(extras)} hands and the file ends after {len(self.hands)} history "
                    f"lines: the {len(self.hands)} are kept", "hands", self.source)))
            self.header = {**self.header, "hands": extras[:len(self.hands)]}
        return [*skipped, self.item(forced)]

    def item(self, forced: Rules | None) -> Item:
        if self.error is not None:
            return Item(self.source, error=self.error)
        header = self.header
        extras = header.get("hands") or [{} for _ in self.hands]
        if not isinstance(extras, list) or len(extras) != len(self.hands):
            count = len(extras) if isinstance(extras, list) else "no list of"
            return Item(self.source, error=RecordError(
                f"the record has {count} hands and {len(self.hands)} history lines follow it",
                "hands").at(self.source))
        hands = [{**(extra if isinstance(extra, dict) else {}), **hand_to_dict(hand)}
                 for extra, hand in zip(extras, self.hands)]
        record = {"rules": self.rules.to_spec(), **header, "hands": hands}
        try:
            return Item(self.source, game_from_dict(record, forced))
        except RecordError as error:
            return Item(self.source, error=error.at(self.source))


# -- record -> histories ------------------------------------------------------------
def history_of_hand(hand: HandRecord, direction: str) -> str:
    """The history line of a hand whose seats and cards OpenSpiel can replay."""
    actions = [DIRECTION_ACTION[direction]]
    size = CARDS // PLAYERS
    actions += [openspiel_card(hand.deal[seat][i]) for i in range(size) for seat in range(PLAYERS)]
    if direction != "hold":
        actions += [openspiel_card(c) for seat in range(PLAYERS) for c in hand.passes[seat]]
    actions += [openspiel_card(card) for _, card in hand.plays]
    return " ".join(map(str, actions))


@dataclass(frozen=True)
class Export:
    """A game as OpenSpiel histories, or why it (or one of its hands) cannot be."""

    histories: tuple[str, ...]
    parameters: dict[str, bool]
    problems: tuple[str, ...]
    """Reasons a hand was left out: the game is not exported when there are any."""
    rescored: tuple[str, ...]
    record: dict | None = None
    """The record without its cards, for the ``# record:`` line."""


def export_game(game: GameRecord, parameters: Mapping[str, bool] | None = None) -> Export:
    """The game's hands as histories under ``parameters`` (default: those of its rules).

    Every hand is replayed under the rules equal to those parameters: OpenSpiel
    can only replay a hand that is legal there, so any violation is a problem.
    """
    if game.seats != PLAYERS:
        return Export((), {}, (f"{game.seats} players; OpenSpiel's hearts is for {PLAYERS}",), ())
    if is_score_sheet(game):
        return Export((), {}, ("a score sheet (points without cards): a history is a hand's cards",), ())
    mapping = parameters_for(game.rules)
    if parameters is None:
        if mapping.unplayable:  # OpenSpiel's own rules cannot follow the game's: say which
            return Export((), mapping.parameters, mapping.unplayable, mapping.rescored)
        parameters = mapping.parameters
    else:
        parameters = {**PARAMETER_DEFAULTS, **parameters}
    target = rules_from_parameters(parameters)
    directions = [h.pass_direction for h in replay_game(game).hands]
    histories, problems = [], []
    for number, (hand, direction) in enumerate(zip(game.hands, directions), 1):
        single = dataclasses.replace(hand, pass_direction=direction, dealer=None, moon=None, points=None,
                                     totals=None, nulls=frozenset())
        check = replay_game(GameRecord(players=game.players, hands=(single,), rules=target))
        complete_so_far = len(hand.plays) <= CARDS
        faults = [v for v in check.violations
                  if not (v.code == Code.HAND_INCOMPLETE and complete_so_far)]
        if faults:
            first = faults[0]
            where = "".join(f" {label} {value}" for label, value in (("trick", first.trick), ("seat", first.seat))
                            if value is not None)
            rule = openspiel_rule(first.code, parameters)
            problems.append(f"hand {number}{where}: {rule}, and this hand is played otherwise ({first.code}: "
                            f"{first.message}); OpenSpiel cannot replay it under {game_string(parameters)}")
            continue
        histories.append(history_of_hand(single, direction))
    rescored = mapping.rescored
    if parameters != mapping.parameters:
        rescored += (f"rules {json.dumps(game.rules.to_spec())} are closest to {game_string(mapping.parameters)}, "
                     f"exported as {game_string(parameters)}",)
    return Export(tuple(histories), dict(parameters), tuple(problems), rescored, record_header(game))


def openspiel_rule(code: str, parameters: Mapping[str, bool]) -> str:
    """OpenSpiel's own rule that a hand breaking ``code`` breaks, in words (its hearts game under these
    parameters): the reason a history cannot hold the hand, rather than the replay's symptom."""
    p = {**PARAMETER_DEFAULTS, **parameters}
    rules = {
        Code.WRONG_FIRST_LEAD: "OpenSpiel always has the holder of 2C lead the first trick"
                            + (" with a club" if p["can_lead_any_club"] else ", with 2C"),
        Code.OUT_OF_TURN: "in OpenSpiel the holder of 2C leads the first trick and each trick's winner the next",
        Code.PASS_INVALID: "OpenSpiel passes 3 cards to the seat its chance action names" if p["pass_cards"]
                        else "OpenSpiel under pass_cards=false has no pass",
        Code.POINTS_ON_FIRST_TRICK: "OpenSpiel (no_pts_on_first_trick=true) keeps hearts and QS off the first trick",
        Code.HEARTS_NOT_BROKEN: "OpenSpiel (must_break_hearts=true) leads a heart only once hearts are broken"
                             + (" by a heart or QS" if p["qs_breaks_hearts"] else " by a heart")
                             + ("" if p["can_lead_hearts_instead_of_qs"]
                                else ", and a leader with only hearts and QS leads QS"),
        Code.REVOKE: "OpenSpiel makes every player follow suit",
        Code.HAND_INCOMPLETE: "an OpenSpiel hand is 52 plays, one at a time",
    }
    return rules.get(code, f"OpenSpiel's hearts under {game_string(p)} forbids it")


def record_header(game: GameRecord) -> dict:
    """The record without what its histories hold: its ``# record:`` line."""
    record = game_to_dict(game)
    record.pop("format", None)
    record.setdefault("rules", game.rules.to_spec())
    hands = [{k: v for k, v in hand_to_dict(hand).items() if k not in CARD_KEYS} for hand in game.hands]
    if any(hands):
        record["hands"] = hands
    else:
        del record["hands"]
    return record


def write_histories(exports: Iterable[Export], parameters: Mapping[str, bool] | None, out: IO[str],
                    plain: bool = False) -> int:
    """The histories of every game, each game under its own ``# game_string:`` line (its export's
    parameters: an Omnibus game keeps ``jd_bonus`` beside a standard one) and its ``# record:`` line;
    none with ``plain``: the bare histories OpenSpiel tools read, all under ``parameters``. Returns the
    hands written."""
    count = 0
    for export in exports:
        if not plain:
            out.write(f"{GAME_STRING_HEADER} {game_string(export.parameters or parameters or {})}\n")
            out.write(f"{RECORD_HEADER} {json.dumps(export.record, ensure_ascii=False)}\n")
        for line in export.histories:
            out.write(line + "\n")
            count += 1
    return count


__all__ = ["NAME", "TITLE", "DIRECTIONS", "Export", "OpenSpielError", "PARAMETER_DEFAULTS", "PLAYER_NAMES",
           "card_from_openspiel", "export_game", "game_from_history", "game_string", "openspiel_rule",
           "hand_from_history", "history_of_hand", "opening_state", "openspiel_card", "parameters_for",
           "parse_game_string", "read", "read_histories", "record_header", "rules_from_parameters", "sniff",
           "write_histories"]
