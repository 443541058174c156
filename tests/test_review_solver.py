"""Exact search: the memoised max^n solver equals brute force, and the kernel's search equals both."""

from __future__ import annotations

import copy
import random

import pytest

from hearts_analysis.cards import iter_cards, parse_card
from hearts_analysis.engine.scoring import score_hand
from hearts_analysis.kernel.compiled import TAKEN, facts, position, solve as solve_kernel
from hearts_analysis.review.solver import brute_force, solve, solve_cards

from review_positions import PRESET_RULES, RULE_IDS, crafted, random_position

# (tricks left, positions per rule set): thousands in all, the deep ones kept few for speed
CASES = [(1, 150), (2, 250), (3, 25), (4, 1)]


@pytest.mark.parametrize("tricks_left,count", CASES)
@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_solver_equals_brute_force(rules, tricks_left, count):
    rng = random.Random(f"{rules}:{tricks_left}")
    checked = 0
    for _ in range(count):
        state, _, _ = random_position(rules, rng, tricks_left)
        if state.is_over:
            continue
        assert solve(state) == brute_force(state)
        checked += 1
    assert checked >= count * 0.8


@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_the_kernels_search_equals_the_solver_and_its_line_scores_its_value(rules):
    rng = random.Random(f"lanes:{rules}")
    table = rules.table(4)
    for _ in range(150):
        state, _, _ = random_position(rules, rng, rng.choice([1, 2]))
        if state.is_over:
            continue
        values, final = solve_kernel(position(state), facts(table))
        assert tuple(values) == solve(state)
        line = [int(t) for t in final[TAKEN:TAKEN + 4]]
        assert sum(m.bit_count() for m in line) == table.hand_size * table.players
        assert tuple(score_hand(table, line, [1] * 4, "add_to_others")[1]) == tuple(values) or \
            table.rules.no_tricks_bonus


@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_the_kernels_search_equals_the_solver_on_many_deals_of_one_position(rules):
    # the hidden cards dealt again among the other seats in every deal, so
    # deals differ in which cards are equivalent and which seats must follow suit
    rng = random.Random(f"many:{rules}")
    for _ in range(12):
        state, _, _ = random_position(rules, rng, rng.choice([2, 3]))
        if state.is_over:
            continue
        seat = state.to_play
        others = [s for s in range(4) if s != seat]
        hidden = [card for s in others for card in iter_cards(state.hands[s])]
        deals = []
        for _ in range(24):
            rng.shuffle(hidden)
            hands, start = list(state.hands), 0
            for s in others:
                size = state.hands[s].bit_count()
                hands[s] = sum(1 << card for card in hidden[start:start + size])
                start += size
            deals.append(hands)
        for hands in deals:
            values, final = solve_kernel(position(state, hands), facts(state.table))
            dealt = copy.deepcopy(state)
            dealt.hands = list(hands)
            assert tuple(values) == solve(dealt)
            assert sum(int(t).bit_count() for t in final[TAKEN:TAKEN + 4]) == rules.table(4).hand_size * 4


def test_solve_cards_gives_each_alternative_and_the_best_matches_solve():
    rng = random.Random(7)
    for _ in range(200):
        state, _, _ = random_position(PRESET_RULES[0], rng, 2)
        if state.is_over:
            continue
        seat = state.to_play
        values = solve_cards(state)
        assert set(values) == set(iter_cards(state.legal_cards(seat)))
        best = min(values, key=lambda card: (values[card][seat], card))
        assert values[best] == solve(state)


def test_a_seat_with_a_choice_takes_the_one_that_costs_it_least():
    # 2 tricks left, seat 0 leads: after AC it wins the 2H trick too, and QS falls on it (15 points);
    # leading 2H gives the trick to KH and costs nothing more
    state, _ = crafted(["2H AC", "QS 3C", "4D 5D", "KH 2D"], 0, 12)
    before = score_hand(state.table, state.taken, state.tricks_won)[1][0]
    values = solve_cards(state)
    assert values[parse_card("2H")][0] == before
    assert values[parse_card("AC")][0] == before + 15
    assert solve(state) == values[parse_card("2H")]
