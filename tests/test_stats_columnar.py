"""The columnar statistics against the per-game analysis: the same Tally on every kind of corpus.

The per-game path (``tally_paths``: every game replayed and analysed in Python)
is the reference; the columnar path (``tally_corpus``) counts the games the
screen finds clean from the card columns and leaves the rest to the reference.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from faults import clean_games, every_violation, truncated, write_parquet_file, write_with_unreadable_games
from hearts_analysis.analysis import corpus_tally
from hearts_analysis.analysis.columnar import distinct, highest
from hearts_analysis.analysis.stats import Tally, tally_paths
from hearts_analysis.fastpath import jsonl
from hearts_analysis.records.json import dumps_game, write_games
from hearts_analysis.records.parquet import write_parquet
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import RandomBot, simulate_games
from test_properties import simulated_games

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from moon_bots import MoonBot  # noqa: E402


def counters(tally: Tally) -> dict:
    """Everything a Tally counted, without the zero counters one path creates and the other does not."""
    out = {}
    for name in ("players", "passes", "impact"):
        table = {key: {k: v for k, v in counter.items() if v} for key, counter in getattr(tally, name).items()}
        out[name] = {key: counter for key, counter in table.items() if counter}
    return {**out, "games": tally.games, "hands": tally.hands, "errors": tally.error_count,
            "error_reports": tally.errors}


def assert_same(paths, **options) -> Tally:
    fast = corpus_tally.tally_corpus(paths, **options)
    reference = tally_paths(paths)
    assert counters(fast) == counters(reference)
    assert _same_rows(fast.player_rows(), reference.player_rows())
    assert fast.pass_outcome_rows() == reference.pass_outcome_rows()
    return fast


def _same_rows(a: list[dict], b: list[dict]) -> bool:
    """Rows equal, NaN equal to NaN."""
    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(x[k] == y[k] or (x[k] != x[k] and y[k] != y[k]) for k in x) for x, y in zip(a, b))


def mixed_table(rules: Rules, players: int, games: int, seed: int):
    """Random players next to moon runners (heuristic players that run readily): moon runs shot, stopped and
    abandoned, missed stops, odd passes."""
    bots = ([RandomBot, lambda rng: MoonBot(rng, threshold=12)] * 4)[:players]
    return list(simulate_games(games, rules, players, seed=seed, bot=bots))


def replayed_games(monkeypatch) -> list:
    """The games the per-game analysis counts during a columnar run (a list filled as it runs)."""
    seen: list = []
    original = corpus_tally.analyze_game

    def spy(game, source=""):
        seen.append(source)
        return original(game, source)

    monkeypatch.setattr(corpus_tally, "analyze_game", spy)
    return seen


@pytest.mark.parametrize("preset, players, overrides", [
    ("standard", 4, {}),
    ("omnibus", 4, {"queen_of_clubs_cancels_queen": True, "no_tricks_bonus": -5}),
    ("classic", 3, {"moon": "subtract_from_shooter"}),
    ("classic", 5, {}),
    ("online", 4, {"moon": "none", "end_at": "exceed"}),
    ("standard", 6, {"first_lead": "any_club", "points_on_first_trick": True}),
    ("classic", 7, {}),
    ("black_queen", 4, {}),
])
@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_simulated_corpora_give_the_per_game_tally(tmp_path, monkeypatch, preset, players, overrides, suffix):
    games = mixed_table(Rules.preset(preset, target=60, **overrides), players, 8, seed=5)
    if suffix == ".parquet":
        path = write_parquet_file(games, tmp_path / "corpus.parquet", row_group_hands=30)
    else:
        path = tmp_path / "corpus.jsonl"
        write_games(games, path)
        monkeypatch.setattr(jsonl, "CHUNK_BYTES", 30000)  # several chunks
    seen = replayed_games(monkeypatch)
    tally = assert_same([path])
    columnar = tally.games - len([s for s in seen if s])
    if preset != "black_queen":   # there a hand ended by a leader holding only hearts goes game by game
        assert columnar == tally.games
    moons = sum(c["moon_attempts"] for c in tally.players.values())
    assert moons > 0


def test_moon_runs_of_every_ending_and_missed_stops_are_counted_like_the_analysis(tmp_path):
    games = mixed_table(Rules.preset("standard"), 4, 20, seed=9)
    path = write_parquet_file(games, tmp_path / "moons.parquet")
    tally = assert_same([path])
    total = {name: sum(c[name] for c in tally.players.values())
             for name in ("moons_shot", "moons_stopped", "moons_abandoned", "missed_stops", "moon_choices")}
    assert all(total.values()), total


def test_games_with_violations_and_unreadable_rows_go_to_the_per_game_path(tmp_path):
    good = write_parquet_file(every_violation()[:60], tmp_path / "violations.parquet", row_group_hands=30)
    paths = [write_with_unreadable_games(clean_games(), tmp_path / "edited.parquet", paired=True),
             truncated(good, tmp_path / "truncated.parquet"), good]
    told = []
    tally = assert_same(paths, on_error=told.append)
    assert tally.error_count == len(told) > 3
    assert [item.source for item in told] == [error["source"] for error in tally.errors]
    assert sum(c["violations"] for c in tally.players.values()) > 0


def test_a_count_without_details_gives_the_same_players_leaks_and_ratings_and_refuses_the_pass_tables(tmp_path):
    games = mixed_table(Rules.preset("standard", target=60), 4, 8, seed=5)
    path = write_parquet_file(games, tmp_path / "corpus.parquet", row_group_hands=30)
    full = corpus_tally.tally_corpus([path])
    for workers in (1, 2):
        lean = corpus_tally.tally_corpus([path], workers=workers, details=False)
        assert not lean.details and not lean.passes and not lean.points_hist
        assert counters(lean)["players"] == counters(full)["players"] and lean.impact == full.impact
        assert _same_rows(lean.player_rows(), full.player_rows()) and _same_rows(lean.leak_rows(), full.leak_rows())
        assert lean.rating_rows() == full.rating_rows()
        for table in (lean.pass_summary_rows, lean.pass_outcome_rows, lean.document):
            with pytest.raises(ValueError, match="pass tables"):
                table()
    assert full.details and full.passes and full.points_hist


def test_several_workers_and_a_folder_of_parts_give_the_same_tally(tmp_path):
    folder = tmp_path / "corpus"
    write_parquet(every_violation()[:40], folder, partition_size=60)
    one = corpus_tally.tally_corpus([folder])
    two = corpus_tally.tally_corpus([folder], workers=2)
    assert counters(one) == counters(two) == counters(tally_paths([folder]))


def test_json_lines_with_violations_and_unreadable_lines_go_to_the_per_game_path(tmp_path, monkeypatch):
    path = tmp_path / "violations.jsonl"
    lines = [dumps_game(game) for game in every_violation()[:60]]
    lines[5:5] = [b"not json", b'{"players": 3}', b"", dumps_game(clean_games()[0]).replace(b'"QS"', b'"qs"', 1)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    monkeypatch.setattr(jsonl, "CHUNK_BYTES", 20000)
    told = []
    tally = assert_same([path], on_error=told.append)
    assert tally.error_count == len(told) == 2
    assert [item.source for item in told] == [f"{path}:6", f"{path}:7"]
    assert sum(c["violations"] for c in tally.players.values()) > 0
    assert counters(tally) == counters(corpus_tally.tally_corpus([path], workers=2))


def test_json_lines_and_progress_are_counted_as_columns(tmp_path, monkeypatch):
    games = list(clean_games())[:6]
    jsonl = tmp_path / "games.jsonl"
    write_games(games, jsonl)
    parquet = write_parquet_file(games, tmp_path / "games.parquet")
    steps = []
    seen = replayed_games(monkeypatch)
    tally = corpus_tally.tally_corpus([jsonl, parquet], progress=lambda g, h: steps.append((g, h)),
                                      keep_duplicates=True)   # the same games twice: both counted, as columns
    assert tally.games == 12 and sum(g for g, _ in steps) == 12 and sum(h for _, h in steps) == tally.hands
    assert not [source for source in seen if source]  # none counted game by game
    assert counters(tally) == counters(tally_paths([jsonl, parquet], keep_duplicates=True))


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(simulated_games(max_hands=4), min_size=1, max_size=3))
def test_random_rule_sets_and_small_decks_give_the_per_game_tally(tmp_path_factory, games):
    games = [dataclasses.replace(game, game_id=f"g{i}") for i, game in enumerate(games) if game.hands]
    if not games:
        return
    path = write_parquet_file(games, tmp_path_factory.mktemp("rules") / "rules.parquet")
    assert_same([path])


@given(st.lists(st.integers(min_value=0, max_value=2**52 - 1), min_size=1, max_size=50))
def test_the_highest_card_and_the_distinct_values_are_those_of_plain_python(masks):
    assert highest(np.array(masks, np.uint64)).tolist() == [mask.bit_length() - 1 for mask in masks]
    values = np.array([mask % 97 - 40 for mask in masks])
    assert distinct(values) == sorted(set(values.tolist()))


def test_by_default_parts_are_counted_on_a_process_per_cpu(tmp_path, monkeypatch):
    from hearts_analysis.fastpath import AUTO, parallel

    folder = tmp_path / "corpus"
    write_parquet(every_violation()[:40], folder, partition_size=60)
    started, process_pool = [], corpus_tally.process_pool

    def counted_pool(workers):
        started.append(workers)
        return process_pool(workers)

    monkeypatch.setattr(parallel, "cpu_count", lambda: 2)
    monkeypatch.setattr(corpus_tally, "process_pool", counted_pool)
    auto = corpus_tally.tally_corpus([folder], workers=AUTO)
    assert started == [2] and counters(auto) == counters(corpus_tally.tally_corpus([folder]))
    single = tmp_path / "one.parquet"
    write_parquet(every_violation()[:3], single)
    corpus_tally.tally_corpus([single], workers=AUTO)
    assert started == [2]  # one part: one process
