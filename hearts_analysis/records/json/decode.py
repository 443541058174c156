"""``hearts-game/1`` objects (parsed JSON) to records: strict about structure, lenient about content.

Every error names the field (e.g. ``hands[2].plays[17]``); a duplicate card or an
illegal play is the replay engine's business, not the reader's. A hand of the usual
shape takes a fast lane (:func:`_quick_hand`) that builds the same record.

>>> game = game_from_dict({"players": ["a", "b", "c", "d"], "hands": []})
>>> game.players, game.rules.preset
(('a', 'b', 'c', 'd'), 'standard')
"""

from __future__ import annotations

from typing import Any, Iterable

import orjson

from ...cards import CARD_CODES, Card, CardError, parse_card
from ...rules import MOON_CHOICES, PASS_DIRECTIONS, RULE_FIELDS, RuleError, Rules
from ...text import shown
from ..errors import RecordError
from ..numbers import INT64_MAX, INT64_MIN, TOO_BIG, json_whole_number  # TOO_BIG: for the file reader
from ..model import FORMAT, GAME_KEYS, HAND_KEYS, REFERENCE_ONLY, GameRecord, HandRecord, is_sheet_hand


def _fail(field: str, message: str) -> RecordError:
    return RecordError(message, field)


def _int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    value = json_whole_number(value, field)  # a float beyond 64 bits: _item shows it as written
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
    if type(value) is list and len(value) == n and all(type(v) is int for v in value) \
            and INT64_MIN <= min(value, default=0) and max(value, default=0) <= INT64_MAX:
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


def _notes(value: Any, field: str) -> tuple[str, ...]:
    """``unmodelled``: an importer's notes, each a non-empty string."""
    items = _list(value, field)
    for i, note in enumerate(items):
        if not isinstance(note, str) or not note:
            raise _fail(f"{field}[{i}]", f"expected a non-empty note, got {shown(note)}")
    return tuple(items)


def reference_fields(obj: dict, n: int, field: str) -> dict[str, Any]:
    """The hand's ``charged``, ``claim`` and ``unmodelled`` that are set, checked, as record values.

    The Parquet reader checks its ``hand_meta`` with this too: one reading of each field.

    >>> reference_fields({"charged": ["QS"], "claim": 2}, 4, "hands[0]")
    {'charged': (49,), 'claim': 2}
    >>> reference_fields({"claim": 4}, 4, "hands[0]")
    Traceback (most recent call last):
    ...
    hearts_analysis.records.errors.RecordError: hands[0].claim: 4 is out of range 0..3
    """
    values: dict[str, Any] = {}
    if obj.get("charged") is not None:
        values["charged"] = _fast_cards(obj["charged"]) or _cards(obj["charged"], f"{field}.charged")
    if obj.get("claim") is not None:
        values["claim"] = _int(obj["claim"], f"{field}.claim", 0, n - 1)
    if obj.get("unmodelled") is not None:
        values["unmodelled"] = _notes(obj["unmodelled"], f"{field}.unmodelled")
    return values


assert HAND_KEYS == ("dealer", "pass_direction", "deal", "passes", "plays", "moon", "points", "totals",
                     "charged", "claim", "unmodelled"), \
    "_quick_hand, _hand_from_dict and reference_fields read these hand fields: teach them a field added to the model"
assert GAME_KEYS == ("format", "game_id", "played_at", "rules", "players", "hands", "complete", "winners",
                     "unmodelled"), \
    "game_from_dict reads these game fields: teach it a field added to the model"
_HAND_FIELDS = frozenset(k for k in HAND_KEYS if k not in REFERENCE_ONLY)
"""The hand fields :func:`_quick_hand` reads: a hand with any other is read by :func:`_hand_from_dict`."""
_GAME_FIELDS = frozenset(GAME_KEYS)
_INT = frozenset((int,))
_NO_NULLS: frozenset[str] = frozenset()


def _seat_ints(value: Any, n: int) -> tuple[int, ...] | None:
    """One whole number per seat (points, totals), read at speed; ``None`` for anything else."""
    if type(value) is list and len(value) == n and _INT.issuperset(map(type, value)) \
            and INT64_MIN <= min(value, default=0) and max(value, default=0) <= INT64_MAX:
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
    return HandRecord.checked(deal=deal, plays=plays, passes=passes, dealer=dealer, pass_direction=direction, moon=moon,
                              points=points, totals=totals, extra={}, nulls=_NO_NULLS)


def _hand_from_dict(obj: Any, n: int, field: str) -> HandRecord:
    if not isinstance(obj, dict):
        raise _fail(field, f"expected a hand object, got {shown(obj)}")
    nulls = frozenset(k for k in HAND_KEYS if k in obj and obj[k] is None)
    if _CARDS_KEYS.isdisjoint(obj):
        return _sheet_hand(obj, n, field, nulls)
    deal = _list(obj.get("deal"), f"{field}.deal") if "deal" in obj else None
    if deal is None:
        raise _fail(f"{field}.deal", "missing: the cards dealt to each seat (a score-sheet hand has no deal, "
                    "passes or plays)")
    if len(deal) != n:
        raise _fail(f"{field}.deal", f"expected one list of cards per seat ({n}), got {len(deal)}")
    deal_cards = tuple(None if d is None else _fast_cards(d) or _cards(d, f"{field}.deal[{s}]")
                       for s, d in enumerate(deal))   # null: a seat the view's asker cannot see (docs/views.md)

    passes = None
    if obj.get("passes") is not None:
        raw = _list(obj["passes"], f"{field}.passes")
        if len(raw) != n:
            raise _fail(f"{field}.passes", f"expected one entry per seat ({n}), got {len(raw)}")
        passes = tuple(None if p is None else _fast_cards(p) or _cards(p, f"{field}.passes[{s}]")
                       for s, p in enumerate(raw))

    if "plays" not in obj:
        raise _fail(f"{field}.plays", "missing: every card played, as [seat, card] (a score-sheet hand has no "
                    "deal, passes or plays)")
    plays = _fast_plays(obj["plays"], n)
    if plays is None:
        plays = _careful_plays(obj["plays"], n, field)
    dealer, direction, moon, totals = _hand_fields(obj, n, field)
    points = _ints(obj["points"], f"{field}.points", n) if obj.get("points") is not None else None
    extra = _shallow({k: v for k, v in obj.items() if k not in HAND_KEYS}, field)
    return HandRecord(deal=deal_cards, plays=plays, passes=passes, dealer=dealer,
                      pass_direction=direction, moon=moon, points=points, totals=totals,
                      **reference_fields(obj, n, field), extra=extra, nulls=nulls)


_CARDS_KEYS = frozenset(("deal", "passes", "plays"))


def _hand_fields(obj: dict, n: int, field: str) -> tuple:
    """A hand's ``dealer``, ``pass_direction``, ``moon`` and ``totals``, checked (a played hand's and a score
    sheet's alike)."""
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
    totals = _ints(obj["totals"], f"{field}.totals", n) if obj.get("totals") is not None else None
    return dealer, direction, moon, totals


def _sheet_hand(obj: dict, n: int, field: str, nulls: frozenset[str]) -> HandRecord:
    """A score-sheet hand: ``points`` (and maybe ``totals``, ``moon``), no cards."""
    if obj.get("points") is None:
        raise _fail(f"{field}.deal", "missing: the cards dealt to each seat (or, on a score sheet, the hand's "
                    "points)")
    dealer, direction, moon, totals = _hand_fields(obj, n, field)
    extra = _shallow({k: v for k, v in obj.items() if k not in HAND_KEYS}, field)
    return HandRecord(deal=None, plays=None, pass_direction=direction, dealer=dealer, moon=moon,
                      points=_ints(obj["points"], f"{field}.points", n), totals=totals,
                      **reference_fields(obj, n, field), extra=extra, nulls=nulls)


def _winners(value: Any, players: list) -> tuple[str, ...]:
    """``winners``: names of the game's players, each once."""
    names = _list(value, "winners")
    for i, name in enumerate(names):
        if name not in players:
            raise _fail(f"winners[{i}]", f"{shown(name)} is not one of the players")
        if name in names[:i]:
            raise _fail(f"winners[{i}]", f"{shown(name)} is named twice")
    return tuple(names)


def game_from_dict(obj: Any, rules: Rules | None = None, hands: Iterable[Any] | None = None) -> GameRecord:
    """Read one game object; ``rules`` (if given) replaces the record's own rule set.

    ``hands``: the game's hands, read one at a time (:mod:`.stream`), in place of ``obj["hands"]``.
    """
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
    if hands is None:
        hands = _list(obj.get("hands", []), "hands")
    records = tuple(_quick_hand(h, n) or _hand_from_dict(h, n, f"hands[{k}]") for k, h in enumerate(hands))
    if records and any(is_sheet_hand(h) != is_sheet_hand(records[0]) for h in records):
        k = next(k for k, h in enumerate(records) if is_sheet_hand(h) != is_sheet_hand(records[0]))
        raise _fail(f"hands[{k}]", "a score sheet's hands have points and no cards, a played game's hands have "
                    "their cards: this game mixes them")
    winners = _winners(obj["winners"], players) if obj.get("winners") is not None else None
    complete = obj.get("complete")
    if complete is not None and not isinstance(complete, bool):
        raise _fail("complete", f"expected true or false, got {shown(complete)}")
    for key in ("game_id", "played_at"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise _fail(key, f"expected a string, got {shown(obj[key])}")
    unmodelled = _notes(obj["unmodelled"], "unmodelled") if obj.get("unmodelled") is not None else None
    if _GAME_FIELDS.issuperset(obj) and None not in obj.values():
        extra, nulls = {}, _NO_NULLS
    else:
        extra = _shallow({k: v for k, v in obj.items() if k not in GAME_KEYS}, "")
        nulls = frozenset(k for k in GAME_KEYS if k in obj and obj[k] is None)
    return GameRecord(players=tuple(players), hands=records, rules=rules or parsed_rules,
                      rules_spec=rules_spec, game_id=obj.get("game_id"),
                      played_at=obj.get("played_at"), complete=complete, unmodelled=unmodelled,
                      winners=winners, extra=extra, nulls=nulls)


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
