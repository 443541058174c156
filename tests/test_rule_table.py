"""The rule-field table is the one source of rule-field facts: ``Rules``, the schema, validation, the
fast lanes' check, the rules fit, ``hearts rules`` and the pages' rule words all agree with it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from hearts_analysis.cards import HEARTS_MASK, JD, QS, mask_of, parse_card
from hearts_analysis.engine.interpreter import legal_cards
from hearts_analysis.engine.scoring import score_hand
from hearts_analysis.reports.words import rules_in_words
from hearts_analysis.rules import FOURFOLD, QUEEN_POINTS, RULE_FIELDS, RULE_TABLE, RuleError, Rules
from hearts_analysis.rules_fit import CHOICES

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "hearts-game-1.schema.json"


def test_every_field_of_rules_is_in_the_table_and_every_entry_is_a_field():
    fields = [f.name for f in dataclasses.fields(Rules) if f.name != "preset"]
    assert fields == list(RULE_TABLE) == list(RULE_FIELDS)
    plain = Rules()
    for name, spec in RULE_TABLE.items():
        assert spec.name == name and spec.default == getattr(plain, name) and spec.help and spec.accepts()


def test_the_record_schema_names_the_fields_and_values_of_the_table():
    rules = json.loads(SCHEMA.read_text())["properties"]["rules"]
    properties = next(part for part in rules["oneOf"] if part.get("type") == "object")["properties"]
    assert [name for name in properties if name != "preset"] == list(RULE_FIELDS)
    for name, spec in RULE_TABLE.items():
        if spec.choices:
            assert properties[name]["enum"] == list(spec.choices), name
        if spec.items:
            assert properties[name]["items"]["enum"] == list(spec.items), name
        if spec.minimum is not None:
            assert properties[name]["minimum"] == spec.minimum, name


@pytest.mark.parametrize("name", [n for n, spec in RULE_TABLE.items() if spec.choices or spec.items])
def test_validation_refuses_what_the_table_does_not_name(name):
    with pytest.raises(RuleError, match=f"^{name}: "):
        Rules.from_spec({name: ["XX"] if RULE_TABLE[name].items else "no_such_value"})


@pytest.mark.parametrize("name", [n for n, spec in RULE_TABLE.items() if spec.tried])
def test_the_fast_lanes_model_exactly_the_values_the_table_says(name):
    spec = RULE_TABLE[name]
    for value in spec.tried:
        base = Rules.preset("standard", charges=["AH"]) if name == "charged_cards_wait" else Rules.preset("standard")
        table = base.replace(**{name: value}).table(4)
        others_modelled = all(s.modelled_value(getattr(table.rules, s.name)) for s in RULE_TABLE.values() if s is not spec)
        assert table.needs_reference == (not spec.modelled_value(value) or not others_modelled), (name, value)
    assert Rules.preset("trend_hearts").replace(charges=[], ten_of_clubs=1, deals_per_game=0).table(4).needs_reference


def test_the_rules_fit_tries_the_table_candidates():
    assert CHOICES == {name: spec.tried for name, spec in RULE_TABLE.items() if spec.tried and name != "end_at"}
    assert CHOICES["moon"] == RULE_TABLE["moon"].choices and "shooter_gains_fourfold" in CHOICES["moon"]


@pytest.mark.parametrize("name", [n for n, spec in RULE_TABLE.items() if spec.words])
def test_a_page_says_each_value_in_the_table_sentence(name):
    spec = RULE_TABLE[name]
    for value in spec.words:
        rules = Rules.preset("standard", **{name: value}, **({"charges": ["AH"]} if name == "charged_cards_wait" else {}))
        table = rules.table(4)
        sentence = spec.sentence(value, card="2C", total=table.point_total, fourfold=FOURFOLD, target=rules.target)
        assert sentence in rules_in_words(rules, 4), (name, value)


# -- the drift of the pages' rule words, each checked against what the engine does -------------------------
def _moon_hand(rules: Rules, jd_taker: int | None = None):
    """Seat 0 takes every heart and QS in 9 tricks; seat 3 takes no trick; JD goes to ``jd_taker``."""
    taken = [HEARTS_MASK | 1 << QS, 0, 0, 0]
    if jd_taker is not None:
        taken[jd_taker] |= 1 << JD
    return score_hand(rules.table(4), taken, [9, 2, 2, 0])


def test_the_no_trick_bonus_words_say_what_a_moon_hand_scores():
    rules = Rules.preset("standard", moon="add_to_others", no_tricks_bonus=-5)
    _, points, moon = _moon_hand(rules)
    assert moon is not None and points[3] == 26  # no bonus in a moon hand
    words = " ".join(rules_in_words(rules, 4))
    assert "takes no trick scores \u22125 points, unless someone shot the moon" in words
    no_moons = " ".join(rules_in_words(rules.replace(moon="none"), 4))
    assert "takes no trick scores \u22125 points." in no_moons and "shot the moon" not in no_moons


@pytest.mark.parametrize("moon", ["add_to_others", "subtract_from_shooter", "shooter_gains_fourfold"])
def test_the_moon_words_say_that_jd_still_scores(moon):
    rules = Rules.preset("omnibus", moon=moon)
    _, points, _ = _moon_hand(rules, jd_taker=2)
    assert points[2] == -10 + (26 if moon == "add_to_others" else 0)
    assert "In a moon hand JD still scores for the player who took it." in rules_in_words(rules, 4)
    assert not any("JD still" in line for line in rules_in_words(Rules.preset("standard", moon=moon), 4))


def test_the_fourfold_moon_words_give_the_scoring_factor_and_what_it_counts():
    rules = Rules.preset("trend_hearts")
    _, points, _ = _moon_hand(rules)
    assert points[0] == -FOURFOLD * (13 + QUEEN_POINTS)
    assert (f"the shooter scores {FOURFOLD} times its points for the hand (charges and TC included) as a gain"
            in " ".join(rules_in_words(rules, 4)))


def test_the_left_of_dealer_lead_is_any_legal_card():
    rules = Rules.preset("basic", points_on_first_trick=False)
    hand = mask_of(parse_card(c) for c in ("QS", "5D"))
    assert legal_cards(rules.table(4), hand, 0, first_trick=True, broken=False) == 1 << parse_card("5D")
    assert "The player left of the dealer leads the first trick, any legal card." in rules_in_words(rules, 4)
    assert f"QS {QUEEN_POINTS}." in " ".join(rules_in_words(rules, 4))


def test_the_guide_field_table_is_the_rule_table():
    """The guide's table of rule fields (docs/rules.md) lists the fields in the table's order, every named value, and
    each default as ``hearts rules`` says it."""
    from hearts_analysis.rules_help import value_text

    page = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    section = page.split("# Rules and presets", 1)[1].split("\n\n| preset |", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| `")]
    assert [row[0].strip("`") for row in rows] == list(RULE_FIELDS)
    standard = Rules.preset("standard")
    for name, values, default in rows:
        name = name.strip("`")
        for value in RULE_TABLE[name].choices + RULE_TABLE[name].items:
            assert f"`{value}`" in values, (name, value)
        if getattr(standard, name) is not None:
            assert default.replace("`", "") == value_text(name, getattr(standard, name)), name
