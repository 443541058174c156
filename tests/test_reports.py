"""The HTML reports without a browser: escaping, determinism, atomic output, nothing external."""

from __future__ import annotations

import json
import re
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.engine import replay_game
from hearts_analysis.records.json import game_from_dict
from hearts_analysis.reports.audit import AuditDigest, Limits, digest_paths, render_audit_report
from hearts_analysis.reports.extras import GameExtras
from hearts_analysis.reports.game import render_game_report, replay_data
from hearts_analysis.reports.players import bucket_shares, digest_players, player_rows, render_players_report
from hearts_analysis.reports.render import (BESIDE, INLINE, PLOTLY_FILE, PlotlyMode, json_for_script, plotly_js,
                                            write_page, write_plotly_beside)
from hearts_analysis.reports.words import card_parts, rules_in_words
from hearts_analysis.rules import RULE_FIELDS, Rules

from reportdata import ODD_NAME, PLAYERS, XSS_BREAKOUT, XSS_SCRIPT, Page, clean_game, flawed_game, write_corpus

NONE = PlotlyMode("none")


@pytest.fixture(scope="module")
def flawed():
    return replay_game(game_from_dict(flawed_game()))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("corpus"))


# -- escaping -------------------------------------------------------------------
@settings(max_examples=200)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=12))
def test_json_for_script_round_trips_and_cannot_close_its_element(value):
    text = json_for_script(value)
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == value


def test_hostile_names_render_as_text_in_html_and_json(flawed):
    page_html = render_game_report(flawed, XSS_SCRIPT + ".json", NONE, extras=False)
    page = Page(page_html)
    assert XSS_SCRIPT not in page_html and XSS_BREAKOUT not in page_html
    assert not page.named("img")
    # only the page's own script runs; every other script element is inert JSON
    running = [body for attrs, body in page.scripts if attrs.get("type") != "application/json"]
    assert len(running) == 1 and "HeartsReport" in running[0]
    assert all("<" not in body for attrs, body in page.scripts if attrs.get("type") == "application/json")
    shown = "".join(page.text)
    for name in PLAYERS:
        assert name in shown
    assert page.data("replay-data")["players"] == PLAYERS


def test_hostile_names_stay_literal_in_chart_labels(flawed):
    page = Page(render_game_report(flawed, "g.json", NONE, extras=False))
    figure = page.data("fig-score")
    names = [trace["name"] for trace in figure["data"] if trace["name"] != "moon shot"]
    # plotly reads <b>, <a href> in labels; the report hands it entities, which it shows as text
    assert names == ["alice", "&lt;script&gt;alert(1)&lt;/script&gt;",
                     '"&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;', "Tom &amp; Jerry\u2028&lt;!--"]


def test_the_page_policy_allows_only_its_own_scripts_and_no_network(flawed):
    page = Page(render_game_report(flawed, "g.json", INLINE, extras=False))
    csp = next(m["content"] for m in page.named("meta") if m.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp and "connect-src 'none'" in csp and "unsafe-inline" not in csp.split(";")[1]
    hashes = re.findall(r"'sha256-([^']+)'", csp)
    running = [body for attrs, body in page.scripts if attrs.get("type") != "application/json"]
    import base64
    import hashlib
    assert sorted(hashes) == sorted(base64.b64encode(hashlib.sha256(b.encode()).digest()).decode() for b in running)


# -- nothing external ---------------------------------------------------------------
def _external_references(page_html: str) -> list[str]:
    page = Page(page_html)
    refs = [value for _, attrs in page.tags for key, value in attrs.items()
            if key in ("src", "href", "action", "poster", "data") and value]
    bad = [r for r in refs if re.match(r"^([a-z][a-z0-9+.-]*:|//)", r, re.I) and not r.startswith("#")]
    # outside scripts, no URL at all (plotly.js is checked separately: it is the package's own bundle)
    outside = re.sub(r"<script\b[^>]*>.*?</script>", "", page_html, flags=re.S)
    return bad + re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", outside, re.I)


def test_reports_reference_nothing_outside_the_page(flawed, corpus):
    pages = [render_game_report(flawed, "g.json", INLINE, extras=True),
             render_audit_report(digest_paths([corpus]), str(corpus)),
             render_players_report(digest_players([corpus]), str(corpus))]
    for page_html in pages:
        assert _external_references(page_html) == []
        inline = [body for attrs, body in Page(page_html).scripts if len(body) > 1_000_000]
        assert inline == [plotly_js()]  # plotly.js once, exactly as the plotly package ships it


def test_js_beside_references_the_local_file_only(flawed, tmp_path):
    target = write_page(render_game_report(flawed, "g.json", BESIDE, extras=False), tmp_path / "g.html", BESIDE)
    page = Page(target.read_text(encoding="utf-8"))
    assert [s["src"] for s in page.named("script") if s.get("src")] == [PLOTLY_FILE]
    assert max(len(body) for _, body in page.scripts) < 1_000_000
    js = tmp_path / PLOTLY_FILE
    assert js.read_text(encoding="utf-8") == plotly_js()
    before = js.stat().st_mtime_ns
    write_plotly_beside(tmp_path)
    assert js.stat().st_mtime_ns == before  # written once for many reports


# -- determinism and atomic output -------------------------------------------------------
def test_the_same_input_gives_the_same_bytes(corpus, flawed):
    assert render_game_report(flawed, "g.json", NONE) == render_game_report(
        replay_game(game_from_dict(flawed_game())), "g.json", NONE)
    assert render_audit_report(digest_paths([corpus]), "c") == render_audit_report(digest_paths([corpus]), "c")
    assert render_players_report(digest_players([corpus]), "c") == render_players_report(digest_players([corpus]), "c")


def test_a_failed_write_leaves_the_old_report_and_no_debris(tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")

    def broken(self, *args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(Path, "write_text", broken)
    with pytest.raises(OSError):
        write_page("<p>new</p>", target)
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]
    write_page("<p>new</p>", target)
    assert target.read_text(encoding="utf-8") == "<p>new</p>"
    assert target.stat().st_mode & 0o777 == 0o644


# -- what the game report says ---------------------------------------------------------
def test_each_violation_is_attached_to_the_play_it_is_about(flawed):
    data = replay_data(flawed)
    n = len(PLAYERS)
    located = 0
    for hand, result in zip(data["hands"], flawed.hands):
        for index, violations in hand["flags"].items():
            seat, card = hand["plays"][int(index)]
            for v in violations:
                violation = hand["violations"][v]
                assert (violation["trick"], violation["seat"], violation["card"]) == (int(index) // n + 1, seat, card)
                located += 1
        shown = sorted(sum(hand["flags"].values(), []) + hand["hand_level"] + hand["end_level"])
        assert shown == list(range(len(result.violations)))
    assert located >= 1


def test_the_replay_starts_from_the_hands_after_passing(flawed):
    hand = replay_data(flawed)["hands"][0]
    for seat, start in enumerate(hand["start"]):
        played = [card for s, card in hand["plays"] if s == seat]
        assert len(start) == 13
        assert set(played) <= set(start) or hand["flags"]  # a swapped play may not be held
    dealt = set(flawed.record.hands[0].deal[0])
    assert hand["passes"][0]["to"] == 1 and hand["direction"] == "left"
    assert len(set(hand["passes"][0]["cards"])) == 3 and dealt


def test_recorded_points_that_differ_are_highlighted(flawed):
    page_html = render_game_report(flawed, "g.json", NONE, extras=False)
    row = re.search(r'<tr id="hand-2">(.*?)</tr>', page_html, re.S).group(1)
    assert row.count('class="num mismatch"') == 1
    assert "recorded" in row


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_game_page_and_the_score_sheet_give_the_standings_when_the_game_ended():
    """The example's game ends after hand 12 and records a 13th: the page's winner, totals and players table
    are those after hand 12, as the score sheet's, and hand 13 is marked as played after the end."""
    from hearts_analysis.score_sheet import score_sheet
    from hearts_analysis.records.sources import iter_sources
    item = next(iter_sources([EXAMPLES / "every-violation.jsonl"]))
    result = replay_game(item.game)
    assert result.ended_at == 12 and len(result.hands) == 13
    sheet = score_sheet(result, item.source)
    assert sheet["totals"] == list(result.hands[11].totals) == list(result.totals)
    assert [h["counted"] for h in sheet["hands"]] == [True] * 12 + [False]
    page_html = render_game_report(result, item.source, NONE, extras=False)
    winner = min(result.totals)
    assert f"wins with {winner} points after hand 12" in page_html
    assert f"{max(result.hands[12].totals)} points" not in page_html.split('id="hands"')[0]
    last = re.search(r'<tr id="hand-13"([^>]*)>(.*?)</tr>', page_html, re.S)
    assert 'class="after-end"' in last.group(1) and "after the end" in last.group(2)
    foot = re.search(r'<tr class="total">(.*?)</tr>', page_html, re.S).group(1)
    assert re.findall(r'<td class="num">(-?\d+)</td>', foot) == [str(t) for t in result.totals]


def test_rules_in_words_follow_the_rule_set():
    black = " ".join(rules_in_words(Rules.preset("black_queen"), 4))
    assert "passes 100" in black and "ends the hand" in black and "adds 26 to every other player" in black
    omnibus = " ".join(rules_in_words(Rules.preset("omnibus"), 5))
    assert "2D, 2C removed" in omnibus and "JD \u221210 points" in omnibus and "reaches 100" in omnibus


OTHER_VALUES = {
    "removed_cards": ["2D", "3D", "2C", "3C"], "pass_count": 0, "pass_cycle": ["left"], "first_lead": "any_club",
    "points_on_first_trick": True, "hearts_must_be_broken": False, "hearts_broken_by": "heart",
    "only_hearts_lead": "ends_hand", "jack_of_diamonds": -10, "queen_of_clubs_cancels_queen": True,
    "no_tricks_bonus": -5, "moon": "shooter_gains_fourfold", "target": 50, "end_at": "exceed", "charges": ["QS"],
    "charged_cards_wait": False, "ten_of_clubs": 2, "deals_per_game": 4, "claims": True,
}


@pytest.mark.parametrize("field", RULE_FIELDS)
def test_every_rule_field_has_words(field):
    """A report states every rule of its table: each field, set otherwise, changes the sentences."""
    base = Rules.preset("standard", charges=["AH"]) if field == "charged_cards_wait" else Rules.preset("standard")
    changed = base.replace(**{field: OTHER_VALUES[field]})
    assert rules_in_words(changed, 4) != rules_in_words(base, 4)


def test_turbo_and_trend_pages_say_a_game_is_four_deals():
    for preset in ("turbo_hearts", "trend_hearts"):
        words = " ".join(rules_in_words(Rules.preset(preset), 4))
        assert "A game is 4 deals" in words and "reaches 100" not in words
        assert "charge (expose)" in words and "TC has its points for the hand multiplied by 2" in words
    assert "claim the remaining tricks" in " ".join(rules_in_words(Rules.preset("turbo_hearts"), 4))
    trend = " ".join(rules_in_words(Rules.preset("trend_hearts"), 4))
    assert "4 times its points for the hand (charges and TC included) as a gain" in trend and "played at any time" in trend


def test_cards_have_a_symbol_and_a_spoken_label():
    assert card_parts("TH") == {"name": "TH", "rank": "10", "symbol": "\u2665", "suit": "H", "label": "ten of hearts"}
    assert card_parts("<b>") is None


def test_analysis_and_review_sections_render_from_their_json_shapes(flawed):
    extras = GameExtras(
        analysis={"moons": [{"hand": 1, "seat": 1, "outcome": "stopped", "stopper": 2, "trick": 9, "start_trick": 6,
                             "card": "5H", "cost": 8, "missed_stops": []}],
                  "passes": [{"hand": 1, "seat": 0, "to": 1, "cards": ["QS", "AH", "2C"],
                              "verdicts": ["passed a spade below the queen"]}]},
        review={"decisions": [{"hand": 1, "trick": 2, "seat": flawed.record.hands[0].plays[4][0], "kind": "play",
                               "played": "KS", "best": "3S", "cost": 4.5, "class": "mistake"}],
                "accuracy": {"0": 91.5, "1": 80.0}})
    page_html = render_game_report(flawed, "g.json", NONE, extras=extras)
    page = Page(page_html)
    shown = "".join(page.text)
    assert "passed a spade below the queen" in shown and "stopped" in shown and "mistake" in shown
    counts = {row["data-seat"] for row in page.named("tr") if "data-seat" in row and "data-class" not in row}
    assert counts == {"0", "1"} and "91.5%" in shown and "80.0%" in shown
    assert [a["href"] for a in page.named("a") if a.get("class") == "replay-link"] == ["#hand=1&play=5"]
    hand = page.data("replay-data")["hands"][0]
    assert hand["review"]["4"]["class"] == "mistake" and "3S" in hand["review"]["4"]["text"]
    assert hand["notes"][str(9 * 4)] == [f"{XSS_BREAKOUT} stopped {XSS_SCRIPT}'s moon run (5H)."]
    assert hand["passes"][0]["verdicts"] == ["passed a spade below the queen"]


# -- the audit and player reports -------------------------------------------------------
def test_the_audit_keeps_the_worst_games_in_a_bounded_list(corpus):
    digest = digest_paths([corpus], limits=Limits(worst_games=1, errors=1))
    assert digest.summary.games == 3 and digest.summary.errors == 2
    assert len(digest.errors) == 1 and digest.errors[0]["source"].endswith(":3")
    assert [g["game_id"] for g in digest.worst] == ["flawed-2"]
    assert digest.mismatch_games == 1 and digest.mismatches[0]["code"] == "points-mismatch"
    assert sum(digest.buckets) == 3 and digest.buckets[0] == 2
    page = Page(render_audit_report(digest, "c"))
    assert any(a.get("href") == "#rule-points-mismatch" for a in page.named("a"))
    assert "Hearts is played by 3 to 7" in "".join(page.text)


def test_worst_games_tie_in_input_order():
    digest = AuditDigest(Limits(worst_games=2))
    for index, count in enumerate([1, 3, 1, 3, 2]):
        report = {"source": f"s{index}", "game_id": str(index), "players": ["a", "b", "c"], "hands": [],
                  "violations": [{"code": "revoke", "hand": 1, "trick": 1, "seat": 0, "card": "2C", "message": "m"}] * count}
        digest.add(None, report)
    assert [g["game_id"] for g in digest.worst] == ["1", "3"]


def test_player_statistics_add_up_to_the_games(corpus):
    digest = digest_players([corpus])
    rows = {r["player"]: r for r in player_rows(digest)}
    assert rows["alice"]["games"] == 3 and digest.error_count == 2
    games = [replay_game(game_from_dict(g)) for g in (clean_game(1), flawed_game(2))]
    hands = sum(len(g.hands) for g in games)
    assert rows[XSS_SCRIPT]["hands"] == hands
    assert rows[XSS_SCRIPT]["points_per_hand"] == pytest.approx(sum(g.totals[1] for g in games) / hands)
    hist = digest.points_hist[ODD_NAME]
    assert sum(hist.values()) == rows[ODD_NAME]["hands"]
    assert sum(p * n for p, n in hist.items()) == sum(g.totals[3] for g in games)
    assert sum(bucket_shares(hist)) == pytest.approx(100.0)


def test_player_report_shows_catalogue_definitions_and_leaks(corpus):
    page = Page(render_players_report(digest_players([corpus]), "c"))
    titles = [th.get("title") for th in page.named("th") if th.get("title")]
    assert "Average points scored per hand, after the moon adjustment. (points/hand)" in titles
    shown = "".join(page.text)
    assert "Leaks" in shown and "Passes by direction" in shown
    for name in PLAYERS:
        assert name in shown


# -- the command --------------------------------------------------------------------------
def _run(*args: str):
    return CliRunner().invoke(app, ["report", *args])


def test_cli_writes_one_game_report(tmp_path):
    source = tmp_path / "game.json"
    source.write_bytes(orjson.dumps(clean_game(1)))
    result = _run(str(source), "-o", str(tmp_path / "out" / "g.html"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "g.html").read_text(encoding="utf-8").startswith("<!doctype html>")


def test_cli_defaults_to_the_reports_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_bytes(orjson.dumps(clean_game(1)))
    assert _run("game.json").exit_code == 0
    assert (tmp_path / "reports" / "game.html").exists()


def test_cli_folder_gives_a_site_of_linked_pages(corpus, tmp_path):
    out = tmp_path / "reports"
    result = _run(str(corpus), "-o", str(out), "--js-beside")  # accepted: a site always has plotly.js once
    assert result.exit_code == 2  # two records are unreadable; the site is still written
    names = sorted(p.name for p in out.iterdir())
    games = ["game-clean-1.html", "game-clean-3.html", "game-flawed-2.html"]
    assert [n for n in names if not n.startswith("player-")] == ["assets", "audit.html", *games, "index.html",
                                                                 "players.html"]
    assert len([n for n in names if n.startswith("player-")]) == len(set(PLAYERS) | {"bob", "carol", "dave"})
    assert sorted(p.name for p in (out / "assets").iterdir()) == [PLOTLY_FILE, "replay.js", "report.css",
                                                                  "report.js", "review.js", "site.js"]
    links = [a["href"] for a in Page((out / "audit.html").read_text(encoding="utf-8")).named("a")
             if a.get("href", "").startswith("game-")]
    # every game page is listed, newest first; the worst game is also linked from its details
    assert links == ["game-clean-3.html", "game-flawed-2.html", "game-clean-1.html", "game-flawed-2.html"]
    assert all((out / link).exists() for link in links)
    assert re.fullmatch(r"site: 3 games \(\d+ hands\), [1-9]\d* violations?, 7 players, 13 pages \(\d+\.\d MB\), "
                        r"2 unreadable records", result.output.splitlines()[-2])
    assert result.output.splitlines()[-1] == f"open {out / 'index.html'} in a browser (it works offline)"


def test_cli_audit_and_players_to_files(corpus, tmp_path):
    assert _run(str(corpus), "--audit", "-o", str(tmp_path / "a.html")).exit_code == 2
    assert _run(str(corpus), "--players", "-o", str(tmp_path / "p.html")).exit_code == 2
    assert "Statistics per player" in (tmp_path / "p.html").read_text(encoding="utf-8")
    assert "Violations by code" in (tmp_path / "a.html").read_text(encoding="utf-8")


def test_cli_unreadable_game_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hearts-game/1", "players": ["a", "b", "c"], "hands": [{"deal": 3}]}')
    result = _run(str(bad), "-o", str(tmp_path / "x.html"))
    assert result.exit_code == 2
    assert "bad.json" in result.output and "hands[0].deal" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "x.html").exists()
    missing = _run(str(tmp_path / "nope.json"))
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_cli_several_reports_need_a_folder(corpus, tmp_path):
    result = _run(str(corpus), "--audit", "--players", "-o", str(tmp_path / "x.html"))
    assert result.exit_code == 2 and "give a folder" in result.output


def test_a_real_review_shows_at_its_plays_and_in_the_review_section():
    from hearts_analysis.reports.extras import game_extras
    review = pytest.importorskip("hearts_analysis.review")
    Settings, game_dict, review_game = review.Settings, review.game_dict, review.review_game
    result = replay_game(game_from_dict(clean_game(5)))
    reviewed = game_dict(review_game(result.record, Settings(samples=24), hands=[1], result=result), "g.json")
    extras = GameExtras(game_extras(result, "g.json").analysis, reviewed)
    page = Page(render_game_report(result, "g.json", NONE, extras=extras))
    hand = page.data("replay-data")["hands"][0]
    plays = [d for d in reviewed["decisions"] if d["kind"] == "play"]
    assert len(hand["review"]) == len(plays) == 52
    first = hand["review"]["0"]["text"]
    assert first.startswith(f"Review: {PLAYERS[hand['plays'][0][0]]} played {hand['plays'][0][1]}")
    assert all(entry["review"] is not None for entry in hand["passes"])
    shown = "".join(page.text)
    counts = [row["data-seat"] for row in page.named("tr") if "data-seat" in row and "data-class" not in row]
    assert counts == ["0", "1", "2", "3"] and all(name in shown for name in PLAYERS)


def test_cli_a_folder_of_one_game_still_gives_the_audit(tmp_path, monkeypatch):
    games = tmp_path / "examples"
    games.mkdir()
    (games / "one.json").write_bytes(orjson.dumps(clean_game(1)))
    monkeypatch.chdir(tmp_path)
    result = _run("examples/")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "reports").iterdir())
    assert [n for n in names if not n.startswith("player-")] == ["assets", "audit.html", "game-clean-1.html",
                                                                 "index.html", "players.html"]
    assert "open reports/index.html in a browser" in result.output


def test_the_score_graph_draws_the_target_only_where_the_rules_end_a_game_at_one():
    from hearts_analysis.reports.game import score_figure
    from hearts_analysis.simulate import simulate_games
    for preset, target in (("standard", 40), ("trend_hearts", None)):
        result = replay_game(next(simulate_games(1, Rules.preset(preset, target=40), seed=5)))
        texts = [a.text for a in score_figure(result).layout.annotations]
        assert texts == ([f"target {target}"] if target else []), preset


def test_player_charts_count_games_in_whole_numbers_and_keep_the_axis_title_clear():
    from hearts_analysis.reports.site import accuracy_figure, rating_figure, results_figure
    games = [{"game": i, "game_id": f"g{i}", "points": 5, "average": 6.5, "rating": 25, "rating_sigma": 8,
              "accuracy": 80.0} for i in range(2)]
    for make in (results_figure, rating_figure, accuracy_figure):
        layout = make(games)["layout"]
        assert layout["xaxis"]["tickformat"] == "d" and layout["xaxis"]["dtick"] == 1, make.__name__
    many = results_figure(games * 100)["layout"]["xaxis"]
    assert many["tickformat"] == "d" and "dtick" not in many   # plotly's own whole-number steps
    template = results_figure(games)["layout"]["template"]["layout"]
    assert template["yaxis"]["automargin"] is True and template["yaxis"]["title"]["standoff"] > 0
