"""The review page: its data (counts, accuracy intervals, every flagged decision at its replay position) and
its HTML (links with the exact fragment, the player filter, untrusted names as text)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from hearts_analysis.cards import card_name
from hearts_analysis.reports import charts
from hearts_analysis.reports.extras import GameExtras
from hearts_analysis.reports.game import REPORT_HANDS, render_game_report
from hearts_analysis.review.page import accuracy_interval, fragment, play_number, review_page

from reportdata import PLAYERS, XSS_BREAKOUT, XSS_SCRIPT
from reviewpage import HOSTILE_ID, reviewed_extras, reviewed_game
from test_reports import NONE, Page

FRAGMENT = re.compile(r"^#hand=(\d+)&play=(\d+)$")


# -- the data ---------------------------------------------------------------------------
def test_each_decision_is_placed_at_the_play_that_shows_it():
    result, document = reviewed_game()
    page = review_page(document, result.record)
    assert page.decisions, "the review judged no unforced decision"
    for d in page.decisions:
        assert d["fragment"] == f"#hand={d['hand']}&play={d['play']}"
        if d["kind"] == "pass":
            assert d["play"] == 0
            continue
        seat, card = result.record.hands[d["hand"] - 1].plays[d["play"] - 1]
        assert seat == d["seat"] and card_name(card) == d["played"]
        assert (d["play"] - 1) // len(PLAYERS) + 1 == d["trick"]


def test_counts_and_the_flagged_list_hold_every_flagged_decision():
    result, document = reviewed_game()
    page = review_page(document, result.record)
    flagged = [d for d in document["decisions"] if d["class"]]
    assert len(flagged) >= 2
    assert len(page.flagged) == len(flagged)
    assert sorted((d["hand"], d["seat"], d["trick"] or 0) for d in page.flagged) == \
        sorted((d["hand"], d["seat"], d["trick"] or 0) for d in flagged)
    assert [(d["hand"], d["play"]) for d in page.flagged] == sorted((d["hand"], d["play"]) for d in page.flagged)
    for row in page.players:
        mine = [d for d in document["decisions"] if d["seat"] == row["seat"]]
        for name in ("inaccuracy", "mistake", "blunder"):
            assert row[name] == sum(d["class"] == name for d in mine)
        assert row["unforced"] == sum(not d["forced"] for d in mine) and row["decisions"] == len(mine)
        assert row["player"] == PLAYERS[row["seat"]]
        assert row["accuracy"] == document["accuracy"][str(row["seat"])]
        assert row["low"] <= row["accuracy"] <= row["high"] <= 100.0


def test_accuracy_interval_covers_the_estimate_and_narrows_with_more_decisions():
    rng = np.random.default_rng(5)

    def decisions(n):
        spread = rng.uniform(0.5, 8.0, n)
        cost = np.where(rng.random(n) < 0.3, spread * rng.uniform(0, 1, n), 0.0)
        return cost, spread
    few, many = decisions(25), decisions(400)
    low, high = accuracy_interval(*few)
    point = 100 * (1 - few[0].sum() / few[1].sum())
    assert low < point < high
    wide = high - low
    low, high = accuracy_interval(*many)
    assert low < 100 * (1 - many[0].sum() / many[1].sum()) < high
    assert high - low < wide / 2          # about 1/sqrt(n): 4x the decisions, half the width
    assert accuracy_interval([1.0, 0.0], [2.0, 2.0]) is None     # too few to resample
    assert accuracy_interval([0.0] * 5, [0.0] * 5) is None       # nothing at stake
    assert accuracy_interval([0.0] * 5, [1.0] * 5) == (100.0, 100.0)


def test_play_number_of_a_pass_and_of_a_hand_cut_short():
    plays = [(0, 1), (1, 2), (2, 3), (3, 4), (1, 5), (2, 6)]
    assert play_number(plays, 4, None, 1) == 0
    assert play_number(plays, 4, 1, 3) == 4
    assert play_number(plays, 4, 2, 0) == 6   # no card of seat 0 in the trick: its last play
    assert fragment(12, 0) == "#hand=12&play=0"


# -- the HTML ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def page_html() -> str:
    result, _ = reviewed_game()
    return render_game_report(result, "g.json", NONE, extras=reviewed_extras())


def test_every_flagged_decision_links_to_its_exact_replay_position(page_html):
    result, document = reviewed_game()
    page = Page(page_html)
    links = [a["href"] for a in page.named("a") if a.get("class") == "replay-link"]
    expected = [d["fragment"] for d in review_page(document, result.record).flagged]
    assert links == expected and len(links) == sum(1 for d in document["decisions"] if d["class"])
    for href in links:
        hand, play = (int(x) for x in FRAGMENT.match(href).groups())
        replay = next(h for h in page.data("replay-data")["hands"] if h["number"] == hand)
        assert 0 <= play <= len(replay["plays"])
        if play:   # the replay's note at that card is the flagged decision's
            assert replay["review"][str(play - 1)]["class"] is not None


def test_counts_graph_and_filter_markup(page_html):
    result, document = reviewed_game()
    page = Page(page_html)
    rows = [attrs for attrs in page.named("tr") if "data-seat" in attrs]
    flagged_rows = [r for r in rows if r.get("data-class")]
    assert len(flagged_rows) == sum(1 for d in document["decisions"] if d["class"])
    select = next(attrs for attrs in page.named("select") if attrs.get("id") == "review-player")
    assert select is not None
    options = [attrs["value"] for attrs in page.named("option") if attrs.get("value") in ("", "0", "1", "2", "3")]
    assert options[-5:] == ["", "0", "1", "2", "3"]
    assert any(attrs.get("id") == "review-filter" and "hidden" in attrs for attrs in page.named("div"))
    figure = page.data("fig-review")
    # per seat: its points (no legend entry), then its legend entry (no point) in the seat's colour and marker
    assert [trace["meta"] for trace in figure["data"]] == [0, 0, 1, 1, 2, 2, 3, 3]
    for seat, (points, entry) in enumerate(zip(figure["data"][::2], figure["data"][1::2])):
        assert points["showlegend"] is False and entry["customdata"] == [] and entry["legendgroup"] == str(seat)
        assert entry["marker"]["color"] == charts.colour(seat) and entry["marker"]["symbol"] == charts.MARKERS[seat]
    points = sum(len(trace["customdata"]) for trace in figure["data"])
    assert points == sum(1 for d in document["decisions"] if not d["forced"])
    assert all(len(c) == 2 for trace in figure["data"] for c in trace["customdata"])
    # the review's own script is part of the page, which loads nothing from the network
    running = next(body for attrs, body in page.scripts if attrs.get("type") != "application/json")
    assert "review-player" in running and "plotly_click" in running
    assert "http://" not in running and "https://" not in running


def test_the_cost_graph_marks_classes_and_draws_nothing_in_a_band_the_table_does_not_count():
    """An unclear decision of cost 20.5 counts in no class: it is drawn hollow, below the first line, and a
    flagged one is ringed in its class's colour inside its class's band."""
    from hearts_analysis.reports.game import CLASS_COLOURS, REVIEW_BANDS
    result, _ = reviewed_game()
    plays = result.record.hands[0].plays
    kinds = [(20.5, None, True), (7.4, "mistake", False), (9.0, "blunder", False), (0.3, None, False)]
    decisions = [{"hand": 1, "trick": i // 4 + 1, "seat": seat, "player": PLAYERS[seat], "kind": "play",
                  "played": card_name(card), "best": "2C", "cost": cost, "margin": 1.0, "class": name,
                  "unclear": unclear, "forced": False, "spread": 30.0, "reason": None}
                 for i, ((seat, card), (cost, name, unclear)) in enumerate(zip(plays, kinds))]
    extras = GameExtras(None, {"decisions": decisions, "accuracy": {str(s): 50.0 for s in range(4)}})
    page = Page(render_game_report(result, "g.json", NONE, extras=extras))
    drawn = {}
    for trace in page.data("fig-review")["data"]:
        for y, (hand, play), symbol, ring in zip(trace["y"], trace["customdata"], trace["marker"]["symbol"],
                                                 trace["marker"]["line"]["color"]):
            drawn[play] = (y, symbol, ring)
    blunder_line = REVIEW_BANDS[-1][0]
    assert drawn[1][0] < REVIEW_BANDS[0][0] and drawn[1][1].endswith("-open")
    assert 3.0 <= drawn[2][0] < blunder_line and drawn[2][2] == CLASS_COLOURS["mistake"]
    assert drawn[3][0] == 9.0 and drawn[3][2] == CLASS_COLOURS["blunder"]
    assert drawn[4][0] == 0.3 and not drawn[4][1].endswith("-open")
    above = [play for play, (y, _, _) in drawn.items() if y >= blunder_line]
    assert above == [3]   # the one blunder the table counts


def test_hostile_names_and_ids_stay_text_on_the_review_page(page_html):
    page = Page(page_html)
    assert XSS_SCRIPT not in page_html and XSS_BREAKOUT not in page_html and HOSTILE_ID not in page_html
    assert not page.named("img") and not page.named("b")
    assert all("<" not in body for attrs, body in page.scripts if attrs.get("type") == "application/json")
    options = "".join(page.text)
    for name in PLAYERS:
        assert name in options
    names = [trace["name"] for trace in page.data("fig-review")["data"]]
    assert "<" not in "".join(names) and "&lt;script&gt;" in "".join(names)


def test_a_long_list_is_whole_and_collapsed():
    result, document = reviewed_game()
    plays = result.record.hands[0].plays
    many = [{"hand": 1, "trick": i // 4 + 1, "seat": seat, "player": PLAYERS[seat], "kind": "play",
             "played": card_name(card), "best": "2C", "cost": 1.5, "class": "inaccuracy", "forced": False,
             "spread": 3.0, "reason": None} for i, (seat, card) in enumerate(plays)]
    extras = GameExtras(None, {"decisions": many, "accuracy": {"0": 50.0, "1": 50.0, "2": 50.0, "3": 50.0}})
    html_text = render_game_report(result, "g.json", NONE, extras=extras)
    page = Page(html_text)
    links = [a["href"] for a in page.named("a") if a.get("class") == "replay-link"]
    assert links == [f"#hand=1&play={i}" for i in range(1, 53)]
    details = next(attrs for attrs in page.named("details") if attrs.get("id") == "review-list")
    assert "open" not in details
    assert "Every flagged decision (52)" in "".join(page.text)


def test_decisions_beyond_the_replay_are_listed_without_a_link():
    result, document = reviewed_game()
    beyond = dict(document, decisions=[dict(d, hand=REPORT_HANDS + 1) for d in document["decisions"]
                                       if d["class"]][:1])
    page = Page(render_game_report(result, "g.json", NONE, extras=GameExtras(None, beyond)))
    assert not [a for a in page.named("a") if a.get("class") == "replay-link"]
    assert "not in the replay" in "".join(page.text)


# -- hearts report --review: workers, cache, progress -------------------------------------
def _one_hand_games(folder, count: int = 1):
    import orjson

    from hearts_analysis.records import game_to_dict
    from hearts_analysis.rules import Rules
    from hearts_analysis.simulate import simulate_game
    from hearts_analysis.simulate.bots import HeuristicBot, RandomBot
    games = [game_to_dict(simulate_game(Rules.preset("standard"), PLAYERS, seed, max_hands=1, game_id=f"one-{seed}",
                                        bot=[RandomBot, HeuristicBot, RandomBot, HeuristicBot]))
             for seed in range(3, 3 + count)]
    path = folder / ("game.json" if count == 1 else "games.jsonl")
    path.write_bytes(b"\n".join(orjson.dumps(g) for g in games) + b"\n")
    return path


def _report(*args):
    from typer.testing import CliRunner

    from hearts_analysis.cli import app
    return CliRunner().invoke(app, ["report", *map(str, args)])


def test_cli_report_review_runs_on_workers_and_reads_its_cache(tmp_path):
    import orjson
    game, cache = _one_hand_games(tmp_path), tmp_path / "cache"
    common = [game, "--review", "--review-samples", "16", "--cache", cache]
    first = _report(*common, "--workers", "2", "-o", tmp_path / "a.html")
    assert first.exit_code == 0, first.output
    [entry] = cache.rglob("*.json")          # one hand, one entry
    fresh = _report(game, "--review", "--review-samples", "16", "--no-cache", "-o", tmp_path / "b.html")
    assert fresh.exit_code == 0 and list(cache.rglob("*.json")) == [entry]
    # the same page from the processes as from this one
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    links = [a["href"] for a in Page((tmp_path / "a.html").read_text()).named("a") if a.get("class") == "replay-link"]
    assert links and all(FRAGMENT.match(href) for href in links)
    # a second run reads the cache: an entry edited by hand shows on the page
    stored = orjson.loads(entry.read_bytes())
    stored["decisions"][-1].update(category="blunder", cost=9.5, forced=False)
    entry.write_bytes(orjson.dumps(stored))
    again = _report(*common, "-o", tmp_path / "c.html")
    assert again.exit_code == 0
    flagged = [r for r in Page((tmp_path / "c.html").read_text()).named("tr") if r.get("data-class") == "blunder"]
    assert len(flagged) == 1 + sum(1 for r in Page((tmp_path / "a.html").read_text()).named("tr")
                                   if r.get("data-class") == "blunder")


def test_cli_report_review_options_need_review(tmp_path):
    game = _one_hand_games(tmp_path)
    for extra in (["--workers", "2"], ["--no-cache"], ["--scheduler", "tcp://127.0.0.1:1"], ["--cache", tmp_path]):
        result = _report(game, *extra, "-o", tmp_path / "x.html")
        assert result.exit_code == 2 and "options of --review" in result.output
    assert not (tmp_path / "x.html").exists()


def test_a_reviewed_site_counts_its_hands_and_links_every_flagged_decision(tmp_path):
    from hearts_analysis.review import Settings
    from hearts_analysis.review.batch import ReviewPlan
    from hearts_analysis.review.cache import ReviewCache
    from hearts_analysis.reports.site import build_site, site_review_hands

    from reviewpage import TINY
    corpus = _one_hand_games(tmp_path, 2)
    done = []
    plan = ReviewPlan(Settings(**TINY), cache=ReviewCache(tmp_path / "cache"), progress=done.append)
    build_site([corpus], tmp_path / "site", review=plan)
    assert sum(done) == site_review_hands([corpus]) == 2
    assert len(list((tmp_path / "cache").rglob("*.json"))) == 2
    for name in ("game-one-3.html", "game-one-4.html"):
        page = Page((tmp_path / "site" / name).read_text())
        assert any(attrs.get("id") == "review-player" for attrs in page.named("select"))
        rows = [r for r in page.named("tr") if r.get("data-class")]
        links = [a["href"] for a in page.named("a") if a.get("class") == "replay-link"]
        assert len(links) == len(rows) and all(FRAGMENT.match(href) for href in links)
    assert "review.js" in {p.name for p in (tmp_path / "site" / "assets").iterdir()}


# -- practice puzzles -------------------------------------------------------------------
def test_each_flagged_decision_is_a_puzzle_of_what_the_seat_knew():
    from hearts_analysis.cards import iter_cards, parse_card
    from hearts_analysis.review import Settings, review_game
    from hearts_analysis.review.puzzles import puzzles

    from reviewpage import TINY
    result, document = reviewed_game()
    game = result.record
    review = review_game(game, Settings(**TINY), hands=[1, 2], result=result)
    found = puzzles(game, review, "g.json")
    assert len(found) == sum(1 for d in document["decisions"] if d["class"]) >= 2
    n = game.seats
    for p in found:
        assert p["game_id"] == HOSTILE_ID and p["player"] == PLAYERS[p["seat"]] and p["cost"] > 0
        assert p["replay"] == f"#hand={p['hand']}&play={p['play']}"
        position, answer = p["position"], p["answer"]
        assert p["played"] not in answer["better"] and answer["best"] in answer["better"]
        if p["kind"] == "pass":
            assert p["play"] == 0 and len(position["held"]) == 13 and set(p["played"]) <= set(position["held"])
            continue
        plays = game.hands[p["hand"] - 1].plays
        seat, card = plays[p["play"] - 1]
        assert seat == p["seat"] and card_name(card) == p["played"]
        before = plays[:p["play"] - 1]
        in_trick = before[len(before) - len(before) % n:]
        assert [(t["seat"], t["card"]) for t in position["trick"]] == [(s, card_name(c)) for s, c in in_trick]
        assert sorted(position["played_before"]) == sorted(card_name(c) for _, c in before[:len(before) - len(in_trick)])
        assert p["played"] in position["legal"] and set(position["legal"]) <= set(position["held"])
        assert len(position["held"]) == 13 - len(before) // n
        assert not set(position["held"]) & set(position["played_before"])
        # what the seat holds: its cards after the pass, less those it played
        mine = {card_name(c) for s, c in before if s == p["seat"]}
        after_pass = set(iter_cards(result.hands[p["hand"] - 1].held[p["seat"]]))
        assert {parse_card(c) for c in position["held"]} | {parse_card(c) for c in mine} == after_pass


def test_cli_review_writes_the_puzzles_atomically(tmp_path):
    import orjson
    from typer.testing import CliRunner

    from hearts_analysis.cli import app
    game = _one_hand_games(tmp_path)
    target = tmp_path / "out" / "puzzles.json"
    target.parent.mkdir()
    args = ["review", str(game), "--samples", "16", "--no-cache", "--format", "json"]
    result = CliRunner().invoke(app, [*args, "--puzzles", str(target)])
    assert result.exit_code == 0, result.output
    flagged = [d for g in orjson.loads(result.stdout)["games"] for d in g["decisions"] if d["class"]]
    document = orjson.loads(target.read_bytes())
    assert document["format"] == "hearts-puzzles/1" and len(document["puzzles"]) == len(flagged)
    assert sorted(p.name for p in target.parent.iterdir()) == ["puzzles.json"]   # no temporary file left
    assert {p["player"] for p in document["puzzles"]} <= set(PLAYERS)
    same = CliRunner().invoke(app, [*args, "--puzzles", str(target), "-o", str(target)])
    assert same.exit_code == 2
    onto_input = CliRunner().invoke(app, [*args, "--puzzles", str(game)])
    assert onto_input.exit_code == 2 and orjson.loads(game.read_bytes().splitlines()[0])["game_id"] == "one-3"


def test_cli_report_review_on_a_dask_scheduler_gives_the_page_of_one_process(tmp_path):
    distributed = pytest.importorskip("distributed")
    corpus = _one_hand_games(tmp_path, 2)
    common = [corpus, "--review", "--review-samples", "16", "--no-cache"]
    here = _report(*common, "-o", tmp_path / "here")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        there = _report(*common, "--scheduler", cluster.scheduler_address, "-o", tmp_path / "there")
    assert here.exit_code == there.exit_code == 0, here.output + there.output
    for name in ("game-one-3.html", "game-one-4.html", "index.html", "players.html"):
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "there" / name).read_bytes(), name
    assert any(r.get("data-seat") for r in Page((tmp_path / "there" / "game-one-3.html").read_text()).named("tr"))


@pytest.mark.long
def test_cli_report_review_shows_the_hands_left_on_a_terminal(tmp_path):
    from terminal import ANSI, run_in_terminal
    corpus = _one_hand_games(tmp_path, 2)
    code, output = run_in_terminal("report", str(corpus), "--review", "--review-samples", "16", "--no-cache",
                                   "-o", str(tmp_path / "site"))
    shown = ANSI.sub("", output)
    assert code == 0, shown
    assert re.search(r"[0-2]/2 hands, left", shown), shown   # the total is counted before the review starts
    assert "site: 2 games (2 hands)" in shown
