"""Charges, TC's multiplier, claims and fixed-length games: checked and scored exactly, in every lane."""

from __future__ import annotations

import dataclasses

import pytest

from faults import write_parquet_file
from hearts_analysis.cards import HEARTS_MASK, mask_of, parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.records.errors import RecordError
from hearts_analysis.records.json import game_from_dict, game_to_dict
from hearts_analysis.engine.scoring import score_hand
from hearts_analysis.interop.openspiel import parameters_for
from hearts_analysis.rules import RuleError, Rules
from hearts_analysis.rules_help import field_help
from hearts_analysis.simulate import simulate_games
from hearts_analysis.simulate.bots import RandomBot

from conftest import cards as card_list, game, hand, tiny_rules
from test_fastpath import fast, reference, screened
from test_properties import assert_agree

# The clean tiny hand of the violation tests: T1 AC takes the clubs (seat 3), T2 KD takes 7D 5D JD KD
# (seat 2), T3 KS takes 3S 8H 9S KS (seat 1), T4 6H takes 4H 5H 6H QS (seat 3): points 0 1 0 16.
DEAL = ["2C 5D QS 9S", "3C JD 4H KS", "QC KD 5H 3S", "AC 7D 6H 8H"]
PLAY = "0:2C 1:3C 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD  2:3S 3:8H 0:9S 1:KS  1:4H 2:5H 3:6H 0:QS"
HALF = "0:2C 1:3C 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD"


def cards(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def points(rules: Rules, taken: list[str], charged: str = "", moon=None):
    table = rules.table(len(taken))
    masks = [cards(t) for t in taken]
    return score_hand(table, masks, [1 if m else 0 for m in masks], charged=cards(charged))[1]


# -- scoring, from the taken cards -----------------------------------------------------
HEARTS_A = "2H 3H 4H 5H 6H"
HEARTS_B = "7H 8H 9H TH JH QH KH AH"
TAKEN = [HEARTS_A, HEARTS_B + " QS TC", "JD 2C", "3C 4C"]


@pytest.mark.parametrize("charged, expected", [
    ("", [5, (8 + 13) * 2, -10, 0]),           # TC doubles its taker's points
    ("AH", [10, (16 + 13) * 2, -10, 0]),       # every heart scores 2
    ("QS", [5, (8 + 26) * 2, -10, 0]),         # QS scores 26
    ("JD", [5, (8 + 13) * 2, -20, 0]),         # JD scores twice its value
    ("TC", [5, (8 + 13) * 4, -10, 0]),         # TC charged multiplies by 4
    ("AH QS JD TC", [10, (16 + 26) * 4, -20, 0]),
])
def test_turbo_scoring_doubles_each_charged_card(charged, expected):
    assert points(Rules.preset("turbo_hearts"), TAKEN, charged) == expected


@pytest.mark.parametrize("charged, expected", [
    ("", [-26, -10, 0, 0]),
    ("AH", [-(26 + 13), -10, 0, 0]),
    ("AH QS", [-(26 + 26), -10, 0, 0]),
    ("JD", [-26, -20, 0, 0]),
])
def test_turbo_moon_scores_the_shooters_points_negative(charged, expected):
    taken = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS", "JD", "2C", "3C"]
    assert points(Rules.preset("turbo_hearts"), taken, charged) == expected


def test_a_moon_shooter_taking_tc_has_its_moon_multiplied():
    taken = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS TC", "JD", "2C", "3C"]
    assert points(Rules.preset("turbo_hearts"), taken) == [-52, -10, 0, 0]
    assert points(Rules.preset("turbo_hearts"), taken, "TC") == [-104, -10, 0, 0]


def test_trend_moon_gives_the_shooter_four_times_its_deal_score_and_the_others_nothing():
    """As the Trend Hearts server scored the real log's moon (+312 = 4 x 78, 78 = 39 doubled by TC)."""
    taken = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS", "TC", "2C", "3C"]
    assert points(Rules.preset("trend_hearts"), taken) == [-104, 0, 0, 0]
    assert points(Rules.preset("trend_hearts"), taken, "AH") == [-156, 0, 0, 0]
    with_ten = ["2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS TC", "4C", "2C", "3C"]
    assert points(Rules.preset("trend_hearts"), with_ten, "AH") == [-312, 0, 0, 0]
    # the same cards under the other moon rule: the doubled hearts go to the others
    assert points(Rules.preset("trend_hearts", moon="add_to_others"), taken, "AH") == [0, 78, 39, 39]


def test_without_charges_or_multiplier_scoring_is_unchanged():
    standard = Rules.preset("standard", moon="add_to_others")
    assert points(standard, TAKEN) == [5, 21, 0, 0]
    assert (cards(HEARTS_B) & HEARTS_MASK).bit_count() == 8


# -- the replay: charges recorded on the hand ---------------------------------------------
def test_charged_cards_double_in_the_replay_and_the_recorded_points_are_checked():
    rules = tiny_rules(DEAL, charges=["QS", "JD"], jack_of_diamonds=-10)
    record = game(DEAL, PLAY, rules=rules, charged=card_list("QS JD"), points=(0, 1, -20, 29))
    result = replay_game(record)
    assert result.violations == () and result.hands[0].points == (0, 1, -20, 29)
    wrong = game(DEAL, PLAY, rules=rules, charged=card_list("QS"), points=(0, 1, -20, 29))
    assert [(v.code, v.seat) for v in replay_game(wrong).violations] == [("points-mismatch", 2)]


def test_a_charge_the_rules_do_not_list_is_reported_and_not_scored():
    rules = tiny_rules(DEAL, charges=["JD"])
    result = replay_game(game(DEAL, PLAY, rules=rules, charged=card_list("QS")))
    assert [(v.code, v.seat, v.card) for v in result.violations] == [("charge-invalid", 0, "QS")]
    assert result.hands[0].points == (0, 1, 0, 16)


def test_a_charge_that_is_not_a_card_is_refused_by_the_reader_naming_the_field():
    obj = game_to_dict(game(DEAL, PLAY, charged=card_list("QS")))
    obj["hands"][0]["charged"] = ["QS", "XX"]
    with pytest.raises(RecordError, match=r"hands\[0\]\.charged\[1\]"):
        game_from_dict(obj)


def test_charged_card_may_lead_its_suit_only_when_nothing_else_can_be_led():
    # seat 2 leads trick 3 holding 5H 3S: with 3S charged and spades never led, it must lead 5H
    rules = tiny_rules(DEAL, charges=["QS"], hearts_must_be_broken=False)
    record = game(DEAL, PLAY, rules=rules, charged=card_list("QS"))
    assert replay_game(record).violations == ()  # QS itself is discarded on a heart: allowed
    led_early = PLAY.replace("2:3S 3:8H 0:9S 1:KS", "2:3S 3:8H 0:QS 1:KS").replace("3:6H 0:QS", "3:6H 0:9S")
    found = [(v.code, v.trick, v.seat, v.card) for v in replay_game(game(DEAL, led_early, rules=rules,
                                                                            charged=card_list("QS"))).violations]
    assert found == [("charge-invalid", 3, 0, "QS")]
    # where charged cards need not wait (Trend Hearts' server), the same lead is legal, and still doubled
    free = tiny_rules(DEAL, charges=["QS"], hearts_must_be_broken=False, charged_cards_wait=False)
    result = replay_game(game(DEAL, led_early, rules=free, charged=card_list("QS")))
    assert result.violations == () and result.hands[0].points == (0, 1 + 26, 0, 3)


def test_trend_hearts_lets_an_exposed_ace_of_hearts_go_to_the_first_heart_trick():
    assert Rules.preset("trend_hearts").charged_cards_wait is False
    assert Rules.preset("turbo_hearts").charged_cards_wait is True


# -- claims --------------------------------------------------------------------------------
def test_a_claim_gives_the_claimer_every_card_not_yet_played():
    rules = tiny_rules(DEAL, claims=True, moon="none")  # (taking the rest, the claimer takes every point card)
    result = replay_game(game(DEAL, HALF, rules=rules, claim=3))
    assert result.violations == () and result.hands[0].points == (0, 0, 0, 4 + 13)
    assert result.hands[0].tricks_won == (0, 0, 1, 3)


def test_a_claim_under_rules_without_claims_leaves_the_hand_incomplete():
    result = replay_game(game(DEAL, HALF, rules=tiny_rules(DEAL), claim=3))
    codes = [v.code for v in result.violations]
    assert codes == ["hand-incomplete", "hand-incomplete"]
    assert "claims false" in result.violations[0].message


# -- fixed-length games ------------------------------------------------------------------------
def test_a_game_of_fixed_deals_ends_after_them_whatever_the_totals():
    rules = tiny_rules(DEAL, deals_per_game=2)
    two = game(hands=[hand(DEAL, PLAY), hand(DEAL, PLAY)], rules=rules, complete=True)
    result = replay_game(two)
    assert result.violations == () and result.complete and result.winners == (0, 2)
    three = game(hands=[hand(DEAL, PLAY)] * 3, rules=rules)
    assert [(v.code, v.hand) for v in replay_game(three).violations] == [("game-continued", 3)]
    one = game(hands=[hand(DEAL, PLAY)], rules=rules, complete=True)
    assert [v.code for v in replay_game(one).violations] == ["game-over-early"]
    assert "1 of its 2 deals" in replay_game(one).violations[0].message


def test_simulated_games_under_the_new_presets_have_their_deals_and_replay_clean():
    for name in ("trend_hearts", "turbo_hearts"):
        for record in simulate_games(2, Rules.preset(name), seed=3, bot=RandomBot):
            assert len(record.hands) == 4 and record.complete
            assert replay_game(record).violations == ()


# -- rule values, help and the fast path ---------------------------------------------------------
def test_rule_values_are_checked():
    with pytest.raises(RuleError, match="2C cannot be charged"):
        Rules.preset("standard", charges=["2C"])
    with pytest.raises(RuleError, match="ten_of_clubs"):
        Rules.preset("standard", ten_of_clubs=0)
    with pytest.raises(RuleError, match="deals_per_game"):
        Rules.preset("standard", deals_per_game=-1)
    assert Rules.preset("standard", charges="AH,QS").charges == ("AH", "QS")
    assert Rules.from_spec(Rules.preset("turbo_hearts").to_spec()) == Rules.preset("turbo_hearts")


@pytest.mark.parametrize("name", ["charges", "ten_of_clubs", "deals_per_game", "claims"])
def test_new_fields_are_described_in_plain_words(name):
    described = field_help(name)
    assert described.description and described.allowed and described.default


def test_the_fast_path_leaves_these_rules_to_the_reference_engine(tmp_path):
    rules = tiny_rules(DEAL, charges=["QS", "JD"], jack_of_diamonds=-10)
    charged = game(DEAL, PLAY, rules=rules, charged=card_list("QS JD"), points=(0, 1, -20, 16))
    claimed = game(DEAL, HALF, rules=tiny_rules(DEAL, claims=True), claim=3)
    plain = [dataclasses.replace(g, game_id=f"t-{i}") for i, g in
             enumerate(simulate_games(3, Rules.preset("turbo_hearts"), seed=1, bot=RandomBot))]
    games = [dataclasses.replace(charged, game_id="charged"), dataclasses.replace(claimed, game_id="claimed"),
             *plain]
    path = write_parquet_file(games, tmp_path / "charges.parquet", row_group_hands=4)
    reports = fast([path])
    assert reports == reference([path])
    assert [r["valid"] for r in reports][:2] == [False, True]
    assert screened([path]) == (0, len(games))


def test_the_independent_referee_agrees_on_charges_and_multipliers():
    rules = tiny_rules(DEAL, charges=["QS", "JD"], jack_of_diamonds=-10, ten_of_clubs=3)
    assert_agree(game(DEAL, PLAY, rules=rules, charged=card_list("QS JD"), points=(0, 1, -20, 29)))
    led_early = PLAY.replace("2:3S 3:8H 0:9S 1:KS", "2:3S 3:8H 0:QS 1:KS").replace("3:6H 0:QS", "3:6H 0:9S")
    assert_agree(game(DEAL, led_early, rules=rules, charged=card_list("QS")))
    for record in simulate_games(2, Rules.preset("turbo_hearts"), seed=8, bot=RandomBot):
        assert_agree(record)


def test_openspiel_export_names_what_it_cannot_carry():
    fit = parameters_for(Rules.preset("turbo_hearts"))
    assert any("charges" in u for u in fit.unplayable) and any("claims" in u for u in fit.unplayable)
    assert any("ten_of_clubs" in r for r in fit.rescored)
