"""One static site for a corpus: a home page (leaderboard, games, audit summary), the audit,
the players, a page per player and a page per game, all linked by one navigation bar.

The stylesheet, the scripts and plotly.js are written once into ``assets/``; pages link
them, so a 200-game site is a few megabytes rather than a gigabyte. Games stream through
one replay and one analysis each; a game's page is rendered as soon as it is read and kept
(compressed) while it is among the newest ``max_games``, and the pages are written at the end
with the others, from the digest (:class:`~hearts_analysis.reports.sitedata.SiteDigest`).

With ``max_games=1`` the first game is counted and listed but gets no page of its own: the newest
games have the pages:

>>> import pathlib, tempfile
>>> from hearts_analysis.records import write_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = write_games(simulate_games(2, Rules.preset("standard", target=30)), folder / "games.jsonl")
>>> result = build_site([folder / "games.jsonl"], folder / "site", max_games=1)
>>> result.games, result.game_pages, result.players, result.violations
(2, 1, 4, 0)
>>> sorted(page.name for page in result.folder.glob("*.html"))  # doctest: +NORMALIZE_WHITESPACE
['audit.html', 'game-sim-0-2.html', 'index.html', 'player-bot1.html', 'player-bot2.html',
 'player-bot3.html', 'player-bot4.html', 'players.html']
"""

from __future__ import annotations

import math
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

import numpy as np

from ..analysis import analyze_game, analysis_to_dict
from ..analysis.catalogue import stat
from ..atomic import atomic_folder
from ..corpus_audit import game_report
from ..engine.replay import replay_game
from ..records.errors import Item
from ..records.sources import iter_sources
from ..rules import Rules
from ..text import counted
from . import charts
from .audit import audit_context
from .extras import GameExtras
from .game import GAME_SCRIPTS, game_context
from .names import page_name
from .players import STAT_COLUMNS, player_rows, players_context
from .render import PLOTLY_FILE, SITE, figure_data, render_page, write_assets, write_page
from .sitedata import LeakFinder, RatingHistory, SiteDigest, SiteFilter, find_leaks, newest_first, rating_history

if TYPE_CHECKING:
    from ..review import Settings
    from ..review.batch import ReviewPlan

INDEX, AUDIT, PLAYERS = "index.html", "audit.html", "players.html"
NAV = ((INDEX, "Home"), (PLAYERS, "Players"), (AUDIT, "Audit"))

DISTRIBUTION_STATS = ("rating", "win_pct", "avg_position", "points_per_hand", "qs_taken_pct", "hearts_per_hand",
                      "moon_attempt_pct", "moon_choice_accuracy", "hearts_broken_pct", "flagged_pass_pct",
                      "violations_per_100_hands")
"""The statistics a player page sets beside the corpus's distribution (those the rows have)."""
MAX_LISTED = 200
"""A player page lists this many of the player's latest games (its chart has them all)."""


class NoGames(ValueError):
    """The filters name players of no game: nothing is written (an empty site would look like a result)."""


@dataclass(frozen=True)
class SiteResult:
    """What was written: for the closing line of the command."""

    folder: Path
    index: Path
    pages: int
    games: int
    hands: int
    violations: int
    game_pages: int
    players: int
    errors: int
    filtered_out: int
    bytes: int

    def line(self) -> str:
        """The one line that sums up the site.

        >>> SiteResult(Path("site"), Path("site/index.html"), pages=9, games=12, hands=139, violations=1,
        ...            game_pages=5, players=4, errors=0, filtered_out=0, bytes=2_400_000).line()
        'site: 12 games (139 hands), 1 violation, 4 players, 9 pages (2.4 MB), game pages for the newest 5 (--max-games)'
        """
        parts = [f"site: {counted(self.games, 'game')} ({counted(self.hands, 'hand')})",
                 f"{self.violations:,} violation{'s' if self.violations != 1 else ''}",
                 f"{self.players:,} player{'s' if self.players != 1 else ''}",
                 f"{counted(self.pages, 'page')} ({self.bytes / 1e6:.1f} MB)"]
        if self.game_pages < self.games:
            parts.append(f"game pages for the newest {self.game_pages:,} (--max-games)")
        if self.filtered_out:
            parts.append(f"{counted(self.filtered_out, 'game')} left out by the filters")
        if self.errors:
            parts.append(f"{self.errors:,} unreadable record{'s' if self.errors != 1 else ''}")
        return ", ".join(parts)


def nav(current: str | None) -> list[dict[str, Any]]:
    return [{"href": href, "label": label, "current": href == current} for href, label in NAV]


def _finite(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def build_site(paths: Iterable[str | Path], folder: str | Path, *, rules: Rules | None = None,
               site_filter: SiteFilter | None = None, max_games: int = 200,
               review: "Settings | ReviewPlan | None" = None,
               leaks: LeakFinder | None = None, ratings: RatingHistory | None = None,
               progress: Callable[[int], None] | None = None, on_error: Callable[[Any], None] | None = None,
               sources: str | None = None) -> SiteResult:
    """Write the site of every game under ``paths`` into ``folder`` and return what was written.

    The site is written into a new folder beside ``folder`` that replaces it when complete, so a failure (a
    full disk) leaves the earlier site whole, and no page of an earlier site stays. A folder holding other
    files than a site's is refused, and one that cannot be written fails before any game is read.

    ``progress`` is called with each kept game's hand count; ``on_error`` with each unreadable item.
    ``review``: settings, or a :class:`~hearts_analysis.review.batch.ReviewPlan` (workers, a cache, progress
    per reviewed hand) to review every kept game, hands in parallel and several games ahead.
    Raises :class:`NoGames`, writing nothing, where the filter's players played none of the games.
    """
    final = Path(folder)
    with atomic_folder(final, _site_file, "site") as folder:
        return _build(paths, folder, final, rules, site_filter, max_games, review, leaks, ratings, progress,
                      on_error, sources)


def _site_file(entry: Path) -> bool:
    """What a site is made of, and so what an earlier site in the folder may hold: its pages and assets."""
    if entry.is_dir():
        return entry.name == SITE.assets.rstrip("/")
    return entry.suffix.lower() in (".html", ".htm") or entry.name == PLOTLY_FILE


def _keep_assets(old: Path, new: Path) -> None:
    """The earlier site's asset files, linked into the new site, so that those that did not change keep their
    file (and time: a browser's or a mirror's copy stays fresh); :func:`write_assets` replaces the others."""
    if not old.is_dir():
        return
    new.mkdir(parents=True, exist_ok=True)
    for asset in old.iterdir():
        if asset.is_file() and not asset.is_symlink():
            try:
                os.link(asset, new / asset.name)
            except OSError:
                pass   # no hard links here: written anew


def _build(paths, folder: Path, final: Path, rules, site_filter, max_games, review, leaks, ratings, progress,
           on_error, sources) -> SiteResult:
    """The site written into ``folder``, the work folder that becomes ``final``."""
    paths = list(paths)
    sources = sources if sources is not None else ", ".join(str(p) for p in paths)
    digest = SiteDigest(filter=site_filter or SiteFilter(), max_pages=max_games)
    written = 0
    pending: dict[int, bytes] = {}
    """The pages of the newest games so far, compressed: a newer game may still take a page's place."""
    for item, document in _reviewed(_kept(paths, rules, digest, on_error), review):
        result = replay_game(item.game)
        analysis = analyze_game(result, item.source)
        extras = GameExtras(analysis_to_dict(analysis), document)
        row = digest.add(item, game_report(result, item.source), analysis, extras)
        for index in digest.evicted:
            pending.pop(index, None)
        digest.evicted.clear()
        if row["page"] is not None:
            context = game_context(result, item.source, extras)
            context["site_nav"] = nav(None)
            page = render_page("game.html", context, SITE if result.hands else SITE.without_charts(),
                               scripts=GAME_SCRIPTS)
            pending[row["index"]] = zlib.compress(page.encode(), 6)
        if progress is not None:
            progress(len(result.hands))
    unknown = digest.unknown_players()
    if unknown is not None:
        raise NoGames(unknown)
    for index, page in pending.items():
        write_page(zlib.decompress(page).decode(), folder / digest.games[index]["page"], SITE)
        written += 1
    site = Site(digest, sources, find_leaks(digest.tally, leaks), rating_history(digest.games, digest.tally, ratings))
    written += site.write(folder)
    _keep_assets(final / SITE.assets, folder / SITE.assets)
    write_assets(folder)
    summary = digest.audit.summary
    return SiteResult(folder=final, index=final / INDEX, pages=written, games=len(digest.games),
                      hands=summary.hands, violations=summary.violations,
                      game_pages=len(digest.games) - digest.pages_skipped, players=len(site.player_pages),
                      errors=digest.audit.summary.errors, filtered_out=digest.filtered_out,
                      bytes=_size(folder, site.player_pages.values(), digest.games))


def _kept(paths: list[str | Path], rules: Rules | None, digest: SiteDigest,
          on_error: Callable[[Any], None] | None) -> Iterator[Item]:
    """The games the site covers; unreadable and filtered-out items are counted (and reported) on the way."""
    for item in iter_sources(paths, rules):
        if digest.skip(item):
            yield item
        elif item.game is None and on_error is not None:
            on_error(item)


def _reviewed(items: Iterable[Item], review: "Settings | ReviewPlan | None"
              ) -> Iterator[tuple[Item, dict[str, Any] | None]]:
    """Each game with its review document (``None`` without a review), in input order."""
    if review is None:
        yield from ((item, None) for item in items)
        return
    from ..review import game_dict   # the review's numpy lanes load only when a review runs
    from ..review.batch import ReviewPlan
    for done in ReviewPlan.of(review).review(items):
        yield done.item, game_dict(done.review, done.item.source)


def site_review_hands(paths: Iterable[str | Path], rules: Rules | None = None,
                      site_filter: SiteFilter | None = None) -> int:
    """How many hands a reviewed site reviews (a progress total; a second read of the inputs)."""
    from ..review.batch import hands_to_review
    keep = site_filter or SiteFilter()
    return hands_to_review(item for item in iter_sources(list(paths), rules)
                           if item.game is not None and keep.keeps(item.game))


def _size(folder: Path, player_pages: Iterable[str], games: list[dict[str, Any]]) -> int:
    names = [INDEX, AUDIT, PLAYERS, *player_pages, *(g["page"] for g in games if g["page"])]
    assets = folder / SITE.assets
    files = [folder / name for name in names] + [p for p in assets.iterdir() if p.is_file()]
    return sum(p.stat().st_size for p in files if p.exists())


class Site:
    """The pages written after the pass: home, audit, players, one per player."""

    def __init__(self, digest: SiteDigest, sources: str, leaks: list[dict[str, Any]],
                 history: list[dict[str, Any]]):
        self.digest, self.sources, self.leaks, self.history = digest, sources, leaks, history
        kept = digest.kept_players()
        taken: set[str] = {INDEX, AUDIT, PLAYERS}
        self.player_pages = {name: page_name("player", name, taken) for name in kept}
        rows = [r for r in player_rows(digest.players) if r["player"] in self.player_pages]
        self.rows = {r["player"]: r for r in rows}
        last = {}
        for entry in history:
            last[entry["player"]] = entry
        for name, row in self.rows.items():
            if row.get("rating") is None and name in last:
                row["rating"], row["rating_sigma"] = last[name]["rating"], last[name]["rating_sigma"]
        self.has_rating = any(r.get("rating") is not None for r in rows)

    # -- shared pieces ------------------------------------------------------------
    def _base(self, title: str, kind: str, page_class: str, current: str | None, subtitle: str | None = None):
        words = self.digest.filter.words()
        return {"title": title, "kind": kind, "page_class": page_class, "sources": self.sources,
                "subtitle": subtitle if subtitle is not None else " \u00b7 ".join([self.sources, *words]),
                "site_nav": nav(current), "filters": words}

    def player_link(self, name: str) -> str | None:
        return self.player_pages.get(name)

    def leaderboard(self) -> list[dict[str, Any]]:
        """Players by a conservative rating (rating minus three sigmas) where there is one,
        else by average place, win share and points per hand."""
        rows = []
        for name, r in self.rows.items():
            rating, sigma = _finite(r.get("rating")), _finite(r.get("rating_sigma"))
            conservative = None if rating is None else rating - 3 * (sigma or 0.0)
            leaks = [leak for leak in self.leaks if leak["player"] == name and leak["significant"] is not False]
            rows.append({**r, "href": self.player_pages[name], "conservative": conservative,
                         "leak_count": len(leaks)})

        def key(r):
            if self.has_rating:
                return (r["conservative"] is None, -(r["conservative"] or 0.0), r["player"])
            place = r.get("avg_position")
            return (place is None, place or 0.0, -(r.get("win_pct") or 0.0), r.get("points_per_hand") or 0.0,
                    r["player"])
        rows.sort(key=key)
        for rank, r in enumerate(rows, 1):
            r["rank"] = rank
        return rows

    def game_rows(self) -> list[dict[str, Any]]:
        """Every game, newest first; the newest ``max_games`` have a page, the others are listed without one."""
        return [{**g, "links": [self.player_link(p) for p in g["players"]]}
                for g in sorted(self.digest.games, key=newest_first, reverse=True)]

    # -- pages --------------------------------------------------------------------
    def write(self, folder: Path) -> int:
        pages = {INDEX: self.index(), AUDIT: self.audit(), PLAYERS: self.players()}
        for name, href in self.player_pages.items():
            pages[href] = self.player(name)
        for href, html in pages.items():
            write_page(html, folder / href, SITE)
        return len(pages)

    def index(self) -> str:
        s = self.digest.audit.summary
        context = self._base("Hearts games", "site", "site-index", INDEX)
        context.update({
            "leaderboard": self.leaderboard(), "has_rating": self.has_rating, "games": self.game_rows(),
            "s": s, "clean_pct": None if not s.games else 100.0 * (s.games - s.invalid_games) / s.games,
            "filtered_out": self.digest.filtered_out, "pages_skipped": self.digest.pages_skipped,
            "min_games": self.digest.filter.min_games,
        })
        return render_page("index.html", context, SITE.without_charts(), scripts=("report.js", "site.js"))

    def audit(self) -> str:
        pages = [{"href": g["page"], "source": g["source"], "game_id": g["game_id"], "players": g["players"],
                  "hands": g["hands"], "violations": g["violations"], "played_at": g["played_at"],
                  "index": g["index"]} for g in sorted(self.digest.games, key=newest_first, reverse=True)]
        by_key = {(g["source"], g["game_id"]): g["page"] for g in self.digest.games}
        context = audit_context(self.digest.audit, self.sources, lambda src, gid: by_key.get((src, gid)), pages)
        context.update(self._base("Audit report", "audit report", "audit", AUDIT))
        plotly = SITE if context["buckets_figure"] is not None else SITE.without_charts()
        return render_page("audit.html", context, plotly, scripts=("report.js", "site.js"))

    def players(self) -> str:
        context = players_context(self.digest.players, self.sources)
        context["rows"] = [r for r in context["rows"] if r["player"] in self.player_pages]
        context["leaks"] = {name: items for name, items in (context["leaks"] or {}).items()
                            if name in self.player_pages} if context["leaks"] is not None else None
        context.update(self._base("Players", "player report", "players", PLAYERS))
        context["player_links"] = self.player_pages
        plotly = SITE if self.digest.players.hands else SITE.without_charts()
        return render_page("players.html", context, plotly, scripts=("report.js", "site.js"))

    def player(self, name: str) -> str:
        row = self.rows[name]
        results = self.digest.results.get(name, [])
        accuracy = self.digest.accuracy.get(name, [])
        history = [h for h in self.history if h["player"] == name]
        leaks = sorted((dict(leak) for leak in self.leaks if leak["player"] == name),
                       key=lambda leak: -(leak["cost_per_hand"] or 0.0))
        for leak in leaks:
            leak["definition"] = _definition(leak["statistic"])
            leak["label"] = _label(leak["statistic"])
            leak["hands"] = [h for h in self.digest.hands_for(name, leak["statistic"], leak["value"],
                                                                leak["reference"]) if h["page"]]
        context = self._base(name, "player", "player", None, subtitle=self.sources)
        context.update({
            "player": name, "row": row, "has_rating": row.get("rating") is not None,
            "rating_figure": rating_figure(history) if history else None,
            "results_figure": results_figure(results) if results else None,
            "accuracy_figure": accuracy_figure(accuracy) if accuracy else None,
            "distribution": self.distribution(name),
            "shown_leaks": [leak for leak in leaks if leak["significant"] is not False],
            "other_leaks": [leak for leak in leaks if leak["significant"] is False],
            "significance_known": any(leak["significant"] is not None for leak in leaks),
            "results": [{**r, "net": r["average"] - r["points"], "number": number}
                        for number, r in enumerate(results, 1)][-MAX_LISTED:],
            "results_count": len(results),
        })
        charted = any(context[key] for key in ("rating_figure", "results_figure", "accuracy_figure"))
        return render_page("player.html", context, SITE if charted else SITE.without_charts(),
                           scripts=("report.js", "site.js"))

    def distribution(self, name: str) -> list[dict[str, Any]]:
        """Each statistic: the player's value, where it falls among the kept players, and their quartiles."""
        out = []
        for key in DISTRIBUTION_STATS:
            values = [v for v in (_finite(r.get(key)) for r in self.rows.values()) if v is not None]
            mine = _finite(self.rows[name].get(key))
            if not values or mine is None:
                continue
            low, q1, median, q3, high = (float(x) for x in np.percentile(values, [0, 25, 50, 75, 100]))
            below = sum(v < mine for v in values) + 0.5 * (sum(v == mine for v in values) - 1)
            span = high - low or 1.0
            out.append({
                "key": key, "label": _label(key), "definition": _definition(key), "value": mine,
                "low": low, "q1": q1, "median": median, "q3": q3, "high": high, "players": len(values),
                "percentile": 100.0 * below / max(len(values) - 1, 1),
                "at": 100.0 * (mine - low) / span, "from": 100.0 * (q1 - low) / span,
                "width": 100.0 * (q3 - q1) / span,
            })
        return out


def _label(key: str) -> str:
    """A statistic's words (the catalogue's label); a statistic outside the players table in plain words."""
    try:
        return stat("players", key).label
    except (KeyError, StopIteration):
        return {"review_cost_per_decision": "Review cost/decision"}.get(key, key.replace("_", " ").capitalize())


def _definition(key: str) -> str:
    try:
        return stat("players", key).definition
    except (KeyError, StopIteration):  # a statistic the catalogue does not (yet) document
        return ""


def _hover_game(entries: list[dict[str, Any]]) -> list[str]:
    return [charts.label(" \u00b7 ".join(str(p) for p in (e.get("game_id") or f"game {e['game'] + 1}",
                                                          e.get("played_at")) if p)) for e in entries]


def results_figure(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Cumulative points saved against the table average, game by game (above zero: better than
    the average player at those tables; lower scores win at Hearts)."""
    running, ys = 0.0, []
    for r in results:
        running += r["average"] - r["points"]
        ys.append(round(running, 2))
    xs = list(range(1, len(results) + 1))
    fig = charts.figure(None, xaxis=charts.count_axis("games played", len(xs)),
                        yaxis=dict(title="points below the table average"),
                        showlegend=False, height=320)
    fig.add_scatter(x=xs, y=ys, mode="lines+markers" if len(xs) <= 60 else "lines",
                    line=dict(color=charts.colour(0), width=2.5), text=_hover_game(results),
                    hovertemplate="%{text}<br>after %{x} games: %{y:+.1f}<extra></extra>")
    fig.add_hline(y=0, line=dict(color=charts.MUTED, dash="dot", width=1))
    return figure_data(fig)


def rating_figure(history: list[dict[str, Any]]) -> dict[str, Any]:
    """The rating after each game, with a band of one sigma either side."""
    xs = list(range(1, len(history) + 1))
    mu = [float(h["rating"]) for h in history]
    sigma = [float(h["rating_sigma"] or 0.0) for h in history]
    fig = charts.figure(None, xaxis=charts.count_axis("games played", len(xs)), yaxis=dict(title="rating"),
                        showlegend=False, height=320)
    fig.add_scatter(x=xs + xs[::-1], y=[m + s for m, s in zip(mu, sigma)] + [m - s for m, s in zip(mu, sigma)][::-1],
                    fill="toself", fillcolor="rgba(0,114,178,0.15)", line=dict(width=0), hoverinfo="skip")
    fig.add_scatter(x=xs, y=mu, mode="lines", line=dict(color=charts.colour(0), width=2.5), text=_hover_game(history),
                    customdata=sigma, hovertemplate="%{text}<br>%{y:.2f} \u00b1 %{customdata:.2f}<extra></extra>")
    return figure_data(fig)


def accuracy_figure(accuracy: list[dict[str, Any]]) -> dict[str, Any]:
    """Review accuracy in each reviewed game."""
    xs = list(range(1, len(accuracy) + 1))
    fig = charts.figure(None, xaxis=charts.count_axis("reviewed games", len(xs)),
                        yaxis=dict(title="accuracy", ticksuffix="%"),
                        showlegend=False, height=280)
    fig.add_scatter(x=xs, y=[a["accuracy"] for a in accuracy], mode="lines+markers",
                    line=dict(color=charts.colour(2), width=2), text=_hover_game(accuracy),
                    hovertemplate="%{text}<br>%{y:.1f}%<extra></extra>")
    return figure_data(fig)


__all__ = ["NoGames", "Site", "SiteResult", "build_site", "site_review_hands"]
