"""The screen's own reports of scoring faults equal the reference engine's, on mutation corpora of every table.

A game dealt, passed and played by the rules but scored wrongly in its record is
judged by the screen without a replay (``fastpath/findings.py``); these tests
hold its reports to the reference engine's, field by field, and check that the
screen, not the reference path, made them.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from faults import MUTATIONS, TABLES, audit_reports, clean_games, every_violation, write_parquet_file
from hearts_analysis.corpus_audit import game_report
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.rules import MOON_CHOICES


def _points(game, rng):
    number = rng.randrange(len(game.hands))
    hand = game.hands[number]
    points = list(hand.points)
    for seat in rng.sample(range(game.seats), rng.randint(1, game.seats)):
        points[seat] += rng.choice([-3, -1, 1, 2, 13])
    return _with(game, number, points=tuple(points))


def _totals(game, rng):
    number = rng.randrange(len(game.hands))
    totals = list(game.hands[number].totals)
    totals[rng.randrange(game.seats)] += rng.choice([-2, 1, 5])
    return _with(game, number, totals=tuple(totals))


def _points_carried(game, rng):
    """Wrong points early, totals recorded as the wrong points add up: one totals fault, then none."""
    number = rng.randrange(len(game.hands))
    seat = rng.randrange(game.seats)
    hands = list(game.hands)
    points = list(hands[number].points)
    points[seat] += 1
    hands[number] = dataclasses.replace(hands[number], points=tuple(points))
    for k in range(number, len(hands)):
        totals = list(hands[k].totals)
        totals[seat] += 1
        hands[k] = dataclasses.replace(hands[k], totals=tuple(totals))
    return dataclasses.replace(game, hands=tuple(hands))


def _moon(game, rng):
    number = rng.randrange(len(game.hands))
    if game.hands[number].moon is not None:
        other = [c for c in MOON_CHOICES if c != game.hands[number].moon]
        return _with(game, number, moon=other[0])
    return _with(game, number, moon=rng.choice(MOON_CHOICES))


def _unfinished_complete(game, rng):
    return dataclasses.replace(game, hands=game.hands[:rng.randint(1, len(game.hands) - 1) or 1], complete=True)


def _several(game, rng):
    for change in rng.sample([_points, _totals, _moon, _points_carried], 2):
        game = change(game, rng)
    return game


def _with(game, number, **changes):
    hands = list(game.hands)
    hands[number] = dataclasses.replace(hands[number], **changes)
    return dataclasses.replace(game, hands=tuple(hands))


SCORING = [_points, _totals, _points_carried, _moon, _unfinished_complete, _several]


def scoring_faults(seed: int = 5) -> list:
    """Every clean game of every table of :data:`faults.TABLES`, once clean and once per scoring mutation."""
    rng = random.Random(seed)
    games = []
    for game in clean_games(3):
        games.append(game)
        for mutation in SCORING:
            if len(game.hands) > 1 or mutation is not _unfinished_complete:
                changed = mutation(game, rng)
                games.append(dataclasses.replace(changed, game_id=f"{game.game_id}-{mutation.__name__[1:]}"))
    return games


def test_the_screen_reports_scoring_faults_as_the_reference_engine_does(tmp_path):
    games = scoring_faults()
    path = write_parquet_file(games, tmp_path / "scoring.parquet")
    fast, reference = audit_reports(path, "fast"), audit_reports(path, "reference")
    assert [report for _, report in fast] == [report for _, report in reference]
    expected = [game_report(replay_game(game), "")["violations"] for game in games]
    assert [report["violations"] for _, report in fast] == expected
    faulty = [by for (by, report) in fast if report["violations"]]
    assert len(faulty) > len(games) // 2
    assert faulty == ["screen"] * len(faulty)   # not one went back to the reference engine
    codes = {v["code"] for _, report in fast for v in report["violations"]}
    assert codes == {"points-mismatch", "totals-mismatch", "moon-choice-invalid", "game-over-early"}
    tables = {(game.rules, game.seats) for game, (by, report) in zip(games, fast) if report["violations"]}
    assert len(tables) == len(TABLES)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__[1:])
def test_every_mutation_reports_as_the_reference_engine(tmp_path, mutation):
    games = [game for game in every_violation() if game.game_id.endswith(mutation.__name__[1:])]
    assert games
    path = write_parquet_file(games, tmp_path / "mutated.parquet")
    assert [r for _, r in audit_reports(path, "fast")] == [r for _, r in audit_reports(path, "reference")]


PLAY_FAULTS = ["revoke", "out_of_turn", "card_not_held", "hearts_not_broken", "wrong_first_lead",
               "points_on_first_trick", "queen_led_early", "hand_incomplete"]


def test_games_with_play_faults_are_judged_by_the_screen_replaying_only_their_faulty_hands(tmp_path):
    games = [game for game in every_violation() if game.game_id.rsplit("-", 1)[-1] in PLAY_FAULTS
             or any(game.game_id.endswith(name) for name in PLAY_FAULTS)]
    assert len(games) > 30
    path = write_parquet_file(games, tmp_path / "play.parquet")
    fast = audit_reports(path, "fast")
    assert [r for _, r in fast] == [game_report(replay_game(game), r["source"]) for game, (_, r) in zip(games, fast)]
    faulty = [by for by, report in fast if report["violations"]]
    assert len(faulty) == len(games)
    assert faulty == ["screen"] * len(faulty)


def test_json_lines_faults_are_judged_by_the_screen_too(tmp_path):
    from hearts_analysis.records.json import write_games
    games = scoring_faults()[:60] + [g for g in every_violation() if g.game_id.endswith("revoke")]
    path = tmp_path / "faults.jsonl"
    write_games(games, path)
    fast, reference = audit_reports(path, "fast"), audit_reports(path, "reference")
    assert [r for _, r in fast] == [r for _, r in reference]
    faulty = [by for by, report in fast if report["violations"]]
    assert faulty and faulty == ["screen"] * len(faulty)


def _dropped_or_added(seed: int = 3) -> list:
    """Every clean game of every table with one play left out of a hand, or one added, at a random place: the
    hand's tricks no longer fill, which the screen's layouts do not cover."""
    rng = random.Random(seed)
    games = []
    for game in clean_games(3):
        number = rng.randrange(len(game.hands))
        hand = game.hands[number]
        plays = list(hand.plays)
        at = rng.randrange(len(plays))
        if rng.random() < 0.5:
            del plays[at]
            kind = "dropped"
        else:
            plays.insert(at, plays[rng.randrange(len(plays))])
            kind = "added"
        hands = list(game.hands)
        hands[number] = dataclasses.replace(hand, plays=tuple(plays))
        games.append(dataclasses.replace(game, hands=tuple(hands), game_id=f"{game.game_id}-{kind}"))
    return games


def test_a_play_dropped_or_added_replays_only_that_hand(tmp_path):
    games = _dropped_or_added()
    path = write_parquet_file(games, tmp_path / "short.parquet")
    fast = audit_reports(path, "fast")
    assert [r for _, r in fast] == [r for _, r in audit_reports(path, "reference")]
    assert [r["violations"] for _, r in fast] == [game_report(replay_game(g), "")["violations"] for g in games]
    assert all(report["violations"] for _, report in fast)
    assert [by for by, _ in fast] == ["screen"] * len(games)   # the game was not read again for the reference path
    assert {g.game_id.rsplit("-", 1)[1] for g in games} == {"dropped", "added"}
