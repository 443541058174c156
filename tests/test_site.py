"""The site of a corpus without a browser: its pages, links, names, filters, size and leak evidence."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.analysis import analyze_game
from hearts_analysis.analysis.stats import seat_events
from hearts_analysis.cards import HEARTS_MASK, QS
from hearts_analysis.cli import app
from hearts_analysis.records.json import game_from_dict
from hearts_analysis.reports.names import page_name, slug
from hearts_analysis.reports.site import build_site
from hearts_analysis.reports.sitedata import SiteFilter, event_play

from reportdata import write_pool_corpus, pool_game
from test_reports import Page

HOSTILE = ["<script>alert(1)</script>", '"quoted" \'name\'', "../../etc/passwd", "line\nbreak", "Alice", "alice",
           "</script><b>bold</b>", "CON"]
SAFE_PAGE = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]*\.html$")


def fake_leaks(tally):
    """Two leaks per player, one significant; the shape the leak finder gives."""
    rows = []
    for name in sorted(tally.players):
        rows.append({"player": name, "statistic": "qs_taken_pct", "value": 30.0, "reference": 20.0, "sample_size": 40,
                     "ci_low": 2.0, "ci_high": 18.0, "cost_per_hand": 1.25, "significant": True})
        rows.append({"player": name, "statistic": "hearts_broken_pct", "value": 26.0, "reference": 25.0,
                     "sample_size": 40, "ci_low": -3.0, "ci_high": 5.0, "cost_per_hand": 0.1, "significant": False})
    return rows


def fake_ratings(games):
    """A rating per player that grows by one each game, sigma shrinking, so the order is known."""
    rows, seen = [], {}
    for game in games:
        for name in game["players"]:
            seen[name] = seen.get(name, 0) + 1
            rows.append({"game_id": game["game_id"], "played_at": game["played_at"], "player": name,
                         "rating": 20.0 + seen[name] + HOSTILE.index(name) if name in HOSTILE else 20.0,
                         "rating_sigma": 8.0 / seen[name]})
    return rows


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    corpus = write_pool_corpus(tmp_path_factory.mktemp("club"), 16, HOSTILE)
    folder = tmp_path_factory.mktemp("site")
    built = build_site([corpus], folder, leaks=fake_leaks, ratings=fake_ratings)
    return built


def _player_page(folder: Path, name: str) -> Path:
    """The page the home page links for a player (names that differ only in case get distinct pages)."""
    href = re.search(f'<a href="(player-[^"]+)">{re.escape(name)}</a>', (folder / "index.html").read_text("utf-8"))[1]
    return folder / href


def _pages(folder: Path) -> dict[str, Page]:
    return {p.name: Page(p.read_text(encoding="utf-8")) for p in folder.glob("*.html")}


def test_every_page_is_safely_named_and_every_link_leads_to_a_page_of_the_site(site):
    files = [p for p in site.folder.rglob("*") if p.is_file()]
    assert all(p.resolve().is_relative_to(site.folder.resolve()) for p in files)
    assert all(SAFE_PAGE.match(p.name) for p in site.folder.glob("*.html"))
    pages = _pages(site.folder)
    players = [name for name in pages if name.startswith("player-")]
    assert len(players) == len(HOSTILE) == site.players  # "Alice" and "alice" get a page each
    assert site.pages == len(pages) and site.game_pages == site.games == 16
    for name, page in pages.items():
        nav = [a["href"] for a in page.named("a") if a.get("href") in ("index.html", "players.html", "audit.html")]
        assert {"index.html", "players.html", "audit.html"} <= set(nav), name
        for href in (a.get("href") for a in page.named("a")):
            if not href or href.startswith("#"):
                continue
            target = href.split("#")[0]
            assert SAFE_PAGE.match(target) and (site.folder / target).exists(), (name, href)
        scripts = [s.get("src") for s in page.named("script") if s.get("type") != "application/json"]
        assert scripts and all(src and src.startswith("assets/") for src in scripts)  # no inline script runs
        assert all((site.folder / src).exists() for src in scripts)
    index_links = {a["href"] for a in pages["index.html"].named("a")}
    assert set(players) <= index_links and {f"game-club-{i}.html" for i in range(1, 17)} <= index_links


def test_hostile_names_are_text_on_every_page(site):
    for path in site.folder.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in text and "<b>bold" not in text, path.name
        page = Page(text)
        assert not page.named("b") and not page.named("img")
        for attrs, body in page.scripts:
            if attrs.get("type") == "application/json":
                assert "<" not in body
                orjson.loads(body)
    index = "".join(Page((site.folder / "index.html").read_text(encoding="utf-8")).text)
    for name in HOSTILE:
        assert name in index


def test_leaderboard_sorts_by_the_conservative_rating_and_player_pages_show_the_rating(site):
    text = (site.folder / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr><td class="num">(\d+)</td><td class="player" title="[^"]*"><a href="[^"]*">.*?</a></td>\s*'
                      r'<td class="num" data-value="([^"]*)">', text, re.S)
    assert [int(rank) for rank, _ in rows] == list(range(1, len(HOSTILE) + 1))
    conservative = [float(value) for _, value in rows]
    assert conservative == sorted(conservative, reverse=True)
    shown = Page(_player_page(site.folder, "alice").read_text(encoding="utf-8"))
    assert shown.data("fig-rating")["data"][1]["y"][0] > 20
    text = "".join(shown.text)
    assert "significant" in text and "1 difference that may be chance" in text


def test_each_leak_links_the_hands_that_show_it_at_their_play(site):
    page = Page(_player_page(site.folder, "alice").read_text(encoding="utf-8"))
    links = [a["href"] for a in page.named("a") if "#hand=" in a.get("href", "")]
    assert links
    for href in links:
        m = re.fullmatch(r"(game-[A-Za-z0-9._-]+\.html)#hand=(\d+)&play=(\d+)", href)
        assert m, href
        replay = Page((site.folder / m[1]).read_text(encoding="utf-8")).data("replay-data")
        hand = replay["hands"][int(m[2]) - 1]
        assert hand["number"] == int(m[2]) and 0 <= int(m[3]) <= len(hand["plays"])
        assert "alice" in replay["players"]


def test_evidence_plays_are_where_the_event_happened():
    checked = 0
    for index in range(6):
        analysis = analyze_game(game_from_dict(pool_game(index, ["a", "b", "c", "d", "e"])))
        n = analysis.record.seats
        for hand in analysis.hands:
            plays = analysis.record.hands[hand.number - 1].plays
            for seat in range(n):
                events = seat_events(hand, seat, None)
                if events["qs_taken_pct"][1]:
                    play = event_play("qs_taken_pct", hand, seat, True, plays, n)
                    trick = hand.trace.tricks[play // n - 1]
                    assert play % n == 0 and trick.cards >> QS & 1 and trick.winner == seat
                    checked += 1
                if events["hearts_broken_pct"][1]:
                    play = event_play("hearts_broken_pct", hand, seat, True, plays, n)
                    breaker, card = plays[play - 1]
                    assert breaker == seat and (HEARTS_MASK >> card & 1 or card == QS)
                    checked += 1
    assert checked > 10


def test_page_names_survive_hostile_text_and_collisions():
    taken: set[str] = set()
    names = [page_name("player", text, taken) for text in HOSTILE + ["", "...", "a/b", "a\\b", "é" * 300]]
    assert len(set(n.lower() for n in names)) == len(names)
    assert all(SAFE_PAGE.match(n) and len(n) < 100 for n in names)
    assert slug("alice") == "alice" and slug("al ice") != slug("al-ice")


def test_filters_keep_the_games_asked_for():
    game = game_from_dict(pool_game(0, ["a", "b", "c", "d"]))  # played 2026-11-01T00:00:00Z
    assert SiteFilter(since="2026-11-01", until="2026-11-01").keeps(game)
    assert not SiteFilter(since="2026-11-02").keeps(game)
    assert not SiteFilter(until="2026-10-31T23").keeps(game)
    assert SiteFilter(players=frozenset({"a", "zed"})).keeps(game)
    assert not SiteFilter(players=frozenset({"zed"})).keeps(game)
    assert not SiteFilter(rules=frozenset({"omnibus"})).keeps(game)
    assert SiteFilter(rules=frozenset({"standard"})).keeps(game)


def test_cli_filters_and_min_games(tmp_path):
    corpus = write_pool_corpus(tmp_path, 12, ["ann", "ben", "cat", "dan", "eve", "fay"])
    out = tmp_path / "site"
    result = CliRunner().invoke(app, ["report", str(corpus), "-o", str(out), "--since", "2026-11-01T12",
                                      "--until", "2026-11-03", "--player", "ann", "--min-games", "2"])
    assert result.exit_code == 0, result.output
    games = [orjson.loads(line) for line in corpus.read_bytes().splitlines()]
    kept = [g for g in games if "2026-11-01T12" <= g["played_at"][:13] and g["played_at"][:10] <= "2026-11-03"
            and "ann" in g["players"]]
    assert kept and len(kept) < len(games)
    assert sorted(p.name for p in out.glob("game-*.html")) == sorted(f"{'game-' + g['game_id']}.html" for g in kept)
    counts = {}
    for g in kept:
        for name in g["players"]:
            counts[name] = counts.get(name, 0) + 1
    assert sorted(p.name for p in out.glob("player-*.html")) == sorted(f"player-{n}.html" for n, c in counts.items()
                                                                      if c >= 2)
    assert f"{len(games) - len(kept)} games left out by the filters" in result.output
    bad = CliRunner().invoke(app, ["report", str(corpus), "-o", str(out), "--since", "last week"])
    assert bad.exit_code == 2 and "--since" in bad.output and "ISO 8601" in bad.output
    unknown = CliRunner().invoke(app, ["report", str(corpus), "-o", str(out), "--preset", "nope"])
    assert unknown.exit_code == 2 and "unknown preset" in unknown.output


def test_a_player_of_no_game_writes_nothing_and_names_the_nearest(tmp_path):
    """As ``review --player`` does: an empty site would look like a result."""
    corpus = write_pool_corpus(tmp_path, 3, ["alice", "ben", "cat", "dan"])
    out = tmp_path / "site"
    result = CliRunner().invoke(app, ["report", str(corpus), "-o", str(out), "--player", "zed"])
    assert result.exit_code == 2 and "no game has a player named" in result.output and not out.exists()
    near = CliRunner().invoke(app, ["report", str(corpus), "-o", str(out), "--player", "Alice"])
    assert near.exit_code == 2 and 'did you mean "alice"' in near.output and not out.exists()


def test_rules_keeps_the_games_of_a_preset_and_judges_none_under_another(tmp_path):
    games = [orjson.loads(line) for line in write_pool_corpus(tmp_path, 6, ["ann", "ben", "cat", "dan"])
             .read_bytes().splitlines()]
    for game in games[::2]:
        game["rules"] = {"preset": "omnibus"}  # its hands stay legal; JD's -10 only changes the points
        for hand in game["hands"]:
            hand.pop("points", None), hand.pop("totals", None)
    corpus = tmp_path / "mixed.jsonl"
    corpus.write_bytes(b"\n".join(orjson.dumps(g) for g in games) + b"\n")
    out = tmp_path / "site"
    result = CliRunner().invoke(app, ["report", str(corpus), "-o", str(out), "--rules", "omnibus"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.glob("game-*.html")) == sorted(f"game-{g['game_id']}.html" for g in games[::2])
    refused = CliRunner().invoke(app, ["report", str(corpus), "--audit", "-o", str(out / "a.html"), "--rules", "omnibus"])
    assert refused.exit_code == 2 and "--rules" in refused.output


def test_max_games_gives_the_newest_games_a_page_and_lists_every_game_newest_first(tmp_path):
    corpus = write_pool_corpus(tmp_path, 5, ["ann", "ben", "cat", "dan"])
    result = CliRunner().invoke(app, ["report", str(corpus), "-o", str(tmp_path / "site"), "--max-games", "2"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "site").glob("game-*.html")) == ["game-club-4.html", "game-club-5.html"]
    for name in ("index.html", "audit.html"):
        html_text = (tmp_path / "site" / name).read_text(encoding="utf-8")
        page = Page(html_text)
        assert [a["href"] for a in page.named("a") if a.get("href", "").startswith("game-")][:2] == \
            ["game-club-5.html", "game-club-4.html"]
        listed = re.findall(r"club-(\d)(?:</a>| <span class=\"no-page)", html_text)
        assert listed[:5] == ["5", "4", "3", "2", "1"], name     # every game, newest first
        assert html_text.count('class="no-page') == 3
        assert "--max-games" not in html_text and "--" not in "".join(page.text).replace("&ndash;", "")
    index = Page((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    assert "The newest 2 of 5 games have a page" in "".join(index.text)
    assert "site: 5 games" in result.output and "game pages for the newest 2 (--max-games)" in result.output


def test_a_game_played_later_takes_the_page_of_an_older_one_read_before_it(tmp_path):
    """Input order is not age: the games' played_at decides which are the newest, and a game that loses its
    page loses every link to it (its player's results, the leak evidence)."""
    games = [orjson.loads(line) for line in write_pool_corpus(tmp_path, 4, ["ann", "ben", "cat", "dan"])
             .read_bytes().splitlines()]
    games[0]["played_at"] = "2030-01-01T10:00:00Z"     # read first, played last
    corpus = tmp_path / "shuffled.jsonl"
    corpus.write_bytes(b"\n".join(orjson.dumps(g) for g in games) + b"\n")
    built = build_site([corpus], tmp_path / "site", max_games=2)
    newest = sorted(games, key=lambda g: g["played_at"])[-2:]
    assert sorted(p.name for p in (tmp_path / "site").glob("game-*.html")) == \
        sorted(f"game-{g['game_id']}.html" for g in newest)
    assert built.game_pages == 2
    pages = {p.name for p in (tmp_path / "site").glob("game-*.html")}
    for player in (tmp_path / "site").glob("player-*.html"):
        linked = set(re.findall(r'href="(game-[^"#]+\.html)', player.read_text(encoding="utf-8")))
        assert linked <= pages, player.name


def test_a_rebuild_keeps_the_assets_untouched(tmp_path):
    corpus = write_pool_corpus(tmp_path, 2, ["w", "x", "y", "z"])
    build_site([corpus], tmp_path / "site")
    assets = sorted((tmp_path / "site" / "assets").iterdir())
    before = [p.stat().st_mtime_ns for p in assets]
    build_site([corpus], tmp_path / "site")
    assert [p.stat().st_mtime_ns for p in assets] == before


@pytest.mark.long
def test_the_site_of_200_simulated_games_is_under_15_mb(tmp_path):
    corpus = write_pool_corpus(tmp_path, 200, [f"player{i}" for i in range(10)],
                               random_players=frozenset({"player8", "player9"}))
    built = build_site([corpus], tmp_path / "site")
    total = sum(p.stat().st_size for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert built.game_pages == 200 and built.players == 10
    assert total == built.bytes
    assert total < 15_000_000, f"{total / 1e6:.1f} MB"


def test_site_pages_run_only_the_assets_scripts():
    from hearts_analysis.reports.render import SITE, PlotlyMode, render_page
    page = Page(render_page("index.html", {"title": "t", "kind": "k", "page_class": "c", "sources": "", "subtitle": "",
                                           "leaderboard": [], "has_rating": False, "games": [], "s": _Summary(),
                                           "clean_pct": None, "filtered_out": 0, "pages_skipped": 0, "min_games": 1,
                                           "filters": []}, SITE, scripts=("report.js", "site.js")))
    csp = next(m["content"] for m in page.named("meta") if m.get("http-equiv") == "Content-Security-Policy")
    script_src = next(part for part in csp.split(";") if part.strip().startswith("script-src"))
    assert script_src.split() == ["script-src", "'self'", "file:"] and "connect-src 'none'" in csp
    assert [s["src"] for s in page.named("script")] == ["assets/plotly.min.js", "assets/report.js", "assets/site.js"]
    assert [link["href"] for link in page.named("link")] == ["assets/report.css"]
    for how, folder in (("beside", "../up/"), ("beside", "/abs/"), ("beside", "c:/x/"), ("inline", "assets/")):
        with pytest.raises(ValueError):
            PlotlyMode(how, folder)


class _Summary:
    games = hands = invalid_games = violations = errors = 0


def test_review_accuracy_shows_over_time_where_games_were_reviewed():
    from hearts_analysis.corpus_audit import game_report
    from hearts_analysis.records.errors import Item
    from hearts_analysis.reports.extras import GameExtras
    from hearts_analysis.reports.site import Site
    from hearts_analysis.reports.sitedata import SiteDigest
    digest = SiteDigest()
    for index, accuracy in enumerate((91.5, 64.0, None)):
        record = game_from_dict(pool_game(index, ["ann", "ben", "cat", "dan"]))
        analysis = analyze_game(record)
        seat = record.players.index("ann") if "ann" in record.players else 0
        review = None if accuracy is None else {"decisions": [], "accuracy": {str(seat): accuracy}}
        digest.add(Item(f"g{index}", record), game_report(analysis.result, f"g{index}"), analysis,
                   GameExtras(None, review))
    reviewed = [a["accuracy"] for a in digest.accuracy.get("ann", [])]
    site = Site(digest, "club", [], [])
    with_review = Page(site.player("ann"))
    assert with_review.data("fig-accuracy")["data"][0]["y"] == reviewed and reviewed
    others = [name for name in site.player_pages if name not in digest.accuracy]
    assert others and all("fig-accuracy" not in site.player(name) for name in others)
