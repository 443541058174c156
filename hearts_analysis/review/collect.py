"""A review run's documents, gathered game by game: what ``hearts review`` prints and writes.

The command only drives the run and lays the documents out; which reviews become the document, the
summary's running totals per player and the practice puzzles are built here, so a Python caller of
:func:`~hearts_analysis.review.batch.review_items` gets the same documents.

>>> from hearts_analysis.records.errors import Item
>>> from hearts_analysis.review import Settings, review_game
>>> from hearts_analysis.review.batch import ReviewedGame
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> settings = Settings(samples=20)
>>> run = ReviewRun(settings, summary=True)
>>> run.add(ReviewedGame(Item("game.json", game), review_game(game, settings, [1], [1]), (1,)))
True
>>> [(row["player"], row["games"]) for row in run.summary_rows()]
[('bob', 1)]
>>> run.summary_document()["players"][0]["player"], run.errors
('bob', [])
"""

from __future__ import annotations

from typing import Any

from ..corpus_audit import error_report
from .batch import ReviewedGame
from .settings import Settings
from .report import PlayerTally, game_dict, review_document, summary_document, tally


class ReviewRun:
    """The reviews of one run, kept as the documents need them: each game's document (or, for a
    ``summary``, only the running totals per player), the unreadable records, and the flagged positions as
    puzzles when ``puzzles`` is asked for."""

    def __init__(self, settings: Settings, summary: bool = False, puzzles: bool = False) -> None:
        self.settings, self.summary, self.with_puzzles = settings, summary, puzzles
        self.games: list[tuple[dict, list[int] | None]] = []
        """Each reviewed game's document, with the seats reviewed (``None``: all)."""
        self.errors: list[dict[str, Any]] = []
        self.puzzles: list[dict] = []
        self.reviewed = 0
        """Games reviewed (readable, and holding the player asked for)."""
        self._tallies: dict[str, PlayerTally] = {}
        self._number = 0

    def add(self, done: ReviewedGame) -> bool:
        """Take one item of the run; whether it was reviewed (``False``: an unreadable record, kept in
        :attr:`errors`)."""
        number, self._number = self._number, self._number + 1
        if done.review is None:
            self.errors.append(error_report(done.item))
            return False
        self.reviewed += 1
        if self.with_puzzles:
            from .puzzles import puzzles
            self.puzzles.extend(puzzles(done.item.game, done.review, done.item.source, starts=done.starts))
        if self.summary:
            tally(self._tallies, number, done.review, done.seats)
        else:
            self.games.append((game_dict(done.review, done.item.source, done.seats),
                               None if done.seats is None else list(done.seats)))
        return True

    def summary_rows(self) -> list[dict]:
        """``--summary``: one row per player name, in name order."""
        return [self._tallies[name].row() for name in sorted(self._tallies)]

    def summary_document(self) -> dict:
        """``--summary --format json``."""
        return summary_document(self.summary_rows(), self.settings, self.errors)

    def document(self) -> dict:
        """``--format json``: every game's review, the settings and the unreadable records."""
        return review_document([game for game, _ in self.games], self.settings, self.errors)

    def puzzles_document(self) -> dict:
        """``--puzzles FILE``: the flagged positions as practice puzzles."""
        from .puzzles import puzzles_document
        return puzzles_document(self.puzzles)
