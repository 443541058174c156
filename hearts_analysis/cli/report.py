"""``hearts report``: HTML reports of a game, an audit of a corpus, and its players.

The library (:mod:`hearts_analysis.reports`) replays the games, names and writes the pages; this module
reads the options, asks for the reports, and says what was written.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Iterator, Optional

import typer

from ..atomic import check_output
from ..cpus import worker_count
from ..text import shown, terminal_safe
from .app import SET_OPTION, app, domain_errors, error_line, fail, rules_from_options
from .progress import progress
from .review_options import CACHE_OPTION, NO_CACHE_OPTION, SCHEDULER_OPTION, WORKERS_OPTION, review_executor
from .validate import summary_line

DEFAULT_FOLDER = Path("reports")
MAX_GAME_REPORTS = 200


def _reports():
    """The report modules (they import plotly and jinja2), loaded only when a report is written."""
    from .. import reports
    from ..reports import game_pages  # noqa: F401  (reports.game_pages)
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
            _say(_reports().write_audit_report(digest, _reports().game_pages.source_list(paths), single or folder / "audit.html", plotly))
        if players:
            digest = _reports().digest_players(paths, forced)
            errors = max(errors, digest.error_count)
            if not (audit or games):
                _report_errors(digest.errors, digest.error_count)
            _say(_reports().write_players_report(digest, _reports().game_pages.source_list(paths), single or folder / "players.html", plotly))
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
        first = _reports().game_pages.only_record(paths[0], forced)
        if first is not None:
            if first.game is None:
                raise fail(f"{first.source}: {first.error.text()}")
            if output is None or output.suffix.lower() not in (".html", ".htm"):
                name = _reports().game_pages.single_page_name(first.game.game_id, first.source, paths[0] == "-")
                output = (output or DEFAULT_FOLDER) / f"{name}.html"
            hands = len(first.game.hands)
            with progress("reviewing", enabled=reviewing is not None and paths[0] != "-", total_hands=hands) as bar:
                plan = reviewing.start(bar, hands) if reviewing is not None else None
                written = _reports().game_pages.write_one_game_page(first, output, plotly, review=plan)
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
                               on_error=unreadable, sources=_reports().game_pages.source_list(paths))
        except NoGames as error:
            raise fail(f"{error}; nothing written")
    typer.echo(built.line())
    _open_hint(built.index)
    return 2 if built.errors else 0


def _open_hint(page: Path) -> None:
    typer.echo(f"open {page} in a browser (it works offline)")


def _games_and_audit(paths: list[str], folder: Path, forced, plotly, max_games: int,
                     audit_file: Path | None, with_audit: bool, reviewing=None) -> int:
    """Each game's report (up to ``max_games``) and, with ``with_audit``, the audit that links to them."""
    pages = _reports().game_pages
    total = _bar_total(reviewing, paths, lambda: pages.first_games_hands(paths, forced, max_games))
    with progress("reporting", enabled="-" not in paths, total_hands=total) as bar:
        plan = reviewing.start(bar, total) if reviewing is not None else None
        done = pages.write_game_pages(paths, folder, forced, plotly, max_games, review=plan, on_written=_say,
                                      on_error=lambda item: typer.echo(error_line(item), err=True),
                                      progress=lambda hands: bar.advance(hands=hands))
    if done.skipped:
        typer.echo(f"hearts: wrote {len(done.written)} game reports and skipped {done.skipped} more (--max-games)",
                   err=True)
    if len(done.written) > 5 and plotly is _reports().INLINE:
        typer.echo("hearts: each game report embeds plotly.js; --js-beside writes it once for all of them",
                   err=True)
    if with_audit:
        target = audit_file or folder / "audit.html"
        link = done.link(folder, target.parent)
        _say(_reports().write_audit_report(done.digest, pages.source_list(paths), target, plotly, link,
                                           done.linked_pages(link)))
    typer.echo(summary_line(done.digest.summary), err=True)
    return done.digest.summary.errors
