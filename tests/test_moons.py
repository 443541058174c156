"""The moon-attempt detector on labelled crafted hands and on simulated corpora."""

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from analysis_games import (ABANDON_DEAL, ABANDON_PLAY, ACCIDENT_DEAL, ACCIDENT_PLAY, NEAR_DEAL, NEAR_PLAY,
                            SHOT_PLAY, STOPPED_PLAY, SUN_DEAL, SUN_PLAY, run_game)
from hearts_analysis.analysis import analyze_game
from hearts_analysis.analysis.game import analysis_to_dict
from hearts_analysis.analysis.moons import control_plays, judge_choice
from hearts_analysis.analysis.trace import Play, Trick
from hearts_analysis.cards import POINT_CARDS_MASK, mask_of, parse_card
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import choose_moon, simulate_game, simulate_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from moon_bots import labelled_factory, runs_of  # noqa: E402


def moons_of(record):
    return analysis_to_dict(analyze_game(record))["moons"]


def test_a_run_that_is_shot_with_a_missed_stop_on_the_way():
    [moon] = moons_of(run_game(SHOT_PLAY))
    assert moon == {
        "hand": 1, "seat": 0, "outcome": "shot", "stopper": None, "trick": None, "start_trick": 4, "taker": None,
        "card": None, "giver": None, "points_at_end": 23, "cost": 0, "sun": False, "near_miss": False,
        "choice": "add_to_others", "better_choice": "add_to_others", "choice_correct": True,
        "missed_stops": [{"seat": 3, "trick": 5, "card": "AH"}],
    }


def test_a_run_stopped_by_the_seat_that_takes_a_heart():
    [moon] = moons_of(run_game(STOPPED_PLAY))
    assert (moon["outcome"], moon["stopper"], moon["trick"], moon["card"], moon["giver"]) == ("stopped", 3, 5, "QH", 0)
    assert (moon["start_trick"], moon["points_at_end"], moon["cost"], moon["missed_stops"]) == (4, 6, 6, [])
    assert moon["choice"] is None and moon["choice_correct"] is None


def test_a_run_the_runner_gives_up_by_ducking():
    [moon] = moons_of(run_game(ABANDON_PLAY, ABANDON_DEAL))
    assert (moon["outcome"], moon["stopper"], moon["taker"], moon["trick"]) == ("abandoned", None, 2, 6)
    assert (moon["card"], moon["giver"], moon["points_at_end"], moon["cost"]) == ("8H", 3, 6, 21)


def test_holding_every_point_by_accident_is_not_an_attempt():
    analysis = analyze_game(run_game(ACCIDENT_PLAY, ACCIDENT_DEAL))
    assert analysis.hands[0].moon is None


def test_shooting_the_sun_and_a_near_miss():
    sun = analyze_game(run_game(SUN_PLAY, SUN_DEAL)).hands[0]
    assert sun.sun == 0 and sun.moon.outcome == "shot" and sun.moon.sun and sun.moon.start_trick == 2
    near = analyze_game(run_game(NEAR_PLAY, NEAR_DEAL)).hands[0]
    assert near.near_miss == 0 and near.sun is None and near.moon is None
    assert analyze_game(run_game(SHOT_PLAY)).hands[0].near_miss is None


def test_control_plays_are_plays_to_win_where_a_duck_was_possible():
    trace = analyze_game(run_game(SHOT_PLAY)).hands[0].trace
    played = 0
    found = []
    for trick in trace.tricks:
        found.append(control_plays(trick, played, free_first_trick=True))
        played |= trick.cards
    # trick 1 is free; KD over 6D holding 2D; AD a sure winner holding 2D; KH and QH are not sure
    # (AH is out), and seat 3, last, lets both tricks go with AH in hand; trick 6: 2D, nothing lower.
    # Points taken on purpose: KH led over QH, and it won; QH had no lower heart to lead instead.
    assert found == [([], [], []), ([0], [], []), ([0], [], []), ([], [3], [0]), ([], [3], []), ([], [], [])]


def trick_of(number: int, text: str, held: dict[int, str]) -> Trick:
    plays = tuple(Play(int(seat), parse_card(card), mask_of(parse_card(c) for c in held[int(seat)].split()))
                  for seat, _, card in (token.partition(":") for token in text.split()))
    suit = plays[0].card // 13
    winner = max((p for p in plays if p.card // 13 == suit), key=lambda p: p.card).seat
    return Trick(number, plays, winner, mask_of(p.card for p in plays))


def test_which_plays_are_control_plays_and_which_let_a_sure_trick_go():
    held = {0: "4C 9C", 1: "3C KC", 2: "2C 5C", 3: "AC 6C"}
    first = trick_of(1, "0:4C 1:KC 2:2C 3:AC", held)
    # KC over 4C holding 3C is a play to win; AC is the last card of a clean trick: free
    assert control_plays(first, 0, free_first_trick=True) == ([], [], [])
    assert control_plays(first, 0, free_first_trick=False) == ([1], [], [])
    later = trick_of(5, "0:9C 1:KC 2:5C 3:AC", held)
    # the lead 9C is not sure (KC, AC still out); 5C is under 9C; AC last on a clean trick: free
    assert control_plays(later, 0, free_first_trick=True) == ([1], [], [])
    with_points = trick_of(5, "0:9C 1:KC 2:QH 3:AC", {**held, 2: "QH"})
    # AC takes points on purpose: over QH in sight, holding 6C, and it wins; KC saw no point card
    assert control_plays(with_points, 0, free_first_trick=True) == ([1, 3], [], [3])
    sure = trick_of(5, "3:AC 0:4C 1:3C 2:2C", held)
    assert control_plays(sure, 0, free_first_trick=True) == ([3], [], [])        # a sure winner over 6C
    alone = trick_of(5, "3:AC 0:4C 1:3C 2:2C", {**held, 3: "AC"})
    assert control_plays(alone, 0, free_first_trick=True) == ([], [], [])        # nothing lower to lead instead
    ducked = trick_of(5, "0:9C 1:3C 2:2C 3:6C", held)
    # seat 3 plays last under 9C holding AC: a sure trick let go (seat 1's KC was not sure: AC out)
    assert control_plays(ducked, 0, free_first_trick=True) == ([], [3], [])
    led_low = trick_of(5, "3:6C 0:9C 1:3C 2:2C", held)
    # seat 3 leads a loser holding AC, a sure winner; seat 0 plays over 6C holding 4C
    assert control_plays(led_low, 0, free_first_trick=True) == ([0], [3], [])
    hearts = {0: "2H 9H", 1: "3H KH", 2: "4H", 3: "5H"}
    # a heart led over a lower one, that wins: its points taken on purpose; KH over it, holding 3H, too
    assert control_plays(trick_of(5, "0:9H 1:3H 2:4H 3:5H", hearts), 0, True) == ([], [], [0])
    assert control_plays(trick_of(5, "0:9H 1:KH 2:4H 3:5H", hearts), 0, True) == ([1], [], [1])
    # the lowest heart led wins nothing on purpose
    assert control_plays(trick_of(5, "0:2H 1:3H 2:4H 3:5H", hearts), 0, True) == ([], [], [])


# Seat 0 takes two clean tricks it could have ducked (AD over 5D holding 3D; KD, a sure winner), and seat 1
# throws QS on the second: 13 points, every point card so far, and two control plays; then it leads its 3D and
# loses, and takes nothing else. Nothing it took was taken on purpose.
FORCED_QS_DEAL = ["2C AD KD 3D 4H", "3C 2S QS 2H 5H", "4C 4D 3S 3H 6H", "5C 5D 6D 7D 8H"]
FORCED_QS_PLAY = "0:2C 1:3C 2:4C 3:5C  3:5D 0:AD 1:2S 2:4D  0:KD 1:QS 2:3S 3:6D  0:3D 1:2H 2:3H 3:7D  3:8H 0:4H 1:5H 2:6H"
# Seat 0 leads AH, then KH, each a sure winner over its 2H: eight heart points taken on purpose while holding
# the top hearts; seat 3 stops it with 9H in trick 5.
TOP_HEARTS_DEAL = ["2C AD AH KH 2H", "3C QS 3D 3H 4H", "4C 4D 5H 6H 2S", "5C 5D 7H 8H 9H"]
TOP_HEARTS_PLAY = ("0:2C 1:3C 2:4C 3:5C  3:5D 0:AD 1:3D 2:4D  0:AH 1:3H 2:5H 3:7H  0:KH 1:4H 2:6H 3:8H  "
                   "0:2H 1:QS 2:2S 3:9H")


def test_eating_the_queen_by_force_is_not_a_run():
    hand = analyze_game(run_game(FORCED_QS_PLAY, FORCED_QS_DEAL)).hands[0]
    assert hand.result.points == (13, 0, 0, 6) and hand.moon is None


def test_winning_point_tricks_with_the_top_hearts_is_a_run():
    hand = analyze_game(run_game(TOP_HEARTS_PLAY, TOP_HEARTS_DEAL)).hands[0]
    moon = hand.moon
    assert (moon.seat, moon.start_trick, moon.outcome, moon.trick, moon.stopper, moon.points_at_end) == \
        (0, 4, "stopped", 5, 3, 8)


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_the_statistics_count_the_same_runs(tmp_path, suffix):
    from hearts_analysis.analysis.stats import tally_paths
    from hearts_analysis.records.sources import write_any
    games = [run_game(TOP_HEARTS_PLAY, TOP_HEARTS_DEAL), run_game(FORCED_QS_PLAY, FORCED_QS_DEAL)]
    games = [replace(g, game_id=f"g{i}", players=("ann", "bob", "cat", "dan")) for i, g in enumerate(games)]
    write_any(games, tmp_path / f"games{suffix}")
    players = tally_paths([tmp_path / f"games{suffix}"]).players
    assert {name: players[name]["moon_attempts"] for name in ("ann", "bob", "cat", "dan")} == \
        {"ann": 1, "bob": 0, "cat": 0, "dan": 0}
    assert players["ann"]["moons_stopped"] == 1


@pytest.mark.parametrize("before, better, correct", [
    ((0, 0, 0, 0), "add_to_others", True),          # the game goes on and the shooter leads
    ((80, 10, 10, 10), "subtract_from_shooter", False),   # goes on, shooter behind: do not hasten the end
    ((50, 80, 20, 60), "subtract_from_shooter", False),   # +23 ends it (103) with seat 2 lowest
    ((10, 80, 85, 90), "add_to_others", True),       # +23 ends it with the shooter alone lowest
    ((10, 100, 50, 50), "either", None),             # already over either way, the shooter lowest
])
def test_the_moon_choice_judged_on_totals_and_target(before, better, correct):
    record = run_game(SHOT_PLAY)   # the shooter, seat 0, is scored add_to_others
    analysis = analyze_game(record)
    table = record.rules.table(4)
    choice = judge_choice(table, before, analysis.hands[0].result)
    assert (choice.choice, choice.better, choice.correct) == ("add_to_others", better, correct)


def test_no_choice_to_judge_when_the_rules_fix_it():
    record = run_game(SHOT_PLAY, moon="add_to_others")
    analysis = analyze_game(record)
    assert analysis.hands[0].moon.choice is None


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), table=st.sampled_from([
    ("standard", 3), ("standard", 4), ("standard", 5), ("omnibus", 4), ("black_queen", 4), ("openspiel", 4),
    ("basic", 3)]))
def test_simulated_games_every_shot_is_found_and_every_attempt_is_consistent(seed, table):
    preset, players = table
    record = simulate_game(Rules.preset(preset), [f"p{i}" for i in range(players)], seed)
    table = record.rules.table(players)
    before = (0,) * players
    for hand in analyze_game(record).hands:
        result, moon = hand.result, hand.moon
        if result.moon is not None:
            assert moon is not None and moon.seat == result.moon.seat and moon.outcome == "shot"
            if moon.choice is not None:    # the simulator scores each shot with the better option
                assert choose_moon(table, result.taken, moon.seat, before) == result.moon.choice
                assert moon.choice.correct in (True, None)
        elif moon is not None:
            assert moon.outcome in ("stopped", "abandoned")
            assert moon.start_trick < moon.trick if moon.trick else True
            taker = moon.taker
            assert taker is not None and taker != moon.seat
            assert moon.stopper in (None, taker)
            if moon.trick is not None and moon.trick <= len(hand.trace.tricks):
                ended = hand.trace.tricks[moon.trick - 1]
                assert ended.winner == taker and ended.cards & POINT_CARDS_MASK and ended.cards >> moon.card & 1
        for missed in moon.missed if moon else ():
            assert missed.seat != moon.seat and missed.trick > moon.start_trick
        before = result.totals


def test_labelled_runs_are_found_and_nothing_else_is():
    found = truth = hits = 0
    for index in range(30):
        bots: list = []
        record = simulate_game(Rules(), ["a", "b", "c", "d"], random.Random(f"moons:{index}"),
                               labelled_factory("moonbot", bots))
        runs = runs_of(bots)
        for hand in analyze_game(record).hands:
            shooter = None if hand.result.moon is None else hand.result.moon.seat
            real = {seat for seat in range(4) if (hand.number, seat) in runs or seat == shooter}
            truth += len(real)
            if hand.moon is not None:
                found += 1
                hits += hand.moon.seat in real
    assert truth > 50
    assert hits == found                 # precision: every attempt found was a real one
    # recall, failed attempts included (68 of 101): a run stopped before the bot took points on purpose shows
    # no evidence of running
    assert hits >= 0.6 * truth


def test_the_same_corpus_gives_the_same_attempts():
    games = list(simulate_games(3, Rules(), 4, seed=5))
    first = [analysis_to_dict(analyze_game(g))["moons"] for g in games]
    again = [analysis_to_dict(analyze_game(replace(g)))["moons"] for g in games]
    assert first == again
