"""Pass reviews: the cards, what the pass did to the hand, what became of the cards, the advisor."""

import math

import pytest

from analysis_games import pass_game, with_players
from hearts_analysis.analysis import analyze_game
from hearts_analysis.analysis.game import analysis_to_dict
from hearts_analysis.analysis.passes import ADVICE, advise
from hearts_analysis.analysis.stats import tally_games
from hearts_analysis.cards import mask_of, parse_card


def m(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def verdicts(dealt: str, given: str, direction: str = "left", mooning: bool = False) -> list[tuple[str, str]]:
    return [(v.code, v.message) for v in advise(m(dealt), m(given), direction, mooning)]


FILLER = "4C 6C 8C 4D 6D 8D"   # middle cards that draw no verdict


@pytest.mark.parametrize("dealt, given, direction, expected", [
    # fewer than four spades: QS must go
    ("QS 5S " + FILLER, "8C 8D 6D", "left", [("kept-queen-short", "kept QS with only 2 spades")]),
    ("QS 5S 6S 7S " + FILLER, "8C 8D 6D", "left", []),
    ("QS 5S " + FILLER, "QS 8D 6D", "left", []),
    # ... and AS / KS too, except passing right while holding a spade below the queen
    ("AS KS 5S " + FILLER, "8C 8D 6D", "left", [("kept-high-spade-short", "kept AS KS with only 3 spades")]),
    ("AS KS 5S " + FILLER, "8C 8D 6D", "right", []),
    ("AS KS " + FILLER, "8C 8D 6D", "right", [("kept-high-spade-short", "kept AS KS with only 2 spades")]),
    ("KS " + FILLER, "KS 8D 6D", "across", []),
    # keep the 2s and 3s
    ("2C 3D " + FILLER, "2C 8D 6D", "left", [("passed-low-card", "passed a very low card (2C)")]),
    ("2C 3D " + FILLER, "2C 3D 6D", "left", [("passed-low-card", "passed a very low card (3D 2C)")]),
    # the top three hearts
    ("AH KH QH 4H " + FILLER, "AH KH QH", "left",
     [("passed-top-hearts", "passed its top three hearts (AH KH QH), passing left")]),
    ("AH KH QH 4H " + FILLER, "AH KH 8D", "left", []),
    ("KH QH 4H " + FILLER, "KH QH 4H", "across", [("passed-top-hearts", "passed its top three hearts (KH QH 4H), passing across")]),
    # a singleton AH
    ("AH " + FILLER, "AH 8D 6D", "left", [("passed-singleton-ace-of-hearts", "passed a singleton AH")]),
    ("AH 5H " + FILLER, "AH 8D 6D", "left", []),
    # a long, strong heart suit with low hearts: only the second-highest heart may go
    ("AH KH 9H 5H 4H " + FILLER, "KH 8D 6D", "left", []),
    ("AH KH 9H 5H 4H " + FILLER, "AH 8D 6D", "left",
     [("broke-long-hearts", "passed AH from a long, strong heart suit (pass only the second-highest heart)")]),
    ("AH KH 9H 7H 6H " + FILLER, "AH 8D 6D", "left", []),   # no low heart: not the case the advice covers
    # spades below the queen
    ("9S 8S 7S 6S " + FILLER, "9S 8D 6D", "left", [("passed-low-spade", "passed a spade below the queen (9S)")]),
])
def test_the_passing_advice(dealt, given, direction, expected):
    assert verdicts(dealt, given, direction) == expected


def test_going_for_the_moon_excuses_low_cards_and_low_spades_but_not_hearts():
    dealt = "2C 9S 8S 7S 6S AH KH 9H 5H 4H"
    assert [c for c, _ in verdicts(dealt, "2C 9S KH")] == ["passed-low-card", "passed-low-spade"]
    assert [c for c, _ in verdicts(dealt, "2C 9S KH", mooning=True)] == ["broke-long-hearts"]


def test_every_advice_code_is_documented_once():
    assert len(ADVICE) == 7 and all(a.rule for a in ADVICE.values())


def test_each_pass_reviewed_with_what_became_of_the_cards():
    # Seat 0 passes QS left to seat 1, which dumps it back on seat 0's diamond trick.
    passes = analysis_to_dict(analyze_game(pass_game()))["passes"]
    keys = ("seat", "to", "direction", "cards", "verdict_codes", "voids", "spade_guards", "kept_qs", "qs_passed",
            "back_points", "receiver_took", "points", "receiver_points")
    assert [tuple(p[k] for k in keys) for p in passes] == [
        (0, 1, "left", ["QS"], [], [], 1, False, True, 13, 0, 15, 1),
        (1, 2, "left", ["2H"], ["kept-high-spade-short", "passed-low-card"], ["H"], 0, False, False, 0, 0, 1, 0),
        (2, 3, "left", ["4S"], ["passed-low-spade"], ["S"], 0, False, False, 0, 0, 0, 0),
        (3, 0, "left", ["8D"], ["kept-high-spade-short"], ["D"], 0, False, False, 0, 0, 0, 15),
    ]
    assert passes[1]["verdicts"] == ["kept AS with only 1 spade", "passed a very low card (2H)"]


def test_no_passes_on_a_hold_hand():
    record = pass_game(pass_cycle=["hold"])
    analysis = analyze_game(record)
    assert analysis.hands[0].passes == ()


def test_pass_tendencies_and_points_after_each_kind_of_pass():
    tally = tally_games([with_players(pass_game(), "ann", "bob", "cat", "dan")])
    summary = tally.pass_summary_frame().set_index("player")
    assert summary.loc["ann", "passes"] == 1 and summary.loc["ann", "qs_pass_pct"] == 100
    assert math.isnan(summary.loc["ann", "as_pass_pct"])          # ann was not dealt AS
    assert summary.loc["bob", "as_pass_pct"] == 0                   # bob kept his AS
    assert summary.loc["bob", "void_pass_pct"] == 100 and summary.loc["bob", "flagged_pass_pct"] == 100
    assert summary.loc["bob", "verdicts_per_pass"] == 2 and summary.loc["ann", "points_per_hand"] == 15
    assert summary.loc["cat", "low_spade_pass_pct"] == 100
    outcomes = tally.pass_outcomes_frame()
    ann = outcomes[outcomes.player == "ann"].set_index("kind")
    assert list(ann.index) == ["any", "qs"]
    assert ann.loc["qs", ["passes", "points_per_hand", "back_points_per_pass", "receiver_points_per_hand"]].tolist() == [1, 15, 13, 1]
    assert set(outcomes[outcomes.player == "bob"].kind) == {"any", "void", "flagged"}
