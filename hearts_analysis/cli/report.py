"""``hearts report``: HTML reports of a game, an audit of a corpus, and its players.

A game's page is named after its id, which comes from a log: the name keeps
only safe characters (so the page stays inside the folder named) and is unique
among the pages written together.

>>> taken = set()
>>> game_slug("club night #3", "a.jsonl:1", taken), game_slug("club night #3", "a.jsonl:2", taken)
('game-club-night-3', 'game-club-night-3-2')
>>> game_slug("../../etc", "a.jsonl:3", taken), game_slug(None, "logs/b.jsonl:7", taken)
('game-etc', 'game-b-7')
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from dataclasses import replace
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Iterator, Optional

import typer

from ..atomic import check_output
from ..corpus_audit import game_report
from ..cpus import worker_count
from ..engine.replay import replay_game
from ..records.sources import iter_sources
from ..text import counted, shown, terminal_safe
from .app import SET_OPTION, app, domain_errors, error_line, fail, rules_from_options
from .progress import progress
from .review_options import CACHE_OPTION, NO_CACHE_OPTION, SCHEDULER_OPTION, WORKERS_OPTION, review_executor
from .validate import summary_line

DEFAULT_FOLDER = Path("reports")
MAX_GAME_REPORTS = 200


def game_slug(game_id: str | None, source: str, taken: set[str]) -> str:
    """A file name for a game's report: from its id (or its source), unique among ``taken``."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", game_id or Path(source.split(":")[0]).stem + "-" + source.rsplit(":", 1)[-1])
    base = "game-" + (base.strip("-.") or "game")[:80]
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    taken.add(slug)
    return slug


def _reports():
    """The report modules (they import plotly and jinja2), loaded only when a report is written."""
    from .. import reports
    return reports


def _say(path: Path) -> None:
    typer.echo(terminal_safe(f"wrote {path}"))


@app.command()
def report(
    paths: list[str] = typer.Argument(..., metavar="PATH...",
                                      help="Game files (.json, .jsonl, .parquet), folders of them, or - for stdin."),
    output: Optional[Path] = typer.Option(
        None, "--output", "-o", metavar="PATH",
        help="The .html file to write, or a folder for several reports (default: reports/)."),
    audit: bool = typer.Option(False, "--audit", help="Write the audit report of all the games (audit.html)."),
    players: bool = typer.Option(False, "--players", help="Write the player report of all the games (players.html)."),
    games: bool = typer.Option(False, "--games", help="Write one game report per game (game-<id>.html)."),
    max_games: int = typer.Option(MAX_GAME_REPORTS, "--max-games", metavar="N",
                                  help="With --games or a site: write at most this many game pages "
                                       "(the audit and the statistics cover all)."),
    js_beside: bool = typer.Option(False, "--js-beside",
                                   help="Write plotly.min.js once beside the reports instead of inside each page "
                                        "(a site always holds it once, in assets/)."),
    player: Optional[list[str]] = typer.Option(None, "--player", metavar="NAME",
                                               help="Site: only the games NAME played (repeatable)."),
    since: Optional[str] = typer.Option(None, "--since", metavar="DATE",
                                        help="Site: only games played on or after DATE (ISO 8601, e.g. 2026-11-01)."),
    until: Optional[str] = typer.Option(None, "--until", metavar="DATE",
                                        help="Site: only games played on or before DATE (a day counts whole)."),
    preset: Optional[list[str]] = typer.Option(None, "--rules", "--preset", "-r", metavar="PRESET",
                                               help="Site: only games whose rules are this preset (repeatable). "
                                                    "Unlike other commands, report does not judge games under "
                                                    "another preset: --set FIELD=VALUE does."),
    min_games: int = typer.Option(1, "--min-games", metavar="N",
                                  help="Site: leave players with fewer than N games out of the leaderboard and "
                                       "give them no page."),
    review: bool = typer.Option(False, "--review",
                                help="Add the review (the cost of every play and pass) to game reports; "
                                     "about a second per hand. --workers, --scheduler, --cache and --no-cache "
                                     "work as for hearts review."),
    review_samples: int = typer.Option(200, "--review-samples", metavar="N",
                                       help="With --review: sampled deals per decision."),
    review_level: Optional[str] = typer.Option(None, "--level", metavar="LEVEL",
                                               help="With --review: corpus (quick) or deep [default: deep for one "
                                                    ".json game, corpus for a site]."),
    workers: int = WORKERS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    cache: Optional[Path] = CACHE_OPTION,
    no_cache: bool = NO_CACHE_OPTION,
    set_: Optional[list[str]] = SET_OPTION,
) -> None:
    """Write HTML reports that open offline in any browser.

    One game gives its game report. Several games (a folder, a JSON Lines or
    Parquet corpus) give a site: index.html (leaderboard, games, audit summary),
    audit.html, players.html, a page per player and a page per game, with the
    stylesheet, scripts and plotly.js once in assets/. --audit, --players or
    --games write those reports alone instead.

    Exit status: 0 written, 2 some input could not be read (the reports are
    still written, and list the unreadable records).

    \b
    Examples:
      hearts report game.json -o reports/game.html
      hearts report corpus.parquet --audit -o reports/audit.html
      hearts report corpus.parquet --players -o reports/players.html
      hearts report examples/ -o site/
      hearts report corpus.parquet -o site/ --since 2026-11-01 --min-games 5
      hearts report corpus.parquet -o site/ --rules omnibus --player alice
      hearts report examples/ -o site/ --review --workers 2
    """
    forced = rules_from_options(None, set_)
    if preset and (audit or players or games):
        raise fail("--rules chooses the games of a site: leave out --audit, --players and --games")
    plotly = _reports().BESIDE if js_beside else _reports().INLINE
    if max_games < 0:
        raise fail("--max-games: must be 0 or more")
    if review_samples < 1:
        raise fail("--review-samples: must be 1 or more")
    if review_level is not None and review_level not in ("corpus", "deep"):
        raise fail(f"--level: {shown(review_level)} is not a review level (corpus or deep)")
    if review_level is not None and not review:
        raise fail("--level is an option of --review")
    check_output(output or DEFAULT_FOLDER, paths, stdout=False,
                 folder=output is None or output.suffix.lower() not in (".html", ".htm"))
    if not review and (workers != 1 or scheduler is not None or cache is not None or no_cache):
        raise fail("--workers, --scheduler, --cache and --no-cache are options of --review")
    site_filter = _site_filter(player, since, until, preset, min_games)
    with domain_errors(), _review_plan(review, review_samples, review_level, paths, workers, scheduler, cache,
                                             no_cache) as reviewing:
        if not (audit or players or games):
            return _default(paths, output, forced, plotly, max_games, reviewing, site_filter)
        chosen = [name for name, on in (("audit", audit), ("players", players), ("games", games)) if on]
        folder, single = _targets(output, chosen)
        errors = 0
        if games:
            errors = _games_and_audit(paths, folder, forced, plotly, max_games, single if audit else None, audit,
                                      reviewing)
        elif audit:
            digest = _reports().digest_paths(paths, forced)
            errors = digest.summary.errors
            _report_errors(digest.errors, errors)
            typer.echo(summary_line(digest.summary), err=True)
            _say(_reports().write_audit_report(digest, _sources(paths), single or folder / "audit.html", plotly))
        if players:
            digest = _reports().digest_players(paths, forced)
            errors = max(errors, digest.error_count)
            if not (audit or games):
                _report_errors(digest.errors, digest.error_count)
            _say(_reports().write_players_report(digest, _sources(paths), single or folder / "players.html", plotly))
    raise typer.Exit(2 if errors else 0)


class _Reviewing:
    """What ``--review`` asked for: the library's plan once the executor is open, and the requested workers
    (bounded by the hands to review once they are counted)."""

    def __init__(self, plan, workers: int, scheduler: str | None, stack: contextlib.ExitStack):
        self.plan, self.workers, self.scheduler, self.stack = plan, workers, scheduler, stack

    def start(self, bar, hands: int | None):
        """The plan with its executor (at most one process per hand) and progress on ``bar``."""
        executor = self.stack.enter_context(review_executor(worker_count(self.workers, hands), self.scheduler))
        return replace(self.plan, executor=executor, progress=lambda k: bar.advance(games=0, hands=k))


@contextlib.contextmanager
def _review_plan(review: bool, samples: int, level: str | None, paths: list[str], workers: int,
                 scheduler: str | None, cache: Path | None, no_cache: bool) -> Iterator["_Reviewing | None"]:
    if not review:
        yield None
        return
    from ..review.batch import ReviewPlan
    from ..review.levels import level_for, settings_at
    from ..review.cache import ReviewCache, default_folder
    store = None if no_cache else ReviewCache(cache or default_folder())
    with contextlib.ExitStack() as stack:
        yield _Reviewing(ReviewPlan(settings_at(level or level_for(paths), samples=samples), cache=store), workers, scheduler, stack)


def _bar_total(reviewing: "_Reviewing | None", paths: list[str], count) -> int | None:
    """The hands to review, counted (a second read of the inputs) only for a bar on a terminal to show."""
    if reviewing is None or "-" in paths or not sys.stderr.isatty():
        return None
    return count()


def _report_errors(listed: list[dict], count: int) -> None:
    for error in listed:
        typer.echo(terminal_safe(f"{error['source']}: error: {error['message']}"), err=True)
    if count > len(listed):
        typer.echo(f"hearts: {count - len(listed)} more unreadable records (see the report)", err=True)


def _sources(paths: list[str]) -> str:
    return ", ".join("<stdin>" if p == "-" else p for p in paths)


def _targets(output: Path | None, chosen: list[str]) -> tuple[Path, Path | None]:
    """The output folder, and the single file when one report goes to an ``.html`` path."""
    if output is not None and output.suffix.lower() in (".html", ".htm"):
        if len(chosen) > 1 or chosen == ["games"]:
            raise fail(f"{output}: several reports are written; give a folder to -o")
        return output.parent, output
    return output or DEFAULT_FOLDER, None


def _site_filter(players: list[str] | None, since: str | None, until: str | None, presets: list[str] | None,
                 min_games: int):
    """The site's filters from the options, or ``None`` when none is given."""
    for name, value in (("--since", since), ("--until", until)):
        if value is not None:
            try:
                datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                raise fail(f"{name}: {value!r} is not an ISO 8601 date or time (e.g. 2026-11-29)")
    if min_games < 1:
        raise fail("--min-games: must be 1 or more")
    from ..rules import PRESETS
    for name in presets or []:
        if name not in PRESETS:
            raise fail(f"--rules: unknown preset {shown(name)} (see `hearts rules`)")
    if not (players or since or until or presets) and min_games == 1:
        return None
    from ..reports.sitedata import SiteFilter
    return SiteFilter(players=frozenset(players or ()), since=since, until=until, rules=frozenset(presets or ()),
                      min_games=min_games)


def _default(paths: list[str], output: Path | None, forced, plotly, max_games: int, reviewing,
             site_filter=None) -> None:
    """A file holding one game: its report. A folder, or several games: the site."""
    if len(paths) == 1 and not Path(paths[0]).is_dir() and site_filter is None:
        items = iter_sources(paths, forced)
        first, second = next(items, None), next(items, None)
        if first is not None and second is None:
            if first.game is None:
                raise fail(f"{first.source}: {first.error.text()}")
            if output is None or output.suffix.lower() not in (".html", ".htm"):
                name = (game_slug(first.game.game_id, first.source, set()) if paths[0] == "-"
                        else Path(first.source.split(":")[0]).stem)
                output = (output or DEFAULT_FOLDER) / f"{name}.html"
            hands = len(first.game.hands)
            with progress("reviewing", enabled=reviewing is not None and paths[0] != "-", total_hands=hands) as bar:
                plan = reviewing.start(bar, hands) if reviewing is not None else None
                written = _reports().write_game_report(replay_game(first.game), first.source, output, plotly,
                                                       review=plan)
            _say(written)
            _open_hint(output)
            raise typer.Exit(0)
    folder, _ = _targets(output, ["audit", "games"])
    raise typer.Exit(_site(paths, folder, forced, max_games, reviewing, site_filter))


def _site(paths: list[str], folder: Path, forced, max_games: int, reviewing, site_filter) -> int:
    from ..reports.site import NoGames, build_site, site_review_hands

    def unreadable(item) -> None:
        typer.echo(error_line(item), err=True)
    total = _bar_total(reviewing, paths, lambda: site_review_hands(paths, forced, site_filter))
    with progress("building the site", enabled="-" not in paths, total_hands=total) as bar:
        plan = reviewing.start(bar, total) if reviewing is not None else None
        # with a review the bar counts reviewed hands; the site's own callback then counts games
        try:
            built = build_site(paths, folder, rules=forced, site_filter=site_filter, max_games=max_games,
                               review=plan, progress=(lambda hands: bar.advance(hands=hands)) if plan is None
                               else (lambda hands: bar.advance(games=1)),
                               on_error=unreadable, sources=_sources(paths))
        except NoGames as error:
            raise fail(f"{error}; nothing written")
    typer.echo(site_line(built))
    _open_hint(built.index)
    return 2 if built.errors else 0


def site_line(built) -> str:
    """The one line that sums up a site."""
    parts = [f"site: {counted(built.games, 'game')} ({counted(built.hands, 'hand')})",
             f"{built.violations:,} violation{'s' if built.violations != 1 else ''}",
             f"{built.players:,} player{'s' if built.players != 1 else ''}",
             f"{counted(built.pages, 'page')} ({built.bytes / 1e6:.1f} MB)"]
    if built.game_pages < built.games:
        parts.append(f"game pages for the newest {built.game_pages:,} (--max-games)")
    if built.filtered_out:
        parts.append(f"{counted(built.filtered_out, 'game')} left out by the filters")
    if built.errors:
        parts.append(f"{built.errors:,} unreadable record{'s' if built.errors != 1 else ''}")
    return ", ".join(parts)


def _open_hint(page: Path) -> None:
    typer.echo(f"open {page} in a browser (it works offline)")


def _games_and_audit(paths: list[str], folder: Path, forced, plotly, max_games: int,
                     audit_file: Path | None, with_audit: bool, reviewing=None) -> int:
    """Replay each game once: its game report (up to ``max_games``) and its share of the audit."""
    digest = _reports().AuditDigest()
    written: dict[tuple[str, str | None], str] = {}
    pages: list[dict] = []
    taken: set[str] = set()
    skipped = 0
    total = _bar_total(reviewing, paths, lambda: _first_games_hands(paths, forced, max_games))
    with progress("reporting", enabled="-" not in paths, total_hands=total) as bar:
        plan = reviewing.start(bar, total) if reviewing is not None else None
        for item in iter_sources(paths, forced):
            if item.game is None:
                digest.add(item, None)
                typer.echo(error_line(item), err=True)
                continue
            result = replay_game(item.game)
            audit = game_report(result, item.source)
            digest.add(item, audit)
            bar.advance(hands=0 if plan else len(result.hands))
            if len(written) < max_games:
                name = game_slug(result.record.game_id, item.source, taken) + ".html"
                _say(_reports().write_game_report(result, item.source, folder / name, plotly, review=plan))
                written[(item.source, result.record.game_id)] = name
                pages.append({"name": name, "source": item.source, "game_id": result.record.game_id,
                              "players": audit["players"], "hands": len(result.hands),
                              "violations": len(result.violations)})
            else:
                skipped += 1
    if skipped:
        typer.echo(f"hearts: wrote {len(written)} game reports and skipped {skipped} more (--max-games)", err=True)
    if len(written) > 5 and plotly is _reports().INLINE:
        typer.echo("hearts: each game report embeds plotly.js; --js-beside writes it once for all of them",
                   err=True)
    if with_audit:
        target = audit_file or folder / "audit.html"
        link = _relative_links(written, folder, target.parent)
        for page in pages:
            page["href"] = link(page["source"], page["game_id"])
        _say(_reports().write_audit_report(digest, _sources(paths), target, plotly, link, pages))
    typer.echo(summary_line(digest.summary), err=True)
    return digest.summary.errors


def _first_games_hands(paths: list[str], forced, count: int) -> int:
    """The hands of the first ``count`` readable games: those ``--games`` reviews."""
    from ..review.batch import hands_to_review
    return hands_to_review(islice((item for item in iter_sources(paths, forced) if item.game is not None), count))


def _relative_links(written: dict[tuple[str, str | None], str], folder: Path, page_folder: Path):
    def link(source: str, game_id: str | None) -> str | None:
        name = written.get((source, game_id))
        if name is None:
            return None
        return Path(os.path.relpath((folder / name).resolve(), page_folder.resolve())).as_posix()
    return link
