""""Ask the judge here" in a real browser (headless Chromium, set up and skipped as the other browser tests):
the reviewed game page opened at a decision shows its options, steps the better card's line on the table and
returns to the game, offline and with the hostile names as text."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from hearts_analysis.reports.game import replay_data  # noqa: E402

from reviewpage import reviewed_extras, reviewed_game  # noqa: E402
from test_reports_browser import PHONE, _fits, _inert, _shoot, browser, reviewed, watched  # noqa: E402,F401


def _a_decision_with_a_line() -> tuple[int, int, dict, list]:
    """Hand 1's first play whose judged decision has a line of at least three plays and two options."""
    result, _ = reviewed_game()
    hand = replay_data(result, reviewed_extras())["hands"][0]
    for step, entries in hand["judge"].items():
        for entry in entries:
            if int(step) > 0 and len(entry.get("line") or []) >= 3 and len(entry["options"]) >= 2:
                return hand["number"], int(step), entry, hand["plays"]
    pytest.fail("no judged play of hand 1 has a line")


def _latest(page) -> str:
    return page.locator("#replay .trick-cards .played.latest .card").get_attribute("title")


def test_ask_the_judge_shows_the_options_and_steps_the_line(watched, reviewed):
    number, step, entry, plays = _a_decision_with_a_line()
    w = watched()
    page = w.page
    page.goto(reviewed.as_uri() + f"#hand={number}&play={step}")
    page.wait_for_load_state("load")
    viewer = page.locator("#replay")
    assert viewer.get_attribute("data-step") == str(step)
    assert _latest(page).endswith(f"({plays[step - 1][1]})")
    page.get_by_role("button", name="Ask the judge here").click()
    options = page.locator("#replay .judge-options").first.locator("li")
    assert options.count() == len(entry["options"])
    for item, option in zip(options.all_inner_texts(), entry["options"]):
        marks = option[3] if len(option) > 3 else ""
        assert f"{option[1]:.1f} \u00b1 {option[2]:.1f} points" in item
        assert ("\u2248" in item) == ("=" in marks)
        assert ("played" in item) == ("p" in marks)
    page.get_by_role("button", name=f"Show the line after {entry['best']}").click()
    assert viewer.get_attribute("data-line") == "1"
    assert _latest(page).endswith(f"({entry['best']})")
    line = entry["line"]
    forward = page.locator("#replay [data-line-go=forward]")
    for k in range(2, len(line) + 1):
        forward.click()
        assert viewer.get_attribute("data-line") == str(k)
        assert _latest(page).endswith(f"({line[k - 1][1]})")
    assert forward.is_disabled()
    assert page.inner_text("#replay .line-position") == f"Line: {len(line)} of {len(line)}"
    page.locator("#replay [data-line-go=back]").click()
    assert viewer.get_attribute("data-line") == str(len(line) - 1)
    _shoot(page, "game-judge-line")
    page.locator("#replay [data-line-go=return]").click()
    assert viewer.get_attribute("data-line") is None
    assert viewer.get_attribute("data-step") == str(step)
    assert _latest(page).endswith(f"({plays[step - 1][1]})")
    assert page.locator("#replay .judge-options").count() >= 1     # the panel stays open at the decision
    # moving on in the game closes the panel; the next position has its own judge
    page.get_by_role("button", name="Card \u203a").click()
    assert page.locator("#replay .judge-options").count() == 0
    _inert(page)
    assert w.problems == []


def test_the_judge_at_the_passes_has_no_line_and_keys_step_a_line(watched, reviewed):
    """At phone width: the panel and the line fit the screen."""
    number, step, entry, _ = _a_decision_with_a_line()
    w = watched(PHONE)
    page = w.page
    page.goto(reviewed.as_uri() + f"#hand={number}&play=0")
    page.wait_for_load_state("load")
    page.get_by_role("button", name="Ask the judge here").click()
    assert page.locator("#replay .judge-options").count() >= 1
    assert page.locator("#replay .judge-line").count() == 0       # a pass has no line
    assert "passed" in page.inner_text("#replay .judge-panel")
    _fits(page)
    page.evaluate(f"window.location.hash = '#hand={number}&play={step}'")
    page.wait_for_function(f"document.getElementById('replay').getAttribute('data-step') === '{step}'")
    page.get_by_role("button", name="Ask the judge here").click()
    page.get_by_role("button", name=f"Show the line after {entry['best']}").click()
    viewer = page.locator("#replay")
    page.keyboard.press("ArrowRight")
    assert viewer.get_attribute("data-line") == "2"
    _fits(page)
    _shoot(page, "game-judge-phone")
    page.keyboard.press("ArrowLeft")
    assert viewer.get_attribute("data-line") == "1"
    page.keyboard.press("Escape")
    assert viewer.get_attribute("data-line") is None and viewer.get_attribute("data-step") == str(step)
    assert w.problems == []
