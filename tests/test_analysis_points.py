"""Points taken, point cards, positions and standings, checked by hand on crafted hands."""

from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from analysis_games import (ACCIDENT_DEAL, ACCIDENT_PLAY, SHOT_PLAY, STOPPED_PLAY, run_game)
from conftest import game, hand, tiny_rules
from hearts_analysis.analysis import analyze_game, tables
from hearts_analysis.analysis.catalogue import TABLES
from hearts_analysis.analysis.game import analysis_to_dict
from hearts_analysis.analysis.points import positions
from hearts_analysis.cards import HEARTS_MASK
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games


def seat_rows(analysis, hand_index=0):
    return [(s.hearts, s.qs, s.jd, s.qc_cancel, s.tricks_won, s.points_before_moon, s.points, s.total,
             s.position, s.points_given) for s in analysis.hands[hand_index].seats]


def test_a_plain_hand_seat_by_seat():
    # Trick 3: 2H 6H to seat 0; trick 4: KH 3H 4H 7H to seat 0; trick 5: QH 5H AH to seat 3;
    # trick 6: 8H and QS (played by seat 1) to seat 3.
    analysis = analyze_game(run_game(STOPPED_PLAY))
    assert analysis.result.valid
    assert seat_rows(analysis) == [
        (6, False, False, False, 3, 6, 6, 6, 3, 1),    # gave QH to seat 3
        (0, False, False, False, 0, 0, 0, 0, 1, 15),   # gave 2H, 3H, QS
        (0, False, False, False, 0, 0, 0, 0, 1, 3),    # gave 6H, 4H, 5H
        (4, True, False, False, 3, 17, 17, 17, 4, 1),  # gave 7H to seat 0
    ]


def test_every_point_card_with_its_trick_giver_and_taker():
    analysis = analyze_game(run_game(ACCIDENT_PLAY, ACCIDENT_DEAL))
    cards = [(c["card"], c["trick"], c["from"], c["to"]) for c in analysis_to_dict(analysis)["hands"][0]["point_cards"]]
    assert cards == [("QS", 2, 1, 0), ("4H", 4, 3, 3), ("2H", 4, 1, 3), ("3H", 4, 2, 3)]
    frame = tables.point_cards_frame([analysis])
    assert list(frame[["card", "trick", "giver", "taker"]].itertuples(index=False, name=None)) == cards


def test_points_before_and_after_the_moon():
    analysis = analyze_game(run_game(SHOT_PLAY))
    rows = seat_rows(analysis)
    assert [r[5] for r in rows] == [23, 0, 0, 0]       # 10 hearts and QS in this deck
    assert [r[6] for r in rows] == [0, 23, 23, 23]     # add_to_others, inferred
    assert [r[8] for r in rows] == [1, 2, 2, 2]
    frame = tables.points_frame([analysis])
    assert frame["moon"].tolist() == [True, False, False, False]
    assert frame["points_before_moon"].sum() == 23


JD_QC_DEAL = ["2C QC AD 4D", "3C JD QS 5S", "4C 2H 2S 4H", "5C 3D 3H 5D"]
JD_QC_PLAY = "0:2C 1:3C 2:4C 3:5C  3:3D 0:AD 1:JD 2:2H  0:QC 1:QS 2:2S 3:3H  0:4D 1:5S 2:4H 3:5D"


def test_jack_of_diamonds_and_queen_of_clubs_cancelling_the_queen():
    # Seat 0 takes JD (trick 2), QC with QS and 3H (trick 3), 2H: 2 hearts + 0 for QS + JD -10 = -8.
    rules = tiny_rules(JD_QC_DEAL, preset="omnibus", queen_of_clubs_cancels_queen=True)
    analysis = analyze_game(game(JD_QC_DEAL, JD_QC_PLAY, rules=rules))
    assert analysis.result.valid
    assert seat_rows(analysis)[0] == (2, True, True, True, 2, -8, -8, -8, 1, 0)
    assert seat_rows(analysis)[3] == (1, False, False, False, 2, 1, 1, 1, 4, 1)   # gave 3H to seat 0
    data = analysis_to_dict(analysis)["hands"][0]
    assert data["jd"] == 0 and data["qc_cancel"] == [0] and data["qs"] == 0
    assert {c["card"] for c in data["point_cards"]} == {"JD", "QC", "QS", "2H", "3H", "4H"}


@pytest.mark.parametrize("totals, expected", [
    ((10, 3, 10, 0), (3, 2, 3, 1)), ((0, 0, 0, 0), (1, 1, 1, 1)), ((5, 4, 3), (3, 2, 1)), ((-26, 0, 0, 1), (1, 2, 2, 4)),
])
def test_positions_share_the_better_place_on_ties(totals, expected):
    assert positions(totals) == expected


def test_running_totals_positions_and_finishing_positions_over_two_hands():
    rules = tiny_rules(ACCIDENT_DEAL, target=15)
    first = hand(ACCIDENT_DEAL, ACCIDENT_PLAY)     # 13, 0, 0, 3
    record = game(hands=[first, first], rules=rules)
    analysis = analyze_game(record)
    assert [s.total for s in analysis.hands[1].seats] == [26, 0, 0, 6]
    assert [s.position for s in analysis.hands[0].seats] == [4, 1, 1, 3]
    standings = tables.standings_frame([analysis])
    assert standings["final_total"].tolist() == [26, 0, 0, 6]
    assert standings["finish"].tolist() == [4, 1, 1, 3]
    assert standings["winner"].tolist() == [False, True, True, False]
    assert standings["complete"].all() and standings["hands_played"].eq(2).all()


def test_hearts_broken_and_who_broke_them():
    analysis = analyze_game(run_game(ACCIDENT_PLAY, ACCIDENT_DEAL))
    assert analysis.hands[0].hearts_broken == (2, 1)   # QS breaks hearts under heart_or_queen
    only_hearts = analyze_game(game(ACCIDENT_DEAL, ACCIDENT_PLAY,
                                    rules=tiny_rules(ACCIDENT_DEAL, hearts_broken_by="heart")))
    assert only_hearts.hands[0].hearts_broken == (4, 3)
    assert tables.points_frame([only_hearts])["broke_hearts"].tolist() == [False, False, False, True]


SWEEP_DEAL = ["2C 2D 3D", "3C 4D QS", "4C 5D 2S", "AC 4H 5H"]


def test_cards_swept_up_when_a_leader_holds_only_hearts():
    # black_queen: seat 3 wins trick 1 and must lead holding only hearts while unbroken: it takes
    # every remaining card, so 4H 5H (its own) and QS (seat 1's) fall "in trick 2" -- and that is a moon.
    record = game(SWEEP_DEAL, "0:2C 1:3C 2:4C 3:AC", rules=tiny_rules(SWEEP_DEAL, preset="black_queen"))
    analysis = analyze_game(record)
    assert analysis.result.valid
    cards = sorted((c.card, c.trick, c.giver, c.taker) for c in analysis.hands[0].point_cards)
    from hearts_analysis.cards import parse_card
    assert cards == sorted([(parse_card("4H"), 2, 3, 3), (parse_card("5H"), 2, 3, 3), (parse_card("QS"), 2, 1, 3)])
    assert analysis.hands[0].seats[3].tricks_won == 3
    moon = analysis.hands[0].moon
    assert (moon.seat, moon.outcome, moon.start_trick, moon.sun) == (3, "shot", 2, True)


@pytest.mark.parametrize("name", sorted(tables.ROWS))
def test_each_table_has_the_catalogue_columns_and_dtypes(name):
    analyses = [analyze_game(run_game(SHOT_PLAY)), analyze_game(run_game(STOPPED_PLAY))]
    frame = tables.table(name, analyses)
    spec = TABLES[name].columns
    assert list(frame.columns) == [s.name for s in spec]
    for s in spec:
        assert str(frame[s.name].dtype) == str(pd.Series([], dtype=s.dtype).dtype), s.name
    empty = tables.table(name, [])
    assert list(empty.columns) == list(frame.columns) and len(empty) == 0


SIMULATED = list(simulate_games(4, Rules(), 4, seed=21)) + list(simulate_games(2, Rules.preset("black_queen"), 4, seed=21))


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_games_with_violations_are_analysed_with_the_engines_points(data):
    record = data.draw(st.sampled_from(SIMULATED))
    index = data.draw(st.integers(0, len(record.hands) - 1))
    original = record.hands[index]
    plays = list(original.plays)
    kind = data.draw(st.sampled_from(["card", "seat", "cut", "repeat"]))
    at = data.draw(st.integers(0, len(plays) - 1))
    if kind == "card":
        plays[at] = (plays[at][0], data.draw(st.integers(0, 51)))
    elif kind == "seat":
        plays[at] = ((plays[at][0] + 1) % record.seats, plays[at][1])
    elif kind == "cut":
        plays = plays[:at]
    else:
        plays += plays[:at % 5 + 1]
    mutated = replace(record, hands=record.hands[:index] + (replace(original, plays=tuple(plays)),)
                      + record.hands[index + 1:])
    analysis = analyze_game(mutated)
    for analysed in analysis.hands:
        seats, result = analysed.seats, analysed.result
        assert [s.points for s in seats] == list(result.points)
        assert [s.tricks_won for s in seats] == list(result.tricks_won)
        assert sum(s.hearts for s in seats) == sum((t & HEARTS_MASK).bit_count() for t in result.taken)
    analysis_to_dict(analysis)
    for name in tables.ROWS:
        list(tables.ROWS[name](analysis))
