"""The player report: one row per player over a corpus, the points-per-hand distribution,
QS and moon rates, pass tendencies, and each player's leaks.

It counts the games with :func:`hearts_analysis.analysis.corpus_tally.tally_corpus` (Parquet
from its columns, other files game by game) and keeps counters per player, never the games, so
a corpus of any size makes a small page.

The rows are the analysis' ``players`` table, from the counters alone:

>>> import pathlib, tempfile
>>> from hearts_analysis.records import write_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> games = list(simulate_games(2, Rules.preset("standard", target=30)))
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> _ = write_games(games, path)
>>> digest = digest_players([path])
>>> digest.games, digest.hands
(2, 6)
>>> [(row["player"], row["wins"], row["moons_shot"], round(row["qs_taken_pct"])) for row in player_rows(digest)]
[('bot1', 0, 0, 50), ('bot2', 0, 0, 17), ('bot3', 0, 0, 17), ('bot4', 2, 0, 17)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..analysis import GameAnalysis
from ..analysis.catalogue import stat
from ..analysis.stats import Tally
from ..rules import Rules
from . import charts
from .render import INLINE, PlotlyMode, figure_data, render_page, write_page


@dataclass
class PlayersDigest:
    """The streamed player statistics (a :class:`Tally`, with each player's points-per-hand histogram)."""

    tally: Tally = field(default_factory=Tally)

    def add(self, analysis: GameAnalysis) -> None:
        self.tally.add(analysis)

    @property
    def points_hist(self) -> dict[str, dict[int, int]]:
        return self.tally.points_hist

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def hands(self) -> int:
        return self.tally.hands

    @property
    def errors(self) -> list[dict[str, Any]]:
        return self.tally.errors

    @property
    def error_count(self) -> int:
        return self.tally.error_count


def digest_players(paths: Iterable[str | Path], rules: Rules | None = None, workers: int = 1) -> PlayersDigest:
    """Every game under ``paths`` counted once, streaming (Parquet from its columns), into a :class:`PlayersDigest`."""
    from ..analysis.corpus_tally import tally_corpus  # loads Arrow: only when counting
    return PlayersDigest(tally_corpus(paths, rules, workers=workers))


STAT_COLUMNS: tuple[tuple[str, str], ...] = tuple((name, stat("players", name).label) for name in (
    "games", "hands", "wins", "win_pct", "avg_position", "points_per_hand", "qs_taken_pct", "hearts_per_hand",
    "moon_attempts", "moons_shot", "others_moons_stopped", "moon_choice_accuracy", "hearts_broken_pct",
    "flagged_pass_pct", "violations_per_100_hands", "leak_cost"))
"""The columns shown, with their labels; labels, definitions and units all come from the analysis' catalogue."""

PASS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("qs_pass_pct", "QS"), ("as_pass_pct", "AS"), ("ks_pass_pct", "KS"), ("high_heart_pass_pct", "high hearts"),
    ("low_spade_pass_pct", "low spades"), ("void_pass_pct", "a void"),
)
"""Pass tendencies: how often a player passes a card it was dealt (or empties a suit)."""


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def columns_help(names: Iterable[tuple[str, str]], table: str = "players") -> list[dict[str, str]]:
    out = []
    for name, label in names:
        entry = stat(table, name)
        out.append({"key": name, "label": label, "definition": entry.definition, "unit": entry.unit})
    return out


def player_rows(digest: PlayersDigest) -> list[dict[str, Any]]:
    """One row per player (the analysis' ``players`` table), most hands first, then by name."""
    rows = [{key: _finite(value) for key, value in row.items()} for row in digest.tally.player_rows()]
    rows.sort(key=lambda r: (-r["hands"], r["player"]))
    return rows


def pass_rows(digest: PlayersDigest) -> list[dict[str, Any]]:
    """The ``pass_summary`` table: one row per player and direction."""
    return [{key: _finite(value) for key, value in row.items()} for row in digest.tally.pass_summary_rows()]


MAX_CHART_PLAYERS = 12
"""Charts show the players with the most hands; the table shows everyone."""


POINT_BUCKETS: tuple[tuple[int | None, int | None, str], ...] = (
    (None, -1, "below 0"), (0, 0, "0"), (1, 3, "1–3"), (4, 6, "4–6"), (7, 12, "7–12"),
    (13, 16, "13–16"), (17, 25, "17–25"), (26, None, "26+"))
"""Points in a hand, grouped so that the QS hands (13 and up) and moons stand apart."""


def bucket_shares(hist: dict[int, int]) -> list[float]:
    """The percentage of hands in each of :data:`POINT_BUCKETS`."""
    hands = sum(hist.values())
    shares = []
    for low, high, _ in POINT_BUCKETS:
        count = sum(n for points, n in hist.items()
                    if (low is None or points >= low) and (high is None or points <= high))
        shares.append(100.0 * count / hands if hands else 0.0)
    return shares


def distribution_figure(digest: PlayersDigest, names: list[str]) -> dict[str, Any]:
    """Share of each player's hands by points taken, grouped bars per points range."""
    fig = charts.figure(None, barmode="group", xaxis=dict(title="points in a hand", type="category"),
                        yaxis=dict(title="% of hands", ticksuffix="%"), hovermode="x unified")
    labels = [label for _, _, label in POINT_BUCKETS]
    for index, name in enumerate(names):
        fig.add_bar(x=labels, y=bucket_shares(digest.points_hist[name]), name=charts.label(name),
                    marker=dict(color=charts.colour(index)),
                    hovertemplate="%{y:.1f}%<extra>" + charts.label(name) + "</extra>")
    return figure_data(fig)


def rates_figure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """QS taken, moon attempts and moons shot per 100 hands, grouped by player."""
    names = [charts.label(r["player"]) for r in rows]
    fig = charts.figure(None, barmode="group", yaxis=dict(title="per 100 hands"), hovermode="x unified")
    series = (("QS taken", "#1d2330", "qs_taken_pct"), ("moon tries", "#CC79A7", "moon_attempts"),
              ("moons shot", "#6f42c1", "moons_shot"))
    for label, colour, key in series:
        values = [r[key] if key.endswith("_pct") else 100.0 * r[key] / r["hands"] if r["hands"] else None
                  for r in rows]
        fig.add_bar(x=names, y=values, name=label, marker=dict(color=colour),
                    hovertemplate="%{y:.1f}<extra>" + label + "</extra>")
    return figure_data(fig)


def passes_figure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How often each player passes QS, AS, KS, high hearts, low spades, or empties a suit."""
    names = [charts.label(r["player"]) for r in rows]
    fig = charts.figure(None, barmode="group", yaxis=dict(title="% of passes where possible", ticksuffix="%"),
                        hovermode="x unified")
    for index, (key, label) in enumerate(PASS_COLUMNS):
        fig.add_bar(x=names, y=[r[key] for r in rows], name="passed " + label,
                    marker=dict(color=charts.PALETTE[(index + 1) % len(charts.PALETTE)]),
                    hovertemplate="%{y:.1f}%<extra>passed " + label + "</extra>")
    return figure_data(fig)


def players_context(digest: PlayersDigest, sources: str) -> dict[str, Any]:
    rows = player_rows(digest)
    charted = rows[:MAX_CHART_PLAYERS]
    has_data = bool(digest.hands)
    return {
        "title": "Player report",
        "subtitle": sources,
        "kind": "player report",
        "page_class": "players",
        "sources": sources,
        "digest": digest,
        "rows": rows,
        "columns": columns_help(STAT_COLUMNS),
        "pass_rows": pass_rows(digest),
        "pass_columns": columns_help(PASS_COLUMNS, "pass_summary"),
        "charted": len(charted),
        "distribution_figure": distribution_figure(digest, [r["player"] for r in charted]) if has_data else None,
        "rates_figure": rates_figure(charted) if has_data else None,
        "passes_figure": passes_figure(charted) if any(r["passes"] for r in charted) else None,
        "leaks": digest.tally.leak_sentences() if has_data else None,
    }


def render_players_report(digest: PlayersDigest, sources: str, plotly: PlotlyMode = INLINE) -> str:
    context = players_context(digest, sources)
    return render_page("players.html", context, plotly if digest.hands else PlotlyMode("none"))


def write_players_report(digest: PlayersDigest, sources: str, target: str | Path,
                         plotly: PlotlyMode = INLINE) -> Path:
    return write_page(render_players_report(digest, sources, plotly), target, plotly)
