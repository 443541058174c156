"""Reading which rollout player each other seat plays like (review/opponents.py), and the players it is
measured against from outside the simulator (benchmarks/outside_bots.py)."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import numpy as np
import pytest

from hearts_analysis.engine import replay_game
from hearts_analysis.kernel.compiled import BASIC, GUARD, STRONG, one_seat, seat_player, seatwise
from hearts_analysis.kernel.masks import U64
from hearts_analysis.review.opponents import log_likelihoods, posteriors, table_model, tables
from hearts_analysis.review.policy import MODELS
from hearts_analysis.rules import PRESETS, Rules
from hearts_analysis.simulate import HeuristicBot, simulate_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import outside_bots  # noqa: E402
from outside_bots import ClassicBot  # noqa: E402

PLAYERS = ["a", "b", "c", "d"]


def _seen(bot, seed: int, tricks: int):
    """A hand of four ``bot``s, as seat 0 would read it after ``tricks`` tricks, with the true deal."""
    rules = Rules.preset("standard", pass_cycle=["hold"])
    game = simulate_game(rules, PLAYERS, seed=seed, bot=[bot] * 4, max_hands=1)
    plays = game.hands[0].plays[:4 * tricks]
    hands = np.array([replay_game(game).hands[0].held], U64)
    for who, card in plays:
        hands[0, who] &= ~np.uint64(1 << card)
    return rules.table(4), plays, hands


@pytest.mark.parametrize("bot, strong_side", [(HeuristicBot, True), (ClassicBot, False)])
def test_each_seat_is_read_as_the_player_it_plays_like(bot, strong_side):
    # HeuristicBot follows the notes the strong player is built from; ClassicBot ducks and dumps
    chances = []
    for seed in range(12):
        table, plays, hands = _seen(bot, seed, 8)
        chances.append(posteriors(log_likelihoods(table, plays[0][0], plays, 0, hands, ("basic", "strong")))[1:, 1])
    mean = float(np.mean(chances))
    assert (mean > 0.8) if strong_side else (mean < 0.2), mean


def test_before_any_play_every_seat_is_an_even_mix_and_the_asking_seat_is_never_read():
    table, plays, hands = _seen(HeuristicBot, 0, 0)
    logs = log_likelihoods(table, 0, plays, 0, hands, ("basic", "strong"))
    assert not logs.any() and posteriors(logs).tolist() == [[0.5, 0.5]] * 4
    table, plays, hands = _seen(HeuristicBot, 0, 6)
    assert not log_likelihoods(table, plays[0][0], plays, 0, hands, ("basic", "strong"))[:, :, 0].any()


def test_the_players_drawn_per_deal_follow_the_evidence_and_cover_every_deal_once():
    table, plays, hands = _seen(HeuristicBot, 0, 8)
    logs = log_likelihoods(table, plays[0][0], plays, 0, np.repeat(hands, 400, axis=0), ("basic", "strong"))
    split = tables(logs, 0, ("basic", "strong"), np.random.default_rng(1))
    lanes = np.sort(np.concatenate([lanes for _, lanes in split]))
    assert lanes.tolist() == list(range(400))
    share = np.zeros(4)
    for players, lanes in split:
        share += np.array([name == "strong" for name in players]) * len(lanes) / 400
    assert share[0] == 0 and np.allclose(share[1:], posteriors(logs)[1:, 1], atol=0.08), share
    even = tables(np.zeros_like(logs), 0, ("basic", "strong"), np.random.default_rng(1))
    assert len(even) == 8 and all(abs(len(lanes) - 50) < 25 for _, lanes in even)


def test_a_table_model_plays_and_passes_each_seat_as_its_player_and_the_own_seat_as_its_own():
    model = table_model(("basic", "strong", "basic", "strong"), GUARD, 0)
    assert [seat_player(model.plays, s) for s in range(4)] == [GUARD, STRONG, BASIC, STRONG]
    dealt = np.array([list(replay_game(simulate_game(Rules.preset("standard"), PLAYERS, seed=9,
                                                     max_hands=1)).hands[0].held)], U64)
    given = model.passes(dealt.reshape(-1), 3, "left", None)
    for s, name in enumerate(("basic", "strong", "basic", "strong")):
        assert given[s] == MODELS[name].passes(dealt[:, s], 3, "left", None)[0]


def test_a_seatwise_code_names_each_seats_player():
    code = seatwise([BASIC, STRONG, GUARD, BASIC])
    assert [seat_player(code, s) for s in range(4)] == [BASIC, STRONG, GUARD, BASIC]
    assert [seat_player(one_seat(BASIC, 2, STRONG), s) for s in range(4)] == [BASIC, BASIC, STRONG, BASIC]
    assert seat_player(STRONG, 3) == STRONG


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_classic_player_plays_whole_games_by_the_rules(preset):
    rules = Rules.preset(preset)
    game = simulate_game(rules, PLAYERS, seed=4, bot=[ClassicBot] * 4)
    result = replay_game(game)
    assert result.valid and result.complete


def test_the_outside_players_docstring_examples_run():
    assert doctest.testmod(outside_bots).failed == 0
