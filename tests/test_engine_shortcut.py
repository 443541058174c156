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
