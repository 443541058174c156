"""Player statistics: checked by hand on two crafted games; streaming, merging, formats, docs."""

import importlib.util
import math
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from pandas.testing import assert_frame_equal

from analysis_games import ABANDON_DEAL, ABANDON_PLAY, STOPPED_PLAY, run_game, with_players
from hearts_analysis.analysis import catalogue
from hearts_analysis.analysis.stats import Tally, player_stats, tally_games, tally_paths
from hearts_analysis.records.json import write_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

ROOT = Path(__file__).resolve().parents[1]


def two_games():
    # A: ann bob cat dan score 6 0 0 17 (ann's run stopped by dan, who also takes QS); bob and cat win.
    # B: bob ann dan cat score 21 0 3 0 (bob's run abandoned, then he takes QS); ann and cat win.
    a = with_players(run_game(STOPPED_PLAY, target=10), "ann", "bob", "cat", "dan")
    b = with_players(run_game(ABANDON_PLAY, ABANDON_DEAL, target=10), "bob", "ann", "dan", "cat")
    return [a, b]


def test_every_figure_of_two_crafted_games():
    stats = player_stats(two_games()).set_index("player")
    columns = ["games", "complete_games", "hands", "wins", "win_pct", "avg_position", "points_per_hand",
               "hearts_per_hand", "qs_taken_pct", "moon_attempts", "moons_shot", "moon_attempts_stopped",
               "moons_abandoned", "others_moons_stopped", "hearts_broken_pct", "violations"]
    expected = pd.DataFrame([
        ["ann", 2, 2, 2, 1, 50.0, 2.0, 3.0, 3.0, 0.0, 1, 0, 1, 0, 0, 50.0, 0],
        ["bob", 2, 2, 2, 1, 50.0, 2.5, 10.5, 4.0, 50.0, 1, 0, 0, 1, 0, 50.0, 0],
        ["cat", 2, 2, 2, 2, 100.0, 1.0, 0.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0.0, 0],
        ["dan", 2, 2, 2, 0, 0.0, 3.5, 10.0, 3.5, 50.0, 0, 0, 0, 0, 1, 0.0, 0],
    ], columns=["player", *columns]).set_index("player")
    assert_frame_equal(stats[columns], expected, check_dtype=False, check_index_type=False)
    assert stats.loc["ann", "moon_attempt_pct"] == 50 and stats.loc["cat", "moon_attempt_pct"] == 0
    assert math.isnan(stats.loc["ann", "moon_choice_accuracy"])   # no shot, nothing to judge
    assert stats["passes"].eq(0).all() and stats["qs_pass_pct"].isna().all()
    assert stats["leak_cost"].eq(0).all()   # two games are too few to weigh a statistic
    assert stats.loc["cat", "rated_games"] == 2 and stats.loc["cat", "rating"] > stats.loc["dan", "rating"]


def test_the_contract_columns_come_first_and_follow_the_catalogue():
    stats = player_stats(two_games())
    assert list(stats.columns) == catalogue.columns("players")
    for name in ("player", "games", "hands", "wins", "points_per_hand", "qs_taken_pct", "moon_attempts", "moons_shot"):
        assert name in stats.columns


def crafted_tally(bob_passed: int) -> Tally:
    """Three players of 100 hands; only qs_pass_pct has enough hands on both sides to be weighed."""
    tally = Tally()
    for name, wins, passed in (("ann", 5, 20), ("bob", 1, bob_passed), ("cat", 1, 20)):
        tally.players[name].update({"games": 10, "complete_games": 10, "wins": wins, "hands": 100,
                                    "qs_pass_pct.opp": 100, "qs_pass_pct.hit": passed,
                                    # the player's own hands: 15 points after passing QS, 3 after keeping it
                                    "qs_pass_pct.hit_points": 15 * passed,
                                    "qs_pass_pct.opp_points": 15 * passed + 3 * (100 - passed)})
    # in the corpus a hand after passing QS scored 15 on average (say), one after keeping it 3
    tally.impact["qs_pass_pct"].update({"hit_points": 150, "hits": 10, "miss_points": 90, "misses": 30})
    return tally


def test_the_leak_finder_by_hand():
    from scipy import stats
    tally = crafted_tally(bob_passed=50)
    leaks = tally.leaks_frame().set_index("player")
    leaks = leaks[leaks["group"] != "gap"]
    assert list(leaks["statistic"]) == ["qs_pass_pct"] * 3     # one statistic weighed, for every player
    bob = leaks.loc["bob"]
    # the typical other player: ann and cat, the two middle ones of two, pooled
    assert (bob["value"], bob["reference"], bob["impact"], bob["opportunities_per_hand"]) == (50, 20, 12, 1)
    assert bob["cost_per_hand"] == pytest.approx(3.6)                  # (50% - 20%) x 12 points x every hand
    assert bob["sample_size"] == 100 and bob["unit"] == "percent"
    exact = stats.binomtest(50, 100).proportion_ci(0.95, method="wilson")
    assert (bob["ci_low"], bob["ci_high"]) == pytest.approx((100 * exact.low, 100 * exact.high))
    fisher = stats.fisher_exact([[50, 50], [40, 160]], alternative="greater").pvalue
    assert bob["p_value"] == pytest.approx(3 * fisher)                # Holm: the smallest of 3 p-values x 3
    assert bob["significant"]
    assert (bob["stat"], bob["player_value"], bob["cost"]) == ("qs_pass_pct", 50, bob["cost_per_hand"])
    assert bob["winners_value"] == 20                                  # ann, the one winner, for context
    for other in ("ann", "cat"):                                       # 20% against 35%: cheaper, no leak
        assert leaks.loc[other, "cost_per_hand"] < 0 and not leaks.loc[other, "significant"]
    players = tally.players_frame().set_index("player")
    assert players.loc["bob", "leak_cost"] == pytest.approx(3.6) and players.loc["bob", "leaks"] == 1
    assert players.loc["bob", "top_leaks"] == "qs_pass_pct: 50.0% vs 20.0% (+3.60)"
    assert players.loc["ann", "leaks"] == 0 and players.loc["ann", "top_leaks"] == ""
    assert tally.leak_sentences()["bob"][0].startswith("qs_pass_pct 50.0% against 20.0% for the typical "
                                                       "player (passes giving QS, of the passes where the passer was dealt QS")


def test_a_leak_is_significant_only_after_the_correction_for_every_test():
    from scipy import stats
    tally = crafted_tally(bob_passed=31)
    leaks = tally.leaks_frame().set_index("player")
    bob = leaks[leaks["group"] != "gap"].loc["bob"]
    raw = stats.fisher_exact([[31, 69], [40, 160]], alternative="greater").pvalue
    assert raw < 0.05 < bob["p_value"] == pytest.approx(3 * raw)      # 3 tests: not beyond luck
    assert bob["cost_per_hand"] > 0 and not bob["significant"]
    assert tally.leak_sentences() == {"ann": [], "bob": [], "cat": []}
    assert "(not significant)" in tally.leak_sentences(all_leaks=True)["bob"][0]


def test_fewer_errors_than_the_typical_player_is_never_a_costly_leak():
    """A missed stop is an error by definition: a corpus in which missed stops happen to go with fewer points
    (a negative impact) must not make a player who misses fewer stops look leaky, even with --all-leaks."""
    tally = Tally()
    for name, missed, points in (("ann", 2, 500), ("bob", 4, 500), ("cat", 4, 500), ("dan", 8, 600)):
        tally.players[name].update({"games": 10, "complete_games": 10, "wins": 2, "hands": 100, "points": points,
                                    "missed_stop_pct.opp": 100, "missed_stop_pct.hit": missed})
    tally.impact["missed_stop_pct"].update({"hit_points": 20, "hits": 10, "miss_points": 300, "misses": 100})
    assert tally.impacts()["missed_stop_pct"] < 0
    rows = tally.leak_rows()
    leaks = {row["player"]: row for row in rows if row["statistic"] == "missed_stop_pct"}
    assert leaks["ann"]["cost_per_hand"] < 0 and leaks["dan"]["cost_per_hand"] > 0
    # each player also gets its gap to the typical player (5 points a hand), less the counted leaks (none
    # significant here): dan's 6 points a hand leave a gap of 1 that no leak explains
    gaps = {row["player"]: row for row in rows if row["statistic"] == "unexplained_gap"}
    assert set(gaps) == {"ann", "bob", "cat", "dan"} and not any(row["counted"] for row in gaps.values())
    assert (gaps["dan"]["value"], gaps["dan"]["reference"], gaps["dan"]["cost_per_hand"]) == pytest.approx((1, 0, 1))
    assert gaps["ann"]["cost_per_hand"] == pytest.approx(0)
    assert not any(s.startswith("missed_stop_pct") for s in tally.leak_sentences(all_leaks=True)["ann"])
    assert any(s.startswith("missed_stop_pct") for s in tally.leak_sentences(all_leaks=True)["dan"])


def test_every_leak_the_table_counts_reaches_the_text_and_p_values_read_plainly():
    from hearts_analysis.simulate import make_pool, parse_mix, simulate_pool
    pool = make_pool(4, parse_mix("heuristic=3,random=1"), seed=1)
    tally = tally_games(simulate_pool(20, Rules.preset("standard", target=50), pool, players=4, seed=1))
    counted = {row["player"]: row["leaks"] for row in tally.player_rows()}
    sentences = tally.leak_sentences()
    assert counted["p04"] >= 1     # the random player
    assert {name: len(found) for name, found in sentences.items()} == counted
    assert all("e-" not in s for found in tally.leak_sentences(all_leaks=True).values() for s in found)
    # a player with five clear leaks, two of them passes (one pass leak counts): four reach the table and the text,
    # more than the three the text used to stop at
    tally = Tally()
    for name, hits in (("ann", 10), ("bob", 12), ("cat", 14), ("dan", 300)):
        c = tally.players[name]
        c.update({"games": 10, "complete_games": 10, "wins": 2, "hands": 1000, "points": 5000})
        for rate in ("moon_attempt_pct", "missed_stop_pct", "violation_hand_pct", "qs_pass_pct", "void_pass_pct"):
            c.update({rate + ".opp": 1000, rate + ".hit": hits,
                      rate + ".hit_points": 15 * hits, rate + ".opp_points": 15 * hits + 3 * (1000 - hits)})
            tally.impact[rate].update({"hit_points": 150, "hits": 10, "miss_points": 90, "misses": 30})
    counted = {row["player"]: row["leaks"] for row in tally.player_rows()}
    sentences = tally.leak_sentences()
    assert counted["dan"] == 4 and {name: len(found) for name, found in sentences.items()} == counted
    assert sum(s.split()[0].endswith("_pass_pct") for s in sentences["dan"]) == 1
    assert all("p < 0.001" in s for s in sentences["dan"])


CORPUS = list(simulate_games(6, Rules(), 4, seed=11))


@settings(max_examples=5, deadline=None)
@given(cut=st.integers(0, len(CORPUS)))
def test_tallies_of_chunks_merge_into_the_tally_of_the_whole(cut):
    whole = tally_games(CORPUS)
    merged = tally_games(CORPUS[:cut]).merge(tally_games(CORPUS[cut:]))
    assert (merged.games, merged.hands) == (whole.games, whole.hands)
    for frame in ("players_frame", "leaks_frame", "pass_summary_frame", "pass_outcomes_frame", "ratings_frame"):
        assert_frame_equal(getattr(merged, frame)(), getattr(whole, frame)())


def test_a_corpus_streams_from_files_and_unreadable_records_are_counted(tmp_path):
    good = tmp_path / "games.jsonl"
    write_games(CORPUS, good)
    lines = good.read_bytes().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"\n".join(lines[:2] + [b'{"players": 3}'] + lines[2:]) + b"\n")
    tally = tally_paths([broken, tmp_path / "missing.jsonl"])
    assert (tally.games, tally.error_count) == (len(CORPUS), 2)
    assert tally.errors[0]["source"] == f"{broken}:3" and "players" in tally.errors[0]["message"]
    assert_frame_equal(tally.players_frame(), tally_games(CORPUS).players_frame())


@pytest.mark.skipif(importlib.util.find_spec("hearts_analysis.records.parquet") is None,
                    reason="Parquet I/O is not in this installation yet")
def test_jsonl_and_parquet_give_the_same_statistics(tmp_path):
    from hearts_analysis.records.sources import write_any
    write_any(CORPUS, tmp_path / "games.jsonl")
    write_any(CORPUS, tmp_path / "games.parquet")
    from_jsonl, from_parquet = tally_paths([tmp_path / "games.jsonl"]), tally_paths([tmp_path / "games.parquet"])
    assert from_parquet.error_count == 0
    for frame in ("players_frame", "leaks_frame", "pass_summary_frame", "pass_outcomes_frame", "ratings_frame"):
        assert_frame_equal(getattr(from_parquet, frame)(), getattr(from_jsonl, frame)())


def test_docs_statistics_md_is_generated_from_the_catalogue():
    assert (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8") == catalogue.render_markdown(), \
        "regenerate with: python -m hearts_analysis.analysis"


def test_every_column_is_documented_with_a_unit_and_a_known_dtype():
    for spec in catalogue.TABLES.values():
        names = [s.name for s in spec.columns]
        assert len(names) == len(set(names)), spec.name
        for s in spec.columns:
            assert s.definition.endswith(".") and s.unit and s.dtype in ("int64", "Int64", "float64", "bool",
                                                                         "boolean", "string"), (spec.name, s.name)


def test_worker_processes_give_the_same_statistics(tmp_path):
    path = tmp_path / "games.jsonl"
    write_games(CORPUS, path)
    one, two = tally_paths([path]), tally_paths([path], workers=2)
    for frame in ("players_frame", "leaks_frame", "pass_summary_frame", "pass_outcomes_frame", "ratings_frame"):
        assert_frame_equal(getattr(two, frame)(), getattr(one, frame)())
