"""Records to ``hearts-game/1`` objects, ready for JSON: canonical card names, fields in record order.

>>> from hearts_analysis.records.model import GameRecord
>>> game_to_dict(GameRecord(players=("a", "b", "c"), hands=()))
{'format': 'hearts-game/1', 'players': ['a', 'b', 'c'], 'hands': []}
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, Iterable

import orjson

from ...cards import Card, card_name
from ...rules import Rules
from ..model import FORMAT, GAME_FIELDS, HAND_FIELDS, GameRecord, HandRecord, attribute_of


def _names(cards: Iterable[Card]) -> list[str]:
    return [card_name(c) for c in cards]


_HAND_JSON: dict[str, Callable[[Any], Any]] = {
    "deal": lambda deal: [None if cards is None else _names(cards) for cards in deal],
    "passes": lambda passes: [None if cards is None else _names(cards) for cards in passes],
    "plays": lambda plays: [[seat, card_name(card)] for seat, card in plays],
    "points": list,
    "totals": list,
    "charged": _names,
    "unmodelled": list,
}
"""The JSON value of each hand field that is not already one (the others are written as they are)."""
_GAME_JSON: dict[str, Callable[[Any], Any]] = {
    "players": list,
    "hands": lambda hands: [hand_to_dict(hand) for hand in hands],
    "unmodelled": list,
    "winners": list,
}


def _rules_written(game: GameRecord) -> Any:
    """The ``rules`` value as the record wrote it; for a record built in code, its rule set's spec."""
    if game.rules_spec is None and "rules" not in game.nulls and game.rules != Rules():
        return game.rules.to_spec()
    return game.rules_spec


_Reader = Callable[[Any], Any]
_HAND_VALUES: tuple[tuple[str, _Reader, bool], ...] = tuple(
    (f.key, attrgetter(f.key), f.required) for f in HAND_FIELDS)
"""``(key, value of the record, always written)`` of each hand field."""
_GAME_VALUES: tuple[tuple[str, _Reader, bool], ...] = tuple(
    (f.key, _rules_written if f.key == "rules" else attrgetter(attribute_of(f.key)), f.required)
    for f in GAME_FIELDS if f.key != "format")
"""The same of each game field after ``format``."""


def _fields(record: GameRecord | HandRecord, values: tuple[tuple[str, _Reader, bool], ...],
            convert: dict[str, _Reader], out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with every field of ``values`` that is set (or was written as an explicit null), then the
    fields the format does not know."""
    for key, read, _required in values:
        value = read(record)
        if value is not None:  # a required field is None only in a score-sheet hand (deal, plays), left out
            write = convert.get(key)
            out[key] = value if write is None else write(value)
        elif key in record.nulls:
            out[key] = None
    out.update(record.extra)
    return out


def hand_to_dict(hand: HandRecord) -> dict[str, Any]:
    """The hand as a ``hearts-game/1`` object, its fields in the order of :data:`~..model.HAND_FIELDS`."""
    return _fields(hand, _HAND_VALUES, _HAND_JSON, {})


def game_to_dict(game: GameRecord) -> dict[str, Any]:
    """The record as a ``hearts-game/1`` object with canonical card names."""
    return _fields(game, _GAME_VALUES, _GAME_JSON, {"format": FORMAT})


def dumps_game(game: GameRecord) -> bytes:
    return orjson.dumps(game_to_dict(game))
