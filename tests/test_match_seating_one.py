"""``hearts match --seating one``: one player in one seat against the other in the rest, the pair that seat's
two hands; and ``benchmarks/judge_strength.py`` plays the same deals through it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.match import MatchConfig, focus_seat, one_against_rest, play_deal, players_of
from hearts_analysis.rules import Rules

ROOT = Path(__file__).resolve().parent.parent



def test_the_one_seat_passes_every_way_from_every_seat():
    seen = set()
    for k in range(16):
        first, second = one_against_rest(4, k, 4)
        seat = focus_seat(k, 4, 4)
        assert first.count(0) == 1 and first[seat] == 0 and second == (1, 1, 1, 1)
        seen.add((seat, k % 4))
    assert len(seen) == 16


def test_a_deal_counts_the_one_seat_of_each_player():
    config = MatchConfig(players_of(["heuristic", "random"]), Rules.preset("standard"), seed=9, seating="one")
    for k in range(8):
        deal = play_deal(config, k)
        seat = focus_seat(k, 4, 4)
        first, second = (game.hands[0] for game in deal.games)
        assert first.deal == second.deal
        assert [g.players[seat] for g in deal.games] == ["heuristic", "random"]
        assert deal.points == [first.points[seat], second.points[seat]] and deal.seats == [1, 1]
        assert [c.decisions for c in deal.clocks] == [13 + (k % 4 != 3)] * 2  # the seat's plays and its pass


def test_the_cli_takes_the_seating_and_refuses_it_for_three_players():
    result = CliRunner().invoke(app, ["match", "heuristic", "random", "--seating", "one", "--deals", "8",
                                      "--format", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["hands"] == 16 and [p["hands"] for p in doc["players"]] == [8, 8]
    result = CliRunner().invoke(app, ["match", "heuristic", "random", "random", "--seating", "one", "--deals", "2"])
    assert result.exit_code == 2 and "--seating one" in result.stderr


def _benchmark(tmp_path: Path, *args: str) -> list[dict]:
    dump = tmp_path / f"dump{len(list(tmp_path.iterdir()))}.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "judge_strength.py"), "--subject", "heuristic",
                    "--baselines", "random", "--no-calibration", "--dump", str(dump), *args],
                   check=True, env=env, capture_output=True, cwd=tmp_path)
    return [json.loads(line) for line in dump.read_text().splitlines()]


@pytest.mark.parametrize("game_hands", ["1", "2"])
def test_the_judge_benchmark_plays_the_deals_of_the_match(tmp_path, game_hands):
    """Deal by deal the benchmark's seat takes the points of ``hearts match --seating one`` on the same seed: with
    one hand a deal it plays through the match; with ``--game-hands 2`` it plays its own games, whose first hand is
    the match's deal on the same streams."""
    corpus = tmp_path / "m.jsonl"
    result = CliRunner().invoke(app, ["match", "heuristic", "random", "--seating", "one", "--deals", "30",
                                      "--seed", "5", "-o", str(corpus), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    games = [json.loads(line) for line in corpus.read_text().splitlines()]
    rows = [row for row in _benchmark(tmp_path, "--hands", "30", "--seed", "5", "--game-hands", game_hands)
            if row["hand"] == 1]
    assert [row["k"] for row in rows] == list(range(30))
    for row, judged, played in zip(rows, games[::2], games[1::2]):
        seat = row["seat"]
        assert judged["players"][seat] == "heuristic" and played["players"][seat] == "random"
        assert row["direction"] == ("left", "right", "across", "hold")[row["k"] % 4]
        assert (row["judge"], row["baseline"]) == (judged["hands"][0]["points"][seat],
                                                   played["hands"][0]["points"][seat])
    assert sum(r["judge"] - r["baseline"] for r in rows) / 30 == pytest.approx(doc["pairs"][0]["difference"], abs=0.006)


def test_a_fault_in_a_seat_not_counted_is_still_counted_for_its_player(tmp_path):
    bot = tmp_path / "crashing.py"
    bot.write_text("class Crashing:\n    def pass_cards(self, view, legal):\n        return legal[:3]\n"
                   "    def play(self, view, legal):\n        raise RuntimeError('no')\n")
    result = CliRunner().invoke(app, ["match", "heuristic", f"python:{bot}:Crashing", "--seating", "one",
                                      "--deals", "2", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    crashing = doc["players"][1]
    assert crashing["decisions"] == 2 * 14  # its one seat's pass and plays on two deals (left, right)
    assert crashing["crash"] == doc["fault_count"] == 2 * (3 * 13 + 4 * 13)  # every seat it sat in
