"""The shipped examples: each produces exactly the violations it lists, and all fit the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from hearts_analysis.engine import replay_game
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import PRESETS
from hearts_analysis.violations import CODES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.suffix in (".json", ".jsonl"))
SCHEMA = json.loads((ROOT / "schemas" / "hearts-game-1.schema.json").read_text())


def _games(path: Path):
    items = list(iter_sources([path]))
    assert all(item.error is None for item in items), [item.error for item in items]
    return [item.game for item in items]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_produces_exactly_its_listed_violations(path):
    for game in _games(path):
        result = replay_game(game)
        assert sorted(v.code for v in result.violations) == sorted(game.extra["expected_violations"])
        assert sorted(n.code for n in result.notes) == sorted(game.extra.get("expected_notes", []))


def test_examples_show_every_violation_code():
    """Every code, as a violation or (``unmodelled``) a note; a view's ``view-unchecked`` is in docs/views.md."""
    shown = {code for path in EXAMPLES for game in _games(path)
             for code in [*game.extra["expected_violations"], *game.extra.get("expected_notes", [])]}
    # a view's note and a score sheet's impossible hand: tests/test_view_validation.py, tests/test_score_sheets.py
    assert shown == set(CODES) - {"view-unchecked", "points-impossible"}
    notes = {code for path in EXAMPLES for game in _games(path) for code in game.extra.get("expected_notes", [])}
    assert notes == {"unmodelled"}


def test_examples_cover_the_moon_options_and_player_counts():
    games = [game for path in EXAMPLES for game in _games(path)]
    moons = {game.rules.moon for game in games
             if any(h.moon is not None for h in replay_game(game).hands)}
    assert moons >= {"add_to_others", "subtract_from_shooter", "shooter_choice"}
    assert {game.seats for game in games} >= {3, 4, 5}
    assert any(game.rules.jack_of_diamonds == -10 for game in games)
    assert any(game.rules.first_lead == "left_of_dealer" and game.rules.hearts_broken_by == "heart"
               for game in games)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_fit_the_json_schema(path):
    lines = path.read_text().splitlines() if path.suffix == ".jsonl" else [path.read_text()]
    for text in lines:
        jsonschema.validate(json.loads(text), SCHEMA)


def test_schema_names_every_preset():
    assert set(SCHEMA["$defs"]["presetName"]["enum"]) == set(PRESETS)


@pytest.mark.parametrize("bad, field", [
    ({"players": ["a", "b"], "hands": []}, "players"),
    ({"players": ["a", "b", "c"], "hands": [{"deal": [["XX"], [], []], "plays": []}]}, "hands[0].deal[0][0]"),
    ({"players": ["a", "b", "c"], "hands": [{"deal": [[], [], []], "plays": [[9, "2C"]]}]}, "hands[0].plays[0][0]"),
    ({"players": ["a", "b", "c"], "rules": {"preset": "nope"}, "hands": []}, "rules"),
    ({"players": ["a", "b", "c"], "hands": [{"deal": [[], [], []], "plays": [], "moon": "sideways"}]}, "hands[0].moon"),
])
def test_schema_and_reader_reject_the_same_records(bad, field):
    from hearts_analysis.records.errors import RecordError
    from hearts_analysis.records.json import game_from_dict
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)
    with pytest.raises(RecordError) as error:
        game_from_dict(bad)
    assert error.value.field.startswith(field)
