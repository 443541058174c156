"""The page of a duplicate match (``hearts match --page``): the players, the pairs, and each pair's
paired difference as it runs over the deals. Offline, like every page of the project.

The page takes the match's :class:`~hearts_analysis.match.Tally` (the results and the deal-by-deal
numbers the charts need). A player's name is the text that named it, so it is untrusted: it is shown
terminal-safe (control characters as escapes) and escaped as HTML.

>>> from hearts_analysis.match import MatchConfig, Tally, players_of, run_match
>>> from hearts_analysis.rules import Rules
>>> config = MatchConfig(players_of(["random", "heuristic"]), Rules.preset("standard"), records=False)
>>> tally = Tally(["<b>random</b>\\x1b[2J", "heuristic"])
>>> for deal in run_match(config, 4):
...     tally.add(deal)
>>> page = render_match_page(tally, {"seed": 0})
>>> "<b>random" in page, "&lt;b&gt;random&lt;/b&gt;\\\\x1b[2J" in page, "\\x1b" in page
(False, True, False)
>>> [point["deal"] for point in running_difference([3.0, 1.0, 2.0])]
[1, 2, 3]
>>> running_difference([3.0, 1.0, 2.0])[-1]
{'deal': 3, 'difference': 2.0, 'low': 0.8684, 'high': 3.1316}
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping

from ..match.results import Z95, Tally
from ..text import counted, terminal_safe
from . import charts
from .render import INLINE, PlotlyMode, figure_data, render_page, write_page

CHART_POINTS = 400
"""Points drawn on a running-difference chart at most: a long match is thinned evenly (its last deal kept)."""
CHARTED_PAIRS = 21
"""Pairs charted at most (every pair of seven players); the table has them all."""
FAULTS_SHOWN = 50


def running_difference(values: list[float], points: int = CHART_POINTS) -> list[dict[str, Any]]:
    """The mean of ``values[:k]`` and its 95% band (mean \u00b1 1.96 standard errors; no band below two deals)
    for ``k`` = 1 .. len(values), thinned to at most ``points`` deals."""
    n = len(values)
    keep = range(1, n + 1) if n <= points else sorted({round(1 + i * (n - 1) / (points - 1)) for i in range(points)})
    wanted = set(keep)
    out, total, squares = [], 0.0, 0.0
    for k, value in enumerate(values, 1):
        total += value
        squares += value * value
        if k not in wanted:
            continue
        mean = total / k
        se = math.sqrt(max(0.0, squares - k * mean * mean) / (k - 1) / k) if k > 1 else None
        out.append({"deal": k, "difference": round(mean, 4),
                    "low": None if se is None else round(mean - Z95 * se, 4),
                    "high": None if se is None else round(mean + Z95 * se, 4)})
    return out


def pair_figure(a: str, b: str, values: list[float]) -> dict[str, Any]:
    """``a`` minus ``b`` so far, deal by deal, inside its 95% band; zero is no difference."""
    run = running_difference(values)
    x = [p["deal"] for p in run]
    fig = charts.figure(None, hovermode="x unified", showlegend=True,
                        xaxis=charts.count_axis("deals played", len(values)),
                        yaxis=dict(title=f"{charts.label(a)} minus {charts.label(b)} (points per hand)",
                                   zeroline=True, zerolinewidth=2))
    fig.add_scatter(x=x, y=[p["high"] for p in run], mode="lines", line=dict(width=0), hoverinfo="skip",
                    showlegend=False, name="upper")
    fig.add_scatter(x=x, y=[p["low"] for p in run], mode="lines", line=dict(width=0), fill="tonexty",
                    fillcolor="rgba(0,114,178,0.18)", name="95% interval",
                    hovertemplate="%{y:.2f}<extra>low</extra>")
    fig.add_scatter(x=x, y=[p["difference"] for p in run], mode="lines", line=dict(color=charts.colour(0), width=2),
                    name="difference so far", hovertemplate="%{y:.2f}<extra>difference</extra>")
    return figure_data(fig)


def match_context(tally: Tally, settings: Mapping[str, Any] | None = None,
                  doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the template shows; ``doc`` is ``tally.summary()`` when the caller has it already (the rating of a
    long match takes a few seconds)."""
    doc = tally.summary() if doc is None else doc
    players = [{**p, "name": terminal_safe(p["player"])} for p in doc["players"]]
    pairs, figures = [], []
    index = {name: i for i, name in enumerate(tally.names)}
    for number, q in enumerate(doc["pairs"]):
        a, b = index[q["a"]], index[q["b"]]
        row = {**q, "name_a": terminal_safe(q["a"]), "name_b": terminal_safe(q["b"]),
               "significant": q["ci95"][0] is not None and (q["ci95"][0] > 0 or q["ci95"][1] < 0)}
        pairs.append(row)
        if number < CHARTED_PAIRS and tally.deals:
            figures.append({"id": f"fig-pair-{number + 1}", "a": row["name_a"], "b": row["name_b"],
                            "figure": pair_figure(row["name_a"], row["name_b"], tally.paired(a, b))})
    faults = [{key: terminal_safe(str(value)) for key, value in f.items()} for f in doc["faults"][:FAULTS_SHOWN]]
    shown_settings = [(terminal_safe(str(key)), terminal_safe(str(value))) for key, value in (settings or {}).items()]
    return {
        "title": "Duplicate match",
        "subtitle": f"{counted(doc['deals'], 'deal')}, {counted(doc['hands'], 'hand')}, "
                    f"{counted(len(players), 'player')}",
        "kind": "match",
        "page_class": "match",
        "sources": None,
        "doc": doc,
        "players": players,
        "pairs": pairs,
        "figures": figures,
        "faults": faults,
        "settings": shown_settings,
    }


def render_match_page(tally: Tally, settings: Mapping[str, Any] | None = None,
                      plotly: PlotlyMode = INLINE, doc: dict[str, Any] | None = None) -> str:
    """The match's page; ``settings`` (seed, rules, seats...) are listed as given, to say how it was played."""
    context = match_context(tally, settings, doc)
    return render_page("match.html", context, plotly if context["figures"] else plotly.without_charts())


def write_match_page(tally: Tally, target: str | Path, settings: Mapping[str, Any] | None = None,
                     plotly: PlotlyMode = INLINE, doc: dict[str, Any] | None = None) -> Path:
    """The page written atomically to ``target``, and nowhere else (plotly.js is inside it)."""
    return write_page(render_match_page(tally, settings, plotly, doc), target, plotly)


__all__ = ["match_context", "pair_figure", "render_match_page", "running_difference", "write_match_page"]
