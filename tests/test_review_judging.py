"""How a cost is judged: interchangeable passes, settling a class, fresh deals, and unclear verdicts."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from hearts_analysis.cards import iter_cards, mask_of
from hearts_analysis.review.evaluate import (BANDS, LOSS, NO_LOSS, UNSETTLED, FreshDeals, Settings, band,
                                             canonical_pass, confirm, judge_on_fresh_deals, pass_choices, settle)
from hearts_analysis.review.rollout import Outcomes
from hearts_analysis.rules import Rules

TABLE = Rules.preset("standard").table(4)
OMNIBUS = Rules.preset("omnibus").table(4)


@pytest.mark.parametrize("table", [TABLE, OMNIBUS], ids=["standard", "omnibus"])
@pytest.mark.parametrize("seed", range(6))
def test_every_pass_is_interchangeable_with_exactly_one_choice(table, seed):
    dealt = mask_of(random.Random(seed).sample(sorted(iter_cards(table.deck)), 13))
    choices = pass_choices(table, dealt, 3)
    assert len(set(choices)) == len(choices)
    assert all(c & ~dealt == 0 and c.bit_count() == 3 for c in choices)
    canonical = {canonical_pass(table, dealt, mask_of(cards)) for cards in combinations(iter_cards(dealt), 3)}
    assert canonical == set(choices)


def test_rank_neighbours_are_one_choice_but_a_scoring_card_stands_alone():
    dealt = mask_of([0, 1, 2, 10, 11, 12])  # 2C 3C 4C, QC KC AC: two runs, the other clubs between
    assert [c.bit_count() for c in pass_choices(TABLE, dealt, 1)] == [1, 1]
    assert len(pass_choices(TABLE, dealt, 2)) == 3
    omnibus_dealt = mask_of([13 + 8, 13 + 9, 13 + 10])  # TD JD QD: JD scores under omnibus
    assert len(pass_choices(TABLE, omnibus_dealt, 1)) == 1
    assert len(pass_choices(OMNIBUS, omnibus_dealt, 1)) == 3


@given(st.floats(-5, 20), st.floats(0, 0.5))
def test_an_interval_no_wider_than_twice_the_tolerance_always_settles(cost, margin):
    assert settle(cost, margin, 0.5) != UNSETTLED


@given(st.sampled_from(BANDS[1:]), st.floats(0, 1))
def test_an_interval_inside_one_class_settles_to_it(bounds, where):
    bottom, top, name = bounds
    top = min(top, 20.0)
    cost = bottom + (top - bottom) * (0.25 + 0.5 * where)
    margin = min(cost - bottom, top - cost) * 0.9
    assert settle(cost, margin, 0.0) == name == band(cost)


def _fresh(true_cost: float, noise: float, seed: int = 0):
    rng = np.random.default_rng(seed)

    def fresh(count, pair):
        best = rng.normal(5.0, noise, count)
        chosen = best + true_cost + rng.normal(0.0, noise, count)
        points = np.zeros((2, count, 4))
        points[0, :, 1], points[1, :, 1] = chosen, best
        return points
    return fresh


def test_a_clear_cost_settles_in_the_first_batch():
    cost, margin, verdict, deals = judge_on_fresh_deals(_fresh(4.5, 1.0), 1, 0, 1, Settings())
    assert verdict == "mistake" and deals == Settings().batch and abs(cost - 4.5) < margin


def test_a_noisy_cost_on_a_threshold_uses_the_whole_budget_and_stays_unsettled():
    def swinging(count, pair):  # the choice costs 7 on average, 27 or -13 deal by deal
        points = np.zeros((2, count, 4))
        points[0, :, 1] = 7.0 + 20.0 * (-1.0) ** np.arange(count)
        return points
    cost, margin, verdict, deals = judge_on_fresh_deals(swinging, 1, 0, 1, Settings(budget=512, batch=128))
    assert deals == 512 and verdict == UNSETTLED and cost == 7.0 and margin > 1.0


@pytest.mark.parametrize("seed", range(5))
def test_more_budget_does_not_change_a_settled_class(seed):
    small = judge_on_fresh_deals(_fresh(2.0, 3.0, seed), 1, 0, 1, Settings(budget=1024))
    large = judge_on_fresh_deals(_fresh(2.0, 3.0, seed), 1, 0, 1, Settings(budget=4096))
    assert small[2] == large[2] == "inaccuracy"


def _two_models(costs: dict[str, float], noise: float = 2.0):
    """Deals are numbers; each model's cost on a deal is its mean plus the deal's own noise (the same
    deal gives both models the same luck)."""
    rng = np.random.default_rng(3)
    seen = []

    def rollout(deals, pair, model):
        seen.append((model, deals[:, 0].copy()))
        points = np.zeros((2, len(deals), 4))
        points[0, :, 1] = costs[model] + noise * deals[:, 0]
        return Outcomes(points, np.zeros(points.shape, dtype=np.uint64))
    return FreshDeals(lambda count: rng.normal(size=(count, 4)), rollout, "basic"), seen


@pytest.mark.parametrize("other, noise, expected", [(0.0, 2.0, NO_LOSS), (2.5, 2.0, LOSS), (1.0, 20.0, UNSETTLED)])
def test_the_other_model_replays_the_same_deals_then_more_until_it_can_tell_a_loss(other, noise, expected):
    fresh, seen = _two_models({"basic": 4.0, "strong": other}, noise)
    verdict, deals = judge_on_fresh_deals(fresh, 1, 0, 1, Settings())[2:]
    assert verdict == ("mistake" if noise < 10 else UNSETTLED)
    second, other_cost, margin, judged = confirm(fresh, 1, 0, 1, Settings())
    models = [model for model, _ in seen]
    first = models.index("strong")
    assert set(models[:first]) == {"basic"} and set(models[first:]) == {"strong"}
    assert np.array_equal(seen[first][1], np.concatenate([d for _, d in seen[:first]])[:2 * Settings().batch])
    assert second == expected and abs(other_cost - other) < max(margin, 0.5)
    assert judged == (Settings().budget if expected == UNSETTLED else min(deals, 2 * Settings().batch))


def test_the_other_model_replays_at_most_two_batches_of_the_judging_deals():
    fresh, seen = _two_models({"basic": 3.0, "strong": 3.0}, 6.0)
    deals = judge_on_fresh_deals(fresh, 1, 0, 1, Settings())[3]
    assert deals > 2 * Settings().batch
    assert confirm(fresh, 1, 0, 1, Settings())[::3] == (LOSS, 2 * Settings().batch)
    assert np.array_equal(seen[-1][1], np.concatenate([d for _, d in seen[:-1]])[:2 * Settings().batch])


def test_the_reason_is_read_off_the_deals_that_measured_the_cost():
    """One number, one explanation: the options a flag's reason is worded from are those of the fresh
    deals that measured its cost, so their difference is the cost, whatever the choosing deals said."""
    from hearts_analysis.cards import QS, parse_card
    from hearts_analysis.review.decision import Option, _judged_pair
    rng = np.random.default_rng(5)

    def rollout(deals, pair, model):     # the chosen card takes the QS on the deals whose number is positive
        queen = deals[:, 0] > 0
        taken = np.zeros((2, len(deals), 4), dtype=np.uint64)
        taken[0, queen, 1] = np.uint64(1) << np.uint64(QS)
        points = np.zeros((2, len(deals), 4))
        points[0, queen, 1] = 13
        return Outcomes(points, taken)

    fresh = FreshDeals(lambda count: rng.normal(size=(count, 4)), rollout, "basic")
    cost = judge_on_fresh_deals(fresh, 1, 0, 1, Settings())[0]
    claimed = [Option((parse_card("KS"),), 13.0, 1.0, 0.0, 0.0), Option((parse_card("2S"),), 0.0, 0.0, 0.0, 0.0)]
    played, best = _judged_pair(Rules.preset("standard").table(4), fresh, 1,
                                [(parse_card("KS"),), (parse_card("2S"),)], 0, 1, claimed)
    assert 4.0 < cost < 9.0
    assert played.expected - best.expected == pytest.approx(cost)
    assert played.queen * 13 == pytest.approx(cost) and best.queen == 0.0


def test_a_page_has_one_judge_the_advice_stands_aside_where_the_review_judged_a_pass():
    from hearts_analysis.reports.extras import GameExtras
    passes = [{"hand": 1, "seat": 0, "to": 1, "cards": ["2C", "3C", "4C"], "verdicts": ["kept QS with only 2 spades"]},
              {"hand": 1, "seat": 1, "to": 2, "cards": ["AS", "KS", "QS"], "verdicts": ["passed a very low card"]}]
    review = {"decisions": [{"hand": 1, "trick": None, "seat": 0, "kind": "pass", "played": ["2C", "3C", "4C"],
                             "best": ["2C", "3C", "4C"], "cost": 0.0, "class": None}]}
    alone = GameExtras(analysis={"passes": passes})
    judged = GameExtras(analysis={"passes": passes}, review=review)
    assert [p["seat"] for p in alone.flagged_passes] == [0, 1]
    assert [p["seat"] for p in judged.flagged_passes] == [1]
    assert judged.pass_verdicts(1) == {0: [], 1: ["passed a very low card"]}


@pytest.mark.parametrize("direction", ["left", "right"])
def test_the_better_pass_never_breaks_passing_advice_the_played_pass_kept(direction):
    """One judge per page: a better pass that broke advice the played pass kept would be the rollout
    player's blind spot speaking against the advice shown beside it."""
    from hearts_analysis.review.advice import broken
    from hearts_analysis.review.evaluate import Position, review_pass
    quick = Settings(samples=64, pass_screen_samples=24, budget=128, confirm=False, game_context=False)
    named = 0
    for seed in range(8):
        rng = random.Random(seed)
        dealt = mask_of(rng.sample(sorted(iter_cards(TABLE.deck)), 13))
        played = mask_of(rng.sample(sorted(iter_cards(dealt)), 3))
        decision = review_pass(Position(TABLE, 1, (0, 0, 0, 0)), 0, dealt, played, direction, 3, quick)
        better = mask_of(decision.best)
        assert broken(dealt, better, direction) <= broken(dealt, played, direction)
        assert all(broken(dealt, mask_of(o.cards), direction) <= broken(dealt, played, direction)
                   for o in decision.options)
        named += better != played
    assert named >= 4


def _outcomes(per_alternative: list[np.ndarray], seat: int = 1):
    """Outcomes whose ``seat`` takes ``per_alternative[a][i]`` points with alternative ``a`` on deal ``i``."""
    from hearts_analysis.review.rollout import Outcomes
    points = np.zeros((len(per_alternative), len(per_alternative[0]), 4), np.int64)
    for a, row in enumerate(per_alternative):
        points[a, :, seat] = row
    return Outcomes(points, np.zeros(points.shape, np.uint64))


def test_a_choice_that_ties_the_lowest_is_named_at_no_cost():
    from hearts_analysis.review.decision import _judge
    luck = np.random.default_rng(0).integers(0, 14, 200)
    lower = luck.copy()
    lower[:4] -= 1                        # 0.02 points fewer: a tie by the tolerance and the deals
    outcomes = _outcomes([luck, lower, luck + 5])
    assert _judge(outcomes, 1, 0, Settings(), [(0,), (1,), (2,)]) == (0, 0.0, 0.0)


def test_most_like_the_choice_does_not_cross_suits_by_rank():
    from hearts_analysis.cards import parse_card
    from hearts_analysis.review.decision import _judge
    luck = np.random.default_rng(1).integers(0, 14, 200)
    two_clubs = luck.copy()
    two_clubs[:4] -= 1                   # the lowest, by a tie's margin
    outcomes = _outcomes([luck + 6, luck, two_clubs])          # AD played; KS and 2C tie for best
    alternatives = [(parse_card("AD"),), (parse_card("KS"),), (parse_card("2C"),)]
    best, cost, _ = _judge(outcomes, 1, 0, Settings(), alternatives)
    assert alternatives[best] == (parse_card("2C"),) and cost > 5


def _pass_decision(choosing: list[np.ndarray], fresh_cost: float):
    from hearts_analysis.review.decision import Position, _decision

    def fresh(count, pair):
        base = np.random.default_rng(count).integers(0, 14, count).astype(float)
        points = np.zeros((2, count, 4))
        points[0, :, 1], points[1, :, 1] = base + fresh_cost, base
        return points
    alternatives = [(0, 1, 2), (3, 4, 5)]
    return _decision(Position(TABLE, 1, (0, 0, 0, 0)), None, 1, "pass", None, _outcomes(choosing),
                     alternatives, 0, Settings(confirm=False), fresh)


@pytest.mark.parametrize("fresh_cost", [0.3, 2.0])
def test_a_claimed_cost_is_measured_on_deals_that_did_not_choose_the_alternative(fresh_cost):
    luck = np.random.default_rng(2).integers(0, 14, 200)
    decision = _pass_decision([luck + np.arange(200) % 2, luck], fresh_cost)   # the choosing deals claim 0.5
    assert decision.best == (3, 4, 5) and abs(decision.cost - fresh_cost) < 1e-9


def test_where_fresh_deals_find_the_alternative_saves_nothing_the_choice_is_named():
    luck = np.random.default_rng(3).integers(0, 14, 200)
    decision = _pass_decision([luck + 1, luck], -0.4)
    assert decision.best == decision.played == (0, 1, 2) and decision.cost == 0.0 and decision.category is None


def test_every_review_decision_that_costs_nothing_names_the_played_choice():
    from hearts_analysis.review import review_game
    from hearts_analysis.simulate import simulate_game
    game = simulate_game(Rules.preset("standard"), ["a", "b", "c", "d"], seed=5, max_hands=1)
    decisions = review_game(game, Settings(samples=60, pass_screen_samples=24, budget=256)).decisions
    unforced = [d for d in decisions if not d.forced]
    assert len(unforced) > 20
    assert all((d.cost == 0.0) == (d.best == d.played) for d in unforced)
