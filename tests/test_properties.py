"""Property tests: simulated legal games under random rule sets, and their single-card mutations.

Games come from ``hearts_analysis.simulate`` (random and heuristic bots) under a
random preset with random field overrides valid for 3-7 players. Every mutation
of a legal game is judged twice, by the engine and by the naive referee of
``reference.py``: they must agree on every violation, so a mutation the engine
accepts is one the referee proves legal and correctly scored.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from hearts_analysis.cards import JD, QC, QS, card_name, iter_cards, mask_of, names, parse_card
from hearts_analysis.engine import HandState, replay_game
from hearts_analysis.records.json import game_to_dict
from hearts_analysis.records.model import GameRecord, HandRecord
from hearts_analysis.rules import MOON_CHOICES, PRESETS, Rules
from hearts_analysis.simulate import HeuristicBot, RandomBot, simulate_game

import reference

TC = parse_card("TC")

DIRECTIONS = ("left", "right", "across", "hold")
ALL_CARDS = [card_name(c) for c in range(52)]
PROPERTY = settings(max_examples=250, deadline=None, derandomize=True)


@st.composite
def rule_sets(draw, players: int) -> Rules:
    """A preset plus random overrides that the given number of players can play."""
    preset = Rules.preset(draw(st.sampled_from(sorted(PRESETS))))
    directions = [d for d in DIRECTIONS if d != "across" or players % 2 == 0]
    overrides: dict = {}

    def maybe() -> bool:  # each field is overridden a third of the time
        return draw(st.integers(0, 2)) == 0

    deck_choice = draw(st.integers(0, 5))
    if deck_choice == 0:  # a few cards removed so that the deck still deals evenly
        counts = [k for k in range(0, 13) if (52 - k) % players == 0]
        removed = draw(st.lists(st.sampled_from(ALL_CARDS), unique=True,
                                min_size=draw(st.sampled_from(counts)), max_size=12))
        overrides["removed_cards"] = removed[:max(k for k in counts if k <= len(removed))]
    elif deck_choice <= 2:  # a small deck (one club at least): moons and only-hearts leads are common
        size = draw(st.integers(1, 5)) * players
        kept = [draw(st.sampled_from(ALL_CARDS[:13]))]
        kept += draw(st.lists(st.sampled_from([c for c in ALL_CARDS if c not in kept]), unique=True,
                              min_size=size - 1, max_size=size - 1))
        overrides["removed_cards"] = [c for c in ALL_CARDS if c not in kept]
    if maybe():
        overrides["pass_count"] = draw(st.integers(0, 4))
    if "removed_cards" in overrides:
        hand_size = (52 - len(overrides["removed_cards"])) // players
        overrides["pass_count"] = min(overrides.get("pass_count", preset.pass_count), hand_size)
    if maybe() or (preset.pass_cycle and "across" in preset.pass_cycle and players % 2):
        overrides["pass_cycle"] = draw(st.lists(st.sampled_from(directions + ["any"]), min_size=1, max_size=4))
    for key, values in [("first_lead", ["lowest_club", "any_club", "left_of_dealer"]),
                        ("points_on_first_trick", [True, False]), ("hearts_must_be_broken", [True, False]),
                        ("hearts_broken_by", ["heart", "heart_or_queen"]),
                        ("only_hearts_lead", ["allowed", "queen_first", "ends_hand"]),
                        ("queen_of_clubs_cancels_queen", [True, False]),
                        ("moon", ["add_to_others", "subtract_from_shooter", "shooter_choice", "none"]),
                        ("end_at", ["reach", "exceed"])]:
        if maybe():
            overrides[key] = draw(st.sampled_from(values))
    if maybe():
        overrides["jack_of_diamonds"] = draw(st.integers(-10, 10))
    if maybe():
        overrides["no_tricks_bonus"] = draw(st.integers(-5, 5))
    overrides["target"] = draw(st.integers(10, 100))
    rules = preset.replace(**overrides)
    rules.table(players)  # raises if the strategy made an unplayable table: a bug in this test
    return rules


@st.composite
def simulated_games(draw, max_hands: int = 6) -> GameRecord:
    players = draw(st.integers(3, 7))
    rules = draw(rule_sets(players))
    bot = draw(st.sampled_from([RandomBot, HeuristicBot]))
    seed = draw(st.integers(0, 2**32))
    return simulate_game(rules, [f"p{i}" for i in range(players)], seed, bot, max_hands=max_hands)


def referee(game: GameRecord) -> reference.Audit:
    return reference.audit(game_to_dict(game), game.rules.to_dict())


def recorded_choice(hand) -> str | None:
    """The moon choice a record names for a replayed hand: a choice, never another moon rule."""
    return hand.moon.choice if hand.moon and hand.moon.choice in MOON_CHOICES else None


def assert_agree(game: GameRecord) -> None:
    """Engine and referee report the same violations and the same points."""
    result = replay_game(game)
    ref = referee(game)
    engine = Counter((v.code, v.hand, v.trick, v.seat, v.card) for v in result.violations)
    assert engine == Counter(ref.violations), (engine - Counter(ref.violations), Counter(ref.violations) - engine)
    assert [list(h.points) for h in result.hands] == ref.points
    assert [list(h.raw_points) for h in result.hands] == ref.raw
    assert list(result.totals) == ref.totals and result.complete == ref.complete


def test_the_referee_agrees_on_every_crafted_case():
    """Every crafted game with cards; a score sheet or a view (no whole deal) is held to the engine by
    tests/test_score_sheets.py and tests/test_view_validation.py, not by this referee of played hands."""
    from test_violations import CASES
    checked = 0
    for cases in CASES.values():
        for case in cases:
            game = case.values[0]
            if all(hand.deal is not None and None not in hand.deal for hand in game.hands):
                assert_agree(game)
                checked += 1
    assert checked >= 30


def test_small_decks_reach_the_edge_cases_and_replay_clean():
    """Fixed seeds over small decks: moons under every option, hands ended by ends_hand, no-trick seats."""
    seen = Counter()
    for seed in range(150):
        rng = random.Random(seed)
        players = rng.randint(3, 7)
        kept = rng.sample(ALL_CARDS[:13], 1)
        kept += rng.sample([c for c in ALL_CARDS if c not in kept], players * rng.randint(2, 4) - 1)
        rules = Rules.preset(rng.choice(sorted(PRESETS)), removed_cards=[c for c in ALL_CARDS if c not in kept],
                             pass_count=1, pass_cycle=["left", "hold"], target=30,
                             moon=rng.choice(["add_to_others", "subtract_from_shooter", "shooter_choice"]),
                             only_hearts_lead=rng.choice(["allowed", "queen_first", "ends_hand"]),
                             no_tricks_bonus=-2, jack_of_diamonds=-3)
        game = simulate_game(rules, [f"p{i}" for i in range(players)], seed, RandomBot, max_hands=4)
        result = replay_game(game)
        assert result.valid
        assert_agree(game)
        for h in result.hands:
            seen[f"moon-{h.moon.choice}" if h.moon else "no-moon"] += 1
            seen["no-trick-seat"] += h.tricks_won.count(0) > 0
        seen["ended-early"] += sum(len(r.plays) < sum(map(len, r.deal)) for r in game.hands)
    assert min(seen[k] for k in ("moon-add_to_others", "moon-subtract_from_shooter", "no-moon",
                                 "no-trick-seat", "ended-early")) >= 3, seen


# -- legal games ----------------------------------------------------------------------
@PROPERTY
@given(simulated_games())
def test_simulated_games_replay_clean_and_the_referee_agrees(game):
    result = replay_game(game)
    assert result.violations == ()
    assert referee(game).valid
    assert_agree(game)
    for hand, record in zip(result.hands, game.hands):
        assert hand.points == record.points and hand.totals == record.totals
        assert recorded_choice(hand) == record.moon


@PROPERTY
@given(simulated_games())
def test_without_dealer_and_moon_fields_the_defaults_and_the_points_tell(game):
    """The dealer of hand k defaults to (k-1) % n; a missing moon choice is inferred from the points."""
    assert all(h.dealer == k % game.seats for k, h in enumerate(game.hands))
    bare = dataclasses.replace(game, hands=tuple(dataclasses.replace(h, dealer=None, moon=None)
                                                 for h in game.hands))
    result = replay_game(bare)
    assert result.violations == ()
    assert [h.points for h in result.hands] == [h.points for h in game.hands]
    assert [recorded_choice(h) for h in result.hands] == [h.moon for h in game.hands]
    assert_agree(bare)


@PROPERTY
@given(simulated_games())
def test_points_before_the_moon_sum_to_the_deck(game):
    """Hearts + 13 for QS (less 13 where QC cancels it) + JD + the no-trick bonus outside moon hands."""
    rules = game.rules
    table = rules.table(game.seats)
    for hand in replay_game(game).hands:
        expected = table.point_total
        if table.deck >> JD & 1:
            expected += rules.jack_of_diamonds
        if rules.queen_of_clubs_cancels_queen and any(t >> QS & 1 and t >> QC & 1 for t in hand.taken):
            expected -= 13
        if hand.moon is None:
            expected += rules.no_tricks_bonus * hand.tricks_won.count(0)
        ten = next((s for s, t in enumerate(hand.taken) if t >> TC & 1), None)
        if rules.ten_of_clubs != 1 and ten is not None:  # TC multiplies its taker's points
            expected += hand.raw_points[ten] - hand.raw_points[ten] // rules.ten_of_clubs
        assert sum(hand.raw_points) == expected
        assert sum(hand.tricks_won) == table.hand_size
        taken = 0
        for cards in hand.taken:
            assert not taken & cards
            taken |= cards
        assert taken == table.deck


@settings(max_examples=120, deadline=None, derandomize=True)
@given(simulated_games(max_hands=2))
def test_legal_cards_and_exclusion_codes_match_the_referee_at_every_turn(game):
    """The legal-move generator and the validator's rule attribution, card by card."""
    table = game.rules.table(game.seats)
    judge = reference.Referee(game.rules.to_dict(), game.seats)
    breakers = {"H"} if game.rules.hearts_broken_by == "heart" else {"H", "QS"}
    for result, record in zip(replay_game(game).hands, game.hands):
        hands = [mask_of(cards) for cards in record.deal]
        if result.pass_direction != "hold":
            offset = table.pass_offset(result.pass_direction)
            given = [mask_of(cards) for cards in record.passes]
            hands = [hands[s] & ~given[s] | given[(s - offset) % game.seats] for s in range(game.seats)]
        state = HandState(table, hands, HandState.first_leader_for(table, hands, result.dealer))
        played: list[str] = []
        for index, (seat, card) in enumerate(record.plays):
            held = {card_name(c) for c in iter_cards(state.hands[seat])}
            trick = [(s, card_name(c)) for s, c in state.trick]
            done = played[:len(played) - len(trick)]
            broken = any(c[1] in breakers or c in breakers for c in done)
            for option in sorted(held):
                rule = judge.broken_rule(held, trick, state.trick_number, broken, option)
                excluded = state.exclusion(seat, parse_card(option))
                assert (excluded and excluded.code) == rule, (index, option, trick, excluded)
            assert names(state.legal_cards(seat)) == sorted(
                (c for c in held if judge.broken_rule(held, trick, state.trick_number, broken, c) is None),
                key=reference.order)
            state.push(seat, card)
            played.append(card_name(card))
        assert state.is_over


# -- mutations ----------------------------------------------------------------------------
def _other_card(rng: random.Random, card: int) -> int:
    return rng.choice([c for c in range(52) if c != card])


def _with_hand(game: GameRecord, k: int, **changes) -> GameRecord:
    hands = list(game.hands)
    hands[k] = dataclasses.replace(hands[k], **changes)
    return dataclasses.replace(game, hands=tuple(hands))


def _seat_values(values, seat, delta):
    values = list(values)
    values[seat] += delta
    return tuple(values)


def mutate(game: GameRecord, rng: random.Random) -> tuple[str, GameRecord]:
    """One single-card (or single-number) change to a record."""
    k = rng.randrange(len(game.hands))
    hand: HandRecord = game.hands[k]
    n = game.seats
    plays = list(hand.plays)
    kind = rng.choice(["card", "seat", "swap", "swap-seat", "drop", "duplicate", "deal", "pass",
                       "points", "totals", "moon"])
    i = rng.randrange(len(plays)) if plays else 0
    if kind == "card" and plays:
        plays[i] = (plays[i][0], _other_card(rng, plays[i][1]))
    elif kind == "seat" and plays:
        plays[i] = (rng.choice([s for s in range(n) if s != plays[i][0]]), plays[i][1])
    elif kind == "swap" and len(plays) > 1:
        j = rng.choice([j for j in range(len(plays)) if j != i])
        plays[i], plays[j] = plays[j], plays[i]
    elif kind == "swap-seat" and plays:
        # swap two cards one seat played: the mutation most likely to stay legal
        mine = [j for j, (s, _) in enumerate(plays) if s == plays[i][0] and j != i]
        if mine:
            j = rng.choice(mine)
            plays[i], plays[j] = (plays[i][0], plays[j][1]), (plays[j][0], plays[i][1])
    elif kind == "drop" and plays:
        del plays[i]
    elif kind == "duplicate" and plays:
        plays.insert(rng.randrange(len(plays) + 1), plays[i])
    elif kind == "deal":
        seat = rng.randrange(n)
        cards = list(hand.deal[seat])
        j = rng.randrange(len(cards))
        cards[j] = _other_card(rng, cards[j])
        deal = list(hand.deal)
        deal[seat] = tuple(cards)
        return kind, _with_hand(game, k, deal=tuple(deal))
    elif kind == "pass":
        seat = rng.randrange(n)
        passes = list(hand.passes or (None,) * n)
        given = list(passes[seat] or ())
        if given:
            j = rng.randrange(len(given))
            given[j] = _other_card(rng, given[j])
        else:  # a pass where the hand holds
            given = [rng.choice(hand.deal[seat])]
        passes[seat] = tuple(given)
        return kind, _with_hand(game, k, passes=tuple(passes))
    elif kind == "points":
        return kind, _with_hand(game, k, points=_seat_values(hand.points, rng.randrange(n), rng.choice([-26, -13, -1, 1, 10, 26])))
    elif kind == "totals":
        return kind, _with_hand(game, k, totals=_seat_values(hand.totals, rng.randrange(n), rng.choice([-26, -1, 1, 13])))
    elif kind == "moon":
        return kind, _with_hand(game, k, moon=rng.choice([m for m in (None, "add_to_others", "subtract_from_shooter")
                                                          if m != hand.moon]))
    return kind, _with_hand(game, k, plays=tuple(plays))


@pytest.mark.long
@settings(max_examples=400, deadline=None, derandomize=True)
@given(simulated_games(max_hands=3), st.randoms(use_true_random=False))
def test_every_mutation_is_caught_or_provably_legal(game, rng):
    """Engine and referee agree on every violation of every mutation (and so on legal/illegal): 400 simulated
    games of random rule sets, 12 mutations each (about one of each of the 11 kinds a game), 4,800 in all."""
    for _ in range(12):
        kind, mutant = mutate(game, rng)
        try:
            assert_agree(mutant)
        except AssertionError as error:
            raise AssertionError(f"mutation {kind}: {error}") from None


def test_every_swap_and_card_change_of_one_hand_agrees():
    """Exhaustively, for one game: every swap of two plays and every change of a played card in hand 1."""
    game = simulate_game(Rules.preset("standard"), ["a", "b", "c", "d"], 7, HeuristicBot, max_hands=1)
    plays = list(game.hands[0].plays)
    accepted = 0
    for i in range(len(plays)):
        for j in range(i + 1, len(plays)):
            swapped = plays.copy()
            swapped[i], swapped[j] = swapped[j], swapped[i]
            mutant = _with_hand(game, 0, plays=tuple(swapped))
            assert_agree(mutant)
            accepted += replay_game(mutant).valid
        for card in range(0, 52, 3):
            if card != plays[i][1]:
                changed = plays.copy()
                changed[i] = (plays[i][0], card)
                mutant = _with_hand(game, 0, plays=tuple(changed))
                assert_agree(mutant)
                assert not replay_game(mutant).valid  # the card is then played twice, or never
    assert accepted < len(plays) * (len(plays) - 1) // 2
