"""The JSON form of Killer Hearts logs (``KHearts.json``) to and from ``hearts-game/1`` games.

A public converter of Killer Hearts' text log (ParseKiller, part of Brian Berns's
Hearts project) writes the deals as one JSON array, an object per deal::

    {"DealNumber": 439063, "Dealer": "S", "Score": {"W": 0, "N": 0, "E": 0, "S": 0},
     "Hands": {"W": {"S": "T9542", "H": "654", "C": "AQ64", "D": "T"}, "N": {...}, ...},
     "PassDirection": "Left",
     "Passes": [{"Seat": "W", "Pass": ["TD", "6H", "AC"]}, ...],
     "Tricks": [{"Leader": "N", "Cards": ["2C", "JC", "9C", "AC"]}, ...]}

``Score`` is the game score *before* the deal and is all zeros at the start of
a game, so a game's hands run from one all-zero score to the next; each hand's
points are the next deal's score minus its own, and the last hand of a game
has no recorded points (the form does not keep them). ``Dealer`` is absent
from early files; ``Hands`` may also be a list of one-seat objects. Seats and
rules are as in :mod:`hearts_analysis.interop.killer`.

>>> import io
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("killer_hearts"), ["W", "N", "E", "S"], seed=1)
>>> out = io.StringIO()
>>> write([game], out)
1
>>> sniff(out.getvalue())
True
>>> item = next(read(io.StringIO(out.getvalue()), "KHearts.json"))
>>> item.source, replay_game(item.game).valid, len(item.game.hands) == len(game.hands)
('KHearts.json:#1', True, True)
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Iterator, TextIO

import orjson

from ..cards import CardError, card_name, parse_card, rank_of, suit_of
from ..engine.replay import replay_game
from ..records.errors import Item, RecordError
from ..records.model import GameRecord
from ..records.numbers import json_whole_number
from ..text import shown
from .killer import SEATS, Deal, build_game, unfit

NAME = "killer-json"
TITLE = "Killer Hearts log converted to JSON (KHearts.json)"
FILE_EXAMPLE = "KHearts.json"

_DIRECTIONS = {"Left": "left", "Right": "right", "Across": "across", "Hold": "hold"}
_DIRECTION_NAMES = {name: word for word, name in _DIRECTIONS.items()}
_SUITS_HIGH_FIRST = "SHDC"

__all__ = ["NAME", "TITLE", "deal_from_entry", "read", "sniff", "unfit", "write"]


def sniff(head: str) -> bool:
    """A JSON array whose first object is a Killer deal."""
    text = head.lstrip()
    return text.startswith("[") and re.search(r'"DealNumber"\s*:', text[:4096]) is not None \
        and '"Tricks"' in text


def _seat(value: Any, field: str) -> int:
    if not isinstance(value, str) or value not in SEATS:
        raise RecordError(f"expected a seat letter W N E S, got {shown(value)}", field)
    return SEATS.index(value)


def _card(value: Any, field: str) -> int:
    try:
        return parse_card(value)
    except CardError as error:
        raise RecordError(str(error), field) from None


def _object(value: Any, field: str) -> dict:
    if not isinstance(value, dict):
        raise RecordError(f"expected an object, got {type(value).__name__}", field)
    return value


def _list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise RecordError(f"expected a list, got {type(value).__name__}", field)
    return value


def _hands(value: Any) -> tuple[tuple[int, ...], ...]:
    if isinstance(value, list):  # early files: [{"W": {...}}, {"N": {...}}, ...]
        merged: dict = {}
        for index, item in enumerate(value):
            merged.update(_object(item, f"Hands[{index}]"))
        value = merged
    seats = _object(value, "Hands")
    hands = []
    for letter in SEATS:
        suits = _object(seats.get(letter), f"Hands.{letter}")
        cards = []
        for suit, ranks in suits.items():
            if not isinstance(ranks, str):
                raise RecordError(f"expected a string of ranks, got {shown(ranks)}", f"Hands.{letter}.{suit}")
            cards += [_card(rank + suit, f"Hands.{letter}.{suit}") for rank in ranks]
        hands.append(tuple(cards))
    return tuple(hands)


def _score(value: Any) -> tuple[int, ...]:
    score = _object(value, "Score")
    points = []
    for letter in SEATS:
        points.append(json_whole_number(score.get(letter), f"Score.{letter}"))
    return tuple(points)


def deal_from_entry(entry: Any, index: int) -> tuple[Deal, tuple[int, ...]]:
    """A deal and the game score before it; raises :class:`RecordError` naming the field."""
    entry = _object(entry, "")
    number = entry.get("DealNumber")
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise RecordError(f"expected the deal number, got {shown(number)}", "DealNumber")
    number = json_whole_number(number, "DealNumber")
    direction = _DIRECTIONS.get(entry.get("PassDirection"))
    if direction is None:
        raise RecordError(f"expected Left, Right, Across or Hold, got {shown(entry.get('PassDirection'))}",
                          "PassDirection")
    dealer = _seat(entry["Dealer"], "Dealer") if "Dealer" in entry else None
    deal = Deal(number, index + 1, dealer, direction, _hands(entry.get("Hands")))
    if direction != "hold":
        passes: list = [None] * 4
        for k, item in enumerate(_list(entry.get("Passes"), "Passes")):
            item = _object(item, f"Passes[{k}]")
            cards = _list(item.get("Pass"), f"Passes[{k}].Pass")
            passes[_seat(item.get("Seat"), f"Passes[{k}].Seat")] = tuple(
                _card(c, f"Passes[{k}].Pass[{i}]") for i, c in enumerate(cards))
        deal.passes = tuple(passes)
    for t, trick in enumerate(_list(entry.get("Tricks", []), "Tricks")):
        trick = _object(trick, f"Tricks[{t}]")
        leader = _seat(trick.get("Leader"), f"Tricks[{t}].Leader")
        for i, card in enumerate(_list(trick.get("Cards"), f"Tricks[{t}].Cards")):
            deal.plays.append(((leader + i) % 4, _card(card, f"Tricks[{t}].Cards[{i}]")))
    return deal, _score(entry.get("Score"))


def read(stream: TextIO, name: str) -> Iterator[Item]:
    """Every game of the array; a deal that cannot be read makes its game an error item."""
    text = stream.read()
    try:
        entries = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        entries = _cut_array(text, error)
        if entries is None:
            yield Item(f"{name}:{error.lineno}", error=RecordError(
                f"bad JSON: {error.msg} (line {error.lineno}, column {error.colno})", source=f"{name}:{error.lineno}"))
            return
        where = f"{name}:{error.lineno}"
        yield Item(where, error=RecordError(f"the file ends inside this deal ({error.msg}): it is left out, the "
                                            f"{len(entries)} before it are kept", f"[{len(entries)}]", source=where))
    if not isinstance(entries, list):
        yield Item(name, error=RecordError("expected a JSON array of deals", source=name))
        return
    game: list[Deal] = []
    for index, entry in enumerate(entries):
        try:
            deal, before = deal_from_entry(entry, index)
        except RecordError as error:
            deal, before = Deal(-1, index + 1, None, "hold", ()), None
            deal.error = RecordError(error.detail, f"[{index}].{error.field}".rstrip("."), source=f"{name}:#{index + 1}")
        if game and before is not None and not any(before):
            yield _game(game, name)
            game = []
        if game and before is not None:
            game[-1].score = before
        game.append(deal)
    if game:
        yield _game(game, name)


def _cut_array(text: str, error: orjson.JSONDecodeError) -> list | None:
    """The whole deals of an array the file ends inside of (a log cut off), or ``None`` when the JSON is
    bad elsewhere: a cut-off deal costs only itself."""
    if "end of data" not in error.msg or not text.lstrip().startswith("["):
        return None
    decoder = json.JSONDecoder()
    at = text.index("[") + 1
    entries: list = []
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        if at >= len(text) or text[at] == "]":
            return None  # not cut after all: the error was elsewhere
        try:
            entry, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            return entries
        entries.append(entry)


def _game(deals: list[Deal], name: str) -> Item:
    item = build_game(deals, name)
    return item if item.error is not None else Item(f"{name}:#{deals[0].line}", item.game)


# -- games -> JSON --------------------------------------------------------------------
def _hand(cards: Iterable[int]) -> dict[str, str]:
    out = {}
    for suit in _SUITS_HIGH_FIRST:
        ranks = sorted((c for c in cards if "CDHS"[suit_of(c)] == suit), key=rank_of, reverse=True)
        if ranks:
            out[suit] = "".join(card_name(c)[0] for c in ranks)
    return out


def write(games: Iterable[GameRecord], out: TextIO) -> int:
    """The games as one JSON array of deals (each must fit: :func:`unfit`); names of players are not kept."""
    entries = []
    count = 0
    for game in games:
        result = replay_game(game)
        before = (0, 0, 0, 0)
        for number, (hand, done) in enumerate(zip(game.hands, result.hands), len(entries) + 1):
            deal_number = hand.extra.get("deal_number")
            entry: dict[str, Any] = {
                "DealNumber": deal_number if isinstance(deal_number, int) else number,
                "Dealer": SEATS[done.dealer],
                "Score": dict(zip(SEATS, before)),
                "Hands": {SEATS[seat]: _hand(cards) for seat, cards in enumerate(hand.deal)},
                "PassDirection": _DIRECTION_NAMES[done.pass_direction],
            }
            if done.pass_direction != "hold":
                entry["Passes"] = [{"Seat": SEATS[seat], "Pass": [card_name(c) for c in cards]}
                                   for seat, cards in enumerate(hand.passes or ()) if cards is not None]
            entry["Tricks"] = [{"Leader": SEATS[hand.plays[start][0]],
                                "Cards": [card_name(c) for _, c in hand.plays[start:start + 4]]}
                               for start in range(0, len(hand.plays), 4)]
            entries.append(entry)
            before = tuple(hand.totals if hand.totals is not None else done.totals)
        count += 1
    out.write(orjson.dumps(entries, option=orjson.OPT_INDENT_2).decode() + "\n")
    return count
