"""The audit report of a corpus: counts, the violations by code, the worst games, the score
mismatches and the unreadable records.

It streams over :func:`hearts_analysis.corpus_audit.audit_paths` and keeps only aggregates and
bounded samples, so a report over millions of hands stays small and fast to open.

Two games, one with a recorded point the tricks do not give, and two unreadable lines
of which the digest keeps one:

>>> import dataclasses, pathlib, tempfile
>>> from hearts_analysis.records import write_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> games = list(simulate_games(2, Rules.preset("standard", target=30)))
>>> first = dataclasses.replace(games[0].hands[0], points=(0, 2, 8, 0))
>>> games[0] = dataclasses.replace(games[0], hands=(first, *games[0].hands[1:]))
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> _ = write_games(games, path)
>>> with open(path, "ab") as out:
...     _ = out.write(b'{"players": 3}\\n{"players": 4}\\n')
>>> digest = digest_paths([path], limits=Limits(errors=1))
>>> digest.summary.to_dict()
{'games': 2, 'hands': 6, 'invalid_games': 1, 'violations': 2, 'errors': 2, 'by_code': {'points-mismatch': 2}}
>>> len(digest.errors), digest.mismatch_count, digest.worst[0]["game_id"]
(1, 2, 'sim-0-1')
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..corpus_audit import GameReport, Summary, audit_paths, error_report
from ..records.errors import Item
from ..rules import Rules
from ..violations import CATALOGUE, Code
from . import charts
from .render import INLINE, PlotlyMode, figure_data, render_page, write_page

MISMATCH_CODES = (Code.POINTS_MISMATCH, Code.TOTALS_MISMATCH)
VIOLATION_BUCKETS = ((0, 0, "0"), (1, 1, "1"), (2, 2, "2"), (3, 5, "3–5"), (6, 10, "6–10"), (11, None, "11+"))

GameLink = Callable[[str, "str | None"], "str | None"]
"""``(source, game_id) -> href`` of a game's own report, or ``None`` when it has none."""


@dataclass(frozen=True)
class Limits:
    """How much detail the report keeps; everything else is counted, not listed."""

    worst_games: int = 25
    violations_per_game: int = 20
    mismatches: int = 100
    errors: int = 200


@dataclass
class AuditDigest:
    """A corpus audit folded into counts and bounded samples, one game at a time."""

    limits: Limits = field(default_factory=Limits)
    summary: Summary = field(default_factory=Summary)
    games_by_code: dict[str, int] = field(default_factory=dict)
    buckets: list[int] = field(default_factory=lambda: [0] * len(VIOLATION_BUCKETS))
    mismatch_games: int = 0
    mismatch_count: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    _worst: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    _order: int = 0

    def add(self, item: Item, report: GameReport | None) -> None:
        self._order += 1
        if report is None:
            self.summary.errors += 1
            if len(self.errors) < self.limits.errors:
                self.errors.append(error_report(item))
            return
        self.summary.add_game(report)
        violations = report["violations"]
        for index, (low, high, _) in enumerate(VIOLATION_BUCKETS):
            if low <= len(violations) and (high is None or len(violations) <= high):
                self.buckets[index] += 1
                break
        if not violations:
            return
        codes: dict[str, int] = {}
        for violation in violations:
            codes[violation["code"]] = codes.get(violation["code"], 0) + 1
        for code in codes:
            self.games_by_code[code] = self.games_by_code.get(code, 0) + 1
        self._add_mismatches(report)
        entry = (len(violations), -self._order, {
            "source": report["source"], "game_id": report["game_id"], "players": report["players"],
            "count": len(violations), "hands": len(report["hands"]),
            "codes": sorted(codes.items(), key=lambda kv: (-kv[1], kv[0])),
            "violations": violations[:self.limits.violations_per_game],
        })
        if len(self._worst) < self.limits.worst_games:
            heapq.heappush(self._worst, entry)
        elif entry[:2] > self._worst[0][:2]:
            heapq.heapreplace(self._worst, entry)

    def _add_mismatches(self, report: GameReport) -> None:
        found = [v for v in report["violations"] if v["code"] in MISMATCH_CODES]
        if not found:
            return
        self.mismatch_games += 1
        self.mismatch_count += len(found)
        room = self.limits.mismatches - len(self.mismatches)
        for violation in found[:max(room, 0)]:
            seat = violation["seat"]
            self.mismatches.append({"source": report["source"], "game_id": report["game_id"],
                                    "player": None if seat is None else report["players"][seat], **violation})

    @property
    def worst(self) -> list[dict[str, Any]]:
        """The games with the most violations, most first, ties in input order."""
        return [entry for _, _, entry in sorted(self._worst, key=lambda e: (-e[0], -e[1]))]


def digest_paths(paths: Iterable[str | Path], rules: Rules | None = None, limits: Limits | None = None,
                 progress: Callable[[GameReport | None], None] | None = None) -> AuditDigest:
    """Audit every game under ``paths`` into one digest (streaming; memory bounded by ``limits``)."""
    digest = AuditDigest(limits or Limits())
    for item, report in audit_paths(paths, rules):
        digest.add(item, report)
        if progress is not None:
            progress(report)
    return digest


def code_order(by_code: dict[str, int]) -> list[str]:
    """The codes as the table and the chart list them: most violations first, then in the catalogue's order."""
    return sorted(by_code, key=lambda c: (-by_code[c], list(CATALOGUE).index(c) if c in CATALOGUE else len(CATALOGUE)))


def count_axis(title: str, top: int) -> dict[str, Any]:
    """An axis of counts: whole numbers only (plotly would tick 0.5 below a count of a few)."""
    return dict(title=title, rangemode="tozero", tickformat=",d", **({"tick0": 0, "dtick": 1} if top <= 8 else {}))


def by_code_figure(digest: AuditDigest) -> dict[str, Any] | None:
    by_code = digest.summary.by_code
    if not by_code:
        return None
    codes = code_order(by_code)
    fig = charts.figure(None, height=max(240, 70 + 36 * len(codes)), margin=dict(l=10, r=40, t=10, b=40),
                        yaxis=dict(automargin=True, autorange="reversed"),   # the table's first row on top
                        xaxis=count_axis("violations", max(by_code.values())), showlegend=False)
    fig.add_bar(y=codes, x=[by_code[c] for c in codes], orientation="h", marker=dict(color="#b4233c"),
                customdata=[digest.games_by_code.get(c, 0) for c in codes],
                hovertemplate="%{y}: %{x} violations in %{customdata} games<extra></extra>")
    return figure_data(fig)


def buckets_figure(digest: AuditDigest) -> dict[str, Any] | None:
    if not digest.summary.games:
        return None
    fig = charts.figure(None, xaxis=dict(title="violations in the game", type="category"), height=280,
                        yaxis=count_axis("games", max(digest.buckets)), showlegend=False,
                        margin=dict(l=56, r=40, t=10, b=44))
    fig.add_bar(x=[label for _, _, label in VIOLATION_BUCKETS], y=digest.buckets,
                marker=dict(color=["#146c43"] + ["#b4233c"] * (len(VIOLATION_BUCKETS) - 1)),
                hovertemplate="%{y} games with %{x} violations<extra></extra>")
    return figure_data(fig)


def _pct(part: int, whole: int) -> float | None:
    return None if not whole else 100.0 * part / whole


def audit_context(digest: AuditDigest, sources: str, game_link: GameLink | None = None,
                  game_pages: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``game_pages``: the game reports written beside this one (``href``, ``source``, ``game_id``,
    ``players``, ``violations``, ``hands``), listed in input order."""
    s = digest.summary
    codes = code_order(s.by_code)
    worst = digest.worst
    for entry in worst:
        entry["link"] = game_link(entry["source"], entry["game_id"]) if game_link else None
    return {
        "title": "Audit report",
        "subtitle": sources,
        "kind": "audit report",
        "page_class": "audit",
        "sources": sources,
        "s": s,
        "clean_pct": _pct(s.games - s.invalid_games, s.games),
        "code_rows": [{"code": c, "title": CATALOGUE[c].title, "count": s.by_code[c],
                       "games": digest.games_by_code.get(c, 0), "share": _pct(digest.games_by_code.get(c, 0), s.games)}
                      for c in codes],
        "by_code_figure": by_code_figure(digest),
        "buckets_figure": buckets_figure(digest),
        "worst": worst,
        "limits": digest.limits,
        "mismatch_games": digest.mismatch_games,
        "mismatch_count": digest.mismatch_count,
        "mismatches": digest.mismatches,
        "errors": digest.errors,
        "catalogue": list(CATALOGUE.values()),
        "game_pages": game_pages or [],
    }


def render_audit_report(digest: AuditDigest, sources: str, plotly: PlotlyMode = INLINE,
                        game_link: GameLink | None = None, game_pages: list[dict[str, Any]] | None = None) -> str:
    context = audit_context(digest, sources, game_link, game_pages)
    if context["buckets_figure"] is None:
        plotly = PlotlyMode("none")
    return render_page("audit.html", context, plotly)


def write_audit_report(digest: AuditDigest, sources: str, target: str | Path, plotly: PlotlyMode = INLINE,
                       game_link: GameLink | None = None, game_pages: list[dict[str, Any]] | None = None) -> Path:
    return write_page(render_audit_report(digest, sources, plotly, game_link, game_pages), target, plotly)
