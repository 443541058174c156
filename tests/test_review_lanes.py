"""The numpy lanes against the reference engine: legality, tricks, scoring, and whole rollouts."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from hearts_analysis.cards import HEARTS_MASK, POINT_CARDS_MASK, QS_MASK, iter_cards, lowest, mask_of, parse_card
from hearts_analysis.engine.scoring import score_hand
from hearts_analysis.engine.state import HandState
from hearts_analysis.review.lanes import Lanes, hand_points, lowest as lanes_lowest
from hearts_analysis.review.policy import MODELS, choose_passes
from hearts_analysis.review.rollout import History, play_out, play_out_with_bots
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import deal

from review_positions import PRESET_RULES, RULE_IDS, random_position


def _deals(table, rng, count):
    hands = np.array([[mask_of(h) for h in deal(table, rng)] for _ in range(count)], np.uint64)
    leaders = [HandState.first_leader_for(table, [int(h) for h in row], 0) for row in hands]
    return hands, leaders


@pytest.mark.parametrize("players", [4, 3, 5])
@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_lanes_step_like_hand_states_through_whole_hands(rules, players):
    """Independent random games in lockstep: legal cards at every step, and the final points."""
    if "across" in (rules.pass_cycle or ()) and players % 2:
        rules = rules.replace(pass_cycle=["left", "right"])
    table = rules.table(players)
    rng = random.Random(f"{rules}:{players}")
    hands, leaders = _deals(table, rng, 60)
    lanes = Lanes(table, hands, np.array(leaders))
    states = [HandState(table, [int(h) for h in row], leader) for row, leader in zip(hands, leaders)]
    while not lanes.is_over:
        seat = lanes.mover()
        legal = lanes.legal(seat)
        cards = np.full(len(states), -1)
        for i, state in enumerate(states):
            if state.is_over:
                assert lanes.ended[i]
                continue
            assert seat[i] == state.to_play
            assert int(legal[i]) == state.legal_cards()
            cards[i] = rng.choice(list(iter_cards(state.legal_cards())))
            state.push(state.to_play, int(cards[i]))
        lanes.play(cards, seat)
    for i, state in enumerate(states):
        assert [int(t) for t in lanes.taken[i]] == state.taken
        want = score_hand(table, state.taken, state.tricks_won, "add_to_others")[1]
        assert list(lanes.points()[i]) == want


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_the_rollout_player_always_plays_a_legal_card(rules, model):
    table = rules.table(4)
    hands, leaders = _deals(table, random.Random(3), 300)
    lanes = Lanes(table, hands, np.array(leaders))
    while not lanes.is_over:
        seat = lanes.mover()
        legal = lanes.legal(seat)
        cards = MODELS[model].plays(lanes, seat, legal)
        live = ~lanes.ended
        assert ((legal[live] >> cards[live].astype(np.uint64)) & np.uint64(1)).all()
        lanes.play(np.where(live, cards, -1), seat)


def _hand(text):
    return mask_of(parse_card(c) for c in text.split())


def test_the_rollout_player_passes_its_danger_cards():
    hand = _hand("QS KS AS 2H 3H 4H 2C 3C 4C 5C 2D 3D 4D")
    assert int(choose_passes(np.array([hand], np.uint64), 3)[0]) == _hand("QS KS AS")
    guarded = _hand("QS KS AS 2S 3S 2H 3H 4H 2C 3C 4C 2D 3D")  # five spades guard the queen
    assert not int(choose_passes(np.array([guarded], np.uint64), 3)[0]) & QS_MASK


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=52, max_size=52), st.sampled_from(range(len(PRESET_RULES))))
def test_hand_points_match_the_scoring_module(owners, rule_index):
    rules = PRESET_RULES[rule_index]
    table = rules.table(4)
    taken = [0] * 4
    for card, owner in enumerate(owners):
        taken[owner] |= 1 << card
    won = [m.bit_count() // 4 for m in taken]
    got = hand_points(table, np.array([taken], np.uint64), np.array([won]))[0]
    assert list(got) == score_hand(table, taken, won, "add_to_others")[1]


@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_a_moon_is_scored_for_the_shooter(rules):
    table = rules.table(4)
    taken = [POINT_CARDS_MASK | 1, ~POINT_CARDS_MASK & ((1 << 52) - 1) & ~1, 0, 0]
    got = hand_points(table, np.array([taken], np.uint64), np.array([[5, 8, 0, 0]]))[0]
    assert list(got) == score_hand(table, taken, [5, 8, 0, 0], "add_to_others")[1]
    if rules.moon != "none":
        shooter = -26 if rules.moon == "subtract_from_shooter" else 0
        assert got[0] == shooter and got[2] == got[3] == 26 + shooter


class LowestBot:
    """Plays its lowest legal card: deterministic, so the fast and the bot paths must agree."""

    def __init__(self, rng):
        pass

    def choose_play(self, view, legal):
        return lowest(legal)

    def choose_pass(self, view, count):
        return mask_of(list(iter_cards(view.hand))[:count])


def _lowest_policy(lanes, seat, legal):
    return lanes_lowest(legal)


@pytest.mark.parametrize("exact_tricks", [0, 2])
@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_fast_rollouts_equal_bot_rollouts_for_the_same_player(rules, exact_tricks):
    """The vectorised engine and the simulator's engine, with the same deterministic player
    and the same exact endgame, give the same points and the same taken cards."""
    rng = random.Random(f"{rules}:{exact_tricks}")
    table = rules.table(4)
    for _ in range(12):
        state, plays, first = random_position(rules, rng, rng.randrange(1, 13))
        if state.is_over:
            continue
        cards = list(iter_cards(state.legal_cards()))
        hands = np.array([state.hands], np.uint64)
        fast = play_out(state, hands, cards, exact_tricks, _lowest_policy)
        slow = play_out_with_bots(table, History(first, tuple(plays)), state.to_play, hands, cards, LowestBot, 0,
                                  exact_tricks)
        assert np.array_equal(fast.points, slow.points)
        assert np.array_equal(fast.taken, slow.taken)


def test_lanes_resume_a_trick_in_progress():
    rng = random.Random(11)
    rules = Rules.preset("standard")
    for _ in range(50):
        state, _, _ = random_position(rules, rng, rng.randrange(2, 12))
        lanes = Lanes.from_state(state, np.array([state.hands] * 3, np.uint64))
        assert lanes.position == len(state.trick) and lanes.trick_number == state.trick_number
        assert (lanes.leader == state.leader).all()
        assert int(lanes.legal(lanes.mover())[0]) == state.legal_cards()
        assert int(lanes.trick[0]) == state.trick_cards
        assert int(lanes.taken[0][0]) == state.taken[0] and bool(lanes.broken[0]) == state.broken
        assert not int(lanes.hands[0].sum()) & HEARTS_MASK & state.played


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("exact_tricks", [0, 2])
def test_a_lane_whose_hand_ended_early_waits_while_the_others_play_on(model, exact_tricks):
    # only_hearts_lead ends_hand: in lane 0 the leader holds only hearts while they are unbroken and
    # takes every card left at once; lane 1, the same seats with other cards, is played out
    from hearts_analysis.review.rollout import finish
    table = Rules.preset("standard", only_hearts_lead="ends_hand").table(4)
    texts = [["2H 3H", "2C 3C", "4C 5C", "6C 7C"], ["2C 3H", "2H 3C", "4C 5C", "6C 7C"]]
    hands = np.array([[mask_of(parse_card(c) for c in text.split()) for text in lane] for lane in texts], np.uint64)
    taken = np.zeros_like(hands)
    taken[:, 1] = mask_of(iter_cards((1 << 52) - 1)) & ~np.bitwise_or.reduce(hands[0]).item()
    lanes = Lanes(table, hands, np.array([0, 0]), taken=taken, won=np.array([[0, 11, 0, 0]] * 2),
                  broken=np.array([False, False]), trick_number=12)
    assert lanes.ended.tolist() == [True, False]
    points, _ = finish(lanes, exact_tricks, MODELS[model].plays)
    assert points[0].tolist() == [2, 24, 0, 0]
    assert points[1].sum() == 26
