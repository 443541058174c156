"""The analysis board: the judge's advice on a position in progress, read from what the seat knows."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import hearts_analysis
from hearts_analysis import advise
from hearts_analysis.cards import parse_card
from hearts_analysis.cli import app
from hearts_analysis.cli.advise import advice_text
from hearts_analysis.engine import replay_game
from hearts_analysis.records import game_to_dict
from hearts_analysis.review import Settings
from hearts_analysis.review.board import PositionError
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game

RULES = Rules.preset("standard")


def _game(seed: int):
    return simulate_game(RULES, ["ann", "bob", "cy", "dee"], seed=seed, max_hands=2)


def _cut(game, hand: int, plays: int, passes: bool = True):
    """``game`` stopped after ``plays`` plays of hand ``hand`` (0-based): the later hands dropped."""
    record = game.hands[hand]
    record = replace(record, plays=record.plays[:plays], points=None, totals=None, moon=None,
                     passes=record.passes if passes else None)
    return replace(game, hands=game.hands[:hand] + (record,), complete=None)


def _swaps(game, seat: int, count: int, rng: random.Random):
    """Games that differ from ``game`` only in the other seats' unseen cards, moved between them so
    that the record stays legal (the seat cannot tell them from ``game``)."""
    record = game.hands[-1]
    played = {card for _, card in record.plays}
    passed = {card for cards in (record.passes or ()) for card in (cards or ())}
    others = [s for s in range(4) if s != seat]
    found = []
    for _ in range(400):
        a, b = rng.sample(others, 2)
        free_a = [c for c in record.deal[a] if c not in played and c not in passed]
        free_b = [c for c in record.deal[b] if c not in played and c not in passed]
        if not free_a or not free_b:
            continue
        x, y = rng.choice(free_a), rng.choice(free_b)
        deal = [list(cards) for cards in record.deal]
        deal[a][deal[a].index(x)], deal[b][deal[b].index(y)] = y, x
        moved = replace(game, hands=game.hands[:-1] + (replace(record, deal=tuple(tuple(sorted(c)) for c in deal)),))
        violations = {v.code for v in replay_game(moved).violations}
        if violations <= {"hand-incomplete", "pass-invalid"} and moved != game:
            found.append(moved)
            if len(found) == count:
                break
    assert len(found) == count
    return found


@pytest.mark.parametrize("seed, hand, plays", [(1, 0, 1), (2, 0, 9), (3, 1, 17), (4, 0, 30), (5, 1, 41)])
def test_moving_the_unseen_cards_between_the_other_seats_does_not_change_the_advice(seed, hand, plays):
    game = _cut(_game(seed), hand, plays)
    advice = advise(game)
    assert advice.kind == "play" and len(advice.options) >= 1
    for moved in _swaps(game, advice.seat, 3, random.Random(seed)):
        assert advise(moved).to_dict() == advice.to_dict()
    assert advise(replace(game, game_id="another")).to_dict() == advice.to_dict()


def test_moving_the_unseen_cards_does_not_change_the_advised_pass():
    game = _cut(_game(6), 0, 0, passes=False)
    advice = advise(game, 2)
    for moved in _swaps(game, 2, 2, random.Random(6)):
        assert advise(moved, 2).to_dict() == advice.to_dict()


def test_what_the_seat_does_see_reaches_the_advice():
    """The check above cannot pass by reading nothing: the seat's own cards change the advice."""
    game = _cut(_game(7), 0, 0, passes=False)
    first = advise(game, 1)
    record = game.hands[0]
    deal = [list(cards) for cards in record.deal]
    deal[1], deal[3] = deal[3], deal[1]
    other = replace(game, hands=(replace(record, deal=tuple(tuple(c) for c in deal)),))
    assert advise(other, 1).best != first.best


def test_the_advice_as_a_dict_best_first():
    whole = _game(8)
    game = _cut(whole, 0, 5)
    advice = advise(game)
    data = advice.to_dict()
    assert list(data) == ["seat", "kind", "best", "options", "decided_by"] and data["decided_by"] == "points"
    assert data["seat"] == advice.seat == whole.hands[0].plays[5][0] and data["kind"] == "play"
    assert data["best"] == list(advice.best) == data["options"][0]["cards"] and len(advice.best) == 1
    assert all(list(o) == ["cards", "expected_points", "margin", "equal", "reason", "win_chance"]
               for o in data["options"])
    assert all(o["reason"] for o in data["options"]) and not data["options"][0]["equal"]
    points = [o["expected_points"] for o in data["options"]]
    assert points == sorted(points) and all(o["margin"] >= 0 for o in data["options"])
    assert json.loads(json.dumps(data)) == data
    assert advise(game_to_dict(game)).to_dict() == data            # a hearts-game/1 dict is read alike


def test_a_pass_is_three_cards_from_the_seats_hand():
    game = _cut(_game(9), 0, 0, passes=False)
    advice = advise(game, 3)
    assert advice.kind == "pass" and len(advice.best) == 3
    dealt = set(game.hands[0].deal[3])
    assert all(set(o.cards) <= dealt and len(o.cards) == 3 for o in advice.options)
    assert [o.expected for o in advice.options] == sorted(o.expected for o in advice.options)


def test_the_earlier_hands_give_the_totals():
    from hearts_analysis.review.board import advise_play
    import hearts_analysis.review.board as board
    seen = []
    original = board.advise_play

    def spy(*args, **kwargs):
        seen.append(args[5])
        return original(*args, **kwargs)
    game = _cut(_game(10), 1, 4)
    board.advise_play = spy
    try:
        advise(game)
    finally:
        board.advise_play = original
    assert seen == [game.hands[0].totals] and advise_play is original


@pytest.mark.parametrize("change, seat, words", [
    (lambda g: _cut(g, 0, 0, passes=False), None, "name the seat"),
    (lambda g: _cut(g, 0, 3), "wrong", "is not to move"),
    (lambda g: _cut(g, 0, 3), 9, "is not at the table"),
    (lambda g: _cut(g, 0, 52), None, "is over"),
    (lambda g: replace(_cut(g, 0, 3), hands=(replace(_cut(g, 0, 3).hands[0], passes=None),)), None,
     "records plays and no passes"),
])
def test_a_position_the_board_cannot_advise_on_is_a_clear_error(change, seat, words):
    game = change(_game(11))
    if seat == "wrong":
        seat = (game.hands[-1].plays[-1][0] + 2) % 4
    with pytest.raises(PositionError, match=words):
        advise(game, seat)


def test_advise_is_exported_from_the_package():
    assert "advise" in hearts_analysis.__all__ and "advise" in dir(hearts_analysis)
    assert hearts_analysis.Advice is type(advise(_cut(_game(12), 0, 8)))


def _write(tmp_path, game, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(game_to_dict(game)))
    return path


def test_cli_advise_prints_the_options_best_first_with_a_reason(tmp_path):
    game = _cut(_game(13), 0, 6)
    path = _write(tmp_path, game)
    result = CliRunner().invoke(app, ["advise", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    advice = advise(game)
    assert advice.best[0] in lines[0] and lines[0].startswith(f"{game.players[advice.seat]} ({'ABCD'[advice.seat]})")
    assert lines[1].startswith("  hand:") and lines[2].startswith("  trick:") and "score:" in result.stdout
    options = [line for line in lines if "\u00b1" in line]
    assert len(options) == len(advice.options)
    assert [line.startswith("\u2248") for line in options] == [o.equal for o in advice.options]
    assert "fewest points" in result.stdout
    as_json = CliRunner().invoke(app, ["advise", str(path), "--format", "json"])
    assert json.loads(as_json.stdout) == advice.to_dict()


def test_cli_advise_errors_name_the_file_and_the_problem(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(app, ["advise", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "none.json" in missing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(app, ["advise", str(bad)])
    assert result.exit_code == 2 and "bad.json" in result.stderr
    path = _write(tmp_path, _cut(_game(14), 0, 0, passes=False))
    result = runner.invoke(app, ["advise", str(path)])
    assert result.exit_code == 2 and "name the seat" in result.stderr and "--seat" in result.stderr
    assert "Example" in runner.invoke(app, ["advise", "--help"]).stdout


def test_the_advice_at_a_play_says_how_it_reads_each_other_seat():
    game = _cut(_game(8), 0, 9)
    advice = advise(game, settings=Settings(samples=80))
    seats = [seat for seat, _ in advice.readings]
    assert sorted(seats + [advice.seat]) == [0, 1, 2, 3]
    for _, chances in advice.readings:
        assert set(chances) == set(Settings().identify) and abs(sum(chances.values()) - 1) < 1e-9
    assert not advise(game, settings=Settings(samples=80, identify=())).readings
    text = advice_text(advice)
    assert "read from their plays this hand" in text and all(f"({'ABCD'[s]}) like" in text for s in seats)
