"""The rollout player that stops moons (``GUARD``, ``Settings(model="guard")``): the basic player it
extends hands a lone point-taker the queen and the hearts, so a review under it learns that a moon is
free. Positions are built with the kernel's own ``start`` and ``play``."""

from __future__ import annotations

import random

import numpy as np

from hearts_analysis.cards import card_name, mask_of, parse_card
from hearts_analysis.kernel.compiled import BASIC, GUARD, choose, facts, finish_all, play, start
from hearts_analysis.review.policy import MODELS, OTHER_MODEL
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import deal

TABLE = Rules.preset("standard").table(4)
RULES = facts(TABLE)


def _masks(*texts):
    return [mask_of(parse_card(c) for c in text.split()) for text in texts]


def _position(taken_by_one):
    """Trick 6: seat 1 has taken every point so far (``taken_by_one``) and leads AD; seat 2 is void in
    diamonds and holds QS and hearts."""
    hands = _masks("2D 3D 4D 5D 6D 7D 8D", "AD KC QC JC TC 9C 8C", "QS 9H TH 2S 3S 4S 5S",
                   "9D TD JD QD KD 6S 7S")
    taken = [0, mask_of(parse_card(c) for c in taken_by_one.split()), 0, 0]
    state = start(RULES, hands, 1, taken=taken, won=[0, 5, 0, 0], broken=True, trick_number=6)
    play(state, RULES, 1, parse_card("AD"))
    return state


def test_the_guard_gives_a_would_be_shooter_no_point_card():
    state = _position("2H 3H 4H 5H 2C 3C 4C 5C")
    assert card_name(choose(state, RULES, 2, BASIC)) == "QS"     # the basic player hands over the queen
    assert card_name(choose(state, RULES, 2, GUARD)) not in ("QS", "9H", "TH")


def test_the_guard_plays_as_the_basic_player_while_no_moon_threatens():
    state = _position("2H 2C 3C 4C")                             # one heart: no threat yet
    assert choose(state, RULES, 2, GUARD) == choose(state, RULES, 2, BASIC)


def test_the_guard_wins_a_trick_the_shooter_is_winning():
    hands = _masks("2D 4D 5D 6D 7D 8D 6C", "TD KC QC JC TC 9C 8C", "QS 9H TH 2S 3S 3D AD",
                   "9D 6H JD QD KD 6S 7S")
    state = start(RULES, hands, 1, taken=[0, mask_of(parse_card(c) for c in "2H 3H 4H 5H".split()), 0, 0],
                  won=[0, 5, 0, 0], broken=True, trick_number=6)
    play(state, RULES, 1, parse_card("TD"))
    assert card_name(choose(state, RULES, 2, BASIC)) != "AD"
    assert card_name(choose(state, RULES, 2, GUARD)) == "AD"


def test_guarded_rollouts_suffer_fewer_moons_than_basic_ones():
    rng = random.Random("guard")
    hands = np.array([[mask_of(h) for h in deal(TABLE, rng)] for _ in range(400)], np.int64)
    leaders = np.argmax((hands & 1) != 0, axis=1)
    moons = {}
    for player in (BASIC, GUARD):
        points, _ = finish_all(RULES, hands, leaders, 2, player)
        moons[player] = int(((points == 26).sum(axis=1) == 3).sum())
    assert moons[GUARD] * 2 < moons[BASIC], moons


def test_the_guard_is_a_review_model_confirmed_by_the_strong_one():
    assert MODELS["guard"].plays == GUARD and OTHER_MODEL["guard"] == "strong"


def test_hearts_review_takes_the_guard_model(tmp_path):
    from typer.testing import CliRunner

    from hearts_analysis.cli import app
    from hearts_analysis.records.json import write_games
    from hearts_analysis.simulate import simulate_game

    path = tmp_path / "one.json"
    write_games([simulate_game(Rules.preset("standard"), ("a", "b", "c", "d"), seed="guard-cli")], path)
    done = CliRunner().invoke(app, ["review", str(path), "--model", "guard", "--samples", "10", "--hand", "1",
                                    "--player", "a", "--no-confirm"])
    assert done.exit_code == 0, done.output
    assert "accuracy" in done.stdout
