"""``hearts simulate`` and the game-level simulator: corpora that replay clean, the moon choice."""

from __future__ import annotations

import importlib.util

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cards import HEARTS_MASK, QS_MASK
from hearts_analysis.cli import app
from hearts_analysis.cli import simulate as simulate_cli
from hearts_analysis.engine import replay_game
from hearts_analysis.records.json import game_from_dict
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import choose_moon, simulate_games

runner = CliRunner()
ALL_POINTS = HEARTS_MASK | QS_MASK


def run(*args: str):
    return runner.invoke(app, ["simulate", *args])


def read_jsonl(path):
    return [game_from_dict(orjson.loads(line)) for line in path.read_bytes().splitlines()]


# -- the moon choice ---------------------------------------------------------------------
TABLE = Rules.preset("standard").table(4)


def moon_taken(shooter: int) -> list[int]:
    return [ALL_POINTS if seat == shooter else 0 for seat in range(4)]


@pytest.mark.parametrize("totals,shooter,expected", [
    ((80, 10, 20, 30), 1, "add_to_others"),          # adding ends the game and the shooter wins alone
    ((80, 60, 20, 30), 1, "subtract_from_shooter"),  # adding ends it with seat 2 lowest: subtract
    ((10, 40, 20, 30), 1, "subtract_from_shooter"),  # play goes on, the shooter behind: do not hasten the end
    ((10, 5, 20, 30), 1, "add_to_others"),           # play goes on, the shooter leads: bring the end nearer
    ((74, 60, 50, 60), 2, "add_to_others"),          # adding ends it (74 + 26 = 100) with the shooter lowest
    ((74, 40, 66, 60), 2, "add_to_others"),          # adding ends it in a shared win: better than playing on
])
def test_the_shooter_takes_the_better_option(totals, shooter, expected):
    assert choose_moon(TABLE, moon_taken(shooter), shooter, totals) == expected


def test_simulated_moons_are_scored_with_the_better_option():
    games = list(simulate_games(40, Rules.preset("standard"), 4, seed=21))
    moons = 0
    for game in games:
        before = (0,) * 4
        for hand in game.hands:
            if hand.moon:
                moons += 1
                shooter = hand.points.index(min(hand.points))
                assert hand.moon == choose_moon(TABLE, moon_taken(shooter), shooter, before)
                if max(hand.totals) >= 100:  # a game-ending moon: the shooter won it
                    assert hand.totals[shooter] == min(hand.totals)
            before = hand.totals
    assert moons


# -- the command -------------------------------------------------------------------------
def test_simulate_writes_jsonl_games_that_replay_clean(tmp_path):
    out = tmp_path / "corpus.jsonl"
    result = run("--games", "4", "--players", "5", "--rules", "omnibus", "--seed", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    games = read_jsonl(out)
    assert len(games) == 4 and all(g.seats == 5 and g.rules.jack_of_diamonds == -10 for g in games)
    assert all(replay_game(g).valid and replay_game(g).complete for g in games)
    assert games == list(simulate_games(4, Rules.preset("omnibus"), 5, seed=3))  # the library's games
    assert "wrote 4 games" in result.stderr


def test_simulate_is_deterministic_for_a_seed(tmp_path):
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for path, seed in ((first, "8"), (second, "8"), (other, "9")):
        assert run("-n", "3", "--seed", seed, "--bot", "mixed", "-o", str(path)).exit_code == 0
    assert first.read_bytes() == second.read_bytes() != other.read_bytes()


def test_rule_overrides_and_bots_are_applied(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run("-n", "2", "-p", "3", "--set", "target=50", "--set", "moon=none", "--bot", "random",
                 "-o", str(out))
    assert result.exit_code == 0, result.output
    for game in read_jsonl(out):
        assert game.rules.target == 50 and game.rules.moon == "none" and game.seats == 3
        assert 50 <= max(game.hands[-1].totals) and replay_game(game).valid


def test_one_game_as_json_and_to_stdout(tmp_path):
    out = tmp_path / "one.json"
    assert run("-n", "1", "-o", str(out)).exit_code == 0
    game = game_from_dict(orjson.loads(out.read_bytes()))
    assert replay_game(game).valid
    result = run("-n", "2", "-o", "-")
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and len(lines) == 2
    assert game_from_dict(orjson.loads(lines[0])) == next(simulate_games(1, Rules.preset("standard")))


@pytest.mark.parametrize("args,message", [
    (["--rules", "nosuch"], "unknown preset"),
    (["--set", "moon=sometimes"], "moon"),
    (["--set", "colour=red"], "unknown rule field"),
    (["--rules", "online", "--players", "3"], "across"),
    (["--set", "removed_cards=2D"], "does not deal evenly"),
])
def test_bad_rules_are_reported_cleanly_with_exit_2(tmp_path, args, message):
    out = tmp_path / "x.jsonl"
    result = run("-n", "1", "-o", str(out), *args)
    assert result.exit_code == 2 and message in result.stderr
    assert "Traceback" not in result.output and not out.exists()


def test_bad_outputs_are_refused_before_playing(tmp_path):
    result = run("-n", "1", "-o", str(tmp_path / "x.csv"))
    assert result.exit_code == 2 and "unknown output format" in result.stderr
    result = run("-n", "2", "-o", str(tmp_path / "x.json"))
    assert result.exit_code == 2 and "use .jsonl" in result.stderr
    assert run("-n", "1", "-p", "9", "-o", str(tmp_path / "x.jsonl")).exit_code == 2


def test_a_failure_part_way_leaves_no_output(tmp_path, monkeypatch):
    def broken(count, rules, players, seed, bot):
        yield from simulate_games(1, rules, players, seed, bot)
        raise RuntimeError("the simulator broke")

    monkeypatch.setattr(simulate_cli, "simulate_games", broken)
    out = tmp_path / "partial.jsonl"
    result = run("-n", "5", "-o", str(out))
    assert result.exit_code != 0 and not out.exists() and not list(tmp_path.iterdir())


@pytest.mark.skipif(importlib.util.find_spec("hearts_analysis.records.parquet") is None,
                    reason="Parquet output is not built yet")
def test_parquet_output_reads_back_the_same_games(tmp_path):
    out = tmp_path / "corpus.parquet"
    result = run("-n", "3", "--seed", "5", "-p", "4", "-o", str(out))
    assert result.exit_code == 0, result.output
    games = [item.game for item in iter_sources([out])]
    assert games == list(simulate_games(3, Rules.preset("standard"), 4, seed=5))


def test_help_has_an_example():
    result = runner.invoke(app, ["simulate", "--help"])
    assert result.exit_code == 0 and "Example: hearts simulate" in result.stdout


def test_the_judge_sits_at_the_table_among_the_bots(tmp_path):
    out = tmp_path / "judged.jsonl"
    result = run("-n", "1", "--bots", "judge=1,heuristic=3", "--set", "target=20", "--seed", "2", "-o", str(out))
    assert result.exit_code == 0, result.output
    (game,) = read_jsonl(out)
    assert sorted(game.extra["bots"]) == ["heuristic", "heuristic", "heuristic", "judge"]
    assert replay_game(game).valid and replay_game(game).complete


def test_a_game_cut_at_the_hand_limit_is_named_and_marked_incomplete(tmp_path, monkeypatch):
    """A target no game reaches: each game stops at the limit, the run says which, and the records say so."""
    from hearts_analysis.simulate import game as game_module
    monkeypatch.setattr(game_module, "simulate_game", _limited(game_module.simulate_game, 3))
    out = tmp_path / "long.jsonl"
    done = CliRunner().invoke(app, ["simulate", "--games", "2", "--set", "target=80000", "--seed", "1", "-o", str(out)])
    assert done.exit_code == 0, done.output
    records = [orjson.loads(line) for line in out.read_text().splitlines()]
    assert [r["complete"] for r in records] == [False, False] and all(len(r["hands"]) == 3 for r in records)
    assert "warning: 2 games stopped after" in done.output and "sim-1-1, sim-1-2" in done.output
    fine = CliRunner().invoke(app, ["simulate", "--games", "1", "--set", "target=30", "-o", str(tmp_path / "a.jsonl")])
    assert fine.exit_code == 0 and "warning" not in fine.output


def _limited(simulate_game, hands):
    def play(*args, **kwargs):
        kwargs["max_hands"] = hands
        return simulate_game(*args, **kwargs)
    return play
