"""Deals weighted by the others' plays look more like the real deal than uniform ones (simulated games)."""

from __future__ import annotations

import numpy as np
import pytest

from hearts_analysis.cards import QS, SUIT_MASKS
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.engine.state import HandState
from hearts_analysis.review.deal_weights import inferred_hands, play_log_likelihood
from hearts_analysis.review.opponents import start_hands
from hearts_analysis.review.information_set import at_play, observe
from hearts_analysis.kernel.masks import BIT, SUIT, popcount
from hearts_analysis.review.sampling import sample_hands
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import HeuristicBot, simulate_game


def positions(seed: int, tricks=(3, 5, 7, 9)):
    """``(table, first leader, plays so far, knowledge, real hands)`` at the start of some tricks of a
    game of heuristic bots, for the seat to lead."""
    game = simulate_game(Rules.preset("standard"), ("a", "b", "c", "d"), f"infer:{seed}", bot=HeuristicBot,
                         max_hands=2)
    table = game.rules.table(4)
    for record, hand in zip(game.hands, replay_game(game).hands):
        passed = list(hand.passed) if hand.pass_direction != "hold" else [0] * 4
        offset = table.pass_offset(hand.pass_direction)
        held = list(hand.held)
        state = HandState(table, held, HandState.first_leader_for(table, held, hand.dealer))
        first, shown = state.leader, (0,) * 4
        for index, (seat, card) in enumerate(record.plays):
            if state.is_over:
                break
            if state.trick_number in tricks and not state.trick:
                knowledge = at_play(state, seat, shown, passed[seat], (seat + offset) % 4 if offset else None)
                yield table, first, tuple(record.plays[:index]), knowledge, tuple(state.hands)
            shown = observe(shown, state, seat, card)
            state.push(seat, card)


def closeness(hands: np.ndarray, real: tuple[int, ...], seat: int) -> tuple[float | None, float]:
    """The share of deals that put QS with its real holder (``None`` if the seat knows where it is),
    and the mean error in the other seats' suit lengths."""
    queen = None
    holder = next(s for s in range(4) if real[s] >> QS & 1) if any(r >> QS & 1 for r in real) else None
    if holder is not None and holder != seat:
        queen = float(((hands[:, holder] & BIT[QS]) != 0).mean())
    error = sum(np.abs(popcount(hands[:, s] & SUIT[suit]).astype(float) - (real[s] & SUIT_MASKS[suit]).bit_count())
                .mean() for s in range(4) if s != seat for suit in range(4))
    return queen, float(error)


def test_weighting_by_the_plays_puts_the_queen_and_the_suits_where_they_really_are():
    """The strong rollout player imitates the heuristic bots, so as their model it should find them out."""
    uniform_queen, inferred_queen, wins, total = [], [], 0, 0
    for seed in range(6):
        for table, first, plays, knowledge, real in positions(seed):
            rng = np.random.default_rng(seed)
            uniform = closeness(sample_hands(knowledge, 150, rng), real, knowledge.seat)
            inferred = closeness(inferred_hands(knowledge, 150, rng, table, first, plays, "strong"), real,
                                 knowledge.seat)
            if uniform[0] is not None and knowledge.unplaced >> QS & 1:
                uniform_queen.append(uniform[0])
                inferred_queen.append(inferred[0])
            wins += inferred[1] < uniform[1]
            total += 1
    assert len(uniform_queen) >= 10 and total >= 40
    assert np.mean(inferred_queen) > np.mean(uniform_queen) + 0.15, (np.mean(inferred_queen), np.mean(uniform_queen))
    assert wins > 0.7 * total, (wins, total)


def test_the_real_deal_is_likelier_than_most_deals_the_rules_allow():
    for table, first, plays, knowledge, real in positions(1, tricks=(6,)):
        rng = np.random.default_rng(0)
        pool = sample_hands(knowledge, 200, rng)
        real_row = np.array([real], np.uint64)
        logs = play_log_likelihood(table, first, plays, knowledge.seat, pool, "strong")
        mine = play_log_likelihood(table, first, plays, knowledge.seat, real_row, "strong")[0]
        assert (logs < mine).mean() > 0.5


@pytest.mark.parametrize("model", ["basic", "strong"])
def test_without_plays_of_others_the_deals_are_uniform_and_played_cards_go_back(model):
    table, first, plays, knowledge, real = next(positions(2, tricks=(4,)))
    start = start_hands(np.array([real], np.uint64), plays)[0]
    assert sum(int(h).bit_count() for h in start) == 52 and all(int(h).bit_count() == 13 for h in start)
    alone = [(s, c) for s, c in plays if s == knowledge.seat]
    a = inferred_hands(knowledge, 20, np.random.default_rng(5), table, first, alone, model)
    b = sample_hands(knowledge, 20, np.random.default_rng(5))
    assert np.array_equal(a, b)
