"""The rating: openskill's Plackett-Luce over finished games in played_at order; on a pool of known
strengths it ranks the stronger bots first once there are enough games."""

import random

import pytest

from hearts_analysis.analysis.rating import GameOutcome, in_played_order, rate_games
from hearts_analysis.analysis.stats import tally_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import make_pool, pool_bots, simulate_pool

STRENGTH = {"heuristic": 0, "mixed": 1, "random": 2}


def test_the_rating_orders_a_pool_of_known_strengths():
    games = list(simulate_pool(240, Rules.preset("standard"), make_pool(8, {"heuristic": 4, "mixed": 2, "random": 2},
                                                                        seed=6), 4, seed=6))
    bots = pool_bots(games)
    board = tally_games(games).leaderboard_rows()
    ranked = [bots[row["player"]] for row in board]
    assert ranked[:4] == ["heuristic"] * 4 and ranked[-2:] == ["random"] * 2, ranked
    assert all(row["rating_sigma"] < 25 / 3 / 2 and row["rated_games"] == 120 for row in board)  # from 8.33
    conservative = [row["rating_conservative"] for row in board]
    assert conservative == sorted(conservative, reverse=True)


def test_few_games_leave_the_rating_unsure():
    games = list(simulate_pool(60, Rules.preset("standard"), make_pool(8, {"heuristic": 6, "random": 2}, 1), 4, 1))
    few, many = tally_games(games[:4]).ratings(), tally_games(games).ratings()
    for name, rating in few.current.items():
        assert rating.sigma > many.current[name].sigma


def outcome(game_id, played_at, totals, players=("ann", "bob", "cy", "dee"), complete=True):
    return GameOutcome(game_id, played_at, players, totals, complete)


def test_one_game_is_openskills_plackett_luce_update_with_ties_sharing_a_rank():
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    ratings = rate_games([outcome("g", None, (40, 100, 40, 70))])
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 4, 1, 3])
    for name, (want,) in zip(("ann", "bob", "cy", "dee"), expected):
        assert (ratings.current[name].mu, ratings.current[name].sigma) == pytest.approx((want.mu, want.sigma))
    assert ratings.current["ann"].mu == ratings.current["cy"].mu > ratings.current["bob"].mu
    assert ratings.current["dee"].conservative == pytest.approx(want.mu - 3 * want.sigma)
    assert [row["player"] for row in ratings.leaderboard()][-1] == "bob"


def test_games_are_rated_in_played_at_order_then_by_game_id_whatever_order_they_were_counted_in():
    timed = [outcome(f"g{i}", f"2026-03-0{i}T20:00:00Z", tuple(random.Random(i).sample(range(50), 4)))
             for i in range(1, 8)]
    untimed = [outcome("late", None, (0, 50, 60, 100)), outcome("later", "", (100, 0, 60, 50))]
    shuffled = timed[:]
    random.Random(3).shuffle(shuffled)
    assert in_played_order(shuffled + untimed) == timed + untimed
    assert rate_games(shuffled + untimed).history == rate_games(timed + untimed).history
    same_time = [outcome("first", "2026-03-01T20:00:00Z", (0, 9, 9, 9)),
                 outcome("second", "2026-03-01T21:00:00+01:00", (9, 0, 9, 9))]  # the same instant
    assert in_played_order(same_time) == same_time == in_played_order(same_time[::-1])
    assert in_played_order([outcome("naive", "2026-03-01T19:00:00", (1, 2, 3, 4))] + same_time)[0].game_id == "naive"


def test_only_finished_games_are_rated_and_the_history_has_a_row_per_player_and_game():
    ratings = rate_games([outcome("done", "2026-01-01T10:00:00Z", (10, 20, 30, 100)),
                          outcome("stopped", "2026-01-02T10:00:00Z", (10, 20, 30, 40), complete=False)])
    assert [row["game_id"] for row in ratings.history] == ["done"] * 4
    assert set(ratings.history[0]) == {"game_id", "played_at", "player", "rated_games", "rating", "rating_sigma",
                                       "rating_conservative"}
    assert ratings.games == {"ann": 1, "bob": 1, "cy": 1, "dee": 1}
    assert rate_games([outcome("x", None, (1, 2, 3, 4), complete=False)]).columns("ann")["rating"] != 0  # NaN


def test_the_ratings_table_follows_each_player_game_by_game():
    games = list(simulate_pool(12, Rules.preset("standard", target=40), make_pool(6, {"heuristic": 6}, 2), 4, 2))
    tally = tally_games(games)
    table = tally.ratings_frame()
    assert len(table) == 12 * 4 and list(table["played_at"]) == sorted(table["played_at"])
    last = table.groupby("player").tail(1).set_index("player")
    players = tally.players_frame().set_index("player")
    assert (last["rating"] == players.loc[last.index, "rating"]).all()
    assert (last["rated_games"] == players.loc[last.index, "games"]).all()


def test_a_run_of_games_is_openskills_own_sequence_of_updates():
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    rng = random.Random(5)
    names = ["ann", "bob", "cy", "dee", "eve", "fay"]
    games = [GameOutcome(f"g{i}", f"2026-04-01T{i:02d}:00:00Z", tuple(rng.sample(names, 4)),
                         tuple(rng.randrange(0, 100, 5) for _ in range(4)), True) for i in range(20)]
    state = {}
    for game in games:                                 # the plain loop, letting openskill copy as it likes
        rated = model.rate([[state.get(name) or model.rating()] for name in game.players],
                           ranks=[sorted(game.totals).index(total) + 1 for total in game.totals])
        state.update((name, player) for name, (player,) in zip(game.players, rated))
    ratings = rate_games(games)
    for name, player in state.items():
        assert (ratings.current[name].mu, ratings.current[name].sigma) == pytest.approx((player.mu, player.sigma))
