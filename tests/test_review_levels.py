"""Review levels: a corpus is reviewed at the quick corpus level, one game file at the deep level, and every
document and page names the level it was reviewed at."""

from __future__ import annotations

import orjson
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.review.levels import LEVELS, level_for, settings_at
from hearts_analysis.reports.game import write_game_report

from test_review_page import _one_hand_games
from test_reports import Page


def _review(*args):
    return CliRunner().invoke(app, ["review", *map(str, args), "--samples", "10", "--budget", "32",
                                    "--no-cache", "--format", "json"])


def test_a_corpus_runs_at_the_corpus_level_and_one_game_at_the_deep_level(tmp_path):
    game = _one_hand_games(tmp_path)
    corpus = tmp_path / "games.jsonl"
    corpus.write_bytes(game.read_bytes())
    deep, quick = _review(game), _review(corpus)
    assert deep.exit_code == 0 and quick.exit_code == 0, (deep.output, quick.output)
    deep, quick = orjson.loads(deep.stdout), orjson.loads(quick.stdout)
    assert (deep["level"], quick["level"]) == ("deep", "corpus")
    assert deep["settings"]["own_model"] == "strong" and deep["settings"]["look_ahead"] is True
    assert quick["settings"]["own_model"] is None and quick["settings"]["look_ahead"] is False
    assert quick["settings"]["identify"] == [] and quick["settings"]["pass_samples"] == 4 * 10
    assert deep["settings"]["pass_samples"] == 16 * 10
    # the same decisions are reviewed at both levels; only how hard they are looked at differs
    assert [(d["hand"], d["kind"], d["seat"]) for g in deep["games"] for d in g["decisions"]] == \
           [(d["hand"], d["kind"], d["seat"]) for g in quick["games"] for d in g["decisions"]]
    told = orjson.loads(_review(corpus, "--level", "deep").stdout)
    assert told["level"] == "deep" and told["settings"] == deep["settings"]


def test_the_summary_and_the_text_name_the_level(tmp_path):
    corpus = _one_hand_games(tmp_path, 2)
    summary = CliRunner().invoke(app, ["review", str(corpus), "--summary", "--format", "json", "--samples", "10",
                                       "--budget", "32", "--no-cache"])
    assert summary.exit_code == 0 and orjson.loads(summary.stdout)["level"] == "corpus"
    text = CliRunner().invoke(app, ["review", str(corpus), "--samples", "10", "--budget", "32", "--no-cache"])
    assert text.exit_code == 0 and "Reviewed at the corpus level" in text.stdout
    bad = CliRunner().invoke(app, ["review", str(corpus), "--level", "shallow"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_a_page_names_the_level(tmp_path):
    from hearts_analysis.engine import replay_game
    from hearts_analysis.records import read_games
    from hearts_analysis.reports.extras import game_extras
    from hearts_analysis.review.batch import ReviewPlan
    [item] = list(read_games([_one_hand_games(tmp_path)]))
    result = replay_game(item.game)
    for level in LEVELS:
        plan = ReviewPlan(settings_at(level, samples=10, budget=32, pass_screen_samples=8, pass_finalists=2))
        page = write_game_report(result, "g.json", tmp_path / f"{level}.html",
                                 extras=game_extras(result, "g.json", plan))
        [_] = [p for p in Page(page.read_text()).named("p") if p.get("id") == "review-level"]
        assert f"Reviewed at the {level} level" in page.read_text()


def test_settings_given_win_over_the_level():
    assert settings_at("corpus", own_model="strong", look_ahead=True).own_model == "strong"
    assert settings_at("corpus", pass_samples=123).pass_deals == 123
    assert level_for(["folder"]) == "corpus" and level_for(["x.parquet"]) == "corpus"
