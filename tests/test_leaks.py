"""The leak finder tells skill from luck: on a pool where most players are one program and a few
play any legal card, only the random players have leaks; the review's costs count as evidence."""

import time
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.analysis.leaks import GAP_STAT, LEAK_RATES, REVIEW_STAT, ReviewCosts, read_review_costs
from hearts_analysis.analysis.stats import RATES, tally_games
from hearts_analysis.cli import app
from hearts_analysis.records.json import dumps_game, write_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import make_pool, pool_bots, simulate_pool

runner = CliRunner()
LEAK_FIELDS = {"player", "statistic", "value", "reference", "sample_size", "ci_low", "ci_high", "cost_per_hand",
               "significant", "p_value", "stat", "player_value", "winners_value", "impact",
               "opportunities_per_hand", "cost"}


@pytest.mark.parametrize("mix,seed", [({"heuristic": 6, "random": 2}, 1), ({"heuristic": 5, "random": 3}, 2)])
def test_only_the_random_players_have_significant_costly_leaks(tmp_path, mix, seed):
    # 300 games of 4-player tables from a pool of 8: about 1,250 hands per player (~10 s a case here)
    started = time.perf_counter()
    games = list(simulate_pool(300, Rules.preset("standard"), make_pool(8, mix, seed), 4, seed))
    bots = pool_bots(games)
    path = tmp_path / "club.jsonl"
    write_games(games, path)
    result = runner.invoke(app, ["stats", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    leaks = orjson.loads(result.stdout)["leaks"]
    assert all(LEAK_FIELDS <= set(leak) for leak in leaks)
    found = {name: [leak for leak in leaks if leak["player"] == name and leak["significant"]] for name in bots}
    for name, bot in bots.items():
        gap = next(leak for leak in leaks if leak["player"] == name and leak["statistic"] == GAP_STAT)
        assert gap["card_play_reviewed"] is False and not gap["significant"]
        claimed = sum(leak["cost_per_hand"] for leak in found[name] if leak["counted"])
        assert gap["reference"] == pytest.approx(claimed) and gap["cost_per_hand"] == pytest.approx(gap["value"] - claimed)
        if bot == "random":
            # the random card play is not reviewed: the passes no longer explain the gap, which stays unexplained
            assert found[name] and gap["value"] > 5 and claimed < 0.25 * gap["value"], (name, gap, found[name])
            assert sum(leak["group"] == "pass" for leak in found[name] if leak["counted"]) <= 1
        else:
            assert found[name] == [], (name, found[name])
    for leak in leaks:
        if leak["group"] == "gap":
            continue
        assert leak["ci_low"] <= leak["value"] <= leak["ci_high"] and 0 <= leak["p_value"] <= 1
        assert not leak["significant"] or leak["cost_per_hand"] > 0
    assert time.perf_counter() - started < 120


def test_outcomes_are_not_leaks_and_every_statistic_compared_is_counted():
    assert set(LEAK_RATES) <= set(RATES)
    assert "qs_taken_pct" not in LEAK_RATES and "moon_success_pct" not in LEAK_RATES


def review_game(game_id, players, costs_by_seat, forced_every=0):
    decisions = []
    for seat, costs in enumerate(costs_by_seat):
        for index, cost in enumerate(costs):
            decisions.append({"hand": 1 + index // 13, "trick": 1 + index % 13, "seat": seat, "kind": "play",
                              "played": "2C", "best": "2C", "cost": cost, "class": None,
                              "forced": bool(forced_every and index % forced_every == 0)})
    return {"game_id": game_id, "players": players, "decisions": decisions, "accuracy": {}}


def test_the_review_cost_per_decision_is_a_leak_when_it_is_beyond_luck(tmp_path):
    from scipy import stats
    games = list(simulate_pool(8, Rules.preset("standard", target=30), make_pool(4, {"heuristic": 4}, 3), 4, 3))
    tally = tally_games(games)
    spread = [0.0, 0.5, 1.0, 0.2, 0.1, 0.0, 0.3, 0.4, 0.0, 0.2, 0.1, 0.6, 0.3]
    # p01's decisions cost 1.5 points more than everyone else's, over 52 decisions in 4 hands
    review = {"games": [review_game("g1", ["p01", "p02", "p03", "p04"],
                                    [[c + 1.5 for c in spread] * 4, spread * 4, spread * 4, spread * 4])]}
    (tmp_path / "review.json").write_bytes(orjson.dumps(review))
    costs = read_review_costs([tmp_path / "review.json"])
    rows = [row for row in tally.leak_rows(costs) if row["statistic"] == REVIEW_STAT]
    by_player = {row["player"]: row for row in rows}
    assert set(by_player) == {"p01", "p02", "p03", "p04"}
    worst = by_player["p01"]
    mean = sum(spread) / len(spread)
    assert worst["value"] == pytest.approx(mean + 1.5) and worst["reference"] == pytest.approx(mean)
    assert worst["sample_size"] == 52 and worst["opportunities_per_hand"] == 13 and worst["impact"] == 1
    assert worst["cost_per_hand"] == pytest.approx(1.5 * 13)
    mine, typical = [c + 1.5 for c in spread] * 4, spread * 4      # the median of three alike others: one of them
    raw = stats.ttest_ind(mine, typical, equal_var=False, alternative="greater").pvalue
    assert raw <= worst["p_value"] < 0.05 and worst["significant"]
    assert worst["ci_low"] < worst["value"] < worst["ci_high"]
    assert not any(by_player[name]["significant"] for name in ("p02", "p03", "p04"))
    result = runner.invoke(app, ["stats", "-", "--review", str(tmp_path / "review.json")],
                           input=b"".join(dumps_game(g) + b"\n" for g in games))
    assert result.exit_code == 0, result.output
    # the overall cost is split by situation and counted there, not twice
    assert "leak: p01: review_first_trick_cost" in result.stdout and f"leak: p01: {REVIEW_STAT}" not in result.stdout
    rows = tally.leak_rows(costs)
    assert not any(row["counted"] for row in rows if row["statistic"] == REVIEW_STAT)
    play = {row["player"]: row for row in rows if row["statistic"] == "review_other_play_cost"}
    assert max(play, key=lambda name: play[name]["cost_per_hand"]) == "p01" and play["p01"]["significant"]
    gap = {row["player"]: row for row in rows if row["group"] == "gap"}
    assert all(row["card_play_reviewed"] for row in gap.values())


def test_forced_decisions_cost_nothing_and_are_not_counted():
    costs = ReviewCosts()
    costs.add_game(review_game("g", ["a", "b"], [[0.0, 2.0, 4.0], [1.0]], forced_every=2))
    assert dict(costs.players["a"]) == {"decisions": 1, "cost": 2.0, "cost_sq": 4.0, "hands": 1}


@pytest.mark.parametrize("content,message", [
    (b"[1, 2", "not a review document"),
    (b'{"summary": []}', "games: missing"),
    (b'{"games": [{"players": ["a"], "decisions": [{"seat": 0}]}]}', "games[0]: decisions[0]"),
])
def test_an_unreadable_review_is_named_and_exits_2(tmp_path, content, message):
    bad = tmp_path / "review.json"
    bad.write_bytes(content)
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        read_review_costs([bad])
    games = tmp_path / "games.jsonl"
    write_games(simulate_pool(1, Rules.preset("standard", target=20), make_pool(4, {"random": 4}), 4), games)
    result = runner.invoke(app, ["stats", str(games), "--review", str(bad)])
    assert result.exit_code == 2 and str(bad) in result.stderr and "Traceback" not in result.output


def test_text_shows_significant_leaks_unless_all_are_asked_for(tmp_path):
    games = list(simulate_pool(60, Rules.preset("standard"), make_pool(4, {"heuristic": 3, "random": 1}, 5), 4, 5))
    path = tmp_path / "club.jsonl"
    write_games(games, path)
    randoms = [name for name, bot in pool_bots(games).items() if bot == "random"]
    shown = runner.invoke(app, ["stats", str(path)]).stdout
    every = runner.invoke(app, ["stats", str(path), "--all-leaks"]).stdout
    leak_lines = [line for line in shown.splitlines() if line.startswith("leak: ")]
    assert leak_lines and all(line.startswith(f"leak: {randoms[0]}: ") for line in leak_lines)
    assert "not significant" not in shown
    assert len([line for line in every.splitlines() if line.startswith("leak: ")]) > len(leak_lines)


def test_stats_reads_what_hearts_review_writes(tmp_path):
    game = tmp_path / "game.jsonl"
    no_pass = Rules.preset("standard", target=20, pass_count=0)          # reviewing a pass takes long
    write_games(simulate_pool(1, no_pass, make_pool(4, {"random": 4}, 7), 4, 7), game)
    review = tmp_path / "review.json"
    done = runner.invoke(app, ["review", str(game), "--samples", "10", "--hand", "1", "--format", "json",
                               "-o", str(review)])
    assert done.exit_code == 0, done.output
    result = runner.invoke(app, ["stats", str(game), "--review", str(review), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = [leak for leak in orjson.loads(result.stdout)["leaks"] if leak["statistic"] == REVIEW_STAT]
    assert sorted(row["player"] for row in rows) == ["p01", "p02", "p03", "p04"]
    assert all(row["unit"] == "points/decision" and row["sample_size"] > 0 for row in rows)


def test_a_missing_review_file_is_named():
    with pytest.raises(ValueError, match="nothing.json: cannot read"):
        read_review_costs([Path("nothing.json")])
