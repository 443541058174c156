"""The reference path's fast lanes give exactly what the careful paths they stand in for give.

Three lanes are held to their careful paths: the JSON reader's quick hand
(with its plays table, rule-set cache and game-level shortcut) against the
careful reader alone, ``HandRecord.checked`` against the frozen constructor,
and the replay's clean-hand lane against the full replay. Each careful path is
forced by patching the lane out for the duration of one call, so both run on
the very same input.
"""

from __future__ import annotations

import copy
import dataclasses
import gc
from collections import Counter
from collections.abc import Mapping
from contextlib import ExitStack, contextmanager
from typing import Any, Iterator
from unittest import mock

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference
from faults import MUTATIONS, clean_games, every_violation
from hearts_analysis.corpus_audit import game_report
from hearts_analysis.cards import CARD_CODES, card_name
from hearts_analysis.engine import replay as replay_module
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.records.errors import RecordError
from hearts_analysis.records.json import decode as json_decode, files as json_files
from hearts_analysis.records.json import dumps_game, game_from_dict, game_to_dict, jsonl_item
from hearts_analysis.records.model import GAME_KEYS, HAND_KEYS, GameRecord, HandRecord
from hearts_analysis.rules import PASS_DIRECTIONS, PRESETS, RuleError, Rules
from hearts_analysis.simulate import RandomBot, simulate_games
from test_properties import simulated_games

LANES = settings(max_examples=60, deadline=None, derandomize=True)
MANY = settings(LANES, max_examples=250)


# -- the careful paths, forced ------------------------------------------------------------------
@contextmanager
def careful_reader() -> Iterator[None]:
    """The JSON reader with every shortcut out: each hand, play, card and rule set read the careful way."""
    with ExitStack() as stack:
        for name, stand_in in [("_quick_hand", lambda obj, n: None), ("_fast_plays", lambda value, n: None),
                               ("_fast_cards", lambda value: None), ("_rules_of", Rules.from_spec),
                               ("_check_playable", lambda rules, n: rules.table(n)),
                               ("_GAME_FIELDS", frozenset())]:
            stack.enter_context(mock.patch.object(json_decode, name, stand_in))
        yield


@contextmanager
def full_replay() -> Iterator[None]:
    with mock.patch.object(replay_module, "_clean_hand", lambda *args: None):
        yield


def read(obj: Any, rules: Rules | None = None) -> tuple:
    """What ``game_from_dict`` makes of ``obj``: the record (and its repr, which tells True from 1), or the error.

    An exception other than :class:`RecordError` is a bug of its own, but both paths must still share it.
    """
    try:
        game = game_from_dict(obj, rules)
    except RecordError as error:
        return "error", error.field, error.detail
    except Exception as error:  # noqa: BLE001 - compared, not hidden: see test_an_unhashable_preset_is_a_record_error
        return "crash", type(error).__name__, str(error)
    return "game", game, repr(game)


def assert_reader_agrees_on_python_objects(obj: Any, rules: Rules | None = None) -> tuple:
    fast = read(obj, rules)
    with careful_reader():
        careful = read(obj, rules)
    assert fast == careful
    return fast


def read_line(line: bytes, rules: Rules | None = None) -> tuple:
    try:
        item = jsonl_item(line, "games.jsonl:7", rules)
    except Exception as error:  # noqa: BLE001 - as in read
        return "crash", type(error).__name__, str(error)
    if item.error is not None:
        return item.source, None, (item.error.field, item.error.detail, item.error.source)
    return item.source, (item.game, repr(item.game)), None


def assert_reader_agrees(obj: Any, rules: Rules | None = None) -> tuple:
    """``game_from_dict`` and ``jsonl_item`` give the same with and without the shortcuts; returns the reading."""
    line = orjson.dumps(obj) + b"\n"
    fast = read_line(line, rules)
    with careful_reader():
        careful = read_line(line, rules)
    assert fast == careful
    return assert_reader_agrees_on_python_objects(obj, rules)


# -- 1. the JSON reader -------------------------------------------------------------------------
@st.composite
def canonical_games(draw) -> tuple[GameRecord, dict]:
    """A simulated game under a random preset (with a short target) and its canonical JSON object."""
    players = draw(st.integers(3, 7))
    presets = [name for name in sorted(PRESETS) if _playable(Rules.preset(name), players)]
    rules = Rules.preset(draw(st.sampled_from(presets)), target=draw(st.integers(15, 60)))
    game = next(simulate_games(1, rules, players, seed=draw(st.integers(0, 2**16)), bot=RandomBot))
    return game, orjson.loads(dumps_game(game))


def _playable(rules: Rules, players: int) -> bool:
    try:
        rules.table(players)
    except RuleError:
        return False
    return True


@LANES
@given(canonical_games(), st.sampled_from([None, "omnibus", "classic"]))
def test_canonical_games_take_the_quick_lane_and_read_as_the_careful_reader_reads_them(drawn, override):
    game, obj = drawn
    n = game.seats
    assert all(json_decode._quick_hand(hand, n) is not None for hand in obj["hands"])  # the lane is taken
    rules = None if override is None else Rules.preset(override, target=50)
    outcome = assert_reader_agrees(obj, rules if rules is None or _playable(rules, n) else None)
    assert outcome[0] == "game" and outcome[1].hands == game.hands
    assert game_to_dict(outcome[1]) == obj  # nothing lost


def _spellings(card: str) -> list[str]:
    """Every spelling the careful reader accepts for a card, and some it accepts only after stripping."""
    code = CARD_CODES[card]
    return sorted(text for text, c in CARD_CODES.items() if c == code) + [f" {card}", f"{card.lower()} ", "XX"]


ODD_VALUES = [None, True, False, 0, 1, 2, 3, -1, 7, 1.0, 2.0, 0.5, "", "1", "QS", "qs", "10h", "T♥", " QS", "XX",
              "2D", "left", "across", "hold", "any", "sideways", "add_to_others", "subtract_from_shooter", "none",
              [], {}, [0, "2C"], [1, "QS", 2], [True, "QS"], [1.0, "QS"], ["QS"], [[]], [None], [1, 2, 3, 4],
              {"preset": "omnibus"}, {"preset": "nope"}, {"target": 0}, {"pass_count": 20}, "standard",
              "hearts-game/1", "hearts-game/2"]
json_values = st.recursive(st.none() | st.booleans() | st.integers(-3, 30) | st.floats(-5, 5, width=32) |
                           st.text(max_size=4),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                      max_size=3),
                           max_leaves=5)


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, path + (key,))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, path + (index,))


def _at(obj: Any, path: tuple) -> Any:
    for step in path:
        obj = obj[step]
    return obj


@st.composite
def mutated_objects(draw) -> dict:
    """A canonical game object with one to three random edits: values replaced (nulls, bools for seats,
    floats, strings, out-of-range numbers, other spellings of a card, other cards), fields added or
    left out, list entries dropped or repeated."""
    _, obj = draw(canonical_games())
    obj = copy.deepcopy(obj)
    obj["hands"] = obj["hands"][:draw(st.integers(1, 3))]
    n = len(obj["players"])
    odd = st.sampled_from(ODD_VALUES + [n, n - 1, -n]) | json_values
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["hand field", "hand field", "card", "card", "game field", "anywhere"]))
        hands = obj["hands"] if isinstance(obj.get("hands"), list) else []
        if kind == "hand field" and hands and isinstance(hands[-1], dict):
            path = ("hands", draw(st.integers(0, len(hands) - 1)), draw(st.sampled_from([*HAND_KEYS, "note"])))
            if not isinstance(_at(obj, path[:2]), dict):
                continue
        elif kind == "card":
            cards = [p for p in _paths(obj) if isinstance(_at(obj, p), (str, int)) and len(p) >= 4
                     and p[2] in ("deal", "passes", "plays")]
            if not cards:
                continue
            path = draw(st.sampled_from(cards))
        elif kind == "game field":
            path = (draw(st.sampled_from([*GAME_KEYS, "note"])),)
        else:
            path = draw(st.sampled_from([p for p in _paths(obj) if p]))
        parent, last = _at(obj, path[:-1]), path[-1]
        value = parent.get(last) if isinstance(parent, dict) else parent[last]
        action = draw(st.sampled_from(["set", "set", "null", "respell", "respell", "drop", "repeat", "copy"]))
        if action == "respell" and isinstance(value, str) and value in CARD_CODES:
            parent[last] = draw(st.sampled_from(_spellings(value)))
        elif action == "null":
            parent[last] = None
        elif action == "drop" and (isinstance(parent, list) or last in parent):
            del parent[last]
        elif action == "repeat" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(value))
        elif action == "copy":
            parent[last] = copy.deepcopy(_at(obj, draw(st.sampled_from(list(_paths(obj))))))
        else:
            parent[last] = draw(odd)
    return orjson.loads(orjson.dumps(obj))  # JSON values only, as a line of a file gives them


@MANY
@given(mutated_objects(), st.sampled_from([None, Rules.preset("classic", target=40)]))
def test_mutated_games_read_as_the_careful_reader_reads_them(obj, rules):
    if rules is not None and isinstance(obj.get("players"), list) and not _playable(rules, len(obj["players"])):
        rules = None
    assert_reader_agrees(obj, rules)


def _hand_object(n: int = 4) -> tuple[dict, int]:
    game = clean_games()[0]
    assert game.seats == n
    return orjson.loads(dumps_game(game))["hands"][0], n


def _edit(hand: dict, *path_and_value) -> dict:
    """``hand`` with the value at ``path`` replaced (``...`` deletes it; an index just past a list appends)."""
    hand = copy.deepcopy(hand)
    *path, value = path_and_value
    parent = _at(hand, tuple(path[:-1]))
    if value is ...:
        del parent[path[-1]]
    elif isinstance(parent, list) and path[-1] == len(parent):
        parent.append(value)
    else:
        parent[path[-1]] = value
    return hand


EDITS = {
    "unknown field": ("note", "kept"), "null dealer": ("dealer", None), "null passes": ("passes", None),
    "null points": ("points", None), "no deal": ("deal", ...), "no plays": ("plays", ...),
    "no points": ("points", ...), "lower case card": ("deal", 0, 0, "qs"), "10H style": ("plays", 5, 1, "10h"),
    "suit symbol": ("deal", 2, 1, "T♥"), "padded card": ("plays", 0, 1, " 2C "), "unknown card": ("deal", 1, 0, "1X"),
    "card as number": ("plays", 3, 1, 12), "bool seat": ("plays", 4, 0, True), "false seat": ("plays", 4, 0, False),
    "float seat": ("plays", 4, 0, 1.0), "string seat": ("plays", 4, 0, "1"), "seat out of range": ("plays", 4, 0, 4),
    "negative seat": ("plays", 4, 0, -1), "short play": ("plays", 2, ["QS"]), "long play": ("plays", 2, [1, "QS", 2]),
    "play as object": ("plays", 2, {"seat": 1}), "bool dealer": ("dealer", True), "float dealer": ("dealer", 2.0),
    "dealer out of range": ("dealer", 4), "string dealer": ("dealer", "1"), "deal of 3 seats": ("deal", 3, ...),
    "deal as object": ("deal", {"a": [], "b": [], "c": [], "d": []}), "deal as text": ("deal", "abcd"),
    "a seat's cards as text": ("deal", 1, "2C 3C"), "short passes": ("passes", 3, ...),
    "a null pass": ("passes", 1, None), "passes as text": ("passes", "abcd"), "float points": ("points", 0, 1.0),
    "bool points": ("points", 0, True), "text points": ("points", 1, "3"), "short points": ("points", 3, ...),
    "short totals": ("totals", 0, ...), "null in totals": ("totals", 2, None),
    "unknown direction": ("pass_direction", "any"),
    "direction as list": ("pass_direction", ["left"]), "unknown moon": ("moon", "none"), "moon as number": ("moon", 1),
    "a fifth deal entry, not a list": ("deal", 4, "2C 3C"), "a fifth deal entry": ("deal", 4, []),
    "a fifth pass, not a list": ("passes", 4, 7), "a fifth play seat": ("plays", 0, 2, 1),
    "short hand": ("deal", 0, 0, ...), "duplicated card": ("deal", 1, 0, "2C"), "hand as list": (),
}


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_every_unusual_hand_reads_as_the_careful_reader_reads_it(edit):
    hand, n = _hand_object()
    game = orjson.loads(dumps_game(clean_games()[0]))
    game["hands"] = [hand, [hand] if edit == "hand as list" else _edit(hand, *EDITS[edit])]
    outcome = assert_reader_agrees(game)
    assert json_decode._quick_hand(game["hands"][0], n) is not None  # the first hand takes the lane, the second may not
    if outcome[0] == "error":
        assert outcome[1].startswith("hands[1]"), outcome


GAME_EDITS = {
    "unknown field": ("source", "x"), "null game_id": ("game_id", None), "null rules": ("rules", None),
    "null complete": ("complete", None), "null format": ("format", None), "text complete": ("complete", "yes"),
    "number game_id": ("game_id", 3), "preset by name": ("rules", "omnibus"), "unknown preset": ("rules", "nope"),
    "unknown rule field": ("rules", {"preset": "standard", "colour": 1}), "bad target": ("rules", {"target": 0}),
    "unplayable": ("rules", {"pass_cycle": ["across"]}), "two players": ("players", ["a", "b"]),
    "empty name": ("players", ["a", "", "c", "d"]), "no players": ("players", ...), "hands as object": ("hands", {}),
    "no hands": ("hands", ...), "other format": ("format", "hearts-game/2"),
}


@pytest.mark.parametrize("edit", list(GAME_EDITS), ids=list(GAME_EDITS))
def test_unusual_games_read_as_the_careful_reader_reads_them(edit):
    game = orjson.loads(dumps_game(clean_games()[0]))
    assert_reader_agrees(_edit(game, *GAME_EDITS[edit]))
    assert_reader_agrees(_edit(game, *GAME_EDITS[edit]), Rules.preset("omnibus"))


def test_a_cached_rule_set_is_the_one_the_spec_names():
    """Specs equal as Python values but different as JSON (1 and true, 100 and 100.0) are not taken for each other."""
    game = orjson.loads(dumps_game(clean_games()[0]))
    seen = []
    for spec in ["standard", {"preset": "omnibus"}, {"preset": "standard", "points_on_first_trick": True},
                 {"preset": "standard", "points_on_first_trick": 1}, {"preset": "standard", "target": 100},
                 {"preset": "standard", "target": 100.0}, "omnibus", {"preset": "classic"}, "standard"]:
        for _ in range(2):
            seen.append(assert_reader_agrees(dict(game, rules=spec)))
    assert {outcome[0] for outcome in seen} >= {"game"}
    assert {outcome[1].rules.preset for outcome in seen if outcome[0] == "game"} >= {"standard", "omnibus", "classic"}


@pytest.mark.parametrize("key", ["deal", "passes"])
def test_a_tuple_where_the_format_wants_a_list_is_refused_by_both_paths(key):
    game = orjson.loads(dumps_game(clean_games()[0]))
    hand = game["hands"][0]
    hand[key] = tuple(hand[key])
    outcome = assert_reader_agrees_on_python_objects(game)
    assert outcome[:2] == ("error", f"hands[0].{key}")


@pytest.mark.parametrize("preset", [[], {}], ids=["list", "object"])
def test_an_unhashable_preset_is_a_record_error(preset):
    game = orjson.loads(dumps_game(clean_games()[0]))
    item = jsonl_item(orjson.dumps(dict(game, rules={"preset": preset})) + b"\n", "games.jsonl:3")
    assert item.error is not None and item.error.field == "rules.preset"


# -- 2. HandRecord.checked ----------------------------------------------------------------------
class FrozenMapping(Mapping):
    """A hashable ``extra``, so that the records' hashes can be compared too."""

    def __init__(self, items: dict):
        self._items = dict(items)

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __hash__(self):
        return hash(tuple(sorted(self._items.items())))

    def __repr__(self):
        return f"FrozenMapping({self._items!r})"


cards_ = st.lists(st.integers(0, 51), max_size=13).map(tuple)
ints_ = st.lists(st.integers(-50, 150), min_size=3, max_size=7).map(tuple)
hand_values = st.fixed_dictionaries({
    "deal": st.lists(cards_, min_size=3, max_size=7).map(tuple),
    "plays": st.lists(st.tuples(st.integers(0, 6), st.integers(0, 51)), max_size=20).map(tuple),
    "passes": st.none() | st.lists(st.none() | cards_, min_size=3, max_size=7).map(tuple),
    "dealer": st.none() | st.integers(0, 6),
    "pass_direction": st.none() | st.sampled_from(PASS_DIRECTIONS),
    "moon": st.none() | st.sampled_from(["add_to_others", "subtract_from_shooter"]),
    "points": st.none() | ints_, "totals": st.none() | ints_,
    "extra": st.dictionaries(st.sampled_from(["note", "source", "seat"]), st.integers() | st.text(max_size=3),
                             max_size=2).flatmap(lambda d: st.sampled_from([d, FrozenMapping(d)])),
    "nulls": st.frozensets(st.sampled_from(HAND_KEYS)),
    "charged": st.none() | st.lists(st.integers(0, 51), max_size=4).map(tuple),
    "claim": st.none() | st.integers(0, 6),
    "unmodelled": st.none() | st.lists(st.text(max_size=5), min_size=1, max_size=2).map(tuple),
})


def _hash(value: Any) -> Any:
    try:
        return hash(value)
    except TypeError as error:
        return type(error), str(error)


@LANES
@given(hand_values)
def test_checked_builds_the_record_the_constructor_builds(values):
    built, checked = HandRecord(**values), HandRecord.checked(**values)
    assert type(checked) is HandRecord
    assert checked == built and built == checked and not checked != built
    assert repr(checked) == repr(built) and _hash(checked) == _hash(built)
    assert dataclasses.astuple(checked) == dataclasses.astuple(built)
    assert all(getattr(checked, f.name) is values[f.name] for f in dataclasses.fields(HandRecord))
    assert dataclasses.replace(checked) == built
    if values["deal"]:
        other = dataclasses.replace(built, deal=values["deal"][1:])
        assert HandRecord.checked(**dict(values, deal=values["deal"][1:])) == other != checked


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(HandRecord)])
def test_a_checked_record_stays_frozen(name):
    hand = HandRecord.checked(deal=(), plays=(), passes=None, dealer=None, pass_direction=None, moon=None, points=None,
                              totals=None, extra={}, nulls=frozenset())
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(hand, name, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(hand, name)
    with pytest.raises((AttributeError, TypeError)):
        hand.colour = "red"  # slots: nowhere to put a new attribute
    assert getattr(hand, name) == getattr(HandRecord(deal=(), plays=()), name)


# -- 3. the clean-hand lane of the replay -------------------------------------------------------
def assert_replays_agree(game: GameRecord) -> int:
    """The replay with the clean-hand lane equals the full replay; returns the hands the lane settled."""
    settled = []
    lane = replay_module._clean_hand

    def counting(*args):
        result = lane(*args)
        settled.append(result is not None)
        return result

    with mock.patch.object(replay_module, "_clean_hand", counting):
        quick = replay_game(game)
    with full_replay():
        full = replay_game(game)
    assert quick == full
    assert repr(quick) == repr(full)
    assert game_report(quick, "x.json") == game_report(full, "x.json")
    assert len(settled) == len(game.hands)
    return sum(settled)


def assert_referee_agrees(game: GameRecord) -> None:
    result = replay_game(game)
    ref = reference.audit(game_to_dict(game), game.rules.to_dict())
    assert Counter((v.code, v.hand, v.trick, v.seat, v.card) for v in result.violations) == Counter(ref.violations)
    assert [list(h.points) for h in result.hands] == ref.points and list(result.totals) == ref.totals


def moon_games() -> list[GameRecord]:
    """Small-deck games under a fixed moon rule in which a seat shot the moon, with the other choice recorded."""
    games = []
    for seed in range(60):
        players = 3 + seed % 3
        kept = [card_name(card) for card in range(seed % 13, 52, 3)][:players * 3]
        moon = ("add_to_others", "subtract_from_shooter")[seed % 2]
        rules = Rules.preset("standard", removed_cards=[card_name(c) for c in range(52) if card_name(c) not in kept],
                             pass_count=1, pass_cycle=["left", "hold"], moon=moon, target=30)
        if not _playable(rules, players):
            continue
        game = next(simulate_games(1, rules, players, seed=seed, bot=RandomBot))
        for number, hand in enumerate(game.hands):
            if hand.moon is not None:
                other = "subtract_from_shooter" if hand.moon == "add_to_others" else "add_to_others"
                games.append(_with_hand(dataclasses.replace(game, hands=game.hands[:number + 2]), number, moon=other))
                break
        if len(games) == 12:
            break
    return games


def _with_hand(game: GameRecord, number: int, **changes) -> GameRecord:
    hands = list(game.hands)
    hands[number] = dataclasses.replace(hands[number], **changes)
    return dataclasses.replace(game, hands=tuple(hands))


def record_edits(game: GameRecord) -> Iterator[GameRecord]:
    """Clean hands around the game-level checks: totals off by the same amount before and after a hand that
    records them right, and hands recorded after a (lowered) target was reached."""
    if len(game.hands) >= 3 and all(hand.totals for hand in game.hands[:3]):
        drift = _with_hand(game, 0, totals=tuple(t + 2 for t in game.hands[0].totals))
        yield _with_hand(drift, 2, totals=tuple(t + 2 for t in game.hands[2].totals))
    if len(game.hands) >= 2 and game.hands[0].totals and max(game.hands[0].totals) > 0:
        yield dataclasses.replace(game, rules=game.rules.replace(target=max(game.hands[0].totals)))


def test_clean_and_faulty_corpora_replay_the_same_with_and_without_the_lane():
    clean = clean_games()
    settled = sum(assert_replays_agree(game) for game in clean)
    # every clean hand takes the lane, but where the record names the pass or a hand may end early
    lane_rules = [game for game in clean if "any" not in game.rules.table(game.seats).pass_cycle
                  and game.rules.only_hearts_lead != "ends_hand"]
    assert settled == sum(len(game.hands) for game in lane_rules) > 0
    faulty = [game for game in every_violation() if game not in clean]
    assert sum(assert_replays_agree(game) for game in faulty) < sum(len(game.hands) for game in faulty)
    for game in faulty:
        assert_referee_agrees(game)


def test_edited_records_replay_the_same_with_and_without_the_lane():
    moons = moon_games()
    assert len(moons) >= 5
    edited = [changed for game in clean_games() for changed in record_edits(game)]
    assert len(edited) >= 10
    for game in moons + edited:
        assert_replays_agree(game)
        assert_referee_agrees(game)
    assert any(v.code == "moon-choice-invalid" for game in moons for v in replay_game(game).violations)
    assert {v.code for game in edited for v in replay_game(game).violations} >= {"totals-mismatch", "game-continued"}


def _changed_hand(hand: HandRecord, change: str, seats: int, value: int) -> HandRecord:
    """One record-level edit that the lane must either see through or leave to the full replay."""
    if change == "points" and hand.points:
        return dataclasses.replace(hand, points=tuple(p + (value if s == value % seats else 0)
                                                      for s, p in enumerate(hand.points)))
    if change == "totals" and hand.totals:
        return dataclasses.replace(hand, totals=tuple(t + value for t in hand.totals))
    if change == "direction":
        return dataclasses.replace(hand, pass_direction=PASS_DIRECTIONS[value % 4])
    if change == "moon":
        return dataclasses.replace(hand, moon=("add_to_others", "subtract_from_shooter", None)[value % 3])
    if change == "dealer":
        return dataclasses.replace(hand, dealer=value % seats)
    if change == "no passes":
        return dataclasses.replace(hand, passes=None)
    if change == "empty passes":
        return dataclasses.replace(hand, passes=((),) * seats)
    if change == "a pass left out":
        return dataclasses.replace(hand, passes=hand.passes and (None,) + hand.passes[1:])
    if change == "repeated pass card" and hand.passes and hand.passes[0]:
        return dataclasses.replace(hand, passes=((hand.passes[0][0],) * len(hand.passes[0]),) + hand.passes[1:])
    if change == "no records":
        return dataclasses.replace(hand, points=None, totals=None, moon=None, dealer=None, pass_direction=None)
    if change == "plays swapped" and len(hand.plays) > value + 1:
        plays = list(hand.plays)
        plays[value], plays[value + 1] = plays[value + 1], plays[value]
        return dataclasses.replace(hand, plays=tuple(plays))
    if change == "last play dropped":
        return dataclasses.replace(hand, plays=hand.plays[:-1])
    return hand


CHANGES = ["points", "totals", "direction", "moon", "dealer", "no passes", "empty passes", "a pass left out",
           "repeated pass card", "no records", "plays swapped", "last play dropped"]


@settings(LANES, max_examples=120)
@given(simulated_games(max_hands=5), st.sampled_from([None, *MUTATIONS]),
       st.lists(st.tuples(st.integers(0, 4), st.sampled_from(CHANGES), st.integers(-3, 40)), max_size=2))
def test_random_games_replay_the_same_with_and_without_the_lane(game, mutation, changes):
    """Random rule sets (presets with overrides, 3-7 players), one fault of the catalogue, a few record edits."""
    if mutation is not None and game.hands:
        game = mutation(game) or game
    hands = list(game.hands)
    for number, change, value in changes:
        if hands:
            number %= len(hands)
            hands[number] = _changed_hand(hands[number], change, game.seats, value)
    assert_replays_agree(dataclasses.replace(game, hands=tuple(hands)))


# -- 4. the cycle collector around jsonl_item ---------------------------------------------------
LINES = {
    "a game": dumps_game(clean_games()[0]) + b"\n",
    "bad JSON": b'{"format": "hearts-game/1", "players": [\n',
    "not an object": b"[1, 2]\n",
    "a bad record": orjson.dumps({"players": ["a", "b"]}) + b"\n",
    "a bad hand": orjson.dumps({"players": ["a", "b", "c"], "hands": [{"deal": 3}]}) + b"\n",
}


@contextmanager
def collector(enabled: bool) -> Iterator[None]:
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        yield
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False], ids=["enabled", "disabled"])
@pytest.mark.parametrize("line", list(LINES), ids=list(LINES))
def test_jsonl_item_leaves_the_collector_as_it_found_it(line, enabled):
    with collector(enabled):
        item = jsonl_item(LINES[line], "games.jsonl:1")
        assert gc.isenabled() is enabled
    assert (item.game is not None) == (line == "a game")


@pytest.mark.parametrize("enabled", [True, False], ids=["enabled", "disabled"])
def test_jsonl_item_restores_the_collector_when_reading_fails_unexpectedly(enabled):
    def broken(obj, source, rules):
        raise MemoryError("no room")

    with collector(enabled), mock.patch.object(json_files, "_item", broken):
        with pytest.raises(MemoryError):
            jsonl_item(LINES["a game"], "games.jsonl:1")
        assert gc.isenabled() is enabled


def test_jsonl_item_pauses_the_collector_while_it_reads():
    seen = []
    real = json_files._item

    def watching(obj, source, rules):
        seen.append(gc.isenabled())
        return real(obj, source, rules)

    with collector(True), mock.patch.object(json_files, "_item", watching):
        jsonl_item(LINES["a game"], "games.jsonl:1")
        assert gc.isenabled()
    assert seen == [False]
