"""``hearts rules``, ``hearts rules --infer`` and ``hearts explain``."""

from __future__ import annotations

import dataclasses
import shlex

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.cli.app import rules_from_options
from hearts_analysis.cli.rules_cmd import suggestion_command
from hearts_analysis.records.json import write_games
from hearts_analysis.rules import PRESETS, RULE_FIELDS, RULE_TABLE, Rules
from hearts_analysis.rules_help import field_help, value_text
from hearts_analysis.simulate.game import simulate_games
from hearts_analysis.violations import CATALOGUE, explain

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


# -- the reference --------------------------------------------------------------------------
def test_every_rule_field_is_described_from_the_rule_table():
    """``hearts rules`` says what the table says: its help, each named value's page sentence, what it accepts."""
    for name in RULE_FIELDS:
        spec, described = RULE_TABLE[name], field_help(name)
        assert described.description.startswith(spec.help) and described.allowed == spec.accepts()
        for value in spec.words:
            assert f"{value_text(name, value)}: {spec.sentence(value, card='the lowest club', total=26, fourfold=4, target='the target')}" \
                in described.description
        assert "``" not in described.description and ":data:" not in described.description


def test_rules_text_lists_every_preset_with_its_source_and_every_field():
    done = run("rules")
    assert done.exit_code == 0
    flat = " ".join(done.output.split())
    for name, preset in PRESETS.items():
        assert f"\n  {name}\n" in done.output
        assert " ".join(preset.source.split()) in flat
    for name in RULE_FIELDS:
        assert f"\n  {name}\n" in done.output
        assert field_help(name).description in flat
    assert "Differs from standard in jack_of_diamonds -10 (standard: 0)." in flat  # omnibus


def test_rules_text_speaks_plainly_and_says_where_presets_coincide():
    done = run("rules")
    flat = " ".join(done.output.split())
    assert "differs from standard: nothing" not in flat
    for jargon in ("None", "seeds/", "RULES" ".md", "issue"):
        assert jargon not in done.output
    presets = {block.split("\n")[0].strip(): " ".join(block.split())
               for block in done.output.split("\n\n  ")[1:] if block.startswith(tuple(PRESETS))}
    assert presets["classic"].endswith("The same as standard for 3-7 players.")
    assert presets["online"].endswith("The same as standard for 4 players.")
    assert "pass_cycle left for 3 players (standard: left right)" in presets["basic"]
    assert "pass_cycle left for 4 players (standard: left right across hold)" in presets["basic"]
    assert "The same as standard" not in presets["black_queen"]
    assert ("These presets play exactly as standard (they name their source, not other rules): "
            "classic (3-7 players); online (4 players); killer_hearts (4 players).") in presets["standard"]
    assert "Cards taken out of the deck. Left unset, they depend on the player count." in flat


def test_rules_json_is_the_same_source():
    done = run("rules", "--format", "json")
    data = orjson.loads(done.output)
    assert [p["preset"] for p in data["presets"]] == list(PRESETS)
    assert [p["source"] for p in data["presets"]] == [p.source for p in PRESETS.values()]
    assert [f["field"] for f in data["fields"]] == list(RULE_FIELDS)
    omnibus = next(p for p in data["presets"] if p["preset"] == "omnibus")
    assert omnibus["overrides"] == {"jack_of_diamonds": -10} and omnibus["fields"] == Rules.preset("omnibus").to_dict()


def test_paths_without_infer_and_infer_without_paths_are_usage_errors(tmp_path):
    assert run("rules", str(tmp_path)).exit_code == 2
    assert run("rules", "--infer").exit_code == 2


# -- inference ---------------------------------------------------------------------------------
@pytest.fixture
def omnibus_games(tmp_path):
    path = tmp_path / "games.jsonl"
    write_games(simulate_games(4, Rules.preset("omnibus"), seed=3), path)
    return path


def test_infer_text_names_the_fitted_rules_and_the_evidence(omnibus_games, monkeypatch):
    monkeypatch.chdir(omnibus_games.parent)   # a short path: the text wraps at its width, and a long one would break
    done = run("rules", "--infer", omnibus_games.name)
    assert done.exit_code == 0, done.output
    assert 'Fitted rule set: {"preset":"omnibus"}' in done.output
    assert "hearts validate --rules omnibus PATH..." in done.output
    assert "every game is fully legal and correctly scored" in done.output
    assert "omnibus: fits" in done.output
    assert "  jack_of_diamonds: -10\n" in done.output
    assert "not 0 (3+ games): " + omnibus_games.name + ":1 hand 1" in " ".join(done.output.split())


def test_infer_json_and_count_all(omnibus_games):
    document = orjson.loads(run("rules", "--infer", str(omnibus_games), "-f", "json", "--count-all").output)
    assert document["errors"] == [] and len(document["rule_sets"]) == 1
    named = document["rule_sets"][0]
    assert named["named"] == {"preset": "omnibus"} and (named["games"], named["breaking_games"]) == (4, 0)
    data = named["inference"]
    assert data["suggestion"] == {"preset": "omnibus"}
    jd = next(f for f in data["fields"] if f["field"] == "jack_of_diamonds")
    assert jd["fits"] == [-10]
    zero = next(v for v in jd["verdicts"] if v["value"] == 0)
    assert zero["games"] == 4 and zero["all_counted"] and zero["evidence"][0]["code"] == "points-mismatch"


def test_infer_reports_each_named_rule_set_and_the_games_that_break_theirs(tmp_path):
    omnibus = list(simulate_games(2, Rules.preset("omnibus"), seed=3))
    standard = list(simulate_games(3, Rules.preset("standard"), seed=4))
    hand = standard[1].hands[0]
    plays = list(hand.plays)
    plays[4], plays[5] = plays[5], plays[4]   # out of turn, on purpose
    standard[1] = dataclasses.replace(standard[1], game_id="broken", hands=(
        dataclasses.replace(hand, plays=tuple(plays)), *standard[1].hands[1:]))
    write_games(standard + omnibus, tmp_path / "g.jsonl")
    done = run("rules", "--infer", str(tmp_path / "g.jsonl"))
    text = " ".join(done.output.split())
    assert "The records name 2 rule sets" in text
    assert 'Rule set {"preset":"standard"}, named by 3 games' in text
    assert 'Rule set {"preset":"omnibus"}, named by 2 games' in text and "every game keeps the rules it names" in text
    assert f"1 game breaks its named rules" in text and "g.jsonl:2 hand 1 trick 2" in text
    assert 'Fitted rule set: {"preset":"omnibus"}' in text   # the omnibus games are not mixed with the others
    document = orjson.loads(run("rules", "--infer", str(tmp_path / "g.jsonl"), "-f", "json").output)
    breaking = {g["named"]["preset"]: g["breaking_games"] for g in document["rule_sets"]}
    assert breaking == {"standard": 1, "omnibus": 0}
    assert document["rule_sets"][0]["breaking"][0]["game_id"] == "broken"


def test_violations_no_rule_set_explains_exit_1(tmp_path, monkeypatch):
    games = list(simulate_games(3, Rules.preset("standard"), seed=5))
    hand = games[0].hands[0]
    plays = list(hand.plays)
    plays[4], plays[5] = plays[5], plays[4]
    games[0] = dataclasses.replace(games[0], hands=(dataclasses.replace(hand, plays=tuple(plays)),
                                                    *games[0].hands[1:]))
    write_games(games, tmp_path / "g.jsonl")
    monkeypatch.chdir(tmp_path)   # a short path: the text wraps at its width, wherever a long path puts the breaks
    done = run("rules", "--infer", "g.jsonl")
    assert done.exit_code == 1
    words = " ".join(done.output.split())
    assert "fit no rule set tried" in words and "g.jsonl:1 hand 1 trick 2" in words


def test_unreadable_records_are_reported_and_the_rest_inferred(omnibus_games, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "hearts-game/1", "players": ["a"]}\nnot json\n')
    done = run("rules", "--infer", str(omnibus_games), str(bad), "-f", "json")
    assert done.exit_code == 2
    data = orjson.loads(done.stdout)
    assert data["rule_sets"][0]["inference"]["suggestion"] == {"preset": "omnibus"}
    assert [e["source"] for e in data["errors"]] == [f"{bad}:1", f"{bad}:2"]


@pytest.mark.parametrize("spec", [{"preset": "standard", "jack_of_diamonds": -7, "pass_cycle": ["left", "right"]},
                                  {"preset": "black_queen", "queen_of_clubs_cancels_queen": True, "target": 50}])
def test_the_suggested_command_selects_the_suggested_rules(spec):
    words = shlex.split(suggestion_command(spec))
    preset = words[1]
    overrides = [words[i + 1] for i, word in enumerate(words) if word == "--set"]
    assert rules_from_options(preset, overrides) == Rules.from_spec(spec)


# -- explain -----------------------------------------------------------------------------------
@pytest.mark.parametrize("code", list(CATALOGUE))
def test_explain_prints_the_catalogue_entry(code):
    done = run("explain", code)
    assert done.exit_code == 0 and done.output == explain(code).rstrip() + "\n"
    assert CATALOGUE[code].example in done.output


def test_explain_unknown_code_lists_the_codes():
    done = run("explain", "reneg")
    assert done.exit_code == 2 and 'unknown violation code "reneg"' in done.output
    assert all(code in done.output for code in CATALOGUE)


def test_explain_without_a_code_lists_them():
    done = run("explain")
    assert done.exit_code == 0
    assert [line.split()[0] for line in done.output.splitlines()[1:]] == list(CATALOGUE)


def test_every_new_command_has_help_with_an_example():
    for args in (["rules"], ["explain"], ["import", "openspiel"], ["export", "openspiel"]):
        done = run(*args, "--help")
        assert done.exit_code == 0 and "Example" in done.output
