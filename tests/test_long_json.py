"""Long JSON text (a game of tens of thousands of hands on one line, a document of many games) is read a hand
at a time, in memory near the text's size, and reads exactly as orjson's one call reads it, errors included."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from hearts_analysis.records.json import files, game_to_dict, stream
from hearts_analysis.records.json.files import iter_json_text, jsonl_item
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

from test_hostile_inputs import games, run


def _outcome(item):
    return item.source, item.game, None if item.error is None else item.error.text()


def _both(read, monkeypatch):
    """What ``read()`` gives read the usual way, and read a hand at a time (every text counts as long)."""
    usual = read()
    monkeypatch.setattr(files, "STREAM_BYTES", -1)
    try:
        return usual, read()
    finally:
        monkeypatch.undo()


def _line(obj) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def _variants() -> dict[str, bytes]:
    game = games()[0]
    text = _line(game)
    hand = json.dumps(game["hands"][0])
    return {
        "clean": text,
        "compact": json.dumps(game, separators=(",", ":")).encode(),
        "spaced": b"  \t" + json.dumps(game, indent=2).encode() + b"\n\n",
        "hands first": _line({"hands": game["hands"], **{k: v for k, v in game.items() if k != "hands"}}),
        "no hands": _line({k: v for k, v in game.items() if k != "hands"}),
        "no hands at all": _line({**game, "hands": []}),
        "hands null": _line({**game, "hands": None}),
        "hands a number": _line({**game, "hands": 3}),
        "a hand not an object": _line({**game, "hands": [3, *game["hands"]]}),
        "an unknown field": _line({**game, "notes": {"a": [1, 2, {"b": None}]}, "x": 1.5}),
        "a bad card": text.replace(b'"2C"', b'"1C"', 1),
        "a big number": text.replace(b'"dealer": 0', b'"dealer": 123456789012345678901234567890', 1),
        "a huge number": text.replace(b'"dealer": 0', b'"dealer": ' + b"9" * 5000, 1),
        "a float": text.replace(b'"dealer": 0', b'"dealer": 1e30', 1),
        "an infinite float": text.replace(b'"dealer": 0', b'"dealer": 1e400', 1),
        "NaN": text.replace(b'"dealer": 0', b'"dealer": NaN', 1),
        "a lone surrogate": text.replace(b'"players": ["', b'"players": ["\\ud800', 1),
        "a surrogate pair": text.replace(b'"players": ["', b'"players": ["\\ud83d\\ude00', 1),
        "not UTF-8": text.replace(b'"players": ["', b'"players": ["\xff', 1),
        "a BOM": b"\xef\xbb\xbf" + text,
        "hands twice": text.replace(b'"hands": [', b'"hands": [' + hand.encode() + b'], "hands": [', 1),
        "players twice": text.replace(b'"players": [', b'"players": ["a"], "players": [', 1),
        "cut off": text[: len(text) * 2 // 3],
        "trailing text": text.rstrip() + b" x\n",
        "a missing comma": text.replace(b', "plays"', b' "plays"', 1),
        "deep": text.replace(b'"dealer": 0', b'"dealer": ' + b"[" * 3000 + b"]" * 3000, 1),
        "a list": b"[1, 2]\n",
        "a string": b'"game"\n',
        "an empty object": b"{}\n",
        "a control character": text.replace(b'"players": ["', b'"players": ["\x01', 1),
    }


@pytest.mark.parametrize("name", sorted(_variants()))
def test_a_long_line_reads_as_orjson_reads_it(name, monkeypatch):
    line = _variants()[name]
    usual, streamed = _both(lambda: _outcome(jsonl_item(line, "games.jsonl:7")), monkeypatch)
    assert streamed == usual


@pytest.mark.parametrize("name", ["clean", "hands first", "a bad card", "a big number", "NaN", "cut off"])
@pytest.mark.parametrize("shape", ["one game", "a list of games"])
def test_a_long_document_reads_as_orjson_reads_it(name, shape, monkeypatch):
    line = _variants()[name]
    if shape == "a list of games":
        others = [_line(g) for g in games()[1:3]]
        line = b"[" + b",\n".join([others[0], line, others[1]]) + b"]\n"
    usual, streamed = _both(lambda: [_outcome(i) for i in iter_json_text(line, "games.json")], monkeypatch)
    if shape == "a list of games" and name == "a big number":  # read whole, a list's games lose the digits
        usual[1] = usual[1][:2] + (usual[1][2].replace("a larger one", "123456789012345678901234567890"),)
    assert streamed == usual
    assert len(usual) == (3 if shape == "a list of games" and name not in ("NaN", "cut off") else 1)


@pytest.mark.long
def test_a_game_of_12000_hands_on_a_line_takes_a_few_times_its_text_not_25_times():
    """The text was read whole into objects, about 25 times its size, before the first hand was replayed: a
    51 MB line took 1.2 GB. Now one hand's objects at a time are alive beside the records."""
    game = games()[0]
    hands = [{k: v for k, v in hand.items() if k != "totals"} for hand in game["hands"]]
    game["hands"] = (hands * (12_000 // len(hands) + 1))[:12_000]
    game["rules"] = {"preset": "standard", "target": 10 ** 9}
    line = json.dumps(game, separators=(",", ":")).encode() + b"\n"
    assert len(line) > stream.STREAM_BYTES
    tracemalloc.start()
    try:
        item = jsonl_item(line, "long.jsonl:1")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert item.error is None and len(item.game.hands) == 12_000
    assert peak < 5 * len(line), f"{peak / len(line):.1f} times the line"


def test_a_long_line_read_a_hand_at_a_time_validates_as_before(tmp_path, monkeypatch):
    """A game of 1,000 hands with two plays swapped, every line counting as long: the reference engine's
    report is the one it gave reading the line whole, and the fast path's."""
    game = next(iter(simulate_games(1, Rules.preset("standard", target=10 ** 9), seed=5)))
    obj = game_to_dict(game)
    obj["hands"][3]["plays"][5], obj["hands"][3]["plays"][6] = obj["hands"][3]["plays"][6], obj["hands"][3]["plays"][5]
    source = tmp_path / "long.jsonl"
    source.write_bytes(_line(games()[1]) + _line(obj) + _line(games()[2]))
    usual = run("validate", source, "--engine", "reference", "--format", "json")
    fast = run("validate", source, "--workers", "1", "--format", "json")
    monkeypatch.setattr(files, "STREAM_BYTES", 1000)
    streamed = run("validate", source, "--engine", "reference", "--format", "json")
    assert streamed.exit_code == usual.exit_code == fast.exit_code == 1
    assert streamed.stdout == usual.stdout == fast.stdout
    assert "long.jsonl:2" in usual.stdout
