"""The game report: the table, the score charts, the hand table and the trick-by-trick replay.

The replay viewer and the charts read plain data built here from the replay, so
a page shows exactly what the engine found: here seat 0 shoots the moon in hand 2,
and the score chart marks it with a star at its total.

>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> result = replay_game(next(simulate_games(1, Rules.preset("standard", target=30))))
>>> hand = replay_data(result)["hands"][1]
>>> hand["moon"], hand["points"], hand["plays"][0]
(None, [20, 4, 1, 1], [0, '2C'])
>>> [(trace.name, list(trace.y)) for trace in score_figure(result).data]
[('bot1', [0, 17, 37]), ('bot2', [0, 1, 5]), ('bot3', [0, 8, 9]), ('bot4', [0, 0, 1])]
"""

from __future__ import annotations

from ..records.model import SHEET_NOTE, is_score_sheet

from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go

from ..analysis.points import positions
from ..analysis.trace import HandTrace, trace_game
from ..cards import HEARTS_MASK, QS, card_name, iter_cards, mask_of, parse_card
from ..engine.interpreter import trick_taker
from ..engine.replay import GameResult, HandResult
from ..engine.scoring import raw_points
from ..violations import CATALOGUE, Code, Violation
from . import charts
from .extras import GameExtras, game_extras
from .render import INLINE, PlotlyMode, figure_data, render_page, write_page
from .words import cost_words, display_order, joined, ordinal, preset_note, rules_in_words

if TYPE_CHECKING:
    from ..review import Settings
    from ..rules import Table
    from ..review.batch import ReviewPlan
    from ..review.page import ReviewPage

REPORT_HANDS = 200
"""Hands a game report shows in its hand table and its replay: a game of thousands of hands (a log that
never reached its target) would otherwise take minutes to render and make a page no browser opens; the
charts and the rule violations still cover every hand."""
GAME_SCRIPTS = ("report.js", "replay.js", "review.js")
"""The scripts of a game page: shared helpers and charts, the replay viewer, the review's filter and graph."""
REPORT_VIOLATIONS = 500
"""Rule violations a game report lists; `hearts validate` lists them all."""

_AT_HAND_START = frozenset({Code.DEAL_INVALID, Code.PASS_INVALID, Code.GAME_CONTINUED})
"""Violations shown before the first lead; others without a card are shown when the hand is scored."""


def _sorted_names(cards) -> list[str]:
    return [card_name(c) for c in sorted(cards, key=display_order)]


def _play_index(plays, players: int, violation: Violation) -> int | None:
    """The play a violation is about: the same trick, seat and card."""
    if violation.trick is None or violation.card is None:
        return None
    for index, (seat, card) in enumerate(plays):
        if index // players + 1 == violation.trick and seat == violation.seat and card_name(card) == violation.card:
            return index
    return None


def _replay_hand(result: GameResult, hand: HandResult, trace: HandTrace) -> dict[str, Any]:
    game = result.record
    record = game.hands[hand.number - 1]
    table = game.rules.table(game.seats)
    n = game.seats
    plays = record.plays
    tricks = [{"winner": trick.winner, "points": raw_points(table, trick.cards, 1)} for trick in trace.tricks]
    flags: dict[int, list[int]] = {}
    hand_level, end_level = [], []
    for index, violation in enumerate(hand.violations):
        at = _play_index(plays, n, violation)
        if at is not None:
            flags.setdefault(at, []).append(index)
        elif violation.code in _AT_HAND_START:
            hand_level.append(index)
        else:
            end_level.append(index)
    passes = None
    if trace.direction != "hold" and record.passes:
        passes = [{"to": table.pass_target(seat, trace.direction), "cards": _sorted_names(cards or ())}
                  for seat, cards in enumerate(record.passes)]
    ended = None
    if trace.sweeper is not None:
        rest = trace.swept.bit_count()
        ended = (f"The hand ended early: {game.players[trace.sweeper]} had to lead holding only hearts while "
                 f"hearts were unbroken, and took the {rest} cards still in play.")
    return {
        "number": hand.number, "dealer": hand.dealer, "direction": trace.direction,
        "start": [_sorted_names(iter_cards(mask)) for mask in trace.held],
        "passes": passes,
        "plays": [[seat, card_name(card)] for seat, card in plays],
        "tricks": tricks,
        "flags": {str(k): v for k, v in sorted(flags.items())},
        "hand_level": hand_level, "end_level": end_level,
        "violations": [v.to_dict() for v in hand.violations],
        "points": list(hand.points),
        "recorded": None if record.points is None else list(record.points),
        "totals": list(hand.totals),
        "moon": None if hand.moon is None else hand.moon.to_dict(),
        "ended": ended,
        "review": {},
        "notes": {},
    }


def line_tricks(table: "Table", before: list[list[Any]], line: list[list[Any]]) -> list[list[int]]:
    """Who wins each trick the ``line`` completes after the plays ``before`` it, and its points (``[winner,
    points]``), from the
    trick the line starts in: the replay shows a line as it shows the game.

    >>> from hearts_analysis.rules import Rules
    >>> table = Rules.preset("standard").table(4)
    >>> line_tricks(table, [[0, "2C"]], [[1, "AC"], [2, "QS"], [3, "3C"], [1, "2H"]])
    [[1, 13]]
    """
    n = table.players
    plays = [*before, *line]
    tricks = []
    for first in range(len(before) // n * n, len(plays) - n + 1, n):
        trick = [(seat, parse_card(card)) for seat, card in plays[first:first + n]]
        tricks.append([trick_taker(trick), raw_points(table, mask_of(card for _, card in trick), 1)])
    return tricks


def replay_data(result: GameResult, extras: GameExtras | None = None, limit: int | None = None) -> dict[str, Any]:
    """Everything the replay viewer shows, as JSON-ready data (names stay plain text); ``limit``: of the
    first hands only. A score sheet has no cards to replay: no hands."""
    if is_score_sheet(result.record):
        return {"players": list(result.record.players), "hands": []}
    hands = [_replay_hand(result, hand, trace)
             for hand, trace in zip(result.hands[:limit], islice(trace_game(result), limit))]
    players = list(result.record.players)
    if extras is not None:
        table = result.record.rules.table(result.record.seats)
        for hand in hands:
            hand["review"] = extras.review_notes(hand["number"], hand["plays"], players)
            hand["judge"] = extras.judge_notes(hand["number"], hand["plays"], len(players))
            for step, entries in hand["judge"].items():
                for entry in entries:
                    if entry.get("line"):
                        entry["tricks"] = line_tricks(table, hand["plays"][:int(step) - 1], entry["line"])
            hand["notes"] = extras.moon_notes(hand["number"], players, len(players))
            verdicts = extras.pass_verdicts(hand["number"])
            reviews = extras.pass_reviews(hand["number"], players)
            for seat, entry in enumerate(hand["passes"] or []):
                entry["verdicts"] = verdicts.get(seat, [])
                entry["review"] = reviews.get(seat)
    return {"players": list(result.record.players), "hands": hands}


def _hand_rows(result: GameResult, limit: int) -> list[dict[str, Any]]:
    rows = []
    for hand in result.hands[:limit]:
        record = result.record.hands[hand.number - 1]
        cells = []
        for seat, points in enumerate(hand.points):
            recorded = None if record.points is None else record.points[seat]
            cells.append({
                "points": points, "total": hand.totals[seat],
                "hearts": (hand.taken[seat] & HEARTS_MASK).bit_count(),
                "qs": bool(hand.taken[seat] >> QS & 1),
                "recorded": recorded, "mismatch": recorded is not None and recorded != points,
            })
        qs_taker = next((seat for seat, taken in enumerate(hand.taken) if taken >> QS & 1), None)
        rows.append({"number": hand.number, "direction": hand.pass_direction, "cells": cells,
                     "qs_taker": qs_taker, "moon": hand.moon, "violations": len(hand.violations),
                     "after_end": result.after_end(hand)})
    return rows


def _seat_summary(result: GameResult) -> list[dict[str, Any]]:
    placed = positions(result.totals)
    counted = result.counted
    out = []
    for seat, player in enumerate(result.record.players):
        out.append({
            "seat": seat, "player": player, "total": result.totals[seat], "place": ordinal(placed[seat]),
            "winner": seat in result.winners, "colour": charts.colour(seat),
            "qs": sum(1 for h in counted if h.taken[seat] >> QS & 1),
            "hearts": sum((h.taken[seat] & HEARTS_MASK).bit_count() for h in counted),
            "moons": sum(1 for h in counted if h.moon is not None and h.moon.seat == seat),
            "tricks": sum(h.tricks_won[seat] for h in counted),
        })
    return out


def score_figure(result: GameResult) -> go.Figure:
    """Running totals per player, the target line (where the rules end the game at one), and a star where
    someone shot the moon."""
    players = result.record.players
    hands = list(range(len(result.hands) + 1))
    fig = charts.figure(None, xaxis=dict(title="after hand", dtick=1 if len(hands) <= 30 else None),
                        yaxis=dict(title="total points"), hovermode="x unified")
    for seat, player in enumerate(players):
        totals = [0] + [h.totals[seat] for h in result.hands]
        fig.add_scatter(x=hands, y=totals, name=charts.label(player), mode="lines+markers",
                        line=dict(color=charts.colour(seat), width=2.5, dash=charts.DASHES[seat % 7]),
                        marker=dict(symbol=charts.MARKERS[seat % 7], size=7),
                        hovertemplate="%{y}<extra>" + charts.label(player) + "</extra>")
    moons = [(h.number, h.totals[h.moon.seat], h.moon.seat) for h in result.hands if h.moon is not None]
    if moons:
        fig.add_scatter(x=[m[0] for m in moons], y=[m[1] for m in moons], mode="markers", name="moon shot",
                        marker=dict(symbol="star", size=17, color="#ffd166", line=dict(color="#1d2330", width=1.5)),
                        text=[charts.label(players[m[2]]) + " shot the moon" for m in moons],
                        hovertemplate="%{text}<extra></extra>")
    if result.record.rules.deals_per_game:    # a game of so many deals: the target ends nothing
        return fig
    target = result.record.rules.target
    fig.add_hline(y=target, line=dict(color="#b4233c", dash="dash", width=1.5),
                  annotation=dict(text=f"target {target}", font=dict(color="#b4233c"), xanchor="left"),
                  annotation_position="top left")
    return fig


def points_figure(result: GameResult) -> go.Figure:
    """Points per hand per player, stacked (a moon shot's negative points stack below zero)."""
    fig = charts.figure(None, barmode="relative", hovermode="x unified",
                        xaxis=dict(title="hand", dtick=1 if len(result.hands) <= 30 else None),
                        yaxis=dict(title="points"))
    numbers = [h.number for h in result.hands]
    for seat, player in enumerate(result.record.players):
        fig.add_bar(x=numbers, y=[h.points[seat] for h in result.hands], name=charts.label(player),
                    marker=dict(color=charts.colour(seat)),
                    hovertemplate="%{y}<extra>" + charts.label(player) + "</extra>")
    return fig


REVIEW_BANDS = ((1.0, "inaccuracy"), (3.0, "mistake"), (7.0, "blunder"))
"""The cost thresholds of the review's classes, drawn as lines on the cost graph."""
CLASS_COLOURS = {"inaccuracy": "#c99700", "mistake": "#e36209", "blunder": "#b4233c"}
"""Each class's colour: its line on the cost graph and the ring of a point of that class."""
UNCLEAR_AT_MOST = 0.9
"""Where the graph draws an unclear decision at most: below the first class's line, since it counts in no
class (its hover gives the estimate); no point stands in a band whose class the table does not count it in."""


def drawn_cost(d: dict[str, Any]) -> float:
    """The height of a decision on the cost graph: its cost, kept inside the band of the class it counts in.

    >>> drawn_cost({"cost": 20.5, "class": None, "unclear": True}), drawn_cost({"cost": 7.4, "class": "mistake"})
    (0.9, 6.99)
    >>> drawn_cost({"cost": 0.4, "class": None}), drawn_cost({"cost": 8.2, "class": "blunder"})
    (0.4, 8.2)
    """
    cost = d["cost"]
    name = d.get("class")
    if not name:
        return min(cost, UNCLEAR_AT_MOST) if d.get("unclear") else min(cost, REVIEW_BANDS[0][0] - 0.01)
    bands = [threshold for threshold, _ in REVIEW_BANDS] + [float("inf")]
    at = [band for _, band in REVIEW_BANDS].index(name)
    return max(bands[at], min(cost, bands[at + 1] - 0.01))


def review_figure(page: "ReviewPage", players: list[str]) -> go.Figure:
    """The cost of every unforced decision over the game, one trace per reviewed player (``meta``: the seat,
    ``customdata``: hand and play, which a click on a point opens in the replay). A hand spans one unit of x:
    its pass at the left, its plays in order across. A flagged point is ringed in its class's colour and sized by
    it; an unclear one is hollow and grey, below the first line (:func:`drawn_cost`). Each player's legend entry is
    a trace of no point in its legend group, in the player's colour and marker."""
    hands = [d["hand"] for d in page.decisions] or [1]
    fig = charts.figure(None, xaxis=dict(title="hand", tick0=1, dtick=1 if max(hands) - min(hands) < 30 else None,
                                         range=[min(hands) - 0.5, max(hands) + 0.5], showgrid=False,
                                         minor=dict(tick0=0.5, dtick=1, showgrid=True, gridcolor=charts.GRID)),
                        yaxis=dict(title="expected points lost", rangemode="tozero"), hovermode="closest")
    sizes = {None: 6, "inaccuracy": 9, "mistake": 12, "blunder": 15}
    for row in page.players:
        seat = row["seat"]
        mine = [d for d in page.decisions if d["seat"] == seat]
        unclear = [bool(d.get("unclear")) and not d.get("class") for d in mine]
        fig.add_scatter(
            x=[d["hand"] - 0.5 + d["play"] / 60 for d in mine], y=[drawn_cost(d) for d in mine],
            mode="markers", name=charts.label(players[seat]), meta=seat, legendgroup=str(seat), showlegend=False,
            marker=dict(color=[charts.MUTED if u else charts.colour(seat) for u in unclear],
                        symbol=[("circle-open" if u else charts.MARKERS[seat % 7]) for u in unclear],
                        size=[9 if u else sizes.get(d.get("class"), 6) for d, u in zip(mine, unclear)],
                        line=dict(color=[CLASS_COLOURS.get(d.get("class"), charts.MUTED if u else "#1d2330")
                                         for d, u in zip(mine, unclear)],
                                  width=[2.5 if d.get("class") else 1.5 if u else 0.5 for d, u in zip(mine, unclear)])),
            customdata=[[d["hand"], d["play"]] for d in mine],
            text=[charts.label(_decision_hover(d, players)) for d in mine],
            hovertemplate="%{text}<extra>" + charts.label(players[seat]) + "</extra>")
        # the legend's entry: the player's own marker and colour (plotly would copy the first point's, grey if unclear)
        fig.add_scatter(x=[None], y=[None], mode="markers", name=charts.label(players[seat]), meta=seat,
                        legendgroup=str(seat), hoverinfo="skip", customdata=[],
                        marker=dict(color=charts.colour(seat), symbol=charts.MARKERS[seat % 7], size=9,
                                    line=dict(color="#1d2330", width=0.5)))
    for threshold, name in REVIEW_BANDS:
        fig.add_hline(y=threshold, line=dict(color=CLASS_COLOURS[name], dash="dot", width=1),
                      annotation=dict(text=name, font=dict(color=CLASS_COLOURS[name], size=11), xanchor="left"),
                      annotation_position="top left")
    return fig


def _decision_hover(d: dict[str, Any], players: list[str]) -> str:
    where = f"hand {d['hand']}, " + ("pass" if d.get("kind") == "pass" else f"trick {d['trick']}")
    played = " ".join(d["played"]) if isinstance(d["played"], list) else d["played"]
    best = " ".join(d["best"]) if isinstance(d["best"], list) else d["best"]
    verb = "passed" if d.get("kind") == "pass" else "played"
    text = f"{where}: {players[d['seat']]} {verb} {played}, cost {d['cost']:.1f}"
    if d.get("class"):
        shown = cost_words(d) if "margin" in d else f"{d['cost']:.1f}"
        return f"{where}: {players[d['seat']]} {verb} {played}, cost {shown} ({d['class']}; better {best})"
    if d.get("unclear"):
        return text + f" \u00b1 {d.get('margin', 0.0):.1f}: unclear, counted in no class (better {best}?)"
    return text


def _violation_rows(result: GameResult, hands: int, limit: int) -> list[dict[str, Any]]:
    """The first ``limit`` violations with where to show them in the replay (hand index, step; none beyond the
    first ``hands`` hands, which are all the replay holds)."""
    rows: list[dict[str, Any]] = []
    n = result.record.seats
    for h_index, hand in enumerate(result.hands):
        plays = result.record.hands[hand.number - 1].plays
        for violation in hand.violations:
            if len(rows) == limit:
                return rows
            if plays is None:  # a score sheet's hand: no replay to show it in
                rows.append({"v": violation, "hand_index": None, "step": None})
                continue
            at = _play_index(plays, n, violation) if h_index < hands else None
            step = at + 1 if at is not None else (0 if violation.code in _AT_HAND_START else len(plays))
            rows.append({"v": violation, "hand_index": h_index if h_index < hands else None, "step": step})
    shown = {id(row["v"]) for row in rows}
    rows += [{"v": v, "hand_index": None, "step": None} for v in result.violations if id(v) not in shown]
    return rows[:limit]


def game_context(result: GameResult, source: str, extras: GameExtras | None = None) -> dict[str, Any]:
    game = result.record
    players = list(game.players)
    winners = [players[s] for s in result.winners]
    if result.complete:
        verdict = (f"{joined(winners)} {'wins' if len(winners) == 1 else 'tie for the win'} with "
                   f"{result.totals[result.winners[0]]} points after hand {result.ended_at}.")
        after = len(result.hands) - result.ended_at
        if after:
            verdict += (f" The game ended there; the {after} hand{'s' if after > 1 else ''} recorded after it "
                        f"{'are' if after > 1 else 'is'} audited but not counted.")
    elif not result.hands:
        verdict = "No hand was recorded."
    else:
        verdict = (f"The game is not finished: after {len(result.hands)} hands no total has reached "
                   f"{game.rules.target}.")
    if is_score_sheet(game):
        verdict += f" {SHEET_NOTE}."
    codes = sorted({v.code for v in result.violations}, key=list(CATALOGUE).index)
    return {
        "title": f"Game {game.game_id}" if game.game_id else "Game report",
        "subtitle": " \u00b7 ".join(part for part in [source, game.played_at and f"played {game.played_at}",
                                                    " vs ".join(players)] if part),
        "kind": "game report",
        "page_class": "game",
        "sources": source,
        "game": game,
        "players": players,
        "verdict": verdict,
        "complete": result.complete,
        "violation_count": len(result.violations),
        "seats": _seat_summary(result),
        "rules_words": rules_in_words(game.rules, game.seats),
        "preset": game.rules.preset,
        "preset_note": preset_note(game.rules),
        "rows": _hand_rows(result, REPORT_HANDS),
        "shown_hands": REPORT_HANDS,
        "hands_left_out": max(0, len(result.hands) - REPORT_HANDS),
        "totals": list(result.totals),
        "ended_at": result.ended_at if result.ended_at is not None and result.ended_at < len(result.hands) else None,
        "has_recorded": any(h.points is not None for h in game.hands),
        "violations": _violation_rows(result, REPORT_HANDS, REPORT_VIOLATIONS),
        "violations_left_out": max(0, len(result.violations) - REPORT_VIOLATIONS),
        "catalogue": [CATALOGUE[c] for c in codes],
        "score_figure": charts_or_none(score_figure, result),
        "points_figure": charts_or_none(points_figure, result),
        "replay": replay_data(result, extras, REPORT_HANDS),
        "extras": extras,
        **review_context(result, extras),
    }


def review_context(result: GameResult, extras: GameExtras | None) -> dict[str, Any]:
    """The review section's data: the page (counts, accuracy intervals, every flagged decision) and its graph."""
    if extras is None or extras.review is None:
        return {"review": None, "review_figure": None}
    from ..review.page import review_page
    page = review_page(extras.review, result.record)
    players = list(result.record.players)
    figure = figure_data(review_figure(page, players)) if page.decisions else None
    return {"review": page, "review_figure": figure}


def charts_or_none(build, result: GameResult) -> dict[str, Any] | None:
    return figure_data(build(result)) if result.hands else None


def render_game_report(result: GameResult, source: str, plotly: PlotlyMode = INLINE,
                       extras: GameExtras | None | bool = True,
                       review: "Settings | ReviewPlan | None" = None) -> str:
    """The HTML page for one replayed game. ``extras=True`` adds the analysis (and the review, with
    ``review`` settings or a :class:`~hearts_analysis.review.batch.ReviewPlan`); pass a :class:`GameExtras` to
    supply them, ``False`` to leave them out."""
    if extras is True:
        extras = game_extras(result, source, review)
    elif extras is False:
        extras = None
    context = game_context(result, source, extras)
    return render_page("game.html", context, plotly if result.hands else PlotlyMode("none"),
                       scripts=GAME_SCRIPTS)


def write_game_report(result: GameResult, source: str, target: str | Path, plotly: PlotlyMode = INLINE,
                      extras: GameExtras | None | bool = True,
                      review: "Settings | ReviewPlan | None" = None) -> Path:
    return write_page(render_game_report(result, source, plotly, extras, review), target, plotly)
