"""The look shared by every chart: colour-blind-safe colours, system fonts, small JSON.

Plotly reads a little HTML in text (``<b>``, ``<a href>``), so every label that
comes from a record goes through :func:`label` first.

>>> fig = figure("Totals")
>>> _ = fig.add_scatter(y=[0, 13], name=label("<b>ann</b>"), line=dict(color=colour(0)))
>>> fig.data[0].name, fig.layout.title.text
('&lt;b&gt;ann&lt;/b&gt;', 'Totals')
"""

from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F7F7F")
"""Okabe-Ito: told apart with any colour vision; lines also differ by dash and marker."""
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "solid")
MARKERS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "pentagon")
FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
INK, MUTED, GRID = "#1d2330", "#5b6474", "#e6e9ef"
MODEBAR_ROOM = 40
"""The right margin the vertical toolbar needs so as to cover nothing of the chart."""

TEMPLATE = go.layout.Template(layout=dict(
    font=dict(family=FONT, size=13, color=INK),
    paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor="#ffffff",
    colorway=list(PALETTE),
    margin=dict(l=52, r=40, t=36, b=44),
    modebar=dict(orientation="v"),   # down the right margin: across the top it covers the legend and the bars
    hoverlabel=dict(font=dict(family=FONT)),
    legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0, font=dict(size=12)),
    # automargin: the margin grows to fit the tick labels and the title, so a title never covers the numbers
    xaxis=dict(gridcolor=GRID, zerolinecolor="#c9ced8", linecolor="#c9ced8", ticks="outside", tickcolor="#c9ced8",
               automargin=True, title=dict(standoff=8)),
    yaxis=dict(gridcolor=GRID, zerolinecolor="#c9ced8", linecolor="#c9ced8", automargin=True,
               title=dict(standoff=8)),
))


def label(text: Any) -> str:
    """Untrusted text as plotly shows it literally: its markup characters become entities."""
    return html.escape(str(text), quote=False)


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def count_axis(title: str, count: int, first: int = 1) -> dict[str, Any]:
    """An axis of counted things (games, hands): whole-number ticks only, one per step while there are few.

    >>> count_axis("games played", 2)["dtick"], count_axis("games played", 200)["dtick"]
    (1, None)
    """
    return dict(title=title, tickformat="d", tick0=first, dtick=1 if count <= 20 else None)


def figure(title: str | None = None, **layout: Any) -> go.Figure:
    """An empty figure in the report style; ``title`` is ours, never a record's."""
    fig = go.Figure(layout=dict(template=TEMPLATE, **layout))
    if fig.layout.margin.r is not None and fig.layout.margin.r < MODEBAR_ROOM:
        fig.update_layout(margin=dict(r=MODEBAR_ROOM))
    if title:
        fig.update_layout(title=dict(text=title, x=0, xanchor="left", font=dict(size=15)))
    return fig
