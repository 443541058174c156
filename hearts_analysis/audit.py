"""The audit of a corpus: replay every readable game, collect every unreadable record.

One game's audit is a plain dict (the ``hearts validate --format json`` shape),
so that every engine (the reference replay, the fast columnar path, Dask)
produces the same thing and every output format reads the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from .engine.replay import GameResult, replay_game
from .records.errors import Item
from .records.sources import iter_sources
from .rules import Rules

GameReport = dict[str, Any]
"""``{"source", "game_id", "players", "valid", "violations", "hands", "totals", "winners", "complete"}``."""


def game_report(result: GameResult, source: str) -> GameReport:
    """The JSON-ready audit of one replayed game."""
    return {
        "source": source,
        "game_id": result.record.game_id,
        "players": list(result.record.players),
        "valid": result.valid,
        "violations": [v.to_dict() for v in result.violations],
        "hands": [{"points": list(h.points), "moon": None if h.moon is None else h.moon.to_dict()}
                  for h in result.hands],
        "totals": list(result.totals),
        "winners": list(result.winners),
        "complete": result.complete,
    }


def error_report(item: Item) -> dict[str, Any]:
    assert item.error is not None
    out = {"source": item.source, "message": item.error.text()}
    if item.error.field:
        out["field"] = item.error.field
    return out


@dataclass
class Summary:
    """Counts for the closing line of an audit."""

    games: int = 0
    invalid_games: int = 0
    violations: int = 0
    hands: int = 0
    errors: int = 0
    by_code: dict[str, int] = field(default_factory=dict)

    def add_game(self, report: GameReport) -> None:
        self.games += 1
        self.hands += len(report["hands"])
        if report["violations"]:
            self.invalid_games += 1
            self.violations += len(report["violations"])
            for violation in report["violations"]:
                self.by_code[violation["code"]] = self.by_code.get(violation["code"], 0) + 1

    @property
    def exit_code(self) -> int:
        """0 clean, 1 violations found, 2 some input could not be read."""
        return 2 if self.errors else 1 if self.violations else 0


def audit_items(items: Iterable[Item]) -> Iterator[tuple[Item, GameReport | None]]:
    """Replay each readable game; unreadable ones pass through with ``None``."""
    for item in items:
        if item.game is None:
            yield item, None
        else:
            yield item, game_report(replay_game(item.game), item.source)


def audit_paths(paths: Iterable[str | Path], rules: Rules | None = None) -> Iterator[tuple[Item, GameReport | None]]:
    return audit_items(iter_sources(paths, rules))
