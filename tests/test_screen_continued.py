"""Games recorded past their end (``game-continued``): the screen reports them as the reference engine does.

A game whose total reached the target, recorded with more hands after that, is
judged by the screen: its hands up to the end from the screen's arrays, each
later hand checked as a hand (from the arrays where it was played by the rules,
else replayed alone). Each corpus here is compared, report by report, with the
reference engine's replay of the same games.
"""

from __future__ import annotations

import dataclasses
from itertools import accumulate

import pytest

from faults import TABLES, audit_reports, write_parquet_file
from hearts_analysis.corpus_audit import game_report
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games


def _long_games(seed: int = 5) -> list:
    """Legal games of every table of :data:`faults.TABLES`, played to a high target (many hands)."""
    games = []
    for preset, players in TABLES:
        games.extend(simulate_games(2, Rules.preset(preset, target=150), players, seed=seed))
    return games


def _running_tops(game) -> list[int]:
    """The highest running total after each hand."""
    totals = list(accumulate((hand.points for hand in game.hands), lambda a, b: tuple(x + y for x, y in zip(a, b))))
    return [max(t) for t in totals]


def _ended(game, target: int, extra: int, tag: str):
    """``game`` under ``target``, recorded with ``extra`` of its real hands after the one that reached the target
    (``None`` where it has too few hands); marked complete, no winners named."""
    rules = game.rules.replace(target=target)
    table = rules.table(game.seats)
    tops = _running_tops(game)
    totals = list(accumulate((hand.points for hand in game.hands), lambda a, b: tuple(x + y for x, y in zip(a, b))))
    end = next((i for i, t in enumerate(totals) if table.game_over(t, i + 1)), None)
    if end is None or end + 1 + extra > len(game.hands) or tops[0] >= target:
        return None
    return dataclasses.replace(game, rules=rules, rules_spec=None, hands=game.hands[:end + 1 + extra], complete=True,
                               winners=None, game_id=f"{game.game_id}-{tag}")


def _copied_last(game, game_id: str):
    """The last hand recorded again after it, its totals carried on (as another program's log may repeat it): its
    passes and plays are those of another place in the pass cycle."""
    last = game.hands[-1]
    totals = None if last.totals is None else tuple(a + b for a, b in zip(last.totals, last.points))
    return dataclasses.replace(game, hands=game.hands + (dataclasses.replace(last, totals=totals),),
                               game_id=f"{game_id}-copied")


def _miscounted_last(game, game_id: str):
    """The last hand (after the end) recorded with a point too many for seat 0, and its total with it."""
    last = game.hands[-1]
    points = (last.points[0] + 1,) + last.points[1:]
    totals = None if last.totals is None else (last.totals[0] + 1,) + last.totals[1:]
    return dataclasses.replace(game, hands=game.hands[:-1] + (dataclasses.replace(last, points=points, totals=totals),),
                               game_id=f"{game_id}-miscounted")


def continued_corpus() -> list:
    """Every long game ended early by a lower target: exactly at the end, one real hand past it, three past it
    (and so with the last miscounted), the last hand copied after the end, and a game whose total lands exactly on
    the target."""
    games = []
    for game in _long_games():
        for target, extra, tag in ((60, 0, "ended"), (60, 1, "one-past"), (45, 3, "three-past")):
            changed = _ended(game, target, extra, tag)
            if changed is not None:
                games.append(changed)
                if tag == "ended":
                    games.append(_copied_last(changed, game.game_id))
                if tag == "three-past":
                    games.append(_miscounted_last(changed, game.game_id))
        tops = _running_tops(game)
        exact = next((top for top in tops[1:] if top not in tops[:tops.index(top)] and top > tops[0]), None)
        if exact is not None and exact not in (45, 60):   # a total some seat lands on exactly (reached, not passed)
            for extra, tag in ((0, "exact"), (2, "exact-two-past")):
                changed = _ended(game, exact, extra, tag)
                if changed is not None:
                    games.append(changed)
    return games


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    games = continued_corpus()
    return games, write_parquet_file(games, tmp_path_factory.mktemp("continued") / "continued.parquet")


def test_the_corpus_covers_every_way_a_game_is_continued(corpus):
    games, _ = corpus
    tags = {game.game_id.split("-", 3)[-1] for game in games}
    assert tags == {"ended", "one-past", "three-past", "miscounted", "copied", "exact", "exact-two-past"}
    for game in games:
        result = replay_game(game)
        continued = [v for v in result.violations if v.code == "game-continued"]
        tag = game.game_id.split("-", 3)[-1]
        if tag in ("ended", "exact"):
            assert not continued and result.ended_at == len(game.hands)
        else:
            assert [v.hand for v in continued] == [result.ended_at + 1] and result.ended_at < len(game.hands)
    exact = [g for g in games if g.game_id.endswith("-exact") and g.rules.end_at != "exceed"]
    assert exact and all(max(replay_game(g).totals) == g.rules.target for g in exact)


def test_continued_games_report_as_the_reference_engine(corpus):
    games, path = corpus
    fast, reference = audit_reports(path, "fast"), audit_reports(path, "reference")
    assert [report for _, report in fast] == [report for _, report in reference]
    assert [report["violations"] for _, report in fast] == \
        [game_report(replay_game(game), "")["violations"] for game in games]
    assert [report["totals"] for _, report in fast] == [list(replay_game(game).totals) for game in games]
    assert [by for by, _ in fast] == ["screen"] * len(games)   # not one game read again for the reference engine
    continued = [report for _, report in fast if any(v["code"] == "game-continued" for v in report["violations"])]
    assert len(continued) > len(games) // 2


def test_hands_up_to_the_end_come_from_the_screens_arrays(corpus, monkeypatch):
    """A continued game whose hands up to the end were played by the rules is not judged hand by hand."""
    from hearts_analysis.fastpath import screen

    def refused(*args, **kwargs):
        raise AssertionError("a continued game went hand by hand through judge_game")
    monkeypatch.setattr(screen, "judge_game", refused)
    games, path = corpus
    fast = audit_reports(path, "fast")
    assert [report["violations"] for _, report in fast] == \
        [game_report(replay_game(game), "")["violations"] for game in games]


def test_json_lines_of_continued_games_report_as_the_reference_engine(corpus, tmp_path):
    from hearts_analysis.records.json import write_games
    games, _ = corpus
    path = tmp_path / "continued.jsonl"
    write_games(games, path)
    fast, reference = audit_reports(path, "fast"), audit_reports(path, "reference")
    assert [report for _, report in fast] == [report for _, report in reference]
    assert sum(bool(report["violations"]) for _, report in fast) > len(games) // 2
    assert [by for by, _ in fast] == ["screen"] * len(games)
