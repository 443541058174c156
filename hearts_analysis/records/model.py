"""The game record ``hearts-game/1`` as frozen dataclasses.

Cards are ints (see :mod:`hearts_analysis.cards`) in the order the source gave
them; fields the format does not know are kept in ``extra`` so that nothing is
lost in a round trip. ``nulls`` names optional fields the source wrote as an
explicit ``null`` (rather than leaving them out), for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from ..cards import Card
from ..rules import Rules

FORMAT = "hearts-game/1"

GAME_KEYS = ("format", "game_id", "played_at", "rules", "players", "hands", "complete")
"""The game fields of ``hearts-game/1``, in the order they are written."""
HAND_KEYS = ("dealer", "pass_direction", "deal", "passes", "plays", "moon", "points", "totals")
"""The hand fields of ``hearts-game/1``, in the order they are written."""

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

    @classmethod
    def checked(cls, deal: tuple[tuple[Card, ...], ...], plays: tuple[Play, ...],
                passes: tuple[tuple[Card, ...] | None, ...] | None, dealer: int | None,
                pass_direction: str | None, moon: str | None, points: tuple[int, ...] | None,
                totals: tuple[int, ...] | None, extra: Mapping[str, Any], nulls: frozenset[str]) -> "HandRecord":
        """The record of values a reader has already checked, every field given.

        A reader builds one per hand of a corpus; setting the slots directly
        costs half of the frozen ``__init__`` (one ``object.__setattr__`` per field).
        """
        hand = _new(cls)
        _set_deal(hand, deal)
        _set_plays(hand, plays)
        _set_passes(hand, passes)
        _set_dealer(hand, dealer)
        _set_pass_direction(hand, pass_direction)
        _set_moon(hand, moon)
        _set_points(hand, points)
        _set_totals(hand, totals)
        _set_extra(hand, extra)
        _set_nulls(hand, nulls)
        return hand


_new = object.__new__
_slot = {f.name: getattr(HandRecord, f.name).__set__ for f in fields(HandRecord)}
_set_deal, _set_plays, _set_passes, _set_dealer = _slot["deal"], _slot["plays"], _slot["passes"], _slot["dealer"]
_set_pass_direction, _set_moon, _set_points = _slot["pass_direction"], _slot["moon"], _slot["points"]
_set_totals, _set_extra, _set_nulls = _slot["totals"], _slot["extra"], _slot["nulls"]
assert len(_slot) == 10, "HandRecord.checked sets every field"


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
