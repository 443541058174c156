"""The replay's shortcut for obviously legal plays never allows what the legality cascade forbids."""

from __future__ import annotations

import random

import pytest

from hearts_analysis.cards import iter_cards, mask_of
from hearts_analysis.engine.state import HandState
from hearts_analysis.rules import PRESETS, RuleError, Rules
from hearts_analysis.simulate.game import deal


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_clearly_legal_implies_the_cascade_allows(preset, players):
    rng = random.Random(f"{preset}:{players}")
    for overrides in ({}, {"hearts_must_be_broken": False}, {"only_hearts_lead": "queen_first"},
                      {"hearts_broken_by": "heart"}):
        try:
            table = Rules.preset(preset, **overrides).table(players)
        except RuleError:
            continue
        for _ in range(15):
            hands = [mask_of(cards) for cards in deal(table, rng)]
            state = HandState(table, hands, HandState.first_leader_for(table, hands, 0))
            shortcuts = 0
            while not state.is_over:
                seat = state.to_play
                for card in iter_cards(state.hands[seat]):
                    if state.clearly_legal(seat, card):
                        shortcuts += 1
                        assert state.exclusion(seat, card) is None
                # play a random card, legal or not, to reach unusual positions too
                pool = state.legal_cards(seat) if rng.random() < 0.8 else state.hands[seat]
                state.push(seat, rng.choice(list(iter_cards(pool))))
            assert shortcuts


def _detailed(table, hands, leader, plays):
    from hearts_analysis.engine.replay import _Collector, _play_hand
    from hearts_analysis.records.model import HandRecord
    out = _Collector(1, tuple(f"p{i}" for i in range(table.players)))
    state = _play_hand(table, HandRecord(deal=(), plays=tuple(plays)), list(hands), leader, out)
    return out.items, (state.taken, state.tricks_won, state.trick_winners)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fast_lane_agrees_with_the_detailed_replay_on_legal_and_mutated_hands(preset):
    from hearts_analysis.engine.quick import replay_clean
    from hearts_analysis.simulate import RandomBot, simulate_game
    rng = random.Random(preset)
    for players in (3, 4, 6):
        try:
            rules = Rules.preset(preset)
            table = rules.table(players)
        except RuleError:
            continue
        game = simulate_game(rules, [f"p{i}" for i in range(players)], rng.getrandbits(32), RandomBot)
        result = __import__("hearts_analysis").replay_game(game)
        for record, hand in zip(game.hands, result.hands):
            start = list(hand.held)
            leader = HandState.first_leader_for(table, start, hand.dealer)
            variants = [list(record.plays)]
            for _ in range(10):
                plays = list(record.plays)
                i, j = rng.randrange(len(plays)), rng.randrange(len(plays))
                if rng.random() < 0.5:
                    plays[i], plays[j] = plays[j], plays[i]
                else:
                    plays[i] = (plays[i][0], plays[j][1])
                variants.append(plays)
            for plays in variants:
                fast = replay_clean(table, start, leader, plays)
                violations, slow = _detailed(table, start, leader, plays)
                if fast is None:
                    assert plays != list(record.plays) or not table.models("quick")   # outside its declaration
                else:
                    assert not violations and list(fast[0]) == list(slow[0])
                    assert list(fast[1]) == list(slow[1]) and list(fast[2]) == list(slow[2])

