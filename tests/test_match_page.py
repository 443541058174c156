"""``hearts match``'s ratings, CSV and page: the page is written only where asked, names stay text,
nothing loads from the network, and the charts say what the pairs table says."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.match import MatchConfig, Tally, players_of, run_match
from hearts_analysis.reports.match import render_match_page, running_difference
from hearts_analysis.reports.render import plotly_js
from hearts_analysis.rules import Rules

from reportdata import Page

HOSTILE = "</script><script>alert(1)</script>\x1b]0;owned\x07\x00\u202e"
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def ours(page_html: str) -> str:
    """The page without the bundled plotly.js (the package's own code, which holds a control character)."""
    assert plotly_js() in page_html
    return page_html.replace(plotly_js(), "")


def invoke(*args: str, cwd: Path | None = None, monkeypatch=None):
    if cwd is not None:
        monkeypatch.chdir(cwd)
    return CliRunner().invoke(app, ["match", *args])


def tally_of(names: list[str], specs: list[str], deals: int, seed: int = 0) -> Tally:
    tally = Tally(names)
    for deal in run_match(MatchConfig(players_of(specs), Rules.preset("standard"), seed=seed, records=False), deals):
        tally.add(deal)
    return tally


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_the_page_is_written_where_asked_and_nowhere_else(tmp_path, monkeypatch):
    result = invoke("random", "heuristic", "--deals", "8", "--page", "out/match.html", "--format", "json",
                    cwd=tmp_path, monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.stderr
    assert files_under(tmp_path) == ["out/match.html"]
    assert "wrote the page out/match.html" in result.stderr
    page = (tmp_path / "out" / "match.html").read_text(encoding="utf-8")
    doc = json.loads(result.stdout)
    shown = " ".join(Page(page).text)
    for p in doc["players"]:
        assert f"{p['points_per_hand']:.2f} ± {p['se']:.2f}" in shown
        assert f"{p['rating']:.2f} ± {p['rating_sigma']:.2f}" in shown
    low, high = doc["pairs"][0]["ci95"]
    assert f"[{low:.2f}, {high:.2f}]" in shown


@pytest.mark.parametrize("page", ["match.txt", "match.jsonl"])
def test_a_page_that_is_not_html_is_refused_before_the_match(tmp_path, monkeypatch, page):
    result = invoke("random", "heuristic", "--deals", "2", "--page", page, cwd=tmp_path, monkeypatch=monkeypatch)
    assert result.exit_code == 2 and "written as .html" in result.stderr and "Traceback" not in result.stderr
    assert files_under(tmp_path) == []


def test_each_pair_charts_its_running_difference_inside_its_band():
    tally = tally_of(["random", "heuristic", "random#2"], ["random", "heuristic", "random"], 12, seed=5)
    doc = tally.summary()
    page = Page(render_match_page(tally))
    for number, pair in enumerate(doc["pairs"], 1):
        figure = page.data(f"fig-pair-{number}")
        upper, lower, middle = figure["data"]
        assert middle["x"] == list(range(1, 13))
        assert middle["y"][-1] == pytest.approx(pair["difference"], abs=0.01)
        assert [lower["y"][-1], upper["y"][-1]] == pytest.approx(pair["ci95"], abs=0.01)
        assert lower["y"][0] is None and all(lo <= mid <= hi for lo, mid, hi in
                                             zip(lower["y"][1:], middle["y"][1:], upper["y"][1:]))


def test_a_long_match_is_thinned_but_keeps_its_first_and_last_deals():
    values = [float(k % 7) for k in range(5000)]
    run = running_difference(values, points=100)
    assert len(run) == 100 and run[0]["deal"] == 1 and run[-1]["deal"] == 5000
    assert run[-1]["difference"] == pytest.approx(sum(values) / len(values), abs=1e-4)


def test_a_hostile_name_is_text_without_its_control_characters():
    tally = tally_of([HOSTILE, "heuristic"], ["random", "heuristic"], 3)
    page_html = render_match_page(tally, {"note": HOSTILE})
    page = Page(page_html)
    assert not CONTROL.search(ours(page_html))
    assert "\u202e" not in ours(page_html)
    running = [body for attrs, body in page.scripts if attrs.get("type") != "application/json"]
    assert not any("alert(1)" in body for body in running)
    assert sum(tag == "script" for tag, _ in page.tags) == len(page.scripts) == len(running) + 1  # one chart
    shown = "".join(page.text)
    assert "</script><script>alert(1)</script>\\x1b]0;owned\\x07\\x00\\u202e" in shown
    figure = page.data("fig-pair-1")
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in figure["layout"]["yaxis"]["title"]["text"]


class HostileNamed:
    """A bot that plays its lowest legal card: only its name (the file's) is hostile."""

    def pass_cards(self, view, legal):
        return legal[:3]

    def play(self, view, legal):
        return legal[0]


def test_a_python_player_named_with_markup_and_control_characters(tmp_path, monkeypatch):
    source = Path(__file__).read_text(encoding="utf-8")
    body = source[source.index("class HostileNamed:"):source.index("def test_a_python_player_named")]
    bot = tmp_path / "<script>alert(1)<\x1b[31m\x07.py"
    bot.write_text(body, encoding="utf-8")
    player = f"python:{bot}:HostileNamed"
    result = invoke(player, "heuristic", "--deals", "3", "--page", "m.html", cwd=tmp_path, monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.stderr
    page_html = (tmp_path / "m.html").read_text(encoding="utf-8")
    assert not CONTROL.search(ours(page_html)) and not CONTROL.search(result.stdout)
    assert "<script>alert" not in page_html
    assert "&lt;script&gt;alert(1)&lt;\\x1b[31m\\x07.py:HostileNamed" in page_html


def test_the_page_loads_nothing_from_the_network(tmp_path, monkeypatch):
    result = invoke("random", "heuristic", "--deals", "5", "--page", "m.html", cwd=tmp_path, monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.stderr
    page_html = (tmp_path / "m.html").read_text(encoding="utf-8")
    page = Page(page_html)
    refs = [value for _, attrs in page.tags for key, value in attrs.items()
            if key in ("src", "href", "action", "data", "poster") and value]
    assert refs and all(ref.startswith("#") for ref in refs)  # only the page's own sections
    # plotly.js's own code names its web site in a link it never loads (the policy below forbids any load)
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", ours(page_html), re.I)
    outside = re.sub(r"<script\b[^>]*>.*?</script>", "", page_html, flags=re.S)
    assert "http://" not in outside and "https://" not in outside
    csp = next(attrs["content"] for tag, attrs in page.tags if attrs.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in csp and "connect-src 'none'" in csp


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_ratings_put_heuristic_above_random(seed):
    result = invoke("random", "heuristic", "--deals", "20", "--seed", str(seed), "--format", "json")
    assert result.exit_code == 0, result.stderr
    rated = {p["player"]: p for p in json.loads(result.stdout)["players"]}
    assert rated["heuristic"]["rating"] > rated["random"]["rating"]
    assert rated["heuristic"]["rating_conservative"] > rated["random"]["rating_conservative"]
    assert rated["heuristic"]["rating_sigma"] < 25 / 3  # the deals taught the rating something


def test_the_csv_has_one_row_a_player_with_its_rating():
    result = invoke("random", "heuristic", "random", "--deals", "4", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    players = [row for row in rows if row["kind"] == "player"]
    assert [row["player"] for row in players] == ["random", "heuristic", "random#2"]
    doc = json.loads(invoke("random", "heuristic", "random", "--deals", "4", "--format", "json").stdout)
    for row, p in zip(players, doc["players"]):
        assert float(row["rating"]) == p["rating"] and float(row["rating_conservative"]) == p["rating_conservative"]
    assert len(rows) - len(players) == len(doc["pairs"]) == 3


class CrashesLoudly:
    """A bot whose every decision raises with markup and an escape sequence in the message."""

    def pass_cards(self, view, legal):
        raise RuntimeError("<img src=x onerror=alert(2)>\x1b[2J")

    play = pass_cards


def test_the_faults_are_listed_with_their_counts_as_text():
    tally = tally_of(["heuristic", "crashes"], ["heuristic", f"python:{__name__}:CrashesLoudly"], 2)
    doc = tally.summary()
    page_html = render_match_page(tally)
    page = Page(page_html)
    crashes = doc["players"][1]["crash"]
    assert crashes == doc["fault_count"] == doc["players"][1]["fallback_decisions"] > 50
    shown = " ".join(page.text)
    assert f"Faults ({crashes})" in shown and f"the first 50 of {crashes}" in shown
    assert "<img" not in page_html and "&lt;img src=x onerror=alert(2)&gt;\\x1b[2J" in page_html
    assert not CONTROL.search(ours(page_html))
