"""The game record ``hearts-game/1`` as frozen dataclasses.

Cards are ints (see :mod:`hearts_analysis.cards`) in the order the source gave
them; fields the format does not know are kept in ``extra`` so that nothing is
lost in a round trip. ``nulls`` names optional fields the source wrote as an
explicit ``null`` (rather than leaving them out), for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..cards import Card
from ..rules import Rules

FORMAT = "hearts-game/1"

Play = tuple[int, Card]
"""``(seat, card)``."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as recorded."""

    deal: tuple[tuple[Card, ...], ...]
    """Cards dealt to each seat before passing."""
    plays: tuple[Play, ...]
    """Every card played, in order."""
    passes: tuple[tuple[Card, ...] | None, ...] | None = None
    """Cards each seat gave; ``None`` (or a ``None`` entry) where nothing was passed."""
    dealer: int | None = None
    """The dealing seat, when the source recorded it; else ``(k-1) % n`` for hand k."""
    pass_direction: str | None = None
    """The direction the source says it used; checked against the pass cycle."""
    moon: str | None = None
    """The shooter's recorded choice: ``add_to_others`` or ``subtract_from_shooter``."""
    points: tuple[int, ...] | None = None
    """Recorded points per seat for the hand, after the moon adjustment."""
    totals: tuple[int, ...] | None = None
    """Recorded running totals per seat after the hand."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    nulls: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as recorded; ``rules`` is parsed, ``rules_spec`` kept as written."""

    players: tuple[str, ...]
    hands: tuple[HandRecord, ...]
    rules: Rules = field(default_factory=Rules)
    rules_spec: Any = None
    game_id: str | None = None
    played_at: str | None = None
    complete: bool | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    nulls: frozenset[str] = frozenset()

    @property
    def seats(self) -> int:
        return len(self.players)
