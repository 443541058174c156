"""Rule sets: the field contract, the presets of the rule sources, clear errors."""

import pytest
from hypothesis import given, settings, strategies as st

from hearts_analysis.cards import card_name, parse_card
from hearts_analysis.rules import PRESETS, RULE_FIELDS, RuleError, Rules, parse_override

CONTRACT_DEFAULTS = {
    "removed_cards": None, "pass_count": 3, "pass_cycle": None, "first_lead": "lowest_club",
    "points_on_first_trick": False, "hearts_must_be_broken": True, "hearts_broken_by": "heart_or_queen",
    "only_hearts_lead": "allowed", "jack_of_diamonds": 0, "queen_of_clubs_cancels_queen": False,
    "no_tricks_bonus": 0, "moon": "shooter_choice", "target": 100, "end_at": "reach",
    "charges": [], "charged_cards_wait": True, "ten_of_clubs": 1, "deals_per_game": 0, "claims": False,
}


def test_standard_defaults_are_the_contract_table():
    assert RULE_FIELDS == tuple(CONTRACT_DEFAULTS)
    assert Rules.preset("standard").to_dict() == CONTRACT_DEFAULTS
    assert Rules() == Rules.preset("standard") == Rules.from_spec(None) == Rules.from_spec({})


@pytest.mark.parametrize("players, removed, hand_size, lowest", [
    (3, ("2D",), 17, "2C"), (4, (), 13, "2C"), (5, ("2D", "2C"), 10, "3C"),
    (6, ("2D", "3D", "3C", "4C"), 8, "2C"), (7, ("2D", "3D", "3C"), 7, "2C"),
])
def test_removed_cards_by_player_count(players, removed, hand_size, lowest):
    table = Rules().table(players)
    assert table.removed_cards == removed
    assert table.deck.bit_count() == 52 - len(removed)
    assert not table.deck & table.removed
    assert table.hand_size == hand_size
    assert card_name(table.lowest_club) == lowest
    assert table.point_total == 26


def test_custom_removed_cards_replace_the_default():
    table = Rules.preset("standard", removed_cards=["2C"]).table(3)
    assert table.removed_cards == ("2C",) and table.hand_size == 17
    assert card_name(table.lowest_club) == "3C"
    assert Rules.preset("standard", removed_cards=[]).table(4).removed == 0
    # removing point cards changes what a moon is worth
    assert Rules.preset("standard", removed_cards=["2H"]).table(3).point_total == 25
    assert Rules.preset("standard", removed_cards="QS 2D 3D 4D").table(4).point_total == 13


@pytest.mark.parametrize("players, cycle", [
    (3, ["left", "right"]), (4, ["left", "right", "across", "hold"]), (5, ["left", "right"]),
    (6, ["left", "right"]), (7, ["left", "right"]),
])
def test_default_pass_cycle_and_hand_k_uses_cycle_k_minus_1(players, cycle):
    table = Rules().table(players)
    assert [table.pass_direction(k) for k in range(1, 2 * len(cycle) + 2)] == \
        [cycle[(k - 1) % len(cycle)] for k in range(1, 2 * len(cycle) + 2)]


def test_pass_offsets_seats_run_clockwise():
    table = Rules().table(4)
    assert {d: table.pass_offset(d) for d in ("left", "right", "across", "hold")} == \
        {"left": 1, "right": 3, "across": 2, "hold": 0}
    assert Rules.preset("standard", pass_cycle=["across"]).table(6).pass_offset("across") == 3
    assert Rules().table(5).pass_offset("right") == 4


def test_pass_count_zero_means_every_hand_holds():
    table = Rules.preset("standard", pass_count=0).table(4)
    assert {table.pass_direction(k) for k in range(1, 9)} == {"hold"}


def test_custom_pass_cycle_with_hold_and_across():
    table = Rules.preset("standard", pass_cycle="hold across").table(4)
    assert [table.pass_direction(k) for k in range(1, 5)] == ["hold", "across", "hold", "across"]


# -- presets -------------------------------------------------------------------
PRESET_FIELDS = {
    "standard": {},
    "omnibus": {"jack_of_diamonds": -10},
    "black_queen": {"pass_cycle": ("left", "right", "across", "hold"), "hearts_broken_by": "heart",
                    "only_hearts_lead": "ends_hand", "moon": "add_to_others", "end_at": "exceed"},
    "classic": {},
    "online": {"pass_cycle": ("left", "right", "across", "hold")},
    "basic": {"pass_cycle": ("left",), "first_lead": "left_of_dealer", "points_on_first_trick": True,
              "hearts_broken_by": "heart"},
    "openspiel": {"pass_cycle": ("any",), "only_hearts_lead": "queen_first", "moon": "add_to_others"},
    # the programs whose logs are imported
    "sturtevant": {"pass_cycle": ("left", "right", "across", "hold"), "first_lead": "any_club",
                   "only_hearts_lead": "queen_first", "moon": "add_to_others"},
    "hearts_league": {"pass_cycle": ("left", "right", "across"), "points_on_first_trick": True,
                      "moon": "add_to_others"},
    "trend_hearts": {"pass_cycle": ("left", "right", "across", "hold"), "charges": ("AH",), "ten_of_clubs": 2,
                     "moon": "shooter_gains_fourfold", "charged_cards_wait": False, "deals_per_game": 4},
    "turbo_hearts": {"pass_cycle": ("left", "right", "across", "hold"), "hearts_broken_by": "heart",
                     "only_hearts_lead": "queen_first", "jack_of_diamonds": -10,
                     "charges": ("AH", "QS", "JD", "TC"), "ten_of_clubs": 2, "moon": "subtract_from_shooter",
                     "deals_per_game": 4, "claims": True},
    "killer_hearts": {"pass_cycle": ("left", "right", "across", "hold")},
}
PRESET_PLAYERS = {"black_queen": [4], "online": [4], "basic": [3, 4], "openspiel": [4], "sturtevant": [4],
                  "hearts_league": [4], "trend_hearts": [4], "turbo_hearts": [4], "killer_hearts": [4]}


def test_every_rules_md_system_has_a_preset():
    assert set(PRESETS) == set(PRESET_FIELDS)


@pytest.mark.parametrize("name", sorted(PRESET_FIELDS))
def test_preset_fields_follow_its_source(name):
    """Each preset differs from the contract defaults exactly where its source says."""
    rules = Rules.preset(name)
    expected = {**CONTRACT_DEFAULTS, **PRESET_FIELDS[name]}
    assert rules.to_dict() == {k: list(v) if isinstance(v, tuple) else v for k, v in expected.items()}
    assert rules.preset == name
    assert Rules.from_spec(name) == rules == Rules.from_spec(rules.to_spec())


@pytest.mark.parametrize("name", sorted(PRESET_FIELDS))
def test_preset_is_documented_and_builds_for_its_player_counts(name):
    preset = PRESETS[name]
    assert len(preset.source) > 40
    assert "seeds/" not in preset.source and ".md" not in preset.source   # a source is named by its title
    assert preset.players == tuple(PRESET_PLAYERS.get(name, range(3, 8)))
    for players in PRESET_PLAYERS.get(name, range(3, 8)):
        assert Rules.preset(name).table(players).hand_size * players == Rules.preset(name).table(players).deck.bit_count()


def test_preset_interpretations_are_documented():
    assert "interpretation" in PRESETS["black_queen"].source.lower()
    assert "interpretation" in PRESETS["classic"].source.lower()
    assert "interpretation" in PRESETS["basic"].source.lower()


def test_overrides_apply_on_top_of_a_preset():
    rules = Rules.preset("black_queen", jack_of_diamonds=-10, queen_of_clubs_cancels_queen=True)
    assert (rules.jack_of_diamonds, rules.queen_of_clubs_cancels_queen, rules.moon) == (-10, True, "add_to_others")
    assert rules.to_spec() == {"preset": "black_queen", "jack_of_diamonds": -10, "queen_of_clubs_cancels_queen": True}
    assert Rules.from_spec({"preset": "omnibus", "jack_of_diamonds": 0}) == Rules()


def test_values_from_the_command_line_are_coerced():
    rules = Rules.preset("standard", jack_of_diamonds="-10", points_on_first_trick="TRUE",
                         removed_cards="2d,3♦", pass_cycle="left, hold")
    assert rules.jack_of_diamonds == -10 and rules.points_on_first_trick is True
    assert rules.removed_cards == ("2D", "3D") and rules.pass_cycle == ("left", "hold")
    assert parse_override("jack-of-diamonds=-10") == ("jack_of_diamonds", -10)
    assert parse_override(" moon = none ") == ("moon", "none")


# -- errors ----------------------------------------------------------------------
@pytest.mark.parametrize("overrides, message", [
    ({"first_lead": "dealer"}, "first_lead: unknown value \"dealer\""),
    ({"hearts_broken_by": "queen"}, "hearts_broken_by: unknown value"),
    ({"only_hearts_lead": "never"}, "only_hearts_lead: unknown value"),
    ({"moon": "double"}, "moon: unknown value"),
    ({"moon": 3}, "moon: expected a name"),
    ({"end_at": "pass"}, "end_at: unknown value"),
    ({"pass_cycle": ["left", "up"]}, "pass_cycle: unknown value \"up\""),
    ({"pass_cycle": []}, "pass_cycle: must name at least one direction"),
    ({"pass_count": -1}, "pass_count: must be 0 or more"),
    ({"pass_count": 2.5}, "pass_count: expected a whole number"),
    ({"target": 0}, "target: must be a positive"),
    ({"jack_of_diamonds": True}, "jack_of_diamonds: expected a whole number"),
    ({"points_on_first_trick": 1}, "points_on_first_trick: expected true or false"),
    ({"removed_cards": ["2C", "2c"]}, "removed_cards: a card is listed twice"),
    ({"removed_cards": ["1C"]}, "removed_cards: unknown card \"1C\""),
    ({"removed_cards": 5}, "removed_cards: expected a list of cards"),
    ({"colour": "red"}, '"colour": unknown rule field'),
])
def test_bad_values_are_rejected_naming_the_field(overrides, message):
    with pytest.raises(RuleError, match=message):
        Rules.preset("standard", **overrides)


def test_unknown_preset_and_bad_spec():
    with pytest.raises(RuleError, match="preset: unknown preset \"nope\" \\(known: standard, omnibus"):
        Rules.from_spec("nope")
    with pytest.raises(RuleError, match="rules: expected a preset name"):
        Rules.from_spec(["standard"])
    with pytest.raises(RuleError, match="expected field=value"):
        parse_override("moon")


@pytest.mark.parametrize("players, overrides, message", [
    (2, {}, "players: 2 players; Hearts is played by 3 to 7"),
    (8, {}, "players: 8 players; Hearts is played by 3 to 7"),
    (3, {"pass_cycle": ["left", "across"]}, "no 'across' with an odd number of players \\(3\\)"),
    (5, {"pass_cycle": ["across"]}, "no 'across' with an odd number of players \\(5\\)"),
    (7, {"pass_cycle": ["across"]}, "no 'across' with an odd number of players \\(7\\)"),
    (4, {"removed_cards": ["2D"]}, "removed_cards: a deck of 51 cards does not deal evenly to 4 players"),
    (5, {"removed_cards": []}, "a deck of 52 cards does not deal evenly to 5 players"),
    (7, {"pass_count": 8}, "pass_count: 8 is more than a hand of 7"),
    (3, {"removed_cards": [r + "C" for r in "23456789TJQKA"]}, "first_lead: the deck has no clubs"),
])
def test_unplayable_tables_are_rejected(players, overrides, message):
    with pytest.raises(RuleError, match=message):
        Rules.preset("standard", **overrides).table(players)


def test_across_is_fine_for_even_tables_and_clubless_decks_for_left_of_dealer():
    Rules.preset("standard", pass_cycle=["across"]).table(6)
    Rules.preset("standard", pass_cycle=["across"]).table(4)
    clubless = [r + "C" for r in "23456789TJQKA"]
    assert Rules.preset("basic", removed_cards=clubless).table(3).lowest_club is None


# -- round trips -------------------------------------------------------------------------
@st.composite
def rule_specs(draw):
    spec = {"preset": draw(st.sampled_from(sorted(PRESETS)))}
    if draw(st.booleans()):
        spec["jack_of_diamonds"] = draw(st.integers(-20, 20))
    if draw(st.booleans()):
        spec["moon"] = draw(st.sampled_from(["add_to_others", "subtract_from_shooter", "shooter_choice", "none"]))
    if draw(st.booleans()):
        spec["removed_cards"] = draw(st.lists(st.sampled_from([card_name(c) for c in range(52)]),
                                              unique=True, max_size=4))
    if draw(st.booleans()):
        spec["pass_cycle"] = draw(st.lists(st.sampled_from(["left", "right", "across", "hold"]), min_size=1, max_size=4))
    for key in ("points_on_first_trick", "hearts_must_be_broken", "queen_of_clubs_cancels_queen"):
        if draw(st.booleans()):
            spec[key] = draw(st.booleans())
    return spec


@settings(max_examples=80, derandomize=True)
@given(rule_specs())
def test_spec_round_trip_is_lossless_and_minimal(spec):
    rules = Rules.from_spec(spec)
    again = Rules.from_spec(rules.to_spec())
    assert again == rules and again.preset == rules.preset
    base = Rules.from_spec(rules.preset)
    assert all(getattr(rules, k) != getattr(base, k) for k in rules.to_spec() if k != "preset")
    assert Rules.from_spec({"preset": "standard", **rules.to_dict()}) == rules
    assert parse_card(rules.to_dict()["removed_cards"][0]) >= 0 if rules.removed_cards else True


def test_each_import_preset_says_what_a_real_log_checked():
    """The preset a log format imports under names its assumptions, and which a real log confirmed."""
    from hearts_analysis.interop import formats
    presets = {getattr(module, "PRESET", None) for module in formats.formats().values()} - {None}
    assert presets >= {"killer_hearts", "sturtevant", "hearts_league", "trend_hearts", "turbo_hearts", "openspiel"}
    for name in presets:
        source = PRESETS[name].source
        assert "hecked against" in source and ("Not checked" in source or "not checked" in source.lower()), name
    assert "+312" in PRESETS["trend_hearts"].source
