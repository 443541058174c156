"""Records to ``hearts-game/1`` objects, ready for JSON: canonical card names, fields in record order.

>>> from hearts_analysis.records.model import GameRecord
>>> game_to_dict(GameRecord(players=("a", "b", "c"), hands=()))
{'format': 'hearts-game/1', 'players': ['a', 'b', 'c'], 'hands': []}
"""

from __future__ import annotations

from typing import Any, Iterable

import orjson

from ...cards import Card, card_name
from ...rules import Rules
from ..model import FORMAT, GAME_KEYS, HAND_KEYS, GameRecord, HandRecord


def _names(cards: Iterable[Card]) -> list[str]:
    return [card_name(c) for c in cards]


def hand_to_dict(hand: HandRecord) -> dict[str, Any]:
    out: dict[str, Any] = {}
    values = {
        "dealer": hand.dealer, "pass_direction": hand.pass_direction,
        "deal": [_names(d) for d in hand.deal],
        "passes": None if hand.passes is None else [None if p is None else _names(p) for p in hand.passes],
        "plays": [[seat, card_name(card)] for seat, card in hand.plays],
        "moon": hand.moon,
        "points": None if hand.points is None else list(hand.points),
        "totals": None if hand.totals is None else list(hand.totals),
    }
    for key in HAND_KEYS:
        if values[key] is not None or key in hand.nulls:
            out[key] = values[key]
    out.update(hand.extra)
    return out


def game_to_dict(game: GameRecord) -> dict[str, Any]:
    """The record as a ``hearts-game/1`` object with canonical card names."""
    out: dict[str, Any] = {"format": FORMAT}
    rules = game.rules_spec
    if rules is None and "rules" not in game.nulls and game.rules != Rules():
        rules = game.rules.to_spec()  # a record built in code: keep its rule set
    values = {"game_id": game.game_id, "played_at": game.played_at, "rules": rules,
              "players": list(game.players), "hands": [hand_to_dict(h) for h in game.hands],
              "complete": game.complete}
    for key in GAME_KEYS[1:]:
        if values[key] is not None or key in game.nulls or key in ("players", "hands"):
            out[key] = values[key]
    out.update(game.extra)
    return out


def dumps_game(game: GameRecord) -> bytes:
    return orjson.dumps(game_to_dict(game))
