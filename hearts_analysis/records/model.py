"""The game record ``hearts-game/1`` as frozen dataclasses.

Cards are ints (see :mod:`hearts_analysis.cards`) in the order the source gave
them; fields the format does not know are kept in ``extra`` so that nothing is
lost in a round trip. ``nulls`` names optional fields the source wrote as an
explicit ``null`` (rather than leaving them out), for the same reason.

:data:`GAME_FIELDS` and :data:`HAND_FIELDS` declare the fields once, for every codec: the JSON keys
and their order, which the format requires, and where a Parquet file keeps each.

>>> [f.key for f in HAND_FIELDS if f.required]
['deal', 'plays']
>>> [f.key for f in GAME_FIELDS if f.parquet == META]
['played_at', 'complete', 'winners', 'unmodelled']
>>> REFERENCE_ONLY
('charged', 'claim', 'unmodelled')

A score sheet (``docs/score-sheets.md``) is a game whose hands carry ``points`` (and maybe ``totals``
and ``moon``) but no ``deal``, ``passes`` or ``plays``: the record holds ``None`` for the cards.

>>> sheet = HandRecord(deal=None, plays=None, points=(0, 13, 8, 5))
>>> is_sheet_hand(sheet), is_score_sheet(GameRecord(("a", "b", "c", "d"), (sheet,)))
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Mapping, NamedTuple

from ..cards import Card
from ..rules import MOON_CHOICES, PASS_DIRECTIONS, Rules

FORMAT = "hearts-game/1"

COLUMN, CARD_ROWS, META, LAYOUT = "column", "card rows", "meta", "layout"
"""Where a Parquet file of the ``events/2`` layout keeps a field: a column of its own on the game or hand
row, the card rows, the game's or hand's JSON ``meta`` column, or the layout itself (``format`` in the
file's metadata, ``hands`` as the hand rows)."""


class Field(NamedTuple):
    """One field of ``hearts-game/1``: its JSON key (also the record's attribute, see :func:`attribute_of`),
    whether the format requires it (the writer always writes those; the reader takes a missing ``hands``
    as none), and where Parquet keeps it. ``reference_only``: only the reference replay reads it, so the
    fast path and the review leave a record that sets it to the reference engine."""

    key: str
    required: bool
    parquet: str
    doc: str
    reference_only: bool = False


GAME_FIELDS = (
    Field("format", False, LAYOUT, "always hearts-game/1"),
    Field("game_id", False, COLUMN, "the record's identifier"),
    Field("played_at", False, META, "when the game was played (ISO 8601)"),
    Field("rules", False, COLUMN, "a preset name or an object of rule fields"),
    Field("players", True, COLUMN, "the player at each seat"),
    Field("hands", True, LAYOUT, "the hands in order"),
    Field("complete", False, META, "whether the game was played to its end"),
    Field("winners", False, META, "the players the record names as the game's winners (audited)"),
    Field("unmodelled", False, META, "what of the game the engine does not model (an importer's notes)", True),
)
"""The game fields, in the order they are written; the JSON schema and the Parquet layout document
(``schemas/``) list the same."""
HAND_FIELDS = (
    Field("dealer", False, COLUMN, "the dealing seat"),
    Field("pass_direction", False, COLUMN, "the direction of the pass"),
    Field("deal", True, CARD_ROWS, "the cards dealt to each seat (absent in a score-sheet hand)"),
    Field("passes", False, CARD_ROWS, "the cards each seat gave"),
    Field("plays", True, CARD_ROWS, "every card played, as [seat, card] (absent in a score-sheet hand)"),
    Field("moon", False, COLUMN, "the shooter's choice"),
    Field("points", False, COLUMN, "points per seat after the moon adjustment"),
    Field("totals", False, COLUMN, "running totals per seat after the hand"),
    Field("charged", False, META, "the cards charged (exposed) this hand", True),
    Field("claim", False, META, "the seat that claimed the remaining tricks", True),
    Field("unmodelled", False, META, "what of the hand the engine does not model (an importer's notes)", True),
)
"""The hand fields, in the order they are written."""
GAME_KEYS = tuple(f.key for f in GAME_FIELDS)
HAND_KEYS = tuple(f.key for f in HAND_FIELDS)
REFERENCE_ONLY = tuple(f.key for f in HAND_FIELDS if f.reference_only)
"""The hand fields (``unmodelled`` is also a game field) that only the reference replay reads."""

DIRECTION_CODES = {name: code for code, name in enumerate(PASS_DIRECTIONS)}
"""``left`` 0, ``right`` 1, ``across`` 2, ``hold`` 3: the codes of a pass direction in every columnar
form (the Parquet dictionary, the fast path, the analysis columns); -1 stands for none recorded."""
MOON_CODES = {name: code for code, name in enumerate(MOON_CHOICES)}
"""``add_to_others`` 0, ``subtract_from_shooter`` 1: the codes of a moon choice; -1 stands for none."""

Play = tuple[int, Card]
"""``(seat, card)``."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as recorded."""

    deal: tuple[tuple[Card, ...] | None, ...] | None
    """Cards dealt to each seat before passing; a ``None`` entry for a seat a view's asker cannot see
    (:mod:`~hearts_analysis.records.views`); ``None`` itself only in a score-sheet hand (:func:`is_sheet_hand`)."""
    plays: tuple[Play, ...] | None
    """Every card played, in order; ``None`` only in a score-sheet hand."""
    passes: tuple[tuple[Card, ...] | None, ...] | None = None
    """Cards each seat gave; ``None`` (or a ``None`` entry) where nothing was passed."""
    dealer: int | None = None
    """The dealing seat, when the source recorded it; else ``rules.dealer_of(k, 0, n)`` for hand k."""
    pass_direction: str | None = None
    """The direction the source says it used; checked against the pass cycle."""
    moon: str | None = None
    """The shooter's recorded choice: ``add_to_others`` or ``subtract_from_shooter``."""
    points: tuple[int, ...] | None = None
    """Recorded points per seat for the hand, after the moon adjustment."""
    totals: tuple[int, ...] | None = None
    """Recorded running totals per seat after the hand."""
    charged: tuple[Card, ...] | None = None
    """The cards charged (exposed): they score as the rules' ``charges`` say."""
    claim: int | None = None
    """The seat that claimed the remaining tricks (the hand's plays stop there)."""
    unmodelled: tuple[str, ...] | None = None
    """An importer's notes on what of the hand the engine does not model: the audit says it is not vouched for."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    nulls: frozenset[str] = frozenset()

    @classmethod
    def checked(cls, *, deal: tuple[tuple[Card, ...], ...], plays: tuple[Play, ...],
                passes: tuple[tuple[Card, ...] | None, ...] | None, dealer: int | None,
                pass_direction: str | None, moon: str | None, points: tuple[int, ...] | None,
                totals: tuple[int, ...] | None, extra: Mapping[str, Any], nulls: frozenset[str],
                charged: tuple[Card, ...] | None = None, claim: int | None = None,
                unmodelled: tuple[str, ...] | None = None) -> "HandRecord":
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
        _set_charged(hand, charged)
        _set_claim(hand, claim)
        _set_unmodelled(hand, unmodelled)
        _set_extra(hand, extra)
        _set_nulls(hand, nulls)
        return hand


_new = object.__new__
_slot = {f.name: getattr(HandRecord, f.name).__set__ for f in fields(HandRecord)}
_set_deal, _set_plays, _set_passes, _set_dealer = _slot["deal"], _slot["plays"], _slot["passes"], _slot["dealer"]
_set_pass_direction, _set_moon, _set_points = _slot["pass_direction"], _slot["moon"], _slot["points"]
_set_totals, _set_extra, _set_nulls = _slot["totals"], _slot["extra"], _slot["nulls"]
_set_charged, _set_claim, _set_unmodelled = _slot["charged"], _slot["claim"], _slot["unmodelled"]
assert len(_slot) == 13, "HandRecord.checked sets every field"


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
    unmodelled: tuple[str, ...] | None = None
    """An importer's notes on what of the game the engine does not model (e.g. a rule it cannot play)."""
    winners: tuple[str, ...] | None = None
    """The players the record names as the winners (a score sheet's verdict); audited, never trusted."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    nulls: frozenset[str] = frozenset()

    @property
    def seats(self) -> int:
        return len(self.players)


def is_sheet_hand(hand: HandRecord) -> bool:
    """A score-sheet hand: points recorded, no cards (no ``deal``, ``passes`` or ``plays``)."""
    return hand.deal is None and hand.plays is None and hand.passes is None and hand.points is not None


def is_score_sheet(game: GameRecord) -> bool:
    """A game of score-sheet hands (the readers refuse a game that mixes them with played hands)."""
    return bool(game.hands) and is_sheet_hand(game.hands[0])


SHEET_NOTE = "score sheet: plays not checked"
"""What every report of a score sheet says: its arithmetic is audited, its play cannot be."""


def attribute_of(key: str) -> str:
    """The record attribute holding a field: its key, but ``rules`` (the parsed rule set is ``rules``,
    the value as written ``rules_spec``).

    >>> attribute_of("rules"), attribute_of("dealer")
    ('rules_spec', 'dealer')
    """
    return "rules_spec" if key == "rules" else key


assert {attribute_of(k) for k in HAND_KEYS} <= set(HandRecord.__slots__), "a HandRecord attribute per hand field"
assert {attribute_of(k) for k in GAME_KEYS} - {"format"} <= set(GameRecord.__slots__), \
    "a GameRecord attribute per game field"
