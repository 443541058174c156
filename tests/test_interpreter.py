"""The rules interpreter against the independent referee: the legality cascade under every preset and
variant, the trick winner, the early end of ``ends_hand``, and the scoring with every moon rule."""

from __future__ import annotations

import random

import pytest

import reference
from hearts_analysis.cards import HEARTS_MASK, QS, SUIT_MASKS, card_name, iter_cards, mask_of, parse_card
from hearts_analysis.engine.interpreter import legal_cards, sweeps, winning_card
from hearts_analysis.engine.scoring import score_hand
from hearts_analysis.engine.state import HandState
from hearts_analysis.rules import MOON_RULES, PRESETS, RuleError, Rules
from hearts_analysis.simulate.game import deal

VARIANTS = ({}, {"hearts_must_be_broken": False}, {"points_on_first_trick": True},
            {"only_hearts_lead": "queen_first"}, {"only_hearts_lead": "ends_hand"},
            {"first_lead": "any_club"}, {"first_lead": "left_of_dealer"}, {"hearts_broken_by": "heart"})


def _tables(preset: str, **extra):
    """The preset's tables with each variant, at its smallest and largest player counts."""
    counts = PRESETS[preset].players
    for players in sorted({counts[0], counts[-1]}):
        for variant in VARIANTS:
            try:
                yield Rules.preset(preset, **variant, **extra).table(players)
            except RuleError:
                continue


def _names(mask: int) -> set[str]:
    return {card_name(c) for c in iter_cards(mask)}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_cascade_allows_exactly_what_the_referee_allows_and_names_the_same_rule(preset):
    rng = random.Random(preset)
    checked = excluded = 0
    for table in _tables(preset):
        referee = reference.Referee(table.rules.to_dict(), table.players)
        for _ in range(4):
            hands = [mask_of(cards) for cards in deal(table, rng)]
            state = HandState(table, hands, HandState.first_leader_for(table, hands, 0))
            while not state.is_over:
                seat = state.to_play
                hand = state.hands[seat]
                led = SUIT_MASKS[state.trick[0][1] // 13] if state.trick else 0
                legal = legal_cards(table, hand, led, state.trick_number == 1, state.broken)
                trick = [(s, card_name(c)) for s, c in state.trick]
                for card in iter_cards(hand):
                    rule = referee.broken_rule(_names(hand), trick, state.trick_number, state.broken,
                                               card_name(card))
                    assert (rule is None) == bool(legal >> card & 1), (card_name(card), rule)
                    exclusion = state.exclusion(seat, card)
                    assert (exclusion and exclusion.code) == rule
                    checked += 1
                    excluded += rule is not None
                # mostly legal plays; an illegal one now and then reaches unusual positions
                pool = legal if rng.random() < 0.85 else hand
                state.push(seat, rng.choice(list(iter_cards(pool))))
    assert checked and excluded


@pytest.mark.parametrize("players", range(3, 8))
def test_the_highest_card_of_the_suit_led_takes_the_trick(players):
    rng = random.Random(players)
    for _ in range(500):
        cards = rng.sample(range(52), players)
        led = cards[0] // 13
        names = [card_name(c) for c in cards]
        best = max((name for name in names if reference.suit(name) == "CDHS"[led]), key=reference.rank)
        assert card_name(winning_card(mask_of(cards), SUIT_MASKS[led])) == best


@pytest.mark.parametrize("only_hearts_lead", ["allowed", "queen_first", "ends_hand"])
@pytest.mark.parametrize("must_break", [True, False])
def test_a_leader_holding_only_hearts_ends_the_hand_only_under_ends_hand(only_hearts_lead, must_break):
    table = Rules.preset("standard", only_hearts_lead=only_hearts_lead, hearts_must_be_broken=must_break).table(4)
    rng = random.Random(f"{only_hearts_lead}{must_break}")
    hearts = list(iter_cards(HEARTS_MASK))
    for _ in range(200):
        hand = mask_of(rng.sample(hearts, rng.randint(1, 5)))
        if rng.random() < 0.5:
            hand |= 1 << rng.choice([c for c in range(52) if not HEARTS_MASK >> c & 1])
        broken = rng.random() < 0.5
        # the referee's leader_gives_up, on the rule fields
        expected = (only_hearts_lead == "ends_hand" and must_break and not broken
                    and all(reference.suit(name) == "H" for name in _names(hand)))
        assert sweeps(table, hand, broken) == expected
        assert not sweeps(table, 0, broken)


def _taken(table, rng: random.Random) -> list[int]:
    """Each seat's cards taken: a random split of the deck, often with one seat taking every point card."""
    cards = list(iter_cards(table.deck))
    rng.shuffle(cards)
    owners = [rng.randrange(table.players) for _ in cards]
    if rng.random() < 0.4:
        shooter = rng.randrange(table.players)
        owners = [shooter if HEARTS_MASK >> c & 1 or c == QS else o for c, o in zip(cards, owners)]
    taken = [0] * table.players
    for card, owner in zip(cards, owners):
        taken[owner] |= 1 << card
    return taken


@pytest.mark.parametrize("moon", MOON_RULES)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_scoring_matches_the_referee_under_every_moon_rule(preset, moon):
    rng = random.Random(f"{preset}:{moon}")
    moons = 0
    for extra in ({}, {"jack_of_diamonds": -10, "no_tricks_bonus": -5, "queen_of_clubs_cancels_queen": True}):
        for table in _tables(preset, moon=moon, **extra):
            referee = reference.Referee(table.rules.to_dict(), table.players)
            allowed = table.rules.charges
            for _ in range(30):
                taken = _taken(table, rng)
                won = [rng.choice([0, 1, 3]) if cards else 0 for cards in taken]
                charged = [name for name in allowed if rng.random() < 0.5]
                choice = rng.choice(reference.MOON_CHOICES) if moon == "shooter_choice" else None
                raw, points, shot = score_hand(table, taken, won, choice,
                                               charged=mask_of(parse_card(c) for c in charged))
                referee.charged = set(charged)
                want_raw, want_points = referee.score(1, {"moon": choice}, [_names(t) for t in taken], won,
                                                      lambda *a, **k: None)
                assert (list(raw), list(points)) == (want_raw, want_points)
                moons += shot is not None
    assert moons or moon == "none"
