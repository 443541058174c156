"""``hearts match --seating one``: one player in one seat against the other in the rest, the pair that seat's
two hands; and ``benchmarks/judge_strength.py`` plays the same deals through it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.match import MatchConfig, focus_seat, one_against_rest, play_deal, players_of
from hearts_analysis.rules import Rules




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
