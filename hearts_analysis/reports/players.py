"""The player report: one row per player over a corpus, the points-per-hand distribution,
QS and moon rates, pass tendencies, and each player's leaks.

It streams games through the analysis (:func:`hearts_analysis.analysis.analyze_paths`) and
keeps counters per player, never the games, so a corpus of any size makes a small page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..analysis import GameAnalysis, analyze_paths
from ..audit import error_report
from ..cards import QS, SPADES, make_card
from ..rules import Rules
from . import charts
from .render import INLINE, PlotlyMode, figure_data, render_page, write_page

AS, KS = make_card(SPADES, 12), make_card(SPADES, 11)


@dataclass
class PlayerTally:
    """Counters for one player across a corpus."""

    games: int = 0
    complete: int = 0
    wins: int = 0
    position_sum: int = 0
    hands: int = 0
    points: int = 0
    points_hist: dict[int, int] = field(default_factory=dict)
    qs_taken: int = 0
    hearts: int = 0
    moon_attempts: int = 0
    moons_shot: int = 0
    moons_stopped: int = 0
    stops: int = 0
    violations: int = 0
    passes: int = 0
    passed: dict[str, int] = field(default_factory=lambda: {"QS": 0, "AS": 0, "KS": 0, "high hearts": 0,
                                                            "a void": 0})
    pass_verdicts: int = 0


PASS_KINDS = ("QS", "AS", "KS", "high hearts", "a void")


@dataclass
class PlayersDigest:
    """Per-player counters for a whole corpus, filled one analysed game at a time."""

    players: dict[str, PlayerTally] = field(default_factory=dict)
    games: int = 0
    hands: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    error_count: int = 0
    max_errors: int = 50

    def add(self, analysis: GameAnalysis) -> None:
        self.games += 1
        result = analysis.result
        names = analysis.players
        tallies = [self.players.setdefault(name, PlayerTally()) for name in names]
        positions = analysis.positions
        for seat, tally in enumerate(tallies):
            tally.games += 1
            if result.complete:
                tally.complete += 1
                tally.position_sum += positions[seat]
                tally.wins += seat in result.winners
        for violation in result.violations:
            if violation.seat is not None:
                tallies[violation.seat].violations += 1
        for hand in analysis.hands:
            self.hands += 1
            for seat, points in enumerate(hand.seats):
                tally = tallies[seat]
                tally.hands += 1
                tally.points += points.points
                tally.points_hist[points.points] = tally.points_hist.get(points.points, 0) + 1
                tally.qs_taken += points.qs
                tally.hearts += points.hearts
            moon = hand.moon
            if moon is not None:
                runner = tallies[moon.seat]
                runner.moon_attempts += 1
                runner.moons_shot += moon.outcome == "shot"
                runner.moons_stopped += moon.outcome == "stopped"
                if moon.stopper is not None:
                    tallies[moon.stopper].stops += 1
            for review in hand.passes:
                tally = tallies[review.seat]
                tally.passes += 1
                tally.passed["QS"] += review.gave(QS)
                tally.passed["AS"] += review.gave(AS)
                tally.passed["KS"] += review.gave(KS)
                tally.passed["high hearts"] += review.high_hearts > 0
                tally.passed["a void"] += bool(review.voids)
                tally.pass_verdicts += bool(review.verdicts)

    def add_error(self, error: dict[str, Any]) -> None:
        self.error_count += 1
        if len(self.errors) < self.max_errors:
            self.errors.append(error)


def digest_players(paths: Iterable[str | Path], rules: Rules | None = None,
                   progress: Callable[[GameAnalysis | None], None] | None = None) -> PlayersDigest:
    digest = PlayersDigest()
    for item, analysis in analyze_paths(paths, rules):
        if analysis is None:
            digest.add_error(error_report(item))
        else:
            digest.add(analysis)
        if progress is not None:
            progress(analysis)
    return digest


def _ratio(part: float, whole: float, scale: float = 1.0) -> float | None:
    return None if not whole else scale * part / whole


STAT_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("games", "Games", "games played"),
    ("hands", "Hands", "hands played"),
    ("wins", "Wins", "finished games won (ties count for every tied player)"),
    ("win_pct", "Win %", "wins per finished game"),
    ("avg_position", "Avg place", "average finishing place in finished games (1 is best)"),
    ("points_per_hand", "Pts/hand", "average points per hand, after the moon adjustment"),
    ("qs_taken_pct", "QS %", "hands in which the player took QS"),
    ("hearts_per_hand", "Hearts/hand", "hearts taken per hand"),
    ("moon_attempts", "Moon tries", "runs for the moon (the analysis' definition)"),
    ("moons_shot", "Moons shot", "moons shot"),
    ("moon_stops", "Moons stopped", "other players' runs this player stopped"),
    ("pass_flag_pct", "Pass flags %", "passes the advisor found fault with"),
    ("violations_per_100", "Viol./100 hands", "rule violations charged to the player per 100 hands"),
)
"""The statistics table: key, column label, and what it means (shown as the header's tooltip)."""


def player_rows(digest: PlayersDigest) -> list[dict[str, Any]]:
    """One row per player, most hands first, then by name (a stable order)."""
    rows = []
    for name, t in digest.players.items():
        rows.append({
            "player": name, "games": t.games, "hands": t.hands, "wins": t.wins,
            "win_pct": _ratio(t.wins, t.complete, 100), "avg_position": _ratio(t.position_sum, t.complete),
            "points_per_hand": _ratio(t.points, t.hands), "qs_taken_pct": _ratio(t.qs_taken, t.hands, 100),
            "hearts_per_hand": _ratio(t.hearts, t.hands), "moon_attempts": t.moon_attempts,
            "moons_shot": t.moons_shot, "moon_stops": t.stops,
            "pass_flag_pct": _ratio(t.pass_verdicts, t.passes, 100),
            "violations_per_100": _ratio(t.violations, t.hands, 100),
            "passed": {kind: _ratio(t.passed[kind], t.passes, 100) for kind in PASS_KINDS},
        })
    rows.sort(key=lambda r: (-r["hands"], r["player"]))
    return rows


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
        fig.add_bar(x=labels, y=bucket_shares(digest.players[name].points_hist), name=charts.label(name),
                    marker=dict(color=charts.colour(index)),
                    hovertemplate="%{y:.1f}%<extra>" + charts.label(name) + "</extra>")
    return figure_data(fig)


def rates_figure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """QS taken and moons (attempted, shot) per 100 hands, grouped by player."""
    names = [charts.label(r["player"]) for r in rows]
    fig = charts.figure(None, barmode="group", yaxis=dict(title="per 100 hands"), hovermode="x unified")
    series = (("QS taken", "#1d2330", lambda r: r["qs_taken_pct"]),
              ("moon tries", "#CC79A7", lambda r: _ratio(r["moon_attempts"], r["hands"], 100)),
              ("moons shot", "#6f42c1", lambda r: _ratio(r["moons_shot"], r["hands"], 100)))
    for label, colour, value in series:
        fig.add_bar(x=names, y=[value(r) or 0 for r in rows], name=label, marker=dict(color=colour),
                    hovertemplate="%{y:.1f}<extra>" + label + "</extra>")
    return figure_data(fig)


def passes_figure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How often each player passes QS, AS, KS, high hearts, or passes to make a void."""
    names = [charts.label(r["player"]) for r in rows]
    fig = charts.figure(None, barmode="group", yaxis=dict(title="% of passes", ticksuffix="%"),
                        hovermode="x unified")
    for index, kind in enumerate(PASS_KINDS):
        fig.add_bar(x=names, y=[r["passed"][kind] or 0 for r in rows], name="passed " + kind,
                    marker=dict(color=charts.PALETTE[(index + 1) % len(charts.PALETTE)]),
                    hovertemplate="%{y:.1f}%<extra>passed " + kind + "</extra>")
    return figure_data(fig)


def players_context(digest: PlayersDigest, sources: str, leaks: dict[str, list[str]] | None = None) -> dict[str, Any]:
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
        "columns": STAT_COLUMNS,
        "pass_kinds": PASS_KINDS,
        "charted": len(charted),
        "distribution_figure": distribution_figure(digest, [r["player"] for r in charted]) if has_data else None,
        "rates_figure": rates_figure(charted) if has_data else None,
        "passes_figure": passes_figure(charted) if has_data and any(r["passed"]["QS"] is not None for r in charted) else None,
        "leaks": leaks,
    }


def player_leaks(paths: Iterable[str | Path], rules: Rules | None = None) -> dict[str, list[str]] | None:
    """Each player's leaks from the analysis' statistics, when that layer provides them.

    Extension point: ``hearts_analysis.analysis.stats.player_leaks(paths, rules)`` returning
    ``{player: [sentence, ...]}``; without it the report leaves the section out.
    """
    try:
        from ..analysis.stats import player_leaks as leaks_of  # type: ignore[import-not-found]
    except ImportError:
        return None
    return leaks_of(paths, rules)


def render_players_report(digest: PlayersDigest, sources: str, plotly: PlotlyMode = INLINE,
                          leaks: dict[str, list[str]] | None = None) -> str:
    context = players_context(digest, sources, leaks)
    return render_page("players.html", context, plotly if digest.hands else PlotlyMode("none"))


def write_players_report(digest: PlayersDigest, sources: str, target: str | Path, plotly: PlotlyMode = INLINE,
                         leaks: dict[str, list[str]] | None = None) -> Path:
    return write_page(render_players_report(digest, sources, plotly, leaks), target, plotly)
