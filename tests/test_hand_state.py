"""The one hand state machine: its phases, push and pop, and the lanes that drive it agreeing.

The simulator's hand (:class:`HandPlay`) is the engine's :class:`HandState`
with the seats' views on top; the reference replay and the simulator must
then finish every hand with the same tricks, whatever the variant.
"""

import random

import pytest

from hearts_analysis.cards import SUIT_MASKS
from hearts_analysis.engine import HandState, replay_game
from hearts_analysis.engine.state import OVER, PASS, PLAY
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import HeuristicBot, simulate_games
from hearts_analysis.simulate.play import HandPlay

VARIANTS = [("standard", {}), ("black_queen", {}), ("classic", {"moon": "subtract_from_shooter"}),
            ("standard", {"only_hearts_lead": "ends_hand"}), ("trend_hearts", {})]


def snapshot(state: HandState) -> dict:
    return {name: (list(v) if isinstance(v, list) else v)
            for name in HandState.__slots__ if not isinstance(v := getattr(state, name), type(None))}


def games(preset: str, overrides: dict, count: int = 3):
    return list(simulate_games(count, Rules.preset(preset, target=40, **overrides), players=4, seed=11))


def played_hands(preset: str, overrides: dict):
    """Each simulated hand with its replay and a fresh machine at its first lead."""
    for game in games(preset, overrides):
        table = game.rules.table(game.seats)
        for record, hand in zip(game.hands, replay_game(game).hands):
            yield game, record, hand, HandState(table, list(hand.held),
                                                HandState.first_leader_for(table, list(hand.held), hand.dealer))


@pytest.mark.parametrize("preset, overrides", VARIANTS)
def test_pop_takes_back_every_play_exactly_inside_a_trick_across_one_and_after_a_sweep(preset, overrides):
    for game, record, hand, state in played_hands(preset, overrides):
        for seat, card in record.plays:
            if state.is_over:
                break
            before = snapshot(state)
            state.push(seat, card)
            after = snapshot(state)
            assert state.pop() == (seat, card)
            assert snapshot(state) == before
            state.push(seat, card)
            assert snapshot(state) == after
        assert state.taken == list(hand.taken) and state.trick_winners == list(hand.trick_winners)
        assert tuple(state.score(record.moon, record.points)[1]) == hand.points


def test_a_hand_goes_from_the_deal_through_the_pass_to_play_and_its_score():
    game = games("standard", {}, 1)[0]
    record, hand = game.hands[0], replay_game(game).hands[0]
    table = game.rules.table(4)
    dealt = [sum(1 << c for c in cards) for cards in record.deal]
    state = HandState.dealt(table, dealt, record.dealer if record.dealer is not None else 0)
    assert state.phase == PASS
    state.exchange([sum(1 << c for c in cards) for cards in record.passes], table.pass_offset(hand.pass_direction))
    assert state.hands == list(hand.held)
    state.start()
    assert state.phase == PLAY and state.first_leader == record.plays[0][0]
    with pytest.raises(ValueError, match="before the first lead"):
        state.exchange([0, 0, 0, 0], 1)
    for seat, card in record.plays:
        state.push(seat, card)
    assert state.phase == OVER
    assert tuple(state.score(record.moon, record.points)[1]) == hand.points == record.points


@pytest.mark.parametrize("preset, overrides", VARIANTS)
def test_the_simulators_hand_is_the_state_machine_and_ends_as_the_replay_does(preset, overrides):
    rules = Rules.preset(preset, **overrides)
    table = rules.table(4)
    n = table.players
    rng = random.Random(5)
    for _ in range(20):
        cards = [c for c in range(52) if table.deck >> c & 1]
        rng.shuffle(cards)
        size = len(cards) // n
        hands = [sum(1 << c for c in cards[s * size:(s + 1) * size]) for s in range(n)]
        play = HandPlay(table, hands)
        play.start()
        plays = play.play_out([HeuristicBot(random.Random(s)) for s in range(n)])
        state = HandState(table, hands, play.first_leader)
        for seat, card in plays:
            state.push(seat, card)
        assert isinstance(play, HandState) and play.public.ended and state.is_over
        assert play.public.taken == state.taken and play.public.trick_winners == state.trick_winners
        assert play.public.tricks_won == state.tricks_won and play.public.broken == state.broken
        assert [view.hand for view in play.views] == state.hands


@pytest.mark.parametrize("preset, overrides", VARIANTS)
def test_the_voids_shown_are_the_suits_each_seat_did_not_follow_and_the_bots_read_the_same(preset, overrides):
    """The machine keeps the voids every seat has shown; the simulator's public record is that list."""
    for game, record, hand, state in played_hands(preset, overrides):
        shown = [0] * game.seats
        for seat, card in record.plays:
            if state.is_over:
                break
            if state.trick and card // 13 != state.trick[0][1] // 13:
                shown[seat] |= SUIT_MASKS[state.trick[0][1] // 13]
            state.push(seat, card)
            assert state.voids == shown
    play = HandPlay(state.table, list(hand.held))
    assert play.public.voids is play.voids
