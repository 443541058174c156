"""The audit of a corpus: replay every readable game, collect every unreadable record.

One game's audit is a plain dict (the ``hearts validate --format json`` shape),
so that every engine (the reference replay, the fast columnar path, Dask)
produces the same thing and every output format reads the same thing.

>>> import dataclasses
>>> from hearts_analysis.records.errors import Item, RecordError
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> games = list(simulate_games(2, Rules.preset("standard", target=30)))
>>> first = dataclasses.replace(games[0].hands[0], points=(0, 2, 8, 0))
>>> games[0] = dataclasses.replace(games[0], hands=(first, *games[0].hands[1:]))
>>> items = [Item(f"games.jsonl:{n}", game) for n, game in enumerate(games, 1)]
>>> items.append(Item("games.jsonl:3", error=RecordError("expected a list, got 3", "players")))
>>> audited = list(audit_items(items))
>>> [(item.source, report and report["valid"]) for item, report in audited]
[('games.jsonl:1', False), ('games.jsonl:2', True), ('games.jsonl:3', None)]
>>> summary = Summary()
>>> for item, report in audited:
...     if report is None:
...         summary.errors += 1
...     else:
...         summary.add_game(report)
>>> summary.to_dict(), summary.exit_code
({'games': 2, 'hands': 6, 'invalid_games': 1, 'violations': 2, 'errors': 1, 'by_code': {'points-mismatch': 2}}, 2)
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
"""``{"source", "game_id", "players", "valid", "violations", "hands", "totals", "winners", "complete", "notes"}``:
``notes``, present where there are some, says what could not be checked (a view's hands, ``view-unchecked``; an importer's
``unmodelled``); a note leaves the game valid."""


def audit_report(source: str, game_id: str | None, players: list[str], violations: list[dict[str, Any]],
                 hands: list[dict[str, Any]], totals: list[int], winners: list[int], complete: bool,
                 notes: list[dict[str, Any]] | None = None) -> GameReport:
    """The one shape of a game's audit, whichever engine judged it; ``hands`` from :func:`hand_audit`."""
    report = {"source": source, "game_id": game_id, "players": players, "valid": not violations,
              "violations": violations, "hands": hands, "totals": totals, "winners": winners, "complete": complete}
    if notes:
        report["notes"] = notes
    return report


def hand_audit(points: list[int], moon: dict[str, Any] | None) -> dict[str, Any]:
    """A hand in a game's audit: its points after any moon, and the moon (``{"seat", "choice"}``) if shot."""
    return {"points": points, "moon": moon}


def game_report(result: GameResult, source: str) -> GameReport:
    """The audit of one game the reference engine replayed."""
    return audit_report(source, result.record.game_id, list(result.record.players),
                        [v.to_dict() for v in result.violations],
                        [hand_audit(list(h.points), None if h.moon is None else h.moon.to_dict()) for h in result.hands],
                        list(result.totals), list(result.winners), result.complete,
                        [note.to_dict() for note in result.notes])


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
    notes: int = 0
    """Notes (what could not be checked): they do not count as violations, nor change the exit status."""
    by_code: dict[str, int] = field(default_factory=dict)

    def add_game(self, report: GameReport) -> None:
        self.games += 1
        self.hands += len(report["hands"])
        self.notes += len(report.get("notes") or ())
        if report["violations"]:
            self.invalid_games += 1
            self.violations += len(report["violations"])
            for violation in report["violations"]:
                self.by_code[violation["code"]] = self.by_code.get(violation["code"], 0) + 1

    def to_dict(self) -> dict[str, Any]:
        """The ``summary`` of the audit document."""
        out = {"games": self.games, "hands": self.hands, "invalid_games": self.invalid_games,
               "violations": self.violations, "errors": self.errors, "by_code": self.by_code}
        if self.notes:
            out["notes"] = self.notes     # what could not be checked: present where there are some
        return out

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
