"""A seat's knowledge is sound (the real deal always fits it) and sampling is exact and uniform."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from hearts_analysis.cards import SUIT_MASKS, iter_cards, mask_of, parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.engine.state import HandState
from hearts_analysis.review.information_set import Knowledge, at_play, before_pass, observe, revealed
from hearts_analysis.review.sampling import InconsistentKnowledge, count_deals, sample_hands
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import HeuristicBot, RandomBot, simulate_game

from review_positions import PRESET_RULES, RULE_IDS


def _walk(game):
    """Every play of every hand with the state before it, the passes, and what was shown."""
    table = game.rules.table(game.seats)
    result = replay_game(game)
    for record, hand in zip(game.hands, result.hands):
        dealt = [mask_of(cards) for cards in record.deal]
        passed = [mask_of(cards or ()) for cards in (record.passes or [()] * game.seats)]
        offset = table.pass_offset(hand.pass_direction)
        held = [d & ~p for d, p in zip(dealt, passed)]
        for seat in range(game.seats):
            held[(seat + offset) % game.seats] |= passed[seat]
        state = HandState(table, held, HandState.first_leader_for(table, held, hand.dealer))
        shown = (0,) * game.seats
        for seat, card in record.plays:
            yield state, shown, passed, offset, seat, card
            shown = observe(shown, state, seat, card)
            state.push(seat, card)


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot], ids=["random", "heuristic"])
@pytest.mark.parametrize("rules", PRESET_RULES, ids=RULE_IDS)
def test_the_real_deal_always_fits_every_seats_knowledge(rules, bot):
    game = simulate_game(rules, ["a", "b", "c", "d"], f"{rules}", bot=bot, max_hands=3)
    n = game.seats
    checked = 0
    for state, shown, passed, offset, seat, card in _walk(game):
        for viewer in range(n):
            knowledge = at_play(state, viewer, shown, passed[viewer], (viewer + offset) % n if offset else None)
            assert knowledge.admits(state.hands)
        assert not revealed(state, seat, card) & state.hands[seat] & ~(1 << card)
        checked += 1
    assert checked > 100


def test_not_following_suit_shows_a_void():
    rules = Rules.preset("standard")
    table = rules.table(4)
    hands = [mask_of(parse_card(c) for c in h.split()) for h in ("2C 5D", "3C 6D", "4H 7D", "AC 8D")]
    state = HandState(table, hands, 0)
    state.trick_number = 12
    state.push(0, parse_card("2C"))
    state.push(1, parse_card("3C"))
    assert revealed(state, 2, parse_card("4H")) == SUIT_MASKS[0]
    assert revealed(state, 3, parse_card("AC")) == 0  # following suit shows nothing


def test_a_heart_led_before_hearts_are_broken_shows_a_hand_of_point_cards():
    rules = Rules.preset("standard")
    table = rules.table(4)
    state = HandState(table, [mask_of([parse_card("4H")]), 0, 0, 0], 0)
    state.trick_number = 5
    shown = revealed(state, 0, parse_card("4H"))
    assert shown & SUIT_MASKS[0] == SUIT_MASKS[0] and not shown & (1 << parse_card("QS"))
    strict = Rules.preset("openspiel").table(4)  # only_hearts_lead queen_first: QS would have to lead
    state = HandState(strict, [mask_of([parse_card("4H")]), 0, 0, 0], 0)
    state.trick_number = 5
    assert revealed(state, 0, parse_card("4H")) & (1 << parse_card("QS"))


def _small_knowledge():
    """Seat 0 has played out; seats 1-3 hold 2 cards each of six, with voids."""
    hidden = [mask_of(parse_card(c) for c in cards.split()) for cards in ("2C 3C 4C 5C 2D 3D", "2C 3C 4C 5C",
                                                                         "4C 5C 2D 3D")]
    return Knowledge(0, 0, (0, 2, 2, 2), (0, 0, 0, 0), (0, *hidden))


def _brute_deals(knowledge):
    cards = list(iter_cards(knowledge.unplaced))
    deals = []
    for owners in itertools.product(range(1, 4), repeat=len(cards)):
        hands = [0, 0, 0, 0]
        for card, owner in zip(cards, owners):
            hands[owner] |= 1 << card
        if knowledge.admits(hands):
            deals.append(tuple(hands))
    return deals


def test_the_number_of_deals_is_counted_exactly():
    knowledge = _small_knowledge()
    assert count_deals(knowledge) == len(_brute_deals(knowledge)) > 5


def test_samples_are_uniform_over_every_consistent_deal():
    knowledge = _small_knowledge()
    deals = _brute_deals(knowledge)
    draws = 40_000
    counts = Counter(map(tuple, sample_hands(knowledge, draws, np.random.default_rng(1)).tolist()))
    assert set(counts) == set(deals)
    expected = draws / len(deals)
    chi2 = sum((counts[d] - expected) ** 2 / expected for d in deals)
    assert chi2 < len(deals) + 6 * (2 * len(deals)) ** 0.5  # far inside the chi-square tail


def test_known_cards_stay_with_their_holder_and_every_sample_fits():
    rules = Rules.preset("standard")
    game = simulate_game(rules, ["a", "b", "c", "d"], 5, max_hands=1)
    rng = np.random.default_rng(0)
    for index, (state, shown, passed, offset, seat, _) in enumerate(_walk(game)):
        if index % 5:
            continue
        knowledge = at_play(state, seat, shown, passed[seat], (seat + offset) % 4)
        for row in sample_hands(knowledge, 50, rng).tolist():
            assert knowledge.admits(row)
            assert row[(seat + offset) % 4] & knowledge.holds[(seat + offset) % 4] == knowledge.holds[(seat + offset) % 4]


def test_before_the_pass_the_other_hands_are_anything():
    table = Rules.preset("standard").table(4)
    knowledge = before_pass(table, 2, mask_of(range(13)))
    rows = sample_hands(knowledge, 100, np.random.default_rng(0))
    assert (rows[:, 2] == mask_of(range(13))).all()
    assert all(knowledge.admits(row) for row in rows.tolist())
    assert len({tuple(row) for row in rows.tolist()}) == 100


def test_sampling_is_deterministic_for_a_seed_and_rejects_impossible_knowledge():
    knowledge = _small_knowledge()
    first = sample_hands(knowledge, 30, np.random.default_rng(9))
    assert np.array_equal(first, sample_hands(knowledge, 30, np.random.default_rng(9)))
    impossible = Knowledge(0, 0, (0, 0, 1, 5), (0, 0, 0, 0), knowledge.may_hold)  # seat 3 may hold only 4
    with pytest.raises(InconsistentKnowledge):
        sample_hands(impossible, 5, np.random.default_rng(0))


