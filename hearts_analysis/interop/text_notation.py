"""A plain-text notation for games recorded by hand, to and from ``hearts-game/1``.

Clubs keep score on paper; this is what a person types from that sheet (the
full description, with an example, is ``docs/notation.md``)::

    game club-7-g3                      # a new game, with its id
    played: 2026-11-29T20:14:00Z
    rules: standard jack_of_diamonds=-10
    player A: alice
    player B: bob
    player C: carol
    player D: dave

    hand 1  dealer A  passing left
    deal:    2C 7C ... / 3C 9D ... / ... / ...
    pass:    AS KS QS / 2H 3H 4H / ... / ...
    trick 1: B:2C C:9C D:QC A:4C
    ...
    points:  0 13 8 5
    totals:  0 13 8 5

Seats are the letters ``A``-``G`` in the order of the ``player`` lines (seat 0
is ``A``); ``/`` separates seats on a deal or pass line, ``-`` is a seat with no
recorded pass. ``#`` and ``;`` start comments. A value that plain words cannot
carry (an odd name, a rule spec of another shape) is written as JSON, and
every other field of the record goes on a ``%json {...}`` line, so that a game
comes back exactly (``game_to_dict`` equal) from its text.

Nothing is guessed: a typing error is reported with its line, column and what
was expected there, and a card written ``?`` is an error, not a card. A hand
whose trick lines stop early is read as it stands; the audit calls it incomplete.

>>> import io
>>> from hearts_analysis.records import game_to_dict
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["alice", "bob", "carol", "dave"], seed=1)
>>> text = game_text(game_to_dict(game))
>>> text.splitlines()[1:3]
['rules: standard target=30', 'player A: alice']
>>> [line for line in text.splitlines() if line.startswith("trick  2")][0]
'trick  2: B:2S C:3S D:JS A:KH'
>>> back = next(read(io.StringIO(text), "club-night.txt"))
>>> game_to_dict(back.game) == game_to_dict(game)
True
>>> typo = next(read(io.StringIO(text.replace("B:2S", "B:2X", 1)), "club-night.txt"))
>>> typo.source, str(typo.error)
('club-night.txt:13:13', 'trick 2: expected a card such as QS, TH or 10H (rank 2-9 T J Q K A, suit C D H S), got "2X"')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, TextIO

import orjson

from ..cards import CardError, card_name, parse_card
from ..records.errors import Item, RecordError
from ..records.json import game_from_dict, game_to_dict
from ..records.numbers import whole_number
from ..text import json_inert, shown, terminal_safe
from .rebuild import cut_tolerant

NAME = "text"
TITLE = "hand-entry text notation"
SCORE_SHEETS = True
"""The notation holds a score sheet (points lines without deals): exported as it is."""
FILE_EXAMPLE = "club-night.txt"

LABELS = "ABCDEFG"
"""Seat letters: seat 0 is A."""
_GAME_FIELDS = ("game_id", "played_at", "rules", "complete", "winners")
_HAND_FIELDS = ("dealer", "pass_direction", "passes", "moon", "points", "totals")
_NO_PASS = "-"

__all__ = ["FILE_EXAMPLE", "LABELS", "NAME", "TITLE", "TextError", "game_text", "read", "sniff", "write"]


def sniff(head: str) -> bool:
    """The first line that is not blank or a comment opens a game, and a deal line (or, on a score sheet, a
    points line) follows."""
    for line in head.splitlines():
        text = _strip_comment(line).strip()
        if text:
            return re.match(r"game(\s|$)", text) is not None and \
                re.search(r"^\s*(deal|points)\s*:", head, re.M) is not None
    return False


class TextError(Exception):
    """A typing error: where (line, column), in what (the field), what was expected."""

    def __init__(self, line: int, column: int, field: str, message: str):
        super().__init__(message)
        self.line, self.column, self.field, self.message = line, column, field, message


# -- lines and tokens ---------------------------------------------------------------------------
def _strip_comment(line: str) -> str:
    """The line without its comment; ``#`` or ``;`` inside a JSON string is not a comment."""
    if "#" not in line and ";" not in line:
        return line
    in_string = escaped = False
    for index, char in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "#;":
            return line[:index]
    return line


@dataclass
class _Line:
    number: int
    text: str
    """Without the comment."""

    def fail(self, column: int, field: str, message: str) -> TextError:
        return TextError(self.number, column, field, message)

    def tokens(self, start: int = 0) -> list[tuple[int, str]]:
        """Words from ``start`` with their 1-based columns."""
        return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", self.text) if m.start() >= start]


def _value(line: _Line, start: int, field: str) -> Any:
    """A header value: JSON where it starts as JSON (``"`` ``{`` ``[``), else the plain words."""
    text = line.text[start:].strip()
    if text[:1] in '"{[':
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError as error:
            raise line.fail(start + 1 + (len(line.text[start:]) - len(line.text[start:].lstrip())), field,
                            f"expected a JSON value: {error.msg}") from None
    return text


def _card(line: _Line, column: int, token: str, field: str) -> int:
    if token == "?":
        raise line.fail(column, field, "a card written '?' is missing; the notation does not guess cards: "
                        "write the card, or end the hand before it")
    try:
        return parse_card(token)
    except CardError:
        raise line.fail(column, field, f"expected a card such as QS, TH or 10H (rank 2-9 T J Q K A, suit "
                        f"C D H S), got {shown(token)}") from None


def _seat_lists(line: _Line, start: int, seats: int, field: str, absent_allowed: bool) -> list:
    """``cards / cards / ...``: one list per seat, ``-`` for a seat with nothing recorded."""
    groups: list[list[tuple[int, str]]] = [[]]
    for column, token in line.tokens(start):
        parts = re.split(r"(/)", token)
        offset = 0
        for part in parts:
            if part == "/":
                groups.append([])
            elif part:
                groups[-1].append((column + offset, part))
            offset += len(part)
    if len(groups) != seats:
        raise line.fail(len(line.text.rstrip()) + 1, field, f"expected {seats} seats separated by '/', got "
                        f"{len(groups)}")
    out = []
    for group in groups:
        if absent_allowed and [t for _, t in group] == [_NO_PASS]:
            out.append(None)
        else:
            out.append([_card(line, column, token, field) for column, token in group])
    return out


def _label(line: _Line, column: int, token: str, seats: int, field: str) -> int:
    index = LABELS.find(token.upper()) if len(token) == 1 else -1
    if not 0 <= index < seats:
        raise line.fail(column, field, f"expected a seat letter {LABELS[0]}-{LABELS[seats - 1]}, got {shown(token)}")
    return index


def _numbers(line: _Line, start: int, seats: int, field: str) -> list[int]:
    tokens = line.tokens(start)
    for column, token in tokens:
        if not re.fullmatch(r"[+-]?\d+", token):
            raise line.fail(column, field, f"expected a whole number of points, got {shown(token)}")
    if len(tokens) != seats:
        raise line.fail(tokens[-1][0] if tokens else start + 1, field,
                        f"expected one number per seat ({seats}), got {len(tokens)}")
    return [_whole(line, column, token, field) for column, token in tokens]


def _whole(line: _Line, column: int, token: str, field: str) -> int:
    """A number of the text, within 64 bits (what a record holds)."""
    try:
        return whole_number(token, None)
    except RecordError as error:
        raise line.fail(column, field, error.detail) from None


# -- reading ------------------------------------------------------------------------------------
@dataclass
class _Game:
    line: int
    record: dict = field(default_factory=lambda: {"format": "hearts-game/1"})
    players: dict[int, Any] = field(default_factory=dict)
    hands: list[dict] = field(default_factory=list)


_TAG = re.compile(r"^\s*([A-Za-z_%]+)(?:\s+([A-Za-z]))?\s*(:?)")


def _json_object(line: _Line, start: int, field: str) -> dict:
    value = _value(line, start, field)
    if not isinstance(value, dict):
        raise line.fail(start + 1, field, "expected a JSON object of more fields, e.g. %json {\"table\": 7}")
    return value


def _game_line(line: _Line, game: _Game) -> None:
    match = _TAG.match(line.text)
    word = match.group(1).lower() if match else ""
    end = match.end() if match else 0
    if word == "%json":
        game.record.update(_json_object(line, end, "%json"))
    elif word == "player" and match.group(2) and match.group(3):
        seat = LABELS.find(match.group(2).upper())
        if len(game.players) == len(LABELS):
            raise line.fail(match.start(2) + 1, "player", f"at most {len(LABELS)} players (A-{LABELS[-1]}) "
                            "sit at a table")
        if seat != len(game.players):
            raise line.fail(match.start(2) + 1, "player", f"expected player {LABELS[len(game.players)]} next "
                            "(players are listed A, B, C, ... in seat order)")
        name = _value(line, end, "player")
        if isinstance(name, str) and not name:
            raise line.fail(end + 1, "player", "expected the player's name")
        game.players[seat] = name
    elif word in ("played", "rules", "complete", "winner") and match.group(3) and not match.group(2):
        value = _value(line, end, word)
        if word == "winner":
            if not isinstance(value, str) or not value:
                raise line.fail(end + 1, "winner", "expected the winning player's name")
            game.record.setdefault("winners", []).append(value)
        elif word == "played":
            game.record["played_at"] = value
        elif word == "complete":
            if value not in ("yes", "no", True, False):
                raise line.fail(end + 1, "complete", f"expected yes or no, got {shown(value)}")
            game.record["complete"] = value in ("yes", True)
        else:
            written_as_json = line.text[end:].strip()[:1] in '"{['
            game.record["rules"] = value if written_as_json else _rules_words(line, end)
    else:
        raise line.fail(1, "game", "expected a game line: 'player A: name', 'played: ...', 'rules: ...', "
                        "'complete: yes', 'winner: name', '%json {...}', or 'hand 1' to start the first hand")


def _rules_words(line: _Line, start: int) -> dict:
    """``standard jack_of_diamonds=-10 pass_cycle=left,right``: a preset, then field=value (JSON or words)."""
    tokens = line.tokens(start)
    if not tokens:
        raise line.fail(start + 1, "rules", "expected a preset name, e.g. 'rules: standard'")
    column, preset = tokens[0]
    if "=" in preset:
        raise line.fail(column, "rules", "expected the preset name first, e.g. 'rules: standard jack_of_diamonds=-10'")
    spec: dict[str, Any] = {"preset": preset}
    for column, token in tokens[1:]:
        key, eq, text = token.partition("=")
        if not eq or not key:
            raise line.fail(column, "rules", f"expected field=value, got {shown(token)}")
        try:
            spec[key] = orjson.loads(text)
        except orjson.JSONDecodeError:
            spec[key] = text
    return spec


_HAND = re.compile(r"^\s*hand\s+(\d+)\b(.*)$", re.IGNORECASE)


def _hand_header(line: _Line, number: int, seats: int) -> dict:
    match = _HAND.match(line.text)
    if _whole(line, match.start(1) + 1, match.group(1), "hand") != number:
        raise line.fail(match.start(1) + 1, "hand", f"expected hand {number} (hands are numbered in order)")
    hand: dict[str, Any] = {}
    tokens = line.tokens(match.start(2))
    index = 0
    while index < len(tokens):
        column, word = tokens[index]
        if index + 1 >= len(tokens) or word.lower() not in ("dealer", "passing"):
            raise line.fail(column, "hand", f"expected 'dealer A' or 'passing left', got {shown(word)}")
        value_column, value = tokens[index + 1]
        if word.lower() == "dealer":
            hand["dealer"] = _label(line, value_column, value, seats, "dealer")
        else:
            hand["pass_direction"] = value
        index += 2
    return hand


def _hand_line(line: _Line, hand: dict, plays: list, seats: int) -> None:
    match = _TAG.match(line.text)
    word = match.group(1).lower() if match else ""
    end = match.end() if match else 0
    field_name = word
    if word == "trick":
        trick = re.match(r"^\s*trick\s+(\d+)\s*:", line.text, re.IGNORECASE)
        if trick is None:
            raise line.fail(1, "trick", "expected 'trick N:' then the plays, e.g. 'trick 1: A:2C B:5C C:KC D:9C'")
        number = _whole(line, trick.start(1) + 1, trick.group(1), "trick")
        field_name = f"trick {number}"
        if number != len(plays) + 1:
            raise line.fail(trick.start(1) + 1, field_name, f"expected trick {len(plays) + 1} (tricks are numbered "
                            "in order)")
        if "_short" in hand:
            where, column = hand["_short"]
            raise TextError(where, column, f"trick {number - 1}", f"expected {seats} plays (trick {number - 1} "
                            f"has {len(plays[-1])}); only the last trick line of a hand may have fewer")
        cards = []
        for column, token in line.tokens(trick.end()):
            seat, colon, card = token.partition(":")
            if not colon:
                raise line.fail(column, field_name, f"expected seat:card such as A:QS, got {shown(token)}")
            cards.append([_label(line, column, seat, seats, field_name),
                          card_name(_card(line, column + len(seat) + 1, card, field_name))])
        if not cards or len(cards) > seats:
            raise line.fail(trick.end() + 1, field_name, f"expected 1 to {seats} plays, got {len(cards)}")
        plays.append(cards)
        if len(cards) < seats:
            hand["_short"] = (line.number, len(line.text.rstrip()) + 1)
        return
    if word == "%json":
        hand.update(_json_object(line, end, "%json"))
        return
    if not match or not match.group(3) or match.group(2):
        raise line.fail(1, "hand", "expected a hand line: 'deal:', 'pass:', 'trick N:', 'moon:', 'points:', "
                        "'totals:', '%json {...}', or the next 'hand'")
    if word == "deal":
        hand["deal"] = [None if cards is None else [card_name(c) for c in cards]   # '-': a seat a view cannot see
                        for cards in _seat_lists(line, end, seats, "deal", True)]
    elif word == "pass":
        hand["passes"] = [None if cards is None else [card_name(c) for c in cards]
                          for cards in _seat_lists(line, end, seats, "pass", True)]
    elif word == "moon":
        hand["moon"] = _value(line, end, "moon")
    elif word in ("points", "totals"):
        hand[word] = _numbers(line, end, seats, word)
    else:
        raise line.fail(1, "hand", f"unknown line {shown(word)}: expected 'deal:', 'pass:', 'trick N:', 'moon:', "
                        "'points:', 'totals:' or '%json {...}'")


def _finish(game: _Game, name: str) -> Item:
    record = game.record
    record["players"] = [game.players[s] for s in range(len(game.players))]
    record["hands"] = game.hands
    source = f"{name}:{game.line}"
    try:
        return Item(source, game_from_dict(record))
    except RecordError as error:
        return Item(source, error=error.at(source))


@cut_tolerant
def read(stream: TextIO, name: str) -> Iterator[Item]:
    """Every game of a text; a game with a typing error is an error item (``file:line:column``), the others go on."""
    game: _Game | None = None
    hand: dict | None = None
    plays: list[list] = []
    failed = False
    for number, raw in enumerate(stream, 1):
        line = _Line(number, _strip_comment(raw.rstrip("\r\n")))
        if not line.text.strip():
            continue
        opening = re.match(r"^\s*game(\s+(.*))?$", line.text)
        if opening:
            if game is not None and not failed:
                _close_hand(game, hand, plays)
                yield _finish(game, name)
            game, hand, plays, failed = _Game(number), None, [], False
            if opening.group(2) and opening.group(2).strip():
                game.record["game_id"] = _value(line, opening.start(2), "game")
            continue
        if game is None:
            game, failed = _Game(number), True
            yield _error(name, line.fail(1, "game", "expected 'game' (optionally with the game's id) to open a game"))
            continue
        if failed:
            continue
        try:
            if _HAND.match(line.text):
                if not game.players:
                    raise line.fail(1, "hand", "expected the players ('player A: name', ...) before the first hand")
                _close_hand(game, hand, plays)
                hand, plays = _hand_header(line, len(game.hands) + 1, len(game.players)), []
                hand["_line"] = number
            elif hand is None:
                _game_line(line, game)
            else:
                _hand_line(line, hand, plays, len(game.players))
        except TextError as error:
            failed = True
            yield _error(name, error)
    if game is not None and not failed:
        try:
            _close_hand(game, hand, plays)
        except TextError as error:
            yield _error(name, error)
            return
        yield _finish(game, name)


def _close_hand(game: _Game, hand: dict | None, plays: list[list]) -> None:
    if hand is None:
        return
    line = hand.pop("_line")
    hand.pop("_short", None)
    if "deal" not in hand and (plays or "passes" in hand or "points" not in hand):
        raise TextError(line, 1, f"hand {len(game.hands) + 1}", "expected a 'deal:' line in this hand (a "
                        "score sheet's hand has a 'points:' line and no deal, pass or trick lines)")
    if "deal" in hand:
        hand["plays"] = [play for trick in plays for play in trick]
    game.hands.append(hand)


def _error(name: str, error: TextError) -> Item:
    source = f"{name}:{error.line}:{error.column}"
    return Item(source, error=RecordError(error.message, error.field, source=source))


# -- writing ------------------------------------------------------------------------------------
def _json(value: Any) -> str:
    """JSON with no control, bidirectional or invisible character raw (a NUL byte would make the file binary)."""
    return json_inert(orjson.dumps(value).decode())


def _plain(value: Any) -> str:
    """A value as plain words where they read back the same, else as JSON (also a value holding a control,
    bidirectional or invisible character: the JSON escapes it)."""
    if isinstance(value, str) and value and value == value.strip() and value[0] not in '"{[' \
            and not re.search(r"[#;\n\r]", value) and terminal_safe(value) == value:
        return value
    return _json(value)


def _word(value: Any) -> str:
    """A rule value as it reads back after ``=``: JSON unless a bare word that JSON would not take."""
    if isinstance(value, str) and value and not re.search(r"[\s#;=]", value) and terminal_safe(value) == value:
        try:
            orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return _json(value)


def _rules_line(spec: Any) -> str:
    if isinstance(spec, dict) and spec and next(iter(spec)) == "preset" and isinstance(spec["preset"], str) \
            and re.fullmatch(r"[^\s#;=\"{\[]+", spec["preset"]) and terminal_safe(spec["preset"]) == spec["preset"] \
            and all(re.fullmatch(r"\w+", k) for k in spec):
        return " ".join([spec["preset"], *(f"{k}={_word(v)}" for k, v in spec.items() if k != "preset")])
    return _json(spec)


def _cards(cards: list[str] | None) -> str:
    return _NO_PASS if cards is None else " ".join(cards)


def game_text(game_dict: dict) -> str:
    """One game (a ``hearts-game/1`` object as :func:`game_to_dict` gives it) as notation."""
    players = game_dict["players"]
    out = ["game" + (f" {_plain(game_dict['game_id'])}" if game_dict.get("game_id") is not None else "")]
    nulls = {k: None for k in _GAME_FIELDS if k in game_dict and game_dict[k] is None}
    if game_dict.get("played_at") is not None:
        out.append(f"played: {_plain(game_dict['played_at'])}")
    if game_dict.get("rules") is not None:
        out.append(f"rules: {_rules_line(game_dict['rules'])}")
    out += [f"player {LABELS[seat]}: {_plain(name)}" for seat, name in enumerate(players)]
    if game_dict.get("complete") is not None:
        out.append(f"complete: {'yes' if game_dict['complete'] else 'no'}")
    out += [f"winner: {_plain(name)}" for name in game_dict.get("winners") or ()]
    extra = {k: v for k, v in game_dict.items() if k not in ("format", "players", "hands") + _GAME_FIELDS}
    if extra or nulls:
        out.append(f"%json {_json({**nulls, **extra})}")
    for number, hand in enumerate(game_dict["hands"], 1):
        out.append("")
        words = [f"hand {number}"]
        if hand.get("dealer") is not None:
            words.append(f"dealer {LABELS[hand['dealer']]}")
        if hand.get("pass_direction") is not None:
            words.append(f"passing {hand['pass_direction']}")
        out.append("  ".join(words))
        if "deal" in hand:
            out.append("deal:    " + " / ".join(_cards(cards) for cards in hand["deal"]))
        if hand.get("passes") is not None:
            out.append("pass:    " + " / ".join(_cards(cards) for cards in hand["passes"]))
        plays = hand.get("plays", ())
        n = len(players)
        for start in range(0, len(plays), n):
            trick = " ".join(f"{LABELS[seat]}:{card}" for seat, card in plays[start:start + n])
            out.append(f"trick {start // n + 1:2d}: {trick}")
        if hand.get("moon") is not None:
            out.append(f"moon:    {hand['moon']}")
        for key in ("points", "totals"):
            if hand.get(key) is not None:
                out.append(f"{key}:{' ' * (8 - len(key))}" + " ".join(map(str, hand[key])))
        hand_nulls = {k: None for k in _HAND_FIELDS if k in hand and hand[k] is None}
        hand_extra = {k: v for k, v in hand.items() if k not in ("deal", "plays") + _HAND_FIELDS}
        if hand_extra or hand_nulls:
            out.append(f"%json {_json({**hand_nulls, **hand_extra})}")
    return "\n".join(out) + "\n"


def write(games: Iterable, out: TextIO) -> int:
    """The games as notation, a blank line between them; returns the count."""
    count = 0
    for game in games:
        if count:
            out.write("\n")
        out.write(game_text(game_to_dict(game)))
        count += 1
    return count
