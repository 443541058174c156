"""Game pages written side by side, and the audit that links to them: each game replayed once.

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

import os
import re
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..corpus_audit import game_report
from ..engine.replay import replay_game
from ..records.errors import Item
from ..records.sources import iter_sources
from ..rules import Rules
from .audit import AuditDigest, GameLink
from .game import write_game_report
from .render import PlotlyMode

if TYPE_CHECKING:
    from ..review.batch import ReviewPlan


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


def single_page_name(game_id: str | None, source: str, from_stdin: bool) -> str:
    """The file name (without ``.html``) of the one game's page: its file's name, or from stdin its id.

    >>> single_page_name("club #3", "games/night.json", False), single_page_name("club #3", "<stdin>", True)
    ('night', 'game-club-3')
    """
    return game_slug(game_id, source, set()) if from_stdin else Path(source.split(":")[0]).stem


def only_record(path: str | Path, rules: Rules | None) -> Item | None:
    """The record of a file that holds exactly one (readable or not); ``None`` when it holds none or several.

    >>> import tempfile
    >>> from hearts_analysis.records.sources import write_any
    >>> from hearts_analysis.simulate import simulate_games
    >>> one, two = Path(tempfile.mkdtemp()) / "one.jsonl", Path(tempfile.mkdtemp()) / "two.jsonl"
    >>> write_any(simulate_games(1, Rules.preset("standard", target=30)), one)
    1
    >>> write_any(simulate_games(2, Rules.preset("standard", target=30)), two)
    2
    >>> only_record(one, None).game.game_id, only_record(two, None)
    ('sim-0-1', None)
    """
    items = iter_sources([path], rules)
    first, second = next(items, None), next(items, None)
    return first if first is not None and second is None else None


def write_one_game_page(item: Item, target: Path, plotly: PlotlyMode, review: "ReviewPlan | None" = None) -> Path:
    """The page of one game (``item`` holds a game): replayed, written to ``target``; the path written."""
    assert item.game is not None
    return write_game_report(replay_game(item.game), item.source, target, plotly, review=review)


def source_list(paths: Iterable[str]) -> str:
    """The inputs as a page names them.

    >>> source_list(["a.jsonl", "-"])
    'a.jsonl, <stdin>'
    """
    return ", ".join("<stdin>" if p == "-" else p for p in paths)


@dataclass
class GamePages:
    """What :func:`write_game_pages` wrote: the audit of every game, and the pages of the first ones."""

    digest: AuditDigest = field(default_factory=AuditDigest)
    written: dict[tuple[str, str | None], str] = field(default_factory=dict)
    """The page's file name, by (source, game id)."""
    pages: list[dict[str, Any]] = field(default_factory=list)
    """A row per page for the audit's list of games."""
    skipped: int = 0
    """Readable games left without a page (over ``max_games``)."""

    def link(self, folder: Path, page_folder: Path) -> GameLink:
        """A game's page as a link from a page in ``page_folder`` (the game pages are in ``folder``)."""
        def link(source: str, game_id: str | None) -> str | None:
            name = self.written.get((source, game_id))
            if name is None:
                return None
            return Path(os.path.relpath((folder / name).resolve(), page_folder.resolve())).as_posix()
        return link

    def linked_pages(self, link: GameLink) -> list[dict[str, Any]]:
        """The audit's rows, each with its ``href``."""
        for page in self.pages:
            page["href"] = link(page["source"], page["game_id"])
        return self.pages


def write_game_pages(paths: Iterable[str | Path], folder: Path, rules: Rules | None, plotly: PlotlyMode,
                     max_games: int, review: "ReviewPlan | None" = None,
                     on_written: Callable[[Path], None] = lambda path: None,
                     on_error: Callable[[Item], None] = lambda item: None,
                     progress: Callable[[int], None] = lambda hands: None) -> GamePages:
    """Replay each game once: its page (up to ``max_games``, in ``folder``) and its share of the audit.

    ``on_written`` hears of each page written, ``on_error`` of each unreadable record, ``progress`` of the
    hands replayed (none when a review counts them).

    >>> import tempfile
    >>> from hearts_analysis.records.sources import write_any
    >>> from hearts_analysis.reports import BESIDE
    >>> from hearts_analysis.simulate import simulate_games
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_any(simulate_games(3, Rules.preset("standard", target=30)), folder / "games.jsonl")
    3
    >>> done = write_game_pages([folder / "games.jsonl"], folder, None, BESIDE, max_games=2)
    >>> sorted(done.written.values()), done.skipped, done.digest.summary.games
    (['game-sim-0-1.html', 'game-sim-0-2.html'], 1, 3)
    """
    done = GamePages()
    taken: set[str] = set()
    for item in iter_sources(paths, rules):
        if item.game is None:
            done.digest.add(item, None)
            on_error(item)
            continue
        result = replay_game(item.game)
        audit = game_report(result, item.source)
        done.digest.add(item, audit)
        progress(0 if review else len(result.hands))
        if len(done.written) < max_games:
            name = game_slug(result.record.game_id, item.source, taken) + ".html"
            on_written(write_game_report(result, item.source, folder / name, plotly, review=review))
            done.written[(item.source, result.record.game_id)] = name
            done.pages.append({"name": name, "source": item.source, "game_id": result.record.game_id,
                               "players": audit["players"], "hands": len(result.hands),
                               "violations": len(result.violations)})
        else:
            done.skipped += 1
    return done


def first_games_hands(paths: Iterable[str | Path], rules: Rules | None, count: int) -> int:
    """The hands of the first ``count`` readable games: those :func:`write_game_pages` reviews."""
    from ..review.batch import hands_to_review
    return hands_to_review(islice((item for item in iter_sources(paths, rules) if item.game is not None), count))
