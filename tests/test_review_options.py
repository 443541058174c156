"""The review shows every option with its margin and the better card's likely line; nothing reviewed is n/a.

Issue 44, parts 4 and 5: a decision of ``hearts review --format json`` carries ``options`` in the shape of the
advice board's (``Advice.to_dict()["options"]``), best first with the played choice among them, and ``line``:
``[seat, card]`` plays that start with the better choice, legal from the position on a deal the seat's knowledge
allows, in seat order. A seat or game with no reviewable decision shows n/a and why, never 100%.
"""

from __future__ import annotations

import json

import pytest

from hearts_analysis.cards import card_name, mask_of, parse_card
from hearts_analysis.engine.state import HandState
from hearts_analysis.review import Settings, review_game
from hearts_analysis.review.board import AdvisedOption
from hearts_analysis.review.evaluate import Option
from hearts_analysis.review.report import game_dict
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game

from test_real_logs import REAL
from incli import hearts  # in this interpreter: these tests are about what the commands print

TREND = REAL / "trend-lookahead-hearts_logs.log"


@pytest.fixture(scope="module")
def reviewed():
    game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=5, max_hands=1)
    return game, game_dict(review_game(game, Settings(samples=40, budget=128), seats=[0, 2], hands=[1]))


def test_every_decision_lists_its_options_in_the_advice_shape_best_first_with_the_played_choice(reviewed):
    _, document = reviewed
    keys = set(AdvisedOption(Option((0,), 1.0, 0.0, 0.0, 0.0), 0.5, "").to_dict())
    several = 0
    for d in document["decisions"]:
        options = d["options"]
        assert options and all(set(o) == keys for o in options)
        expected = [o["expected_points"] for o in options]
        assert expected == sorted(expected)
        played = [d["played"]] if d["kind"] == "play" else sorted(d["played"], key=parse_card)
        assert any(sorted(o["cards"], key=parse_card) == played for o in options)
        assert all(o["margin"] >= 0 for o in options)
        several += len(options) > 1
        if d["forced"]:
            assert len(options) == 1
    assert several >= 5


def test_merged_equal_cards_are_named_with_their_option(reviewed):
    _, document = reviewed
    merged = 0
    for d in document["decisions"]:
        if d["kind"] != "play":
            continue
        assert len(d["equal"]) == len(d["options"])
        for option, group in zip(d["options"], d["equal"]):
            assert option["cards"][0] in group
            merged += len(group) > 1
    assert merged


def _hands_at(game, index):
    """The real state before play ``index`` (0-based) of the first hand."""
    hand = game.hands[0]
    from hearts_analysis.engine.replay import replay_game
    result = replay_game(game).hands[0]
    held = [mask_of(cards) for cards in result.held] if not isinstance(result.held[0], int) else list(result.held)
    state = HandState(game.rules.table(4), held, HandState.first_leader_for(game.rules.table(4), held,
                                                                           result.dealer))
    for seat, card in hand.plays[:index]:
        state.push(seat, card)
    return state


def test_the_line_starts_with_the_better_card_follows_seat_order_and_is_legal_from_the_position(reviewed):
    game, document = reviewed
    plays = game.hands[0].plays
    checked = 0
    for d in (d for d in document["decisions"] if d["kind"] == "play"):
        index = next(i for i, (seat, card) in enumerate(plays)
                     if seat == d["seat"] and card_name(card) == d["played"] and
                     sum(1 for s, _ in plays[:i]) // 4 + 1 == d["trick"])
        state = _hands_at(game, index)
        line = [(seat, parse_card(card)) for seat, card in d["line"]]
        assert line and line[0] == (d["seat"], parse_card(d["best"]))
        assert line[0][1] in set(_bits(state.legal_cards(d["seat"])))
        # replayed on a deal the seat's knowledge allows: the seat's own cards are its own, the others' cards are
        # unseen ones; each play follows suit where the seat can, and the seats move in the engine's order
        unseen = state.table.deck & ~state.played & ~state.hands[d["seat"]] & ~state.trick_cards
        own = [c for s, c in line if s == d["seat"]]
        assert all(state.hands[d["seat"]] >> c & 1 for c in own)
        assert all(unseen >> c & 1 for s, c in line if s != d["seat"])
        assert len({c for _, c in line}) == len(line)
        hands = list(state.hands)
        for s, c in line:
            if s != d["seat"]:
                hands[s] |= 1 << c
        hands[d["seat"]] = state.hands[d["seat"]]
        probe = HandState(state.table, _start(state, hands), state.leader if not state.trick else state.trick[0][0])
        for seat, card in state.trick:
            probe.push(seat, card)
        for seat, card in line:
            assert probe.to_play == seat
            if seat == d["seat"]:
                assert probe.legal_cards(seat) >> card & 1
            probe.push(seat, card)
        checked += 1
    assert checked >= 8


def _bits(mask):
    return [c for c in range(52) if mask >> c & 1]


def _start(state, hands):
    """Each seat's cards at the start of the current trick, with the line's cards of the others added."""
    start = list(hands)
    for seat, card in state.trick:
        start[seat] |= 1 << card
    return start


def _run(*args):
    return hearts("review", *args)


@pytest.mark.skipif(not TREND.exists(), reason="the real Trend log is not on this machine")
def test_a_game_with_nothing_reviewable_is_na_with_why_never_100_percent(tmp_path):
    done = _run(str(TREND), "--format", "json", "--no-cache", "--samples", "10")
    assert done.returncode in (0, 2), done.stderr
    games = json.loads(done.stdout)["games"]
    assert games
    for game in games:
        if game["decisions"]:
            continue
        assert set(game["accuracy"].values()) == {None}
        assert set(game["not_reviewed"]) == set(game["accuracy"])
        assert all("charged cards" in why or "does not model" in why for why in game["not_reviewed"].values())
        assert len(game["skipped"]) == len({s["reason"] for s in game["skipped_hands"]})
    text = _run(str(TREND), "--no-cache", "--samples", "10").stdout
    assert "100.0%" not in text and "accuracy n/a" in text
    assert text.count("not reviewed:") == sum(len(g["skipped"]) for g in games)
    summary = _run(str(TREND), "--summary", "--no-cache", "--samples", "10").stdout
    assert "100.0%" not in summary and "n/a" in summary and len(summary.splitlines()) > 1
    rows = _run(str(TREND), "--summary", "--format", "csv", "--no-cache", "--samples", "10").stdout.splitlines()
    assert rows[0].endswith(",note") and all(",,does not" not in r for r in rows[1:])
    assert all("100.0" not in r for r in rows[1:]) and len(rows) > 1
