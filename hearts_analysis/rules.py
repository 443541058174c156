"""Rule sets: one frozen type, built from a preset name plus field overrides.

Every rule system of the supported sources is a preset; house rules are a
preset with overrides. What each field means, accepts and says on a page, and
whether the fast lanes model a value, is its entry in :data:`RULE_TABLE`. Defaults that depend on the number of players (removed
cards, pass cycle) stay ``None`` here and are resolved by :meth:`Rules.table`.

>>> Rules.from_spec({"preset": "omnibus"}).jack_of_diamonds
-10
>>> Rules.preset("standard").table(5).removed_cards
('2D', '2C')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping, Sequence

from .cards import (CLUBS_MASK, DECK, HEARTS_MASK, JD, POINT_CARDS_MASK, QS_MASK, Card, CardError, Mask,
                    card_name, lowest, mask_of, parse_card, popcount)
from .suggest import did_you_mean
from .text import shown

MIN_PLAYERS, MAX_PLAYERS = 3, 7
QUEEN_POINTS = 13
"""What QS scores for its taker (charged: twice as much)."""

PASS_DIRECTIONS = ("left", "right", "across", "hold")
ANY_DIRECTION = "any"
"""A pass-cycle entry that takes each hand's direction from the record (OpenSpiel deals it by chance)."""
MOON_CHOICES = ("add_to_others", "subtract_from_shooter")
"""The moon rules a shooter may choose between (and that a record's ``moon`` may name)."""
FOURFOLD = 4
"""Under ``moon shooter_gains_fourfold`` the shooter's ordinary deal points, negated, times this (Trend Hearts)."""
CHARGEABLE = ("AH", "QS", "JD", "TC")
"""The cards a charge can double (Turbo Hearts charges all four; Trend Hearts exposes AH)."""

LANES = ("quick", "screen", "kernel", "kernel_play")
"""The fast lanes, each of which declares in :data:`RULE_TABLE` the rule values it models: ``quick`` the
replay's clean-hand lane (:mod:`~hearts_analysis.engine.quick`, with :meth:`HandState.clearly_legal
<hearts_analysis.engine.state.HandState.clearly_legal>`), ``screen`` the columnar screen of validation
(:mod:`~hearts_analysis.fastpath`), ``kernel`` the compiled kernel's rollouts that play and score the
review's hands, ``kernel_play`` the compiled kernel playing the simulator's hands (the score stays in
Python, and the simulator never charges or claims)."""
ALL = "all"
"""A lane's declaration that it models every value of a field."""
Declared = Any
"""A declaration (:attr:`RuleField.modelled`): :data:`ALL`, a tuple of values, or ``None`` (the default only)."""

DEFAULT_REMOVED: dict[int, tuple[str, ...]] = {
    3: ("2D",), 4: (), 5: ("2D", "2C"), 6: ("2D", "3D", "3C", "4C"), 7: ("2D", "3D", "3C"),
}
"""Cards removed so that the deck deals evenly (classic rules for 3 to 7 players)."""


class RuleError(ValueError):
    """A rule set that cannot be built or cannot be played by this many players."""


@dataclass(frozen=True)
class Rules:
    """A complete rule set. Field names and values are part of the record format.

    A field here is its name, type and default; everything else about it (what it means, what it
    accepts, its words on a page, the values a fit tries, whether the fast lanes model it) is its
    entry in :data:`RULE_TABLE`, which the tests hold to this list.
    """

    removed_cards: tuple[str, ...] | None = None
    pass_count: int = 3
    pass_cycle: tuple[str, ...] | None = None
    first_lead: str = "lowest_club"
    points_on_first_trick: bool = False
    hearts_must_be_broken: bool = True
    hearts_broken_by: str = "heart_or_queen"
    only_hearts_lead: str = "allowed"
    jack_of_diamonds: int = 0
    queen_of_clubs_cancels_queen: bool = False
    no_tricks_bonus: int = 0
    moon: str = "shooter_choice"
    target: int = 100
    end_at: str = "reach"
    charges: tuple[str, ...] = ()
    charged_cards_wait: bool = True
    ten_of_clubs: int = 1
    deals_per_game: int = 0
    claims: bool = False
    preset: str = field(default="standard", compare=False)
    """The preset this rule set was built from (for display and round trips only)."""

    def __post_init__(self) -> None:
        for spec in RULE_TABLE.values():
            spec.check(getattr(self, spec.name))

    # -- building ---------------------------------------------------------
    @classmethod
    def from_preset(cls, name: str = "standard", **overrides: Any) -> "Rules":
        """The named preset with field overrides (values as in the record format)."""
        return cls.from_spec({"preset": name, **overrides})

    @classmethod
    def from_spec(cls, spec: "Mapping[str, Any] | str | None") -> "Rules":
        """Build from a record's ``rules`` value: a preset name or ``{"preset": ..., field: value}``."""
        if spec is None:
            spec = {}
        if isinstance(spec, str):
            spec = {"preset": spec}
        if not isinstance(spec, Mapping):
            raise RuleError("rules: expected a preset name or an object of rule fields")
        name = spec.get("preset", "standard")
        if not isinstance(name, str) or name not in PRESETS:
            raise RuleError(f"preset: unknown preset {shown(name)}"
                            f"{did_you_mean(name, PRESETS) if isinstance(name, str) else ''} (known: {', '.join(PRESETS)})")
        values = dict(PRESETS[name].fields)
        for key, value in spec.items():
            if key == "preset":
                continue
            if key not in RULE_TABLE:
                raise RuleError(f"{shown(key)}: unknown rule field{did_you_mean(key, RULE_TABLE)} "
                                f"(known: {', '.join(RULE_TABLE)})")
            values[key] = _coerce(key, value)
        return cls(**values, preset=name)

    def replace(self, **overrides: Any) -> "Rules":
        return dataclasses.replace(self, **{k: _coerce(k, v) for k, v in overrides.items()})

    def to_spec(self) -> dict[str, Any]:
        """The shortest ``{"preset": ..., overrides}`` that rebuilds this rule set."""
        base = Rules.from_spec(self.preset)
        spec: dict[str, Any] = {"preset": self.preset}
        for name in RULE_FIELDS:
            value = getattr(self, name)
            if value != getattr(base, name):
                spec[name] = list(value) if isinstance(value, tuple) else value
        return spec

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready."""
        return {name: (list(v) if isinstance(v, tuple) else v)
                for name in RULE_FIELDS for v in [getattr(self, name)]}

    def table(self, players: int) -> "Table":
        """This rule set resolved for a number of players; raises :class:`RuleError` if unplayable."""
        return Table(self, players)


# ``Rules.preset(name, **overrides)`` builds a rule set; ``rules.preset`` is an instance's preset name.
# The classmethod is attached after the dataclass is made: defined in the class body it would
# become the ``preset`` field's default (and drop its ``compare=False``).
Rules.preset = Rules.__dict__["from_preset"]  # type: ignore[assignment]


@dataclass(frozen=True)
class Table:
    """A rule set resolved for ``players`` seats: the deck, hand size, pass offsets."""

    rules: Rules
    players: int

    def __post_init__(self) -> None:
        n = self.players
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RuleError(f"players: {n} players; Hearts is played by {MIN_PLAYERS} to {MAX_PLAYERS}")
        if popcount(self.deck) % n:
            raise RuleError(f"removed_cards: a deck of {popcount(self.deck)} cards does not deal evenly to {n} players")
        if self.rules.pass_count > self.hand_size:
            raise RuleError(f"pass_count: {self.rules.pass_count} is more than a hand of {self.hand_size}")
        if "across" in self.pass_cycle and n % 2:
            raise RuleError(f"pass_cycle: there is no 'across' with an odd number of players ({n})")
        if self.rules.first_lead != "left_of_dealer" and not self.deck & CLUBS_MASK:
            raise RuleError("first_lead: the deck has no clubs to lead")

    @property
    def removed_cards(self) -> tuple[str, ...]:
        if self.rules.removed_cards is not None:
            return self.rules.removed_cards
        return DEFAULT_REMOVED[self.players] if self.players in DEFAULT_REMOVED else ()

    @cached_property
    def removed(self) -> Mask:
        return mask_of(parse_card(c) for c in self.removed_cards)

    @cached_property
    def deck(self) -> Mask:
        return DECK & ~self.removed

    @cached_property
    def hand_size(self) -> int:
        return popcount(self.deck) // self.players

    @cached_property
    def pass_cycle(self) -> tuple[str, ...]:
        if self.rules.pass_cycle is not None:
            return self.rules.pass_cycle
        return ("left", "right", "across", "hold") if self.players == 4 else ("left", "right")

    @cached_property
    def lowest_club(self) -> Card | None:
        clubs = self.deck & CLUBS_MASK
        return lowest(clubs) if clubs else None

    def pass_direction(self, hand_number: int) -> str:
        """Direction of hand ``hand_number`` (1-based): ``pass_cycle[(k-1) % len]``; ``hold`` without passing."""
        if self.rules.pass_count == 0:
            return "hold"
        return self.pass_cycle[(hand_number - 1) % len(self.pass_cycle)]

    def game_over(self, totals: "Sequence[int]", deals: int = 0) -> bool:
        """Whether the game ends after ``deals`` hands with these running totals: a total reaches (or, under
        end_at exceed, passes) the target; under deals_per_game, the last deal was played."""
        if self.rules.deals_per_game:
            return deals >= self.rules.deals_per_game
        top = max(totals)
        return top > self.rules.target if self.rules.end_at == "exceed" else top >= self.rules.target

    def pass_offset(self, direction: str) -> int:
        """Seats from a passer to its receiver: left +1, right -1, across n/2, hold 0."""
        return {"left": 1, "right": self.players - 1, "across": self.players // 2, "hold": 0}[direction]

    def pass_target(self, seat: int, direction: str) -> int | None:
        """The seat that receives ``seat``'s pass in ``direction``; ``None`` on a hold hand (nobody passes).
        The one owner of "who receives the pass" (the compiled kernel has its twin).

        >>> table = Rules().table(4)
        >>> [table.pass_target(3, d) for d in ("left", "right", "across", "hold")]
        [0, 2, 1, None]
        >>> Rules().table(5).pass_target(0, "right"), Rules().table(6).pass_target(4, "across")
        (4, 1)
        """
        offset = self.pass_offset(direction)
        return (seat + offset) % self.players if offset else None

    def pass_source(self, seat: int, direction: str) -> int | None:
        """The seat whose pass ``seat`` receives in ``direction`` (the inverse of :meth:`pass_target`);
        ``None`` on a hold hand.

        >>> table = Rules().table(4)
        >>> [table.pass_source(0, d) for d in ("left", "right", "across", "hold")]
        [3, 1, 2, None]
        >>> all(table.pass_source(table.pass_target(s, d), d) == s for s in range(4) for d in ("left", "across"))
        True
        """
        offset = self.pass_offset(direction)
        return (seat - offset) % self.players if offset else None

    def direction_of_offset(self, offset: int) -> str | None:
        """The direction whose pass goes ``offset`` seats on (0 is ``hold``); ``None`` where no direction of
        these seats does (across with an odd count, or offsets between right and left at 5 to 7 seats).

        >>> [Rules().table(4).direction_of_offset(k) for k in range(4)]
        ['hold', 'left', 'across', 'right']
        >>> Rules().table(5).direction_of_offset(2) is None
        True
        """
        found = {self.pass_offset(d): d for d in reversed(PASS_DIRECTIONS) if d != "across" or self.players % 2 == 0}
        return found.get(offset % self.players)

    def dealer(self, hand_number: int, recorded: int | None = None) -> int:
        """The dealer of hand ``hand_number`` (1-based): the recorded one where a record gives it, else
        :func:`dealer_of` from seat 0.

        >>> table = Rules().table(4)
        >>> table.dealer(1), table.dealer(6), table.dealer(6, recorded=3)
        (0, 1, 3)
        """
        return recorded if recorded is not None else dealer_of(hand_number, 0, self.players)

    def winners(self, totals: "Sequence[int]") -> tuple[int, ...]:
        """The game's winners from its final totals: see :func:`winners`."""
        return winners(totals)

    @cached_property
    def needs_reference(self) -> bool:
        """Whether a value of this rule set is one some fast lane (:data:`LANES`) leaves to the reference
        engine: each field's ``modelled`` declaration in :data:`RULE_TABLE`."""
        return not all(self.models(lane) for lane in LANES)

    def unmodelled(self, lane: str) -> tuple[str, ...]:
        """The fields whose value here ``lane`` (one of :data:`LANES`) does not declare that it models.

        >>> Rules.preset("trend_hearts").table(4).unmodelled("kernel")
        ('moon', 'charges', 'ten_of_clubs', 'deals_per_game')
        >>> Rules.preset("trend_hearts").table(4).unmodelled("kernel_play"), Rules().table(4).unmodelled("screen")
        ((), ())
        """
        found = self._unmodelled.get(lane)
        if found is None:
            if lane not in LANES:
                raise ValueError(f"unknown lane {lane!r} (lanes: {', '.join(LANES)})")
            found = self._unmodelled[lane] = tuple(
                spec.name for spec in RULE_TABLE.values() if not spec.models(lane, getattr(self.rules, spec.name, spec.default)))
        return found

    def models(self, lane: str) -> bool:
        """Whether ``lane`` (one of :data:`LANES`) models every value of this rule set: a lane asks this
        before it takes a hand, and leaves the hand to the reference engine (or refuses it) if not."""
        return not self.unmodelled(lane)

    @cached_property
    def _unmodelled(self) -> dict[str, tuple[str, ...]]:
        return {}

    @cached_property
    def point_total(self) -> int:
        """Hearts and QS points in this deck: 26 unless point cards were removed."""
        return heart_points(self.deck)

    # -- the facts every lane reads (the play interpreter, the numpy lanes, the columnar screen) ----------
    @cached_property
    def first_lead_cards(self) -> Mask:
        """The cards that may lead trick 1 when held: the lowest club, any club, or 0 for no restriction."""
        first = self.rules.first_lead
        if first == "lowest_club":
            return 1 << self.lowest_club
        return CLUBS_MASK if first == "any_club" else 0

    @cached_property
    def first_trick_barred(self) -> Mask:
        """The cards kept off trick 1 while a seat may play something else: hearts and QS, or 0."""
        return 0 if self.rules.points_on_first_trick else POINT_CARDS_MASK

    @cached_property
    def heart_lead_hand(self) -> Mask:
        """While hearts are unbroken, a heart may be led only from a hand inside this mask: hearts and QS
        (``only_hearts_lead allowed``) or hearts alone; the whole deck when hearts need not be broken."""
        if not self.rules.hearts_must_be_broken:
            return DECK
        return POINT_CARDS_MASK if self.rules.only_hearts_lead == "allowed" else HEARTS_MASK

    @cached_property
    def breakers(self) -> Mask:
        """The cards that break hearts when they fall on a trick: hearts, and QS under ``heart_or_queen``."""
        return HEARTS_MASK | (QS_MASK if self.rules.hearts_broken_by == "heart_or_queen" else 0)

    @cached_property
    def ends_hand(self) -> bool:
        """A leader holding only hearts while they are unbroken takes every card left (``ends_hand``)."""
        return self.rules.only_hearts_lead == "ends_hand" and self.rules.hearts_must_be_broken

    @cached_property
    def moon_cards(self) -> Mask:
        """The hearts and QS of this deck: a seat taking them all shot the moon (0 where moons are off)."""
        return 0 if self.rules.moon == "none" else self.deck & POINT_CARDS_MASK


def dealer_of(hand_number: int, first_dealer: int, players: int) -> int:
    """The dealer of hand ``hand_number`` (1-based) when ``first_dealer`` dealt hand 1: the deal passes
    one seat on (to the left) each hand. The one owner of dealer rotation (the compiled kernel has its twin).

    >>> [dealer_of(k, 0, 4) for k in range(1, 7)]
    [0, 1, 2, 3, 0, 1]
    >>> dealer_of(1, 3, 4), dealer_of(2, 3, 4), dealer_of(8, 2, 7)
    (3, 0, 2)
    """
    return (first_dealer + hand_number - 1) % players


def heart_points(cards: Mask) -> int:
    """The heart and QS points of ``cards``: 1 a heart, :data:`QUEEN_POINTS` for QS. The one owner of
    those points for scalar code (``engine.scoring`` adds JD, QC, the no-trick bonus and charges to score
    a hand; ``rule_arrays.heart_points`` is the array twin).

    >>> heart_points(mask_of(parse_card(c) for c in ("2H", "AH", "QS", "JD")))
    15
    """
    return (cards & HEARTS_MASK).bit_count() + (QUEEN_POINTS if cards & QS_MASK else 0)


def jack_points(rules: Rules, cards: Mask) -> int:
    """What JD in ``cards`` scores its taker (``jack_of_diamonds``; 0 without JD). JD keeps this in a moon hand too.

    >>> jack_points(Rules.preset("omnibus"), mask_of([parse_card("JD")])), jack_points(Rules(), DECK)
    (-10, 0)
    """
    return rules.jack_of_diamonds if cards >> JD & 1 else 0


def winners(totals: "Sequence[int]") -> tuple[int, ...]:
    """The seats with the lowest total: the game's winners once it is over (a tie shares the win). The one
    owner of "lowest total wins" for scalar code.

    >>> winners([62, 101, 48, 48])
    (2, 3)
    >>> winners([0, 5, 7])
    (0,)
    """
    low = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == low)


# -- field coercion: the record format's values to the frozen type's ------------
def _cards_tuple(key: str, value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)):
        raise RuleError(f"{key}: expected a list of cards")
    try:
        cards = [parse_card(v) for v in value]
    except CardError as error:
        raise RuleError(f"{key}: {error}") from None
    if len(set(cards)) != len(cards):
        raise RuleError(f"{key}: a card is listed twice")
    return tuple(card_name(c) for c in cards)


def _strings_tuple(key: str, value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RuleError(f"{key}: expected a list of directions")
    return tuple(value)


def _typed(kind: type) -> Any:
    def coerce(key: str, value: Any) -> Any:
        if kind is bool:
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            if not isinstance(value, bool):
                raise RuleError(f"{key}: expected true or false, got {shown(value)}")
            return value
        if kind is int:
            if isinstance(value, str):
                try:
                    return int(value)
                except ValueError:
                    pass
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(f"{key}: expected a whole number, got {shown(value)}")
            return value
        if not isinstance(value, str):
            raise RuleError(f"{key}: expected a name, got {shown(value)}")
        return value
    return coerce


_BOOL, _INT, _NAME = _typed(bool), _typed(int), _typed(str)


@dataclass(frozen=True)
class RuleField:
    """Everything known about one rule field, in one place (as OpenSpiel's ``parameter_specification``).

    The type and default are the :class:`Rules` field's; the rest is here, and every reader of rule
    facts reads it: coercion of ``--set`` and record values, validation, ``hearts rules``, a report
    page's rule sentences, the rules fit's candidate values and the fast lanes' "is this modelled".

    >>> RULE_TABLE["moon"].modelled_value("shooter_gains_fourfold"), RULE_TABLE["target"].default
    (False, 100)
    """

    name: str
    coerce: Callable[[str, Any], Any]
    """The record format's value (or the command line's text) to the frozen type's, or :class:`RuleError`."""
    help: str
    """What the field decides, in plain words (``hearts rules``); a field of named values adds each
    value's sentence of :attr:`words`."""
    allowed: str = ""
    """What it accepts, in words; left empty for a field of named values (the names are listed)."""
    words: Mapping[Any, str] = field(default_factory=dict)
    """Each named value's sentence on a report page (and a flag's, where a page says it), which also
    says in ``hearts rules`` what the value means (``{card}``, ``{total}``, ``{fourfold}`` and
    ``{target}`` are filled in)."""
    items: tuple[str, ...] = ()
    """For a list field: the items it may hold."""
    refusal: str = "unknown value {shown}"
    """The error of an item not in :attr:`items` (``{item}`` as given, ``{shown}`` quoted)."""
    items_label: str = "allowed"
    empty: str = ""
    """The error of an empty list, where a list must hold something."""
    minimum: int | None = None
    below: str = ""
    """The error of a number under :attr:`minimum`."""
    candidates: tuple[Any, ...] | None = None
    """The values the rules fit tries for this field beyond its named values (``None`` for a field without
    named values: derived from the records)."""
    modelled: "Declared | Mapping[str, Declared]" = None
    """What the fast lanes (:data:`LANES`) model of this field: :data:`ALL` (every value), a tuple of values,
    or ``None`` (its default value only); one declaration for every lane, or a mapping from a lane to its
    own (a lane it does not name: the default only). A hand under a value a lane does not model is left
    to the reference engine (or refused). A field added to the table without a declaration reaches no
    fast lane under any other value than its default."""

    @property
    def default(self) -> Any:
        """The value of a :class:`Rules` built with no overrides."""
        spec = Rules.__dataclass_fields__.get(self.name)
        return spec.default if spec is not None else getattr(Rules, self.name)

    def declared(self, lane: str) -> "Declared":
        """``lane``'s declaration for this field (:attr:`modelled`)."""
        if isinstance(self.modelled, Mapping):
            return self.modelled.get(lane)
        return self.modelled

    def models(self, lane: str, value: Any) -> bool:
        """Whether ``lane`` models ``value`` of this field.

        >>> RULE_TABLE["only_hearts_lead"].models("quick", "ends_hand"), RULE_TABLE["moon"].models("screen", "none")
        (False, True)
        """
        declared = self.declared(lane)
        if declared is None:
            return value == self.default
        return declared == ALL or value in declared

    @property
    def choices(self) -> tuple[Any, ...]:
        """The named values this field takes, or ``()`` for a field of numbers, flags or lists."""
        return tuple(self.words) if self.coerce is _NAME else ()

    @property
    def tried(self) -> tuple[Any, ...] | None:
        """The values the rules fit tries: :attr:`candidates`, else the named values, else for a flag
        the default first, then the other."""
        if self.candidates is not None:
            return self.candidates
        if self.coerce is _BOOL:
            return (self.default, not self.default)
        return self.choices or None

    def sentence(self, value: Any, **facts: Any) -> str:
        """A named value's sentence on a report page, with the table's facts filled in."""
        return self.words[value].format(**facts)

    def modelled_value(self, value: Any) -> bool:
        """Whether every fast lane models ``value`` of this field."""
        return all(self.models(lane, value) for lane in LANES)

    def check(self, value: Any) -> None:
        """:class:`RuleError` if ``value`` (already coerced) is not one this field takes."""
        if self.choices and value not in self.choices:
            raise RuleError(f"{self.name}: unknown value {shown(value)} (allowed: {', '.join(self.choices)})")
        if self.items and value is not None:
            if not value and self.empty:
                raise RuleError(f"{self.name}: {self.empty}")
            for item in value:
                if item not in self.items:
                    raise RuleError(f"{self.name}: {self.refusal.format(item=item, shown=shown(item))} "
                                    f"({self.items_label}: {', '.join(self.items)})")
        if self.minimum is not None and value < self.minimum:
            raise RuleError(f"{self.name}: {self.below}")

    def accepts(self) -> str:
        """What the field accepts, in words (``hearts rules``)."""
        return self.allowed or ", ".join(self.choices)


_MOON_WHO = "Shooting the moon (all hearts and QS)"


def _scored(values: tuple[Any, ...]) -> dict[str, Declared]:
    """The declaration of a field whose other values the lanes that score leave to the reference engine;
    the kernel playing the simulator's hands reads no score, charge or claim (:data:`LANES`)."""
    return {"quick": values, "screen": values, "kernel": values, "kernel_play": ALL}
_TRUE_FALSE = "true, false"

RULE_TABLE: dict[str, RuleField] = {spec.name: spec for spec in [
    RuleField("removed_cards", _cards_tuple, "Cards taken out of the deck. Left unset, they depend on the player "
              "count.", "a list of cards, e.g. 2D 3D", modelled=ALL),
    RuleField("pass_count", _INT, "Cards each seat passes; 0 means no passing.", "a whole number; 0 means no passing",
              minimum=0, below="must be 0 or more", modelled=ALL),
    RuleField("pass_cycle", _strings_tuple, "Directions for hands 1, 2, ...; left unset, 4 players pass left right "
              "across hold, others left right.",
              f"a list of {', '.join(PASS_DIRECTIONS)}, or {ANY_DIRECTION} (each hand states its direction)",
              items=PASS_DIRECTIONS + (ANY_DIRECTION,), empty="must name at least one direction", modelled=ALL),
    RuleField("first_lead", _NAME, "Who leads trick 1 and what.", words={
        "lowest_club": "The holder of {card} leads it to the first trick.",
        "any_club": "The holder of the lowest club leads any club to the first trick.",
        "left_of_dealer": "The player left of the dealer leads the first trick, any legal card.",
    }, modelled=ALL),
    RuleField("points_on_first_trick", _BOOL, "May hearts or QS fall on trick 1 (always, for a seat holding nothing "
              "else).", _TRUE_FALSE, words={
        True: "Points may be played on the first trick.",
        False: "No heart and no QS on the first trick, unless a player holds nothing else.",
    }, modelled=ALL),
    RuleField("hearts_must_be_broken", _BOOL, "May a heart be led only once hearts are broken.", _TRUE_FALSE,
              words={False: "Hearts may be led at any time."}, modelled=ALL),
    RuleField("hearts_broken_by", _NAME, "What breaks hearts when played on an earlier trick.", words={
        "heart": "Hearts may not be led until a heart has been played on an earlier trick.",
        "heart_or_queen": "Hearts may not be led until a heart or QS has been played on an earlier trick.",
    }, modelled=ALL),
    RuleField("only_hearts_lead", _NAME, "A leader left with only hearts (and maybe QS) while hearts are unbroken.",
              words={
                  "allowed": "A leader holding only hearts (and maybe QS) may lead a heart anyway.",
                  "queen_first": "A leader holding only hearts and QS must lead QS.",
                  "ends_hand": "A leader holding only hearts ends the hand and takes every remaining card.",
              }, modelled={"quick": ("allowed", "queen_first"), "screen": ALL, "kernel": ALL, "kernel_play": ALL}),
    RuleField("jack_of_diamonds", _INT, "Points for taking JD (Omnibus: -10).", "a whole number of points", modelled=ALL),
    RuleField("queen_of_clubs_cancels_queen", _BOOL, "QS scores 0 for a seat that also took QC.", _TRUE_FALSE,
              words={True: "A player who takes QC and QS scores nothing for QS."}, modelled=ALL),
    RuleField("no_tricks_bonus", _INT, "Points for a seat that took no trick, in a hand where nobody shot the moon.",
              "a whole number of points", modelled=ALL),
    RuleField("moon", _NAME, "A seat that took every heart and QS (JD stays with its taker).", words={
        "add_to_others": _MOON_WHO + " adds {total} to every other player.",
        "subtract_from_shooter": _MOON_WHO + " subtracts {total} from the shooter.",
        "shooter_choice": _MOON_WHO + ": the shooter chooses \u2212{total} for itself or +{total} to every other "
                          "player.",
        "none": "There is no moon: every point counts as taken.",
        "shooter_gains_fourfold": _MOON_WHO + ": the shooter scores {fourfold} times its points for the hand "
                                  "(charges and TC included) as a gain, and every other player 0.",
    }, modelled=_scored(MOON_CHOICES + ("shooter_choice", "none"))),
    RuleField("target", _INT, "The game ends after the hand in which a total reaches it.", "a positive whole number",
              minimum=1, below="must be a positive number of points", modelled=ALL),
    RuleField("end_at", _NAME, "Whether a total must reach or pass the target.", words={
        "reach": "The game ends when a total reaches {target}; the lowest total wins.",
        "exceed": "The game ends when a total passes {target}; the lowest total wins.",
    }, modelled=ALL),
    RuleField("charges", lambda key, value: _cards_tuple(key, value) or (),
              "Cards a seat may charge (expose) after the pass, doubling their penalty: AH (every heart scores "
              "double), QS (26), JD (twice jack_of_diamonds), TC (twice ten_of_clubs).",
              f"a list of {', '.join(CHARGEABLE)}; empty: no charging", items=CHARGEABLE,
              refusal="{item} cannot be charged", items_label="chargeable", candidates=((), ("AH",), CHARGEABLE), modelled=_scored(((),))),
    RuleField("charged_cards_wait", _BOOL, "May a charged card not be played to the first trick of its suit, led or "
              "followed, while its holder has another card it may play there (false: a charged card is played like "
              "any other).", _TRUE_FALSE, words={
        True: "A charged card may not be played to the first trick of its suit while its holder has another card "
              "it may play there.",
        False: "A charged card may be played at any time, the first trick of its suit included.",
    }, modelled=ALL),
    RuleField("ten_of_clubs", _INT, "The taker of TC has its points for the hand multiplied by this (1: TC is an "
              "ordinary card).", "a whole number, 1 or more", minimum=1, below="must be a multiplier of 1 or more",
              candidates=(1, 2), modelled=_scored((1,))),
    RuleField("deals_per_game", _INT, "A game is this many deals, whatever the totals (0: the game is played to the "
              "target).", "a whole number; 0 plays to the target", minimum=0,
              below="must be 0 (play to the target) or a number of deals", candidates=(0, 4), modelled=_scored((0,))),
    RuleField("claims", _BOOL, "May a seat claim the remaining tricks (the others accepting): the hand ends, the "
              "claimer takes every card not yet played.", _TRUE_FALSE, modelled=_scored((False,)), words={
        True: "A player may claim the remaining tricks; if the others accept, the hand ends and the claimer takes "
              "every card not yet played.",
    }),
]}
"""The rule-field table: one :class:`RuleField` per field of :class:`Rules`, in its order."""
RULE_FIELDS: tuple[str, ...] = tuple(RULE_TABLE)
FIRST_LEADS = RULE_TABLE["first_lead"].choices
HEARTS_BROKEN_BY = RULE_TABLE["hearts_broken_by"].choices
ONLY_HEARTS_LEADS = RULE_TABLE["only_hearts_lead"].choices
MOON_RULES = RULE_TABLE["moon"].choices
END_AT = RULE_TABLE["end_at"].choices


def _coerce(key: str, value: Any) -> Any:
    if key not in RULE_TABLE:
        raise RuleError(f"{shown(key)}: unknown rule field{did_you_mean(key, RULE_TABLE)}")
    return RULE_TABLE[key].coerce(key, value)


@dataclass(frozen=True)
class Preset:
    name: str
    source: str
    """Where the rule system comes from, and the interpretations chosen."""
    fields: Mapping[str, Any]
    players: tuple[int, ...] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    """The player counts its source plays it with."""


def _preset(name: str, source: str, players: tuple[int, ...] | None = None, **fields: Any) -> Preset:
    counts = players or tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    return Preset(name, source, {k: _coerce(k, v) for k, v in fields.items()}, counts)


PRESETS: dict[str, Preset] = {p.name: p for p in [
    _preset("standard", "The common modern rules (each field's default, as the rules guide tabulates it); 3-7 "
            "players with the classic "
            "removed cards."),
    _preset("omnibus", "Standard rules with Omnibus Hearts' jack of diamonds worth -10.", jack_of_diamonds=-10),
    _preset(
        "black_queen",
        "'Black Queen', from the Hebrew encyclopedia article 'Levavot' (Hearts): 4 players; hearts are broken "
        "only by a heart; "
        "a leader with only hearts while unbroken ends the hand (interpretation: that leader takes all "
        "remaining cards, and the moon rule applies if that gives it every point card); the moon adds 26 "
        "to every other seat; the game ends when a total passes (exceeds) 100. Its optional variants are "
        "overrides: jack_of_diamonds -10, queen_of_clubs_cancels_queen true.",
        players=(4,), pass_cycle=["left", "right", "across", "hold"], hearts_broken_by="heart",
        only_hearts_lead="ends_hand", moon="add_to_others", end_at="exceed"),
    _preset(
        "classic",
        "Classic rules for 3 to 7 players derived from Reversis, as a Hebrew rules page for Hearts gives them: "
        "removed cards by player count; "
        "where 2C is removed the lowest club in the deck leads (interpretation); hearts broken by a heart or QS; "
        "the shooter chooses -26 for itself or +26 to the others; the game ends when a total reaches the target."),
    _preset(
        "online",
        "The rules page of an online Hearts site, 'Play Hearts online with friends for free' (in Persian): "
        "4 players, left right across hold, 2C leads, "
        "no points on trick 1, hearts broken by a heart or QS, a leader with only hearts (and QS) may lead a "
        "heart, the shooter chooses -26 or +26 to the others, game to 100. Its optional rule is jack_of_diamonds -10.",
        players=(4,), pass_cycle=["left", "right", "across", "hold"]),
    _preset(
        "basic",
        "Basic how-to rules for 3 or 4 players, from a how-to page on Hearts (in Persian): pass to the left "
        "every hand, the player left of "
        "the dealer leads any legal card, no first-trick restriction, hearts broken only by a heart, the "
        "shooter chooses. Interpretation: the 3-player deck drops 2D (the source loses the suit).",
        players=(3, 4), pass_cycle=["left"], first_lead="left_of_dealer", points_on_first_trick=True,
        hearts_broken_by="heart"),
    _preset(
        "openspiel",
        "The hearts game of OpenSpiel (DeepMind's framework for research on games) with its default parameters: one hand "
        "of 4 players, a chance-dealt pass direction each hand "
        "(pass_cycle 'any': the record states it), 2C leads, no points on trick 1, hearts broken by a heart or QS, "
        "a leader with only hearts and QS must lead QS, the moon adds 26 to the others. Its options map to "
        "overrides: pass_cards=false -> pass_count 0, can_lead_any_club -> first_lead any_club, "
        "no_pts_on_first_trick=false -> "
        "points_on_first_trick true, must_break_hearts=false -> hearts_must_be_broken false, "
        "qs_breaks_hearts=false -> hearts_broken_by heart, can_lead_hearts_instead_of_qs -> only_hearts_lead "
        "allowed, jd_bonus -> jack_of_diamonds -10, avoid_all_tricks_bonus -> no_tricks_bonus -5. "
        "Checked against real files written by OpenSpiel: the 25 xinxin histories of its examples (every pass "
        "direction) replay with no violation, and its playthrough of a hand replays with no violation and "
        "its returns equal 26 less the points scored here. Not checked, and so taken from OpenSpiel's source: "
        "the moon (no moon in those files), and every non-default parameter.",
        players=(4,), pass_cycle=["any"], only_hearts_lead="queen_first", moon="add_to_others"),
    _preset(
        "sturtevant",
        "Nathan Sturtevant's Hearts program (the xinxin lineage), as its own driver sets its rules bitmask: "
        "4 players, left right across hold, the holder of 2C leads any club, no hearts or QS on trick 1, hearts "
        "broken by a heart or QS, a leader with only hearts and QS leads QS, the moon adds 26 to the others, game "
        "to 100. Its other bits map to overrides: no pass -> pass_count 0, 2C leads -> first_lead lowest_club, "
        "neither clubs rule -> first_lead left_of_dealer, JD bonus -> jack_of_diamonds -10, no-trick bonus -> "
        "no_tricks_bonus -5, no shooting -> moon none. (The program takes 10 off every seat's moon score when "
        "the shooter took JD; an imported game says so in its audit.) Not checked against a real .play file "
        "(none is public): the file's layout and the rules bits are read from the program's source.",
        players=(4,), pass_cycle=["left", "right", "across", "hold"], first_lead="any_club", only_hearts_lead="queen_first",
        moon="add_to_others"),
    _preset(
        "hearts_league",
        "The Hearts League bot-league program: 4 players passing left, right, across in turn (no hold hand), "
        "2C leads, points allowed on trick 1, hearts broken by a heart or QS, a leader with only hearts and QS "
        "may lead a heart, a seat taking all 26 points scores 0 and the others 26, game to 100. Checked against "
        "the output of the original program, run unmodified with its example roster (24 games, 282 rounds, 4 "
        "moons): every play fits these rules and every round's points match. Not checked (its bots play the "
        "first legal card): a leader with only hearts and QS, and the game's end at exactly 100.",
        players=(4,), pass_cycle=["left", "right", "across"], points_on_first_trick=True, moon="add_to_others"),
    _preset(
        "trend_hearts",
        "Trend Micro's Trend Hearts contest server: a game is 4 deals passing left, right, across, then none; "
        "2C leads, no points on trick 1, hearts broken by a heart or QS; each heart scores 1 and QS 13; the "
        "holder of AH may expose it, which doubles every heart, and the exposed AH may be played, and led, to "
        "the first heart trick; TC doubles its taker's points; a moon (every heart and QS) gives the shooter "
        "four times its ordinary deal score as a gain and the others 0; the highest game score wins (here, as "
        "positive points, the lowest). Checked against a real log (one complete game of 4 deals, written by "
        "the contest's sample bot): the pass cycle, the heart, QS, exposed-AH and TC scores, the moon (AH "
        "exposed, TC with the shooter: +312), an exposed AH played to and led on the first heart trick, "
        "the game's end after 4 deals. Not checked, and so assumptions: a moon without TC or without the "
        "exposure, a leader with only hearts (taken as allowed to lead one), points on trick 1 by a seat "
        "holding nothing else, and ties.",
        players=(4,), pass_cycle=["left", "right", "across", "hold"], charges=["AH"], charged_cards_wait=False,
        ten_of_clubs=2, moon="shooter_gains_fourfold", deals_per_game=4),
    _preset(
        "turbo_hearts",
        "Turbo Hearts (an online Hearts with charging): a game is 4 deals passing left, right, across, then a "
        "keeper pass; 2C leads, no points on trick 1, hearts broken only by a heart, a leader with only hearts "
        "and QS leads QS; AH, QS, JD and TC may be charged, doubling their effect (hearts 2, QS 26, JD -20, TC "
        "x4); JD scores -10, TC doubles its taker's points; a seat taking every heart and QS scores them "
        "negative; claims end a hand. Not modelled, and so named in the audit of an imported game: the keeper "
        "pass. Turbo Hearts also keeps JD off trick 1 and forces JD or QS there on a seat holding only points; "
        "the audit checks trick 1 as points_on_first_trick false. Not checked against a real log (none is "
        "public): the events and the scoring are read from the program's source.",
        players=(4,), pass_cycle=["left", "right", "across", "hold"], hearts_broken_by="heart", only_hearts_lead="queen_first",
        jack_of_diamonds=-10, charges=["AH", "QS", "JD", "TC"], ten_of_clubs=2, moon="subtract_from_shooter",
        deals_per_game=4, claims=True),
    _preset(
        "killer_hearts",
        "Killer Hearts, an expert Windows Hearts program, as its logs and a public reader of them show: "
        "4 players West North East South clockwise (seats 0-3), the dealer as logged, pass left right across "
        "hold from the first deal of a game, 2C leads, no points on trick 1 (unless a seat holds nothing "
        "else), a heart or QS breaks hearts, a leader with only hearts may lead one, the moon is scored by "
        "the shooter's choice (the program adds 26 to the others unless that leaves the shooter behind, "
        "then takes 26 from the shooter: the logged score says which), the game ends when a total reaches "
        "100. A game whose log starts the pass cycle elsewhere is imported with the cycle rotated. Not checked "
        "against a real log (none is public; a reader's source quotes four lines of one): the layout is taken "
        "from that reader.",
        players=(4,), pass_cycle=["left", "right", "across", "hold"]),
]}
"""The presets by name. ``classic``, ``online`` and ``killer_hearts`` play exactly as ``standard`` at the
player counts their sources name: the name records where a corpus's rules come from."""


def parse_override(text: str) -> tuple[str, Any]:
    """``field=value`` from the command line; JSON-ish values (``true``, ``-10``, ``2D,3D``)."""
    key, sep, value = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep:
        raise RuleError(f"{shown(text)}: expected field=value, e.g. jack_of_diamonds=-10")
    return key, _coerce(key, value.strip())
