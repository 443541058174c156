"""The shape a cached review of one hand must have before it is served, and its reading back.

A cache folder is written by this toolkit, but anything can change it: a disk
error, an older version, a person. An entry that still parses as JSON is
therefore checked against what a review of that hand always is: every field
of the right type, costs finite numbers, the played and the best choice among
the options compared, and, unless the hand was skipped, one play decision for
each card the reviewed seats played, in order, and the passes they made. An
entry that fails any check is :class:`BadEntry`, which the cache treats as
missing (the hand is reviewed again and the entry rewritten): a bad entry must
neither be trusted nor crash a run.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.review import Settings, review_game
>>> from dataclasses import asdict
>>> import orjson
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=1, max_hands=1)
>>> data = orjson.loads(orjson.dumps(asdict(review_game(game, Settings(samples=10), seats=[0], hands=[1]))))
>>> review_from_entry(data, game, 1, (0,)) == review_game(game, Settings(samples=10), seats=[0], hands=[1])
True
>>> review_from_entry({**data, "decisions": []}, game, 1, (0,))
Traceback (most recent call last):
...
hearts_analysis.review.entry.BadEntry: decisions: 13 plays of the seats reviewed, 0 in the entry
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from ..records.model import GameRecord
from .decision import GAME, POINTS, Decision, Option
from .game import GameReview

CATEGORIES = (None, "inaccuracy", "mistake", "blunder")
_DECK = range(52)


class BadEntry(ValueError):
    """A cached entry that is not the review of the hand it is filed under."""


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise BadEntry(f"{where}: {what}")


def _number(value: Any, where: str, optional: bool = False) -> float:
    if optional and value is None:
        return value
    _need(isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value), where,
          "not a finite number")
    return float(value)


def _integer(value: Any, where: str, optional: bool = False) -> int | None:
    if optional and value is None:
        return value
    _need(isinstance(value, int) and not isinstance(value, bool), where, "not an integer")
    return value


def _text(value: Any, where: str) -> str | None:
    _need(value is None or isinstance(value, str), where, "not text or null")
    return value


def _flag(value: Any, where: str) -> bool:
    _need(isinstance(value, bool), where, "not true or false")
    return value


def _cards(value: Any, where: str) -> tuple[int, ...]:
    _need(isinstance(value, list) and bool(value) and all(
        isinstance(c, int) and not isinstance(c, bool) and c in _DECK for c in value), where, "not a list of cards")
    return tuple(value)


def _dict(value: Any, where: str) -> dict:
    _need(isinstance(value, dict), where, "not an object")
    return value


def _option(data: Any, where: str) -> Option:
    data = _dict(data, where)
    return Option(_cards(data.get("cards"), f"{where}.cards"), _number(data.get("expected"), f"{where}.expected"),
                  _number(data.get("queen"), f"{where}.queen"), _number(data.get("hearts"), f"{where}.hearts"),
                  _number(data.get("moon_against"), f"{where}.moon_against"),
                  _number(data.get("win_chance"), f"{where}.win_chance", optional=True),
                  tuple((_text(cause, f"{where}.parts"), _number(points, f"{where}.parts"), _number(rate, f"{where}.parts"))
                        for cause, points, rate in _parts(data.get("parts", ()), f"{where}.parts")))


def _parts(value: Any, where: str) -> list:
    _need(isinstance(value, (list, tuple)) and all(isinstance(p, (list, tuple)) and len(p) == 3 for p in value),
          where, "a list of [cause, points, rate]")
    return list(value)


def _decision(data: Any, where: str) -> Decision:
    data = _dict(data, where)
    kind = data.get("kind")
    _need(kind in ("play", "pass"), f"{where}.kind", "not play or pass")
    trick = _integer(data.get("trick"), f"{where}.trick", optional=kind == "pass")
    _need((trick is None) == (kind == "pass"), f"{where}.trick", "a pass has no trick, a play has one")
    options = data.get("options")
    _need(isinstance(options, list), f"{where}.options", "not a list")
    options = tuple(_option(o, f"{where}.options[{i}]") for i, o in enumerate(options))
    played, best = _cards(data.get("played"), f"{where}.played"), _cards(data.get("best"), f"{where}.best")
    if options:
        choices = {o.cards for o in options}
        _need(played in choices, f"{where}.played", "not among the options")
        _need(best in choices, f"{where}.best", "not among the options")
    win = data.get("win_chance")
    if win is not None:
        _need(isinstance(win, list) and len(win) == 2, f"{where}.win_chance", "not a pair")
        win = (_number(win[0], f"{where}.win_chance[0]"), _number(win[1], f"{where}.win_chance[1]"))
    category = data.get("category")
    _need(category in CATEGORIES, f"{where}.category", "not a class of cost")
    return Decision(_integer(data.get("hand"), f"{where}.hand"), trick, _integer(data.get("seat"), f"{where}.seat"),
                    kind, played, best, _number(data.get("cost"), f"{where}.cost"),
                    _number(data.get("margin"), f"{where}.margin"), category,
                    _flag(data.get("forced"), f"{where}.forced"), _number(data.get("spread"), f"{where}.spread"),
                    _integer(data.get("samples"), f"{where}.samples"), options, _text(data.get("reason"),
                                                                                     f"{where}.reason"),
                    win, _flag(data.get("unclear"), f"{where}.unclear"),
                    _text(data.get("unclear_reason"), f"{where}.unclear_reason"),
                    _number(data.get("other_cost"), f"{where}.other_cost", optional=True),
                    _margins(data.get("margins", []), len(options), f"{where}.margins"),
                    tuple(_cards(g, f"{where}.equal[{i}]") for i, g in enumerate(_list(data.get("equal", []),
                                                                                        f"{where}.equal"))),
                    _line(data.get("line", []), f"{where}.line"), _decided_by(data.get("decided_by", POINTS), where),
                    _number(data.get("win_cost"), f"{where}.win_cost", optional=True),
                    _number(data.get("win_margin"), f"{where}.win_margin", optional=True))


def _decided_by(value: Any, where: str) -> str:
    """Which measure decided (absent in entries written before the game could decide: points)."""
    _need(value in (POINTS, GAME), f"{where}.decided_by", f"not {POINTS} or {GAME}")
    return value


def _list(value: Any, where: str) -> list:
    _need(isinstance(value, list), where, "not a list")
    return value


def _margins(value: Any, options: int, where: str) -> tuple[float, ...]:
    _need(isinstance(value, list) and len(value) in (0, options), where, "not one margin per option")
    return tuple(_number(m, where) for m in value)


def _line(value: Any, where: str) -> tuple[tuple[int, int], ...]:
    _need(isinstance(value, list) and all(isinstance(p, list) and len(p) == 2 for p in value), where,
          "not a list of [seat, card]")
    return tuple((_integer(seat, where), _cards([card], where)[0]) for seat, card in value)


def _skipped(data: Any, hand: int) -> tuple[tuple[int, str], ...]:
    _need(isinstance(data, list), "skipped", "not a list")
    skipped = []
    for i, entry in enumerate(data):
        _need(isinstance(entry, list) and len(entry) == 2 and entry[0] == hand and isinstance(entry[1], str),
              f"skipped[{i}]", f"not [{hand}, why]")
        skipped.append((hand, entry[1]))
    return tuple(skipped)


def _matches_hand(decisions: tuple[Decision, ...], game: GameRecord, hand: int, seats: frozenset[int]) -> None:
    """The decisions are those of the seats reviewed in the hand: each play in order, each pass made."""
    record = game.hands[hand - 1]
    for i, d in enumerate(decisions):
        _need(d.hand == hand, f"decisions[{i}].hand", f"not hand {hand}")
        _need(d.seat in seats, f"decisions[{i}].seat", "not a seat reviewed")
    plays = [(seat, (card,)) for seat, card in record.plays if seat in seats]
    reviewed = [(d.seat, d.played) for d in decisions if d.kind == "play"]
    _need(len(reviewed) == len(plays), "decisions",
          f"{len(plays)} plays of the seats reviewed, {len(reviewed)} in the entry")
    for i, (want, got) in enumerate(zip(plays, reviewed)):
        _need(want == got, f"decisions: play {i + 1}", "not the card the record has")
    passes = record.passes or ()
    for i, d in enumerate(decisions):
        if d.kind == "pass":
            made = passes[d.seat] if d.seat < len(passes) else None
            _need(made is not None and sorted(made) == sorted(d.played), f"decisions[{i}].played",
                  "not the cards the record has the seat pass")
    for seat in sorted(seats):
        if seat < len(passes) and passes[seat]:
            count = sum(d.kind == "pass" and d.seat == seat for d in decisions)
            _need(count == 1, "decisions", f"{count} passes of seat {seat}, which passed once")


def review_from_entry(data: Any, game: GameRecord, hand: int, seats: Iterable[int] | None) -> GameReview:
    """The review of ``hand`` of ``game`` for ``seats`` (``None``: all) an entry holds, or :class:`BadEntry`."""
    data = _dict(data, "entry")
    _need(data.get("game_id") == game.game_id, "game_id", "not the game's")
    _need(data.get("players") == list(game.players), "players", "not the game's")
    raw = data.get("decisions")
    _need(isinstance(raw, list), "decisions", "not a list")
    decisions = tuple(_decision(d, f"decisions[{i}]") for i, d in enumerate(raw))
    skipped = _skipped(data.get("skipped"), hand)
    _need(1 <= hand <= len(game.hands), "hand", "not a hand of the game")
    if skipped:
        _need(not decisions, "decisions", "a skipped hand has none")
    else:
        _matches_hand(decisions, game, hand, frozenset(range(game.seats) if seats is None else seats))
    return GameReview(game.game_id, game.players, decisions, skipped)
