"""Rule fields and presets in plain words, for ``hearts rules`` and the docs.

The text has one source: each field's description is its entry in the rule-field
table (:data:`hearts_analysis.rules.RULE_TABLE`: its help, and for a field of
named values each value's sentence, the one a report page shows), each preset's
is its ``source``; this module only reads them and spells out the defaults.

>>> field_help("jack_of_diamonds").description
'Points for taking JD (Omnibus: -10).'
>>> field_help("hearts_broken_by").description.split(". ")[1]
'heart: Hearts may not be led until a heart has been played on an earlier trick'
"""

from __future__ import annotations

import dataclasses
import textwrap
from dataclasses import dataclass
from typing import Any

from .rules import DEFAULT_REMOVED, FOURFOLD, PRESETS, RULE_FIELDS, RULE_TABLE, Rules

WIDTH = 100
"""The width of the reference text and of an inference's text."""


@dataclass(frozen=True)
class FieldHelp:
    name: str
    description: str
    allowed: str
    default: str
    """The value under the ``standard`` preset, in words."""

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.name, "description": self.description, "allowed": self.allowed,
                "default": self.default}


GENERIC_FACTS = {"card": "the lowest club", "total": str(Rules().table(4).point_total), "fourfold": str(FOURFOLD),
                 "target": "the target"}
"""What a value's page sentence says where no table is at hand (``hearts rules`` speaks of every table:
the moon's total is a full deck's)."""


def value_text(name: str, value: Any) -> str:
    """A field value in words: lists space-separated, ``None`` as the per-player-count default."""
    if value is None:
        if name == "removed_cards":
            return "by player count (" + "; ".join(
                f"{n}p {' '.join(cards) or 'none'}" for n, cards in DEFAULT_REMOVED.items()) + ")"
        if name == "pass_cycle":
            return "by player count (4p left right across hold; others left right)"
        return "none"
    if isinstance(value, (tuple, list)):
        return " ".join(value) or "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def field_help(name: str) -> FieldHelp:
    spec = RULE_TABLE[name]
    meanings = [f"{value_text(name, value)}: {spec.sentence(value, **GENERIC_FACTS)}" for value in spec.words]
    description = " ".join([spec.help, *meanings])
    return FieldHelp(name, description, spec.accepts(), value_text(name, getattr(Rules.from_spec("standard"), name)))


def all_field_help() -> list[FieldHelp]:
    return [field_help(name) for name in RULE_FIELDS]


@dataclass(frozen=True)
class Difference:
    """One field where a preset plays unlike ``standard``, at some player counts."""

    field: str
    value: Any
    standard: Any
    players: tuple[int, ...]

    def text(self, all_players: tuple[int, ...]) -> str:
        """``hearts_broken_by heart (standard: heart_or_queen)``, with the player counts if not all.

        >>> Difference("pass_cycle", ("left",), ("left", "right"), (3,)).text((3, 4))
        'pass_cycle left for 3 players (standard: left right)'
        """
        counts = "" if self.players == all_players else f" for {players_text(self.players)}"
        return (f"{self.field} {value_text(self.field, self.value)}{counts} "
                f"(standard: {value_text(self.field, self.standard)})")


def players_text(counts: tuple[int, ...]) -> str:
    """``3, 5-7 players``: runs of player counts in words.

    >>> players_text((3, 5, 6, 7)), players_text((4,))
    ('3, 5-7 players', '4 players')
    """
    runs: list[list[int]] = []
    for n in counts:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs) + " players"


def _as_played(rules: Rules, players: int) -> dict[str, Any]:
    """Every field as a table of this many players plays it (unset fields resolved by the count)."""
    table = rules.table(players)
    return {**{name: getattr(rules, name) for name in RULE_FIELDS},
            "removed_cards": tuple(table.removed_cards), "pass_cycle": tuple(table.pass_cycle)}


@dataclass(frozen=True)
class PresetHelp:
    name: str
    source: str
    overrides: dict[str, Any]
    """The fields where this preset is set otherwise than ``standard``."""
    players: tuple[int, ...]
    """The player counts its source plays it with."""
    differences: tuple[Difference, ...]
    """Where it plays unlike ``standard`` (with the same player count), field by field."""
    aliases: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """For ``standard``: the presets that play exactly as it does at every player count they name
    (a name for their source, not other rules), with those counts."""

    @property
    def same_as_standard(self) -> tuple[int, ...]:
        """The player counts at which this preset plays exactly as ``standard``."""
        differing = {n for d in self.differences for n in d.players}
        return tuple(n for n in self.players if n not in differing)

    def comparison(self) -> str:
        """The preset against ``standard``, in words: the same, or where and how it differs."""
        same = self.same_as_standard
        if self.name == "standard":
            same_as = "; ".join(f"{name} ({players_text(counts)})" for name, counts in self.aliases)
            return f"Played by {players_text(self.players)}." + (
                f" These presets play exactly as standard (they name their source, not other rules): {same_as}."
                if same_as else "")
        if same == self.players:
            return f"The same as standard for {players_text(same)}."
        lead = f"The same as standard for {players_text(same)}; differs " if same else "Differs from standard "
        return lead + "in " + "; ".join(d.text(self.players) for d in self.differences) + "."

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.name, "source": self.source, "overrides": self.overrides,
                "players": list(self.players), "same_as_standard": list(self.same_as_standard),
                "fields": Rules.from_spec(self.name).to_dict()}


def preset_help(name: str) -> PresetHelp:
    preset = PRESETS[name]
    standard = Rules.from_spec("standard")
    rules = Rules.from_spec(name)
    overrides = {field: rules.to_dict()[field] for field in RULE_FIELDS
                 if getattr(rules, field) != getattr(standard, field)}
    found: dict[tuple[str, Any, Any], list[int]] = {}
    for players in preset.players:
        ours, theirs = _as_played(rules, players), _as_played(standard, players)
        for field in RULE_FIELDS:
            if ours[field] != theirs[field]:
                found.setdefault((field, ours[field], theirs[field]), []).append(players)
    differences = tuple(Difference(field, value, other, tuple(counts)) for (field, value, other), counts
                        in sorted(found.items(), key=lambda kv: (RULE_FIELDS.index(kv[0][0]), kv[1])))
    return PresetHelp(name, preset.source, overrides, preset.players, differences)


def all_preset_help() -> list[PresetHelp]:
    """Every preset's help; ``standard``'s names the presets that are the same rules under another name.

    >>> all_preset_help()[0].comparison().split(": ")[-1]
    'classic (3-7 players); online (4 players); killer_hearts (4 players).'
    """
    helps = [preset_help(name) for name in PRESETS]
    aliases = tuple((h.name, h.players) for h in helps
                    if h.name != "standard" and h.same_as_standard == h.players)
    return [dataclasses.replace(h, aliases=aliases) if h.name == "standard" else h for h in helps]


def reference_dict() -> dict[str, Any]:
    """``hearts rules --format json``: every preset and every rule field.

    >>> data = reference_dict()
    >>> sorted(data), data["presets"][0]["preset"]
    (['fields', 'presets'], 'standard')
    """
    return {"presets": [p.to_dict() for p in all_preset_help()], "fields": [f.to_dict() for f in all_field_help()]}


def wrap(text: str, indent: str) -> list[str]:
    """``text`` in lines of :data:`WIDTH` at most, each starting with ``indent``."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def reference_text(presets: list[PresetHelp] | None = None, fields: list[FieldHelp] | None = None) -> str:
    """Every preset (with its source) and every rule field, in plain words: what ``hearts rules`` prints.

    >>> text = reference_text()
    >>> text.splitlines()[0]
    'Presets (use with --rules PRESET; override a field with --set FIELD=VALUE)'
    >>> "  target" in text.splitlines()
    True
    """
    presets = all_preset_help() if presets is None else presets
    fields = all_field_help() if fields is None else fields
    lines = ["Presets (use with --rules PRESET; override a field with --set FIELD=VALUE)", ""]
    for preset in presets:
        lines.append(f"  {preset.name}")
        lines += wrap(preset.source, "      ")
        lines += wrap(preset.comparison(), "      ")
        lines.append("")
    lines += ["Rule fields (defaults are the standard preset's)", ""]
    for field in fields:
        lines.append(f"  {field.name}")
        lines += wrap(field.description, "      ")
        lines += wrap(f"values: {field.allowed}", "      ")
        lines += wrap(f"default: {field.default}", "      ")
        lines.append("")
    return "\n".join(lines).rstrip()
