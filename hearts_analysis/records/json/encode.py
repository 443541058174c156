"""Records to ``hearts-game/1`` objects, ready for JSON: canonical card names, fields in record order.

>>> from hearts_analysis.records.model import GameRecord
>>> game_to_dict(GameRecord(players=("a", "b", "c"), hands=()))
{'format': 'hearts-game/1', 'players': ['a', 'b', 'c'], 'hands': []}
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

import orjson

from ...cards import Card, card_name
from ...rules import Rules
from ..model import FORMAT, GAME_FIELDS, HAND_KEYS, GameRecord, HandRecord, attribute_of


def _names(cards: Iterable[Card]) -> list[str]:
    return [card_name(c) for c in cards]


_HAND_JSON: dict[str, Callable[[Any], Any]] = {
    "deal": lambda deal: [_names(cards) for cards in deal],
    "passes": lambda passes: [None if cards is None else _names(cards) for cards in passes],
    "plays": lambda plays: [[seat, card_name(card)] for seat, card in plays],
    "points": list,
    "totals": list,
}
"""The JSON value of each hand field that is not already one (the others are written as they are)."""
_GAME_JSON: dict[str, Callable[[Any], Any]] = {
    "players": list,
    "hands": lambda hands: [hand_to_dict(hand) for hand in hands],
}
_GAME_VALUES = tuple((f.key, attribute_of(f.key), f.required)
                     for f in GAME_FIELDS if f.key != "format")
"""``(key, attribute, always written)`` of each game field after ``format``."""


def hand_to_dict(hand: HandRecord) -> dict[str, Any]:
    """The hand as a ``hearts-game/1`` object: every field of :data:`~..model.HAND_FIELDS` that is set
    (or was written as an explicit null), then the fields the format does not know."""
    out: dict[str, Any] = {}
    for key in HAND_KEYS:
        value = getattr(hand, key)
        if value is not None:
            write = _HAND_JSON.get(key)
            out[key] = value if write is None else write(value)
        elif key in hand.nulls:
            out[key] = None
    out.update(hand.extra)
    return out


def game_to_dict(game: GameRecord) -> dict[str, Any]:
    """The record as a ``hearts-game/1`` object with canonical card names."""
    out: dict[str, Any] = {"format": FORMAT}
    for key, attribute, always in _GAME_VALUES:
        value = getattr(game, attribute)
        if key == "rules" and value is None and "rules" not in game.nulls and game.rules != Rules():
            value = game.rules.to_spec()  # a record built in code: keep its rule set
        if value is not None or always:
            write = _GAME_JSON.get(key)
            out[key] = value if write is None else write(value)
        elif key in game.nulls:
            out[key] = None
    out.update(game.extra)
    return out


def dumps_game(game: GameRecord) -> bytes:
    return orjson.dumps(game_to_dict(game))
