"""What every reader of games hands back: :class:`Item`, a game or the :class:`RecordError` that made it
unreadable.

Both codecs (JSON and Parquet), the log formats and the dispatcher speak in items, so these
types sit below all of them.

>>> error = RecordError("unknown card 'XS'", "hands[0].plays[3][1]").at("games.jsonl:9")
>>> Item(error.source, error=error).error.text()
"hands[0].plays[3][1]: unknown card 'XS'"
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import GameRecord


class RecordError(ValueError):
    """A record that cannot be read: bad JSON, a schema error or an unknown card."""

    def __init__(self, message: str, field: str | None = None, source: str | None = None):
        self.field = field
        self.source = source
        self.detail = message
        super().__init__(self.text())

    def text(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{where}{self.detail}"

    def at(self, source: str) -> "RecordError":
        self.source = source
        return self


@dataclass(frozen=True, slots=True)
class Item:
    """One entry read from an input: a game, or the error that made it unreadable."""

    source: str
    game: GameRecord | None = None
    error: RecordError | None = None
