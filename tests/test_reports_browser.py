"""The reports in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

Every request that is not a local file fails the test; so do console errors, page errors
and dialogs. Screenshots of every report (laptop and phone width) are kept under
``test-output/screenshots/`` for people to look at.

Without Chromium, the setup installs Debian's package when it runs as root with apt;
otherwise (or without the ``playwright`` package) these tests are skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from hearts_analysis.engine import replay_game  # noqa: E402
from hearts_analysis.records.json import game_from_dict  # noqa: E402
from hearts_analysis.reports.audit import digest_paths, write_audit_report  # noqa: E402
from hearts_analysis.reports.game import write_game_report  # noqa: E402
from hearts_analysis.reports.players import digest_players, write_players_report  # noqa: E402
from hearts_analysis.reports.render import BESIDE, INLINE  # noqa: E402

from reportdata import PLAYERS, XSS_BREAKOUT, XSS_SCRIPT, flawed_game, write_corpus  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
RESIZED = """() => [...document.querySelectorAll('[data-figure]')].every(box => {
  const svg = box.querySelector('svg.main-svg');
  return svg && svg.getBoundingClientRect().width <= box.getBoundingClientRect().width + 1;
})"""


def _ensure_chromium() -> str:
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
            if subprocess.run(command, env=env, capture_output=True).returncode != 0:
                pytest.skip(f"could not install chromium ({' '.join(command)} failed)")
        if os.path.exists(CHROMIUM):
            return CHROMIUM
    pytest.skip("headless Chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser():
    executable = _ensure_chromium()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """One of each report, built from hostile names, violations and unreadable records."""
    folder = tmp_path_factory.mktemp("reports")
    corpus = write_corpus(tmp_path_factory.mktemp("corpus"))
    flawed = replay_game(game_from_dict(flawed_game()))
    beside = folder / "beside"
    return {
        "game": write_game_report(flawed, "flawed.json", folder / "game.html", INLINE),
        "audit": write_audit_report(digest_paths([corpus]), str(corpus), folder / "audit.html", INLINE),
        "players": write_players_report(digest_players([corpus]), str(corpus), folder / "players.html", INLINE),
        "game-beside": write_game_report(flawed, "flawed.json", beside / "game.html", BESIDE),
    }


class Watched:
    """A page that records everything that must not happen."""

    def __init__(self, browser, viewport):
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(f"console {m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("dialog", self._dialog)
        self.context.route("**/*", self._route)

    def _dialog(self, dialog):
        self.problems.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    def _route(self, route):
        url = route.request.url
        if url.startswith("file://"):
            route.continue_()
        else:
            self.problems.append(f"network request: {url}")
            route.abort()

    def open(self, path: Path):
        self.page.goto(path.as_uri())
        self.page.wait_for_load_state("load")
        return self.page

    def close(self):
        self.context.close()


@pytest.fixture
def watched(browser):
    made: list[Watched] = []

    def make(viewport=LAPTOP) -> Watched:
        made.append(Watched(browser, viewport))
        return made[-1]
    yield make
    for w in made:
        w.close()


def _charts_drawn(page) -> tuple[int, int]:
    boxes = page.locator("[data-figure]").count()
    page.wait_for_function("n => document.querySelectorAll('[data-figure] svg.main-svg').length >= n", arg=boxes)
    drawn = page.evaluate("document.querySelectorAll('[data-figure].js-plotly-plot').length")
    return boxes, drawn


def _inert(page) -> None:
    """The hostile names are text: no injected element, no script ran, both names visible."""
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert page.evaluate("document.querySelectorAll('script:not([type])').length") <= 2
    body = page.inner_text("body")
    assert XSS_SCRIPT in body


def _shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def _fits(page) -> None:
    """Nothing wider than the screen: wide tables scroll inside their own box."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("name", ["game", "audit", "players", "game-beside"])
def test_report_loads_offline_with_charts_and_inert_names(watched, pages, name):
    w = watched()
    page = w.open(pages[name])
    boxes, drawn = _charts_drawn(page)
    assert boxes >= 1 and drawn == boxes
    _inert(page)
    _fits(page)
    if name != "game-beside":
        _shoot(page, f"{name}-laptop")
        page.set_viewport_size(PHONE)
        page.wait_for_function(RESIZED)  # plotly redraws the charts for the new width
        _fits(page)
        _shoot(page, f"{name}-phone")
    assert w.problems == []


def test_replay_viewer_steps_with_the_keyboard(watched, pages):
    w = watched()
    page = w.open(pages["game"])
    viewer = page.locator("#replay")
    assert viewer.get_attribute("data-step") == "0"
    viewer.focus()
    page.keyboard.press("ArrowRight")
    assert viewer.get_attribute("data-step") == "1"
    assert page.locator(".trick-cards .played").count() == 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert viewer.get_attribute("data-step") == "1"
    page.keyboard.press("Shift+ArrowRight")
    assert viewer.get_attribute("data-step") == str(len(PLAYERS))
    assert "wins the trick" in page.inner_text(".trick-result")
    page.keyboard.press("End")
    assert viewer.get_attribute("data-step") == "52"
    page.keyboard.press("n")
    assert viewer.get_attribute("data-hand") == "2" and viewer.get_attribute("data-step") == "0"
    page.get_by_role("button", name="Card \u203a").click()
    assert viewer.get_attribute("data-step") == "1"
    # the seats show the hostile names as text
    assert XSS_BREAKOUT in page.inner_text("#replay .seats")
    assert w.problems == []


def test_violation_is_shown_at_its_card(watched, pages):
    w = watched()
    page = w.open(pages["game"])
    link = page.locator("#violations a[data-show-hand]").first
    link.click()
    viewer = page.locator("#replay")
    step = int(link.get_attribute("data-show-step"))
    assert viewer.get_attribute("data-step") == str(step)
    assert page.locator(".played.flagged.latest").count() == 1
    events = page.inner_text("#replay .events")
    code = page.inner_text("#violations li .code >> nth=0")
    assert code in events
    _shoot(page, "game-violation")
    assert w.problems == []


def test_player_table_sorts(watched, pages):
    w = watched()
    page = w.open(pages["players"])

    def column(index: int) -> list[str]:
        return page.eval_on_selector_all(
            "table.stats-table tbody tr", f"rows => rows.map(r => r.cells[{index}].textContent.trim())")
    page.locator("table.stats-table thead th button", has_text="Player").click()
    names = column(0)
    assert names == sorted(names, key=str.lower)
    page.locator("table.stats-table thead th button", has_text="Pts/hand").click()
    values = [float(v) for v in column(6)]
    assert values == sorted(values, reverse=True)
    assert w.problems == []


def test_print_layout_hides_the_controls(watched, pages):
    w = watched()
    page = w.open(pages["game"])
    page.emulate_media(media="print")
    assert page.locator("#replay .controls").is_hidden()
    assert page.locator(".masthead nav").is_hidden()
    assert w.problems == []


# -- the site of a corpus ------------------------------------------------------------
SITE_POOL = [*PLAYERS, "../up", "line\nbreak"]


def _qs_leaks(tally):
    """One significant leak per player, so that every player page links hands into the replay."""
    return [{"player": name, "statistic": "qs_taken_pct", "value": 30.0, "reference": 20.0, "sample_size": 10,
             "ci_low": 1.0, "ci_high": 19.0, "cost_per_hand": 1.0, "significant": True} for name in tally.players]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from hearts_analysis.reports.site import build_site

    from reportdata import write_pool_corpus
    corpus = write_pool_corpus(tmp_path_factory.mktemp("club"), 6, SITE_POOL)
    folder = tmp_path_factory.mktemp("site")
    build_site([corpus], folder, leaks=_qs_leaks)
    return folder


@pytest.mark.long
def test_every_site_page_loads_offline_and_draws_its_charts(watched, site):
    pages = sorted(site.glob("*.html"))
    assert len(pages) == 3 + len(SITE_POOL) + 6
    w = watched()
    for path in pages:
        page = w.open(path)
        boxes, drawn = _charts_drawn(page)
        assert drawn == boxes, path.name
        assert page.evaluate("document.querySelectorAll('img, b').length") == 0, path.name
        assert page.locator("nav.site-nav a").count() == 3
        _fits(page)
        if path.name in ("index.html", "players.html") or path.name.startswith("player-alice"):
            _shoot(page, "site-" + path.stem)
    assert w.problems == []


def test_site_links_lead_from_the_home_page_to_a_replayed_hand_and_back(watched, site):
    w = watched()
    page = w.open(site / "index.html")
    page.locator("nav.site-nav a", has_text="Players").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/players.html")
    page.locator("table.stats-table a", has_text="alice").first.click()
    page.wait_for_load_state("load")
    assert page.inner_text("h1") == "alice" and "/player-" in page.url
    evidence = page.locator("td.evidence a").first
    href = evidence.get_attribute("href")
    hand, play = (int(x) for x in href.split("#hand=")[1].split("&play="))
    evidence.click()
    page.wait_for_load_state("load")
    viewer = page.locator("#replay")
    page.wait_for_function("() => !document.getElementById('replay').hidden")
    assert viewer.get_attribute("data-hand") == str(hand) and viewer.get_attribute("data-step") == str(play)
    # the trick that play ends was taken by alice with QS in it (the leak is QS taken)
    assert "alice" in page.inner_text(".trick-result") and page.locator(".trick-cards .card.qs").count() == 1
    page.locator("nav.site-nav a", has_text="Home").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/index.html")
    page.go_back()
    page.wait_for_load_state("load")
    assert viewer.get_attribute("data-step") == str(play)
    assert w.problems == []


def test_site_tables_filter_and_sort(watched, site):
    w = watched()
    page = w.open(site / "index.html")
    games = page.locator("table.games")
    total = games.locator("tbody tr").count()
    page.get_by_label("Filter the games").fill("../UP")  # case-insensitive
    shown = games.locator("tbody tr:not([hidden])")
    assert 0 < shown.count() < total
    assert all("../up" in text for text in shown.all_inner_texts())
    page.get_by_label("Filter the games").fill("")
    assert games.locator("tbody tr:not([hidden])").count() == total
    page.get_by_label("only games with violations").check()
    assert games.locator("tbody tr:not([hidden])").count() == 0  # simulated games are clean
    page.get_by_label("only games with violations").uncheck()
    games.locator("thead th button", has_text="Hands").click()
    hands = [int(t) for t in page.eval_on_selector_all("table.games tbody tr", "rows => rows.map(r => r.cells[4].textContent)")]
    assert hands == sorted(hands, reverse=True)
    assert w.problems == []


# -- the review page ------------------------------------------------------------------
@pytest.fixture(scope="module")
def reviewed(tmp_path_factory) -> Path:
    """A game page with a real review of its first two hands (tiny budgets), two careless seats so that
    decisions are flagged, and hostile names."""
    from reviewpage import reviewed_game_page
    return reviewed_game_page(tmp_path_factory.mktemp("reviewed") / "game.html")


def _position(page) -> tuple[str, str]:
    viewer = page.locator("#replay")
    return viewer.get_attribute("data-hand"), viewer.get_attribute("data-step")


def test_review_page_opens_at_the_address_of_a_position(watched, reviewed):
    w = watched()
    page = w.context.new_page()
    page.on("pageerror", lambda e: w.problems.append(f"page error: {e}"))
    page.goto(reviewed.as_uri() + "#hand=2&play=5")
    page.wait_for_load_state("load")
    assert _position(page) == ("2", "5")
    assert page.locator(".trick-cards .played").count() == 1   # the fifth card opens trick 2
    assert page.inner_text(".position") == "Play 5 of 52"
    page.evaluate("window.location.hash = '#hand=1&play=13'")
    page.wait_for_function("document.getElementById('replay').getAttribute('data-step') === '13'")
    assert _position(page) == ("1", "13")
    assert w.problems == []


def test_a_flagged_decision_and_a_point_of_the_graph_move_the_replay(watched, reviewed):
    w = watched()
    page = w.open(reviewed)
    links = page.locator("#review-flagged a.replay-link")
    assert links.count() >= 2
    for index in (1, 0):
        link = links.nth(index)
        hand, play = (x for x in link.get_attribute("href")[len("#hand="):].split("&play="))
        link.click()
        page.wait_for_function("h => document.getElementById('replay').getAttribute('data-step') === h", arg=play)
        assert _position(page) == (hand, play)
        row = link.locator("xpath=ancestor::tr")
        if play != "0":   # the flagged card is the latest card of the trick shown, and marked
            assert page.locator(".played.latest.costly").count() == 1
            assert row.locator("td").nth(3).inner_text().strip() in page.inner_text(".played.latest")
    # the same link again, after the viewer moved: it shows its position again (no hashchange)
    page.locator("#replay").focus()
    page.keyboard.press("Home")
    links.nth(0).click()
    page.wait_for_function("document.getElementById('replay').getAttribute('data-step') !== '0'")
    # a click on the graph: plotly's click event on the first point of the first player's trace
    _charts_drawn(page)
    target = page.evaluate("""() => {
        const g = document.querySelector('[data-figure="fig-review"]');
        const trace = g.data.findIndex(t => t.customdata.length);
        const point = g.data[trace].customdata.length - 1;
        g.emit('plotly_click', {points: [{curveNumber: trace, pointNumber: point, customdata: g.data[trace].customdata[point]}]});
        return g.data[trace].customdata[point];
    }""")
    page.wait_for_function("h => document.getElementById('replay').getAttribute('data-step') === h", arg=str(target[1]))
    assert _position(page) == (str(target[0]), str(target[1]))
    assert w.problems == []


def test_review_filter_shows_one_player_and_the_names_stay_text(watched, reviewed):
    w = watched()
    page = w.open(reviewed)
    _charts_drawn(page)
    rows = page.locator("#review-flagged tbody tr")
    total = rows.count()
    seats = sorted({rows.nth(i).get_attribute("data-seat") for i in range(total)})
    seat = seats[0]
    page.get_by_label("This player only").select_option(seat)
    shown = page.locator("#review-flagged tbody tr:not([hidden])")
    assert shown.count() == sum(rows.nth(i).get_attribute("data-seat") == seat for i in range(total))
    assert all(shown.nth(i).get_attribute("data-seat") == seat for i in range(shown.count()))
    assert page.locator("#review-counts tbody tr:not([hidden])").count() == 1
    visible = page.evaluate("document.querySelector('[data-figure=\"fig-review\"]').data.map(t => t.visible)")
    assert visible.count(True) == 2   # the player's points and its legend entry
    page.get_by_label("This player only").select_option("")
    assert page.locator("#review-flagged tbody tr:not([hidden])").count() == total
    _inert(page)
    _shoot(page, "game-review")
    page.set_viewport_size(PHONE)
    page.wait_for_function(RESIZED)
    _fits(page)
    assert w.problems == []


# -- layout: what a reader sees at a glance ---------------------------------------------
def _one_line(page, selector: str) -> list[str]:
    """The texts of the elements under ``selector`` that wrap onto a second line."""
    return page.eval_on_selector_all(selector, """els => els.filter(e => {
      const range = document.createRange();
      range.selectNodeContents(e);
      const rects = [...range.getClientRects()].filter(r => r.width > 0).sort((a, b) => a.top - b.top);
      let lines = 0, bottom = -Infinity;
      for (const r of rects) {   // a rect that starts below the line so far starts a new line
        if (r.top >= bottom - 1) { lines += 1; bottom = r.bottom; } else { bottom = Math.max(bottom, r.bottom); }
      }
      return lines > 1;
    }).map(e => e.textContent)""")


def test_audit_page_reads_as_one_table_and_one_chart_in_the_same_order(watched, pages):
    w = watched()
    page = w.open(pages["audit"])
    _charts_drawn(page)
    table = page.locator("#by-code table")
    codes = [t.strip() for t in table.locator("tbody tr td:first-child").all_inner_texts()]
    assert len(codes) >= 2
    # the meaning column is wide enough to read: no row of the table wraps to three lines or more
    assert page.evaluate("document.querySelector('#by-code th.meaning').getBoundingClientRect().width") >= 200
    heights = table.locator("tbody tr").evaluate_all("rows => rows.map(r => r.getBoundingClientRect().height)")
    assert max(heights) < 3 * 22, heights
    graph = "document.querySelector('#by-code [data-figure]')"
    # the chart lists the codes top to bottom as the table does
    shown = page.evaluate(f"""[...{graph}.querySelectorAll('.ytick text')]
        .map(t => [t.getBoundingClientRect().top, t.textContent]).sort((a, b) => a[0] - b[0]).map(p => p[1])""")
    assert list(shown) == codes
    # counts are whole numbers: no 0.5 tick
    ticks = page.evaluate(f"{graph}._fullLayout.xaxis._vals.map(v => v.x)")
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    # the toolbar stands beside the plot, never over it
    over = page.evaluate(f"""(() => {{ const g = {graph}, bar = g.querySelector('.modebar'),
        plot = g.querySelector('.cartesianlayer .plot') || g.querySelector('.bglayer');
        if (!bar || !plot) return null;
        const a = bar.getBoundingClientRect(), b = plot.getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }})()""")
    assert over is False
    assert _one_line(page, "#worst .chip, details .chip") == []
    assert w.problems == []


def test_site_pages_keep_their_words_on_one_line_and_their_weight(watched, site):
    w = watched({"width": 1400, "height": 900})
    page = w.open(site / "index.html")
    assert _one_line(page, "td.date") == []
    page = w.open(site / "players.html")
    # every statistic fits the page at 1,400 px: the table does not scroll sideways
    assert page.evaluate("""[...document.querySelectorAll('.table-scroll')].every(
        b => b.scrollWidth <= b.clientWidth + 1)""")
    _fits(page)
    player = sorted(site.glob("player-*.html"))[0]
    page = w.open(player)
    # a player's page is in the body weight; only names are semi-bold
    assert page.evaluate("getComputedStyle(document.body).fontWeight") == "400"
    assert page.evaluate("getComputedStyle(document.querySelector('main p, main td') || document.body).fontWeight") == "400"
    assert _one_line(page, ".stat .value") == []
    assert _one_line(page, "td.date") == []
    assert w.problems == []


def test_review_list_heading_counts_what_the_filter_shows(watched, reviewed):
    w = watched()
    page = w.open(reviewed)
    rows = page.locator("#review-flagged tbody tr")
    total = rows.count()
    heading = page.locator("#review-list > summary")
    assert f"({total})" in heading.inner_text()
    seats = [rows.nth(i).get_attribute("data-seat") for i in range(total)]
    seat = min(set(seats), key=seats.count)
    page.get_by_label("This player only").select_option(seat)
    assert f"({seats.count(seat)} of {total})" in heading.inner_text()
    page.get_by_label("This player only").select_option("")
    assert f"({total})" in heading.inner_text()
    # a row names its cards one way: the reasons show 10♦ as the Played and Better columns do, never TD
    import re
    reasons = page.locator("#review-flagged td.sub").all_inner_texts()
    assert any(re.search("[♠♥♦♣]", text) for text in reasons)
    assert not any(re.search(r"\b(10|[2-9TJQKA])[CDHS]\b", text) for text in reasons), reasons
    assert w.problems == []
