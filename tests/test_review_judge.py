""""Ask the judge here": the replay's page data carries, at each position where a reviewed seat decides, the
board's options and the better card's line, computed by the review (the page stays offline); names stay text."""

from __future__ import annotations

import json
import re

from hearts_analysis.cards import parse_card, rank_of, suit_of
from hearts_analysis.reports.game import render_game_report, replay_data
from hearts_analysis.review.page import OPTION_FIELDS
from hearts_analysis.review.report import option_cards

from reportdata import PLAYERS
from reviewpage import reviewed_extras, reviewed_game


def _data() -> dict:
    result, _ = reviewed_game()
    return replay_data(result, reviewed_extras())


def test_every_reviewed_decision_carries_its_options_and_line_at_its_step():
    result, document = reviewed_game()
    hands = {h["number"]: h for h in _data()["hands"]}
    n = len(PLAYERS)
    decisions = document["decisions"]
    assert any(d.get("line") for d in decisions), "the review gave no line"
    for d in decisions:
        hand = hands[d["hand"]]
        if d["kind"] == "pass":
            step = 0
        else:
            step = next(i + 1 for i, (seat, _) in enumerate(hand["plays"]) if i // n + 1 == d["trick"] and seat == d["seat"])
            assert hand["plays"][step - 1] == [d["seat"], d["played"]]
        entries = [e for e in hand["judge"][str(step)] if e["seat"] == d["seat"]]
        assert len(entries) == 1, (d["hand"], step, d["seat"])
        entry = entries[0]
        # every real option, best first, with the numbers and merged cards the review gave
        options = [dict(zip(OPTION_FIELDS, o)) for o in entry["options"]]
        assert [o["cards"] for o in options] == [option_cards(d, o) for o in d["options"]]
        assert [(o["points"], o["margin"]) for o in options] == \
            [(round(o["expected_points"], 1), round(o["margin"], 1)) for o in d["options"]]
        points = [o["points"] for o in options]
        assert points == sorted(points)
        assert [o.get("reason") for o in options if o.get("reason")] == [o["reason"] for o in d["options"] if o["reason"]]
        assert sum("p" in o.get("marks", "") for o in options) == 1
        assert "=" not in options[0].get("marks", "")
        assert entry.get("forced", False) == d["forced"] and entry.get("class") == d.get("class")
        assert entry.get("line", []) == [list(p) for p in d.get("line") or []]
    assert sum(len(e) for h in hands.values() for e in h["judge"].values()) == len(decisions)


def test_a_line_starts_with_the_better_card_and_its_tricks_are_scored():
    hands = _data()["hands"]
    n = len(PLAYERS)
    checked = 0
    for hand in hands:
        for step, entries in hand["judge"].items():
            for entry in entries:
                if not entry.get("line"):
                    continue
                line, before = entry["line"], hand["plays"][:int(step) - 1]
                assert line[0][0] == entry["seat"]
                assert line[0][1] == entry["best"]
                assert [o for o in entry["options"] if "b" in (o[3] if len(o) > 3 else "")][0][0] \
                    .split("/")[0] == entry["best"]
                plays = before + line
                first = len(before) // n
                assert len(entry["tricks"]) == (len(plays) - first * n) // n
                for k, (winner, points) in enumerate(entry["tricks"]):
                    cards = [(seat, parse_card(c)) for seat, c in plays[(first + k) * n:(first + k + 1) * n]]
                    led = suit_of(cards[0][1])
                    top = max((c for _, c in cards if suit_of(c) == led), key=rank_of)
                    assert winner == next(seat for seat, c in cards if c == top)
                    hearts = sum(suit_of(c) == suit_of(parse_card("2H")) for _, c in cards)
                    assert points == hearts + 13 * any(c == parse_card("QS") for _, c in cards)
                checked += 1
    assert checked


def test_the_judge_data_is_embedded_as_json_and_small():
    result, _ = reviewed_game()
    html = render_game_report(result, "g.json", extras=reviewed_extras())
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
                      .group(1))
    judged = [e for h in data["hands"] for entries in h["judge"].values() for e in entries]
    assert judged and all(e["options"] for e in judged)
    # only what the panel shows: no deals, samples or win chances
    assert all(set(e) <= {"seat", "played", "best", "cost", "class", "forced", "unclear", "options", "line",
                          "tricks"} for e in judged)
    size = len(json.dumps([h["judge"] for h in data["hands"]], separators=(",", ":")))
    assert size < 250 * len(judged), size
