"""``hearts-game/1`` JSON: one game per ``.json`` file, one per line in ``.jsonl``.

Parsing is strict about structure (every error names the field, e.g.
``hands[2].plays[17]``) and lenient about content: a duplicate card or an
illegal play is the replay engine's business, not the reader's.
"""

from __future__ import annotations

import gc
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator

import orjson

from ..atomic import atomic_open
from ..cards import CARD_CODES, Card, CardError, card_name, parse_card
from ..rules import MOON_CHOICES, PASS_DIRECTIONS, RULE_FIELDS, RuleError, Rules
from ..text import shown
from .model import FORMAT, GameRecord, HandRecord

_GAME_KEYS = ("format", "game_id", "played_at", "rules", "players", "hands", "complete")
_HAND_KEYS = ("dealer", "pass_direction", "deal", "passes", "plays", "moon", "points", "totals")


class RecordError(ValueError):
    """A record that cannot be read: bad JSON, a schema error or an unknown card."""

    def __init__(self, message: str, field: str | None = None, source: str | None = None):
        self.field = field
        self.source = source
        self.detail = message
        super().__init__(self.text())

    def text(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{where}{self.detail}"

    def at(self, source: str) -> "RecordError":
        self.source = source
        return self


# -- dict -> record ---------------------------------------------------------
def _fail(field: str, message: str) -> RecordError:
    return RecordError(message, field)


_TOO_BIG = "expected a whole number within 64 bits, got a larger one"


def _int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, float) and value.is_integer() and abs(value) >= 2 ** 63:
        raise _fail(field, _TOO_BIG)  # orjson reads such a number as a float: _item shows it as written
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(field, f"expected a whole number, got {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(field, f"{value} is out of range {low}..{high}")
    return value


def _list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise _fail(field, f"expected a list, got {shown(value)}")
    return value


def _card(value: Any, field: str) -> Card:
    try:
        return parse_card(value)
    except CardError as error:
        raise _fail(field, str(error)) from None


def _cards(value: Any, field: str) -> tuple[Card, ...]:
    return tuple(_card(v, f"{field}[{i}]") for i, v in enumerate(_list(value, field)))


def _ints(value: Any, field: str, n: int) -> tuple[int, ...]:
    if type(value) is list and len(value) == n and all(type(v) is int for v in value):
        return tuple(value)
    items = _list(value, field)
    if len(items) != n:
        raise _fail(field, f"expected one number per seat ({n}), got {len(items)}")
    return tuple(_int(v, f"{field}[{i}]") for i, v in enumerate(items))


MAX_NESTING = 128
"""Levels of lists and objects an unknown field may nest: deeper values cannot be written back out (JSON
writers stop at a few hundred levels), so such a record is refused when read, not lost when converted."""


def _shallow(extra: dict[str, Any], field: str) -> dict[str, Any]:
    """``extra`` (the unknown fields of a game or a hand), checked to nest at most :data:`MAX_NESTING` levels."""
    for key, value in extra.items():
        level = [value]
        for depth in range(MAX_NESTING + 1):
            level = [v for item in level if isinstance(item, (list, dict))
                     for v in (item.values() if isinstance(item, dict) else item)]
            if not level:
                break
        else:
            where = f"{field}.{key}" if field else key
            raise _fail(where, f"nested more than {MAX_NESTING} levels deep")
    return extra


def _rule_error(error: RuleError) -> RecordError:
    """``rules.<field>`` when the rule error names a rule field (its messages start ``field: ``)."""
    key, sep, detail = str(error).partition(": ")
    if sep and (key in RULE_FIELDS or key == "preset"):
        return _fail(f"rules.{key}", detail)
    return _fail("rules", detail if sep and key == "rules" else str(error))


_CARD_CODES = CARD_CODES.__getitem__


def _fast_cards(value: Any) -> tuple[Card, ...] | None:
    """Canonical-ish cards in a list, read at speed; ``None`` sends the value to the careful reader."""
    if type(value) is not list:
        return None
    try:
        return tuple(map(_CARD_CODES, value))
    except (KeyError, TypeError):
        return None


def _fast_plays(value: Any, n: int) -> tuple[tuple[int, Card], ...] | None:
    if type(value) is not list:
        return None
    by_type = _PLAYS.get(n) or _plays_table(n)
    try:
        return tuple([by_type[type(seat)][seat][card] for seat, card in value])
    except (KeyError, TypeError, ValueError):
        return None


_PLAYS: dict[int, dict[type, dict[int, dict[str, tuple[int, Card]]]]] = {}


def _plays_table(n: int) -> dict[type, dict[int, dict[str, tuple[int, Card]]]]:
    """``table[type(seat)][seat][card]``: the ``(seat, card)`` of every spelling of a play at ``n`` seats.

    Keyed by type first, so that ``true`` or ``1.0`` (equal to 1 as dict keys) are not taken for a seat.
    Every hand shares these tuples: no new ones per play.
    """
    pairs = {(seat, card): (seat, card) for seat in range(n) for card in range(52)}
    _PLAYS[n] = {int: {seat: {text: pairs[seat, card] for text, card in CARD_CODES.items()} for seat in range(n)}}
    return _PLAYS[n]


def _careful_plays(value: Any, n: int, field: str) -> tuple[tuple[int, Card], ...]:
    """Read plays one by one, naming the first bad entry."""
    plays = []
    for i, play in enumerate(_list(value, f"{field}.plays")):
        if not isinstance(play, list) or len(play) != 2:
            raise _fail(f"{field}.plays[{i}]", f"expected [seat, card], got {shown(play)}")
        seat, card = play
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise _fail(f"{field}.plays[{i}][0]", f"expected a seat 0..{n - 1}, got {shown(seat)}")
        try:
            plays.append((seat, parse_card(card)))
        except CardError as error:
            raise _fail(f"{field}.plays[{i}][1]", str(error)) from None

    return tuple(plays)


_HAND_FIELDS = frozenset(_HAND_KEYS)
_GAME_FIELDS = frozenset(_GAME_KEYS)
_INT = frozenset((int,))
_NO_NULLS: frozenset[str] = frozenset()


def _seat_ints(value: Any, n: int) -> tuple[int, ...] | None:
    """One whole number per seat (points, totals), read at speed; ``None`` for anything else."""
    if type(value) is list and len(value) == n and _INT.issuperset(map(type, value)):
        return tuple(value)
    return None


def _quick_hand(obj: Any, n: int) -> HandRecord | None:
    """A hand of the usual shape, read at speed; ``None`` sends it to :func:`_hand_from_dict`.

    Only hands the careful reader would accept, as the same record, pass:
    known fields, no explicit nulls, canonical-ish cards, well-formed numbers.
    """
    if type(obj) is not dict or not _HAND_FIELDS.issuperset(obj) or None in obj.values():
        return None
    get = obj.get
    deal, passes = get("deal"), get("passes")
    if type(deal) is not list or (passes is not None and type(passes) is not list):
        return None
    try:  # a list of cards per seat; anything else (a string or an object is iterable too) is left out
        deal = tuple([tuple(map(_CARD_CODES, cards)) for cards in deal if type(cards) is list])
        if passes is not None:
            passes = tuple([tuple(map(_CARD_CODES, cards)) for cards in passes if type(cards) is list])
            if len(passes) != n or len(obj["passes"]) != n:
                return None
    except (KeyError, TypeError):
        return None
    if len(deal) != n or len(obj["deal"]) != n:
        return None
    plays = _fast_plays(get("plays"), n)
    if plays is None:
        return None
    dealer = get("dealer")
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < n):
        return None
    direction = get("pass_direction")
    moon = get("moon")
    if (direction is not None and direction not in PASS_DIRECTIONS) or (moon is not None and moon not in MOON_CHOICES):
        return None
    points = get("points")
    if points is not None and (points := _seat_ints(points, n)) is None:
        return None
    totals = get("totals")
    if totals is not None and (totals := _seat_ints(totals, n)) is None:
        return None
    return HandRecord.checked(deal, plays, passes, dealer, direction, moon, points, totals, {}, _NO_NULLS)


def _hand_from_dict(obj: Any, n: int, field: str) -> HandRecord:
    if not isinstance(obj, dict):
        raise _fail(field, f"expected a hand object, got {shown(obj)}")
    nulls = frozenset(k for k in _HAND_KEYS if k in obj and obj[k] is None)
    deal = _list(obj.get("deal"), f"{field}.deal") if "deal" in obj else None
    if deal is None:
        raise _fail(f"{field}.deal", "missing: the cards dealt to each seat")
    if len(deal) != n:
        raise _fail(f"{field}.deal", f"expected one list of cards per seat ({n}), got {len(deal)}")
    deal_cards = tuple(_fast_cards(d) or _cards(d, f"{field}.deal[{s}]") for s, d in enumerate(deal))

    passes = None
    if obj.get("passes") is not None:
        raw = _list(obj["passes"], f"{field}.passes")
        if len(raw) != n:
            raise _fail(f"{field}.passes", f"expected one entry per seat ({n}), got {len(raw)}")
        passes = tuple(None if p is None else _fast_cards(p) or _cards(p, f"{field}.passes[{s}]")
                       for s, p in enumerate(raw))

    if "plays" not in obj:
        raise _fail(f"{field}.plays", "missing: every card played, as [seat, card]")
    plays = _fast_plays(obj["plays"], n)
    if plays is None:
        plays = _careful_plays(obj["plays"], n, field)
    dealer = obj.get("dealer")
    if dealer is not None:
        dealer = _int(dealer, f"{field}.dealer", 0, n - 1)
    direction = obj.get("pass_direction")
    if direction is not None and direction not in PASS_DIRECTIONS:
        raise _fail(f"{field}.pass_direction",
                    f"unknown direction {shown(direction)} (allowed: {', '.join(PASS_DIRECTIONS)})")
    moon = obj.get("moon")
    if moon is not None and moon not in MOON_CHOICES:
        raise _fail(f"{field}.moon", f"unknown moon choice {shown(moon)} (allowed: {', '.join(MOON_CHOICES)})")
    points = _ints(obj["points"], f"{field}.points", n) if obj.get("points") is not None else None
    totals = _ints(obj["totals"], f"{field}.totals", n) if obj.get("totals") is not None else None
    extra = _shallow({k: v for k, v in obj.items() if k not in _HAND_KEYS}, field)
    return HandRecord(deal=deal_cards, plays=plays, passes=passes, dealer=dealer,
                      pass_direction=direction, moon=moon, points=points, totals=totals,
                      extra=extra, nulls=nulls)


def game_from_dict(obj: Any, rules: Rules | None = None) -> GameRecord:
    """Read one game object; ``rules`` (if given) replaces the record's own rule set."""
    if not isinstance(obj, dict):
        raise _fail("", f"expected a game object, got {shown(obj)}")
    fmt = obj.get("format", FORMAT)
    if fmt != FORMAT:
        raise _fail("format", f"expected {shown(FORMAT)}, got {shown(fmt)}")
    players = _list(obj.get("players"), "players") if "players" in obj else None
    if players is None:
        raise _fail("players", "missing: the player at each seat")
    if not 3 <= len(players) <= 7:
        raise _fail("players", f"{len(players)} players; Hearts is played by 3 to 7")
    for i, p in enumerate(players):
        if not isinstance(p, str) or not p:
            raise _fail(f"players[{i}]", f"expected a non-empty name, got {shown(p)}")
    n = len(players)
    rules_spec = obj.get("rules")
    try:
        parsed_rules = _rules_of(rules_spec)
        _check_playable(rules or parsed_rules, n)
    except RuleError as error:
        raise _rule_error(error) from None
    hands = tuple(_quick_hand(h, n) or _hand_from_dict(h, n, f"hands[{k}]")
                  for k, h in enumerate(_list(obj.get("hands", []), "hands")))
    complete = obj.get("complete")
    if complete is not None and not isinstance(complete, bool):
        raise _fail("complete", f"expected true or false, got {shown(complete)}")
    for key in ("game_id", "played_at"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise _fail(key, f"expected a string, got {shown(obj[key])}")
    if _GAME_FIELDS.issuperset(obj) and None not in obj.values():
        extra, nulls = {}, _NO_NULLS
    else:
        extra = _shallow({k: v for k, v in obj.items() if k not in _GAME_KEYS}, "")
        nulls = frozenset(k for k in _GAME_KEYS if k in obj and obj[k] is None)
    return GameRecord(players=tuple(players), hands=hands, rules=rules or parsed_rules,
                      rules_spec=rules_spec, game_id=obj.get("game_id"),
                      played_at=obj.get("played_at"), complete=complete, extra=extra, nulls=nulls)


_SPECS: dict[bytes, Rules] = {}
_PLAIN_JSON = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
_PLAYABLE: set[tuple[Rules, int]] = set()


def _rules_of(spec: Any) -> Rules:
    """``Rules.from_spec``, remembered by the spec's JSON text: a corpus repeats a few rule sets.

    Only plain JSON values make a key (anything else, e.g. a subclass of str, is read every time).
    """
    try:
        key = orjson.dumps(spec, option=_PLAIN_JSON)
    except TypeError:
        return Rules.from_spec(spec)
    rules = _SPECS.get(key)
    if rules is None:
        rules = Rules.from_spec(spec)
        if len(_SPECS) >= 256:
            _SPECS.clear()
        _SPECS[key] = rules
    return rules


def _check_playable(rules: Rules, n: int) -> None:
    """Raise the :class:`RuleError` of ``rules.table(n)``, if any (remembered when there is none)."""
    if (rules, n) not in _PLAYABLE:
        rules.table(n)
        if len(_PLAYABLE) >= 256:
            _PLAYABLE.clear()
        _PLAYABLE.add((rules, n))


# -- record -> dict ---------------------------------------------------------
def _names(cards: Iterable[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def hand_to_dict(hand: HandRecord) -> dict[str, Any]:
    out: dict[str, Any] = {}
    values = {
        "dealer": hand.dealer, "pass_direction": hand.pass_direction,
        "deal": [_names(d) for d in hand.deal],
        "passes": None if hand.passes is None else [None if p is None else _names(p) for p in hand.passes],
        "plays": [[seat, card_name(card)] for seat, card in hand.plays],
        "moon": hand.moon,
        "points": None if hand.points is None else list(hand.points),
        "totals": None if hand.totals is None else list(hand.totals),
    }
    for key in _HAND_KEYS:
        if values[key] is not None or key in hand.nulls:
            out[key] = values[key]
    out.update(hand.extra)
    return out


def game_to_dict(game: GameRecord) -> dict[str, Any]:
    """The record as a ``hearts-game/1`` object with canonical card names."""
    out: dict[str, Any] = {"format": FORMAT}
    rules = game.rules_spec
    if rules is None and "rules" not in game.nulls and game.rules != Rules():
        rules = game.rules.to_spec()  # a record built in code: keep its rule set
    values = {"game_id": game.game_id, "played_at": game.played_at, "rules": rules,
              "players": list(game.players), "hands": [hand_to_dict(h) for h in game.hands],
              "complete": game.complete}
    for key in _GAME_KEYS[1:]:
        if values[key] is not None or key in game.nulls or key in ("players", "hands"):
            out[key] = values[key]
    out.update(game.extra)
    return out


def dumps_game(game: GameRecord) -> bytes:
    return orjson.dumps(game_to_dict(game))


# -- files ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Item:
    """One entry read from an input: a game, or the error that made it unreadable."""

    source: str
    game: GameRecord | None = None
    error: RecordError | None = None


JSONL_SUFFIXES = (".jsonl", ".ndjson")
_READ_BUFFER = 1 << 20
"""Bytes read at a time from a JSON Lines file: a line longer than the buffer is read in pieces and joined."""


_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


def bad_json(error: orjson.JSONDecodeError, data: bytes, document: bool = False) -> str:
    """What is wrong with JSON text that orjson refused, in the user's terms.

    Text saved as UTF-16 or UTF-32 (a byte order mark, or NUL bytes between the
    characters) is named as such; text that stops inside a value is said to end
    early (a cut-off line or file), not to be wrong at its last column.
    ``document``: ``data`` is a whole ``.json`` file (the line is then named too).
    """
    if data.startswith(_WIDE_BOMS) or b"\x00" in data[:256]:
        return "the text is UTF-16 or UTF-32, not UTF-8: save the file as UTF-8"
    where = f"line {error.lineno}, column {error.colno}" if document else f"column {error.colno}"
    if error.pos >= len(data.rstrip()):
        return f"bad JSON: the text ends early, inside a value (cut off?) at {where}"
    return f"bad JSON: {error.msg} ({where})"


def _item(obj: Any, source: str, rules: Rules | None) -> Item:
    try:
        return Item(source, game_from_dict(obj, rules))
    except RecordError as error:
        return Item(source, error=error.at(source))


def _as_written(item: Item, raw: bytes) -> Item:
    """``item``, its error showing a number too large to read as it is written in ``raw`` (its game's JSON)."""
    error = item.error
    if error is None or error.detail != _TOO_BIG:
        return item
    written = _number_at(raw, error.field or "")
    if written is None:
        return item
    return Item(item.source, error=RecordError(f"expected a whole number within 64 bits, got {shown(written, 80)}",
                                               error.field, item.source))


def _number_at(raw: bytes, field: str) -> int | None:
    """The integer at ``field`` (``hands[0].points[1]``) of a game's JSON text, read exactly (Python's own
    JSON reader keeps every digit); ``None`` if it cannot be found."""
    import json
    try:
        value: Any = json.loads(raw)
        for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", field):
            value = value[int(index)] if index else value[key]
    except (ValueError, LookupError, TypeError, RecursionError):
        return None
    return value if isinstance(value, int) else None


def iter_jsonl(stream: BinaryIO, name: str, rules: Rules | None = None) -> Iterator[Item]:
    for number, line in enumerate(stream, 1):
        if line and not line.isspace():
            yield jsonl_item(line, f"{name}:{number}", rules)


def jsonl_item(line: bytes, source: str, rules: Rules | None = None) -> Item:
    """One non-blank line of a JSON Lines file (with its newline), as :func:`iter_jsonl` reads it.

    The cycle collector is paused meanwhile: a game's decoded JSON is hundreds
    of short-lived lists, which would otherwise set it off mid-game and age
    into the older generations, to be scanned again and again in full.
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as error:
            return Item(source, error=RecordError(bad_json(error, line), source=source))
        return _as_written(_item(obj, source, rules), line)
    finally:
        if paused:
            gc.enable()


def _looks_like_jsonl(lines: list[bytes]) -> bool:
    """One of the first two non-empty lines is a whole JSON object on its own.

    An indented game that fails to parse is one broken document (report its line), not
    one bad record per line: none of its lines is an object by itself.
    """
    for line in [l for l in lines if l.strip()][:2]:
        try:
            if isinstance(orjson.loads(line), dict):
                return True
        except orjson.JSONDecodeError:
            continue
    return False


def iter_json_text(data: bytes, name: str, rules: Rules | None = None) -> Iterator[Item]:
    """A whole ``.json`` document: one game (or a list of games); JSON Lines if it is not one document."""
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        lines = data.splitlines()
        if len([l for l in lines if l.strip()]) > 1 and _looks_like_jsonl(lines):
            yield from iter_jsonl(iter(lines), name, rules)
            return
        source = f"{name}:{error.lineno}"
        yield Item(source, error=RecordError(bad_json(error, data, document=True), source=source))
        return
    if isinstance(obj, list):
        for index, game in enumerate(obj):
            yield _item(game, f"{name}:#{index + 1}", rules)
    else:
        yield _as_written(_item(obj, f"{name}:1", rules), data)


def read_json_path(path: Path, rules: Rules | None = None) -> Iterator[Item]:
    name = str(path)
    try:
        if path.suffix.lower() in JSONL_SUFFIXES:
            with open(path, "rb", buffering=_READ_BUFFER) as stream:
                yield from iter_jsonl(stream, name, rules)
        else:
            yield from iter_json_text(path.read_bytes(), name, rules)
    except OSError as error:
        yield Item(name, error=RecordError(f"cannot read: {error.strerror or error}", source=name))


def read_stdin(rules: Rules | None = None) -> Iterator[Item]:
    yield from iter_json_text(sys.stdin.buffer.read(), "<stdin>", rules)


def write_games(games: Iterable[GameRecord], path: str | Path) -> int:
    """Write games as JSON Lines (or one ``.json`` game) atomically; returns the count."""
    path = Path(path)
    count = 0
    with atomic_open(path, "wb") as out:
        if path.suffix.lower() == ".json":
            games = list(games)
            if len(games) != 1:
                raise ValueError(f"{path}: a .json file holds exactly one game; use .jsonl for {len(games)}")
            out.write(orjson.dumps(game_to_dict(games[0]), option=orjson.OPT_INDENT_2) + b"\n")
            return 1
        for game in games:
            out.write(dumps_game(game) + b"\n")
            count += 1
    return count


def read_games(paths: Iterable[str | Path] | str | Path, rules: Rules | None = None) -> Iterator[Item]:
    """Every game in files, folders (recursively) and ``-`` (stdin), in order."""
    from .sources import iter_sources  # the registry of formats; Parquet is optional
    if isinstance(paths, (str, Path)):
        paths = [paths]
    yield from iter_sources(paths, rules)
