"""``hearts simulate --pool``: a club of named players, each always played by one bot, rotating seats."""

from collections import Counter

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.engine import replay_game
from hearts_analysis.records.json import game_from_dict
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import make_pool, parse_mix, pool_bots, simulate_pool

runner = CliRunner()
RULES = Rules.preset("standard", target=40)


def test_players_rotate_between_tables_and_seats_and_keep_their_bot():
    pool = make_pool(8, {"heuristic": 6, "random": 2}, seed=4)
    games = list(simulate_pool(40, RULES, pool, players=4, seed=4))
    assert all(replay_game(g).valid and replay_game(g).complete for g in games)
    bots = {p.name: p.bot for p in pool}
    assert Counter(bots.values()) == {"heuristic": 6, "random": 2}
    for game in games:
        assert len(set(game.players)) == 4
        assert list(game.extra["bots"]) == [bots[name] for name in game.players]
    assert pool_bots(games) == bots
    # two tables a round seat the whole pool: everyone plays every round, in varied seats and company
    assert set(Counter(name for g in games for name in g.players).values()) == {20}
    seats = {name: {g.players.index(name) for g in games if name in g.players} for name in bots}
    assert all(len(taken) >= 3 for taken in seats.values()) and sum(map(len, seats.values())) > 24
    assert len({frozenset(g.players) for g in games}) > 10


def test_played_at_increases_and_the_pool_is_reproducible():
    pool = make_pool(6, parse_mix("heuristic=4,random=2"), seed=1)
    games = list(simulate_pool(6, RULES, pool, players=3, seed=1))
    times = [g.played_at for g in games]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert games == list(simulate_pool(6, RULES, pool, players=3, seed=1))
    assert games[:4] == list(simulate_pool(4, RULES, pool, players=3, seed=1))   # game i depends on i only
    assert [g.players for g in games] != [g.players for g in simulate_pool(6, RULES, pool, players=3, seed=2)]


@pytest.mark.parametrize("text,message", [("heuristic=2,robot=1", "unknown bot 'robot'"),
                                          ("heuristic=two", "bad count 'two'"), ("random=0", "no players")])
def test_a_bad_mix_is_named(text, message):
    with pytest.raises(ValueError, match=message):
        parse_mix(text)


def test_the_command_writes_a_pool_corpus(tmp_path):
    out = tmp_path / "club.jsonl"
    result = runner.invoke(app, ["simulate", "-n", "6", "--pool", "9", "--bots", "heuristic=7,random=2",
                                 "-p", "3", "--set", "target=30", "--seed", "5", "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = [game_from_dict(orjson.loads(line)) for line in out.read_bytes().splitlines()]
    assert games == list(simulate_pool(6, Rules.preset("standard", target=30),
                                       make_pool(9, {"heuristic": 7, "random": 2}, seed=5), 3, seed=5))
    assert Counter(pool_bots(games).values()) == {"heuristic": 7, "random": 2}


@pytest.mark.parametrize("args,message", [(["--pool", "5", "--bots", "heuristic=4"], "names 4 players"),
                                          (["--pool", "3"], "cannot fill a table of 4"),
                                          (["--bots", "heuristic=3,cheater=1"], "unknown bot")])
def test_bad_pools_are_refused_with_exit_2(tmp_path, args, message):
    out = tmp_path / "x.jsonl"
    result = runner.invoke(app, ["simulate", "-n", "1", "-o", str(out), *args])
    assert result.exit_code == 2 and message in result.stderr and not out.exists()
