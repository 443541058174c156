"""Rule fields and presets in plain words, for ``hearts rules`` and the docs.

The text has one source: each field's description is its attribute docstring
in :mod:`hearts_analysis.rules`, each preset's is its ``source``; this module
only reads them and spells out the allowed values and defaults.

>>> field_help("jack_of_diamonds").description
'Points for taking JD (Omnibus: -10).'
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import rules as rules_module
from .rules import (CHARGEABLE, DEFAULT_REMOVED, END_AT, FIRST_LEADS, HEARTS_BROKEN_BY, MOON_RULES, ONLY_HEARTS_LEADS,
                    PASS_DIRECTIONS, PRESETS, RULE_FIELDS, ANY_DIRECTION, Rules)

_ALLOWED = {
    "removed_cards": "a list of cards, e.g. 2D 3D",
    "pass_count": "a whole number; 0 means no passing",
    "pass_cycle": f"a list of {', '.join(PASS_DIRECTIONS)}, or {ANY_DIRECTION} (each hand states its direction)",
    "first_lead": ", ".join(FIRST_LEADS),
    "points_on_first_trick": "true, false",
    "hearts_must_be_broken": "true, false",
    "hearts_broken_by": ", ".join(HEARTS_BROKEN_BY),
    "only_hearts_lead": ", ".join(ONLY_HEARTS_LEADS),
    "jack_of_diamonds": "a whole number of points",
    "queen_of_clubs_cancels_queen": "true, false",
    "no_tricks_bonus": "a whole number of points",
    "moon": ", ".join(MOON_RULES),
    "target": "a positive whole number",
    "end_at": ", ".join(END_AT),
    "charges": f"a list of {', '.join(CHARGEABLE)}; empty: no charging",
    "ten_of_clubs": "a whole number, 1 or more",
    "deals_per_game": "a whole number; 0 plays to the target",
    "claims": "true, false",
}


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


@lru_cache(maxsize=1)
def field_docs() -> dict[str, str]:
    """Each rule field's attribute docstring, as written in ``rules.py``."""
    tree = ast.parse(inspect.getsource(rules_module))
    cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Rules")
    docs: dict[str, str] = {}
    body = cls.body
    for node, after in zip(body, body[1:]):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def plain(text: str) -> str:
    """Docstring markup out: ``x`` -> x, :data:`NAME` references dropped or unwrapped."""
    text = re.sub(r"\s*\(:\w+:`[^`]+`\)", "", text)
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", text)
    return text.replace("``", "")


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
    standard = Rules.from_spec("standard")
    return FieldHelp(name, plain(field_docs()[name]), _ALLOWED[name], value_text(name, getattr(standard, name)))


def all_field_help() -> list[FieldHelp]:
    return [field_help(name) for name in RULE_FIELDS]


@dataclass(frozen=True)
class PresetHelp:
    name: str
    source: str
    overrides: dict[str, Any]
    """The fields where this preset differs from ``standard``."""

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.name, "source": self.source, "overrides": self.overrides,
                "fields": Rules.from_spec(self.name).to_dict()}


def preset_help(name: str) -> PresetHelp:
    preset = PRESETS[name]
    standard = Rules.from_spec("standard")
    rules = Rules.from_spec(name)
    overrides = {field: rules.to_dict()[field] for field in RULE_FIELDS
                 if getattr(rules, field) != getattr(standard, field)}
    return PresetHelp(name, preset.source, overrides)


def all_preset_help() -> list[PresetHelp]:
    return [preset_help(name) for name in PRESETS]
