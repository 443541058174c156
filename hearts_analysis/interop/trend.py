"""Trend Micro "Trend Hearts" contest game logs <-> ``hearts-game/1`` records.

The contest's game node speaks JSON events ``{"eventName": ..., "data": {...}}`` (its SDK
document); a log is those events, one per line (or a JSON list of them), or, as the contest's
Python sample bot logs them, Python ``logging`` lines: the event's name, then its data as a
Python dict repr (:mod:`hearts_analysis.interop.pylog`); either is recognised from its content.
A game is four deals; what the importer reads:

- ``new_game``: ``players[].playerName``, north, east, south, west: our seats 0-3, clockwise;
- ``new_deal``: ``dealNumber`` and each player's ``cards`` (the dealt hand, where the log shows it);
- ``pass_cards_end``: each player's ``pickedCards`` (given) and ``receivedFrom`` (the sender);
- ``expose_cards_end``: each player's ``exposedCards``: AH exposed doubles every heart (a charge);
- ``turn_end``: ``turnPlayer`` played ``turnCard``, in order;
- ``deal_end``: each player's ``dealScore`` and ``gameScore`` (penalties as negative numbers: the
  record keeps them as positive points), ``initialCards`` (the dealt hand) and the pass again;
- ``game_end``: the game is over.

Other events (``new_round``, ``your_turn``, ``round_end``, ``pass_cards``, ...) repeat what these
say and are skipped. The pass direction is where the cards went (``receivedFrom``), the deal is
``initialCards`` (else the ``new_deal`` cards). A cut-off deal costs only itself: where the log shows
every dealt hand it keeps its plays (the audit reports it incomplete); where it does not (a bot's
log shows only the bot's ``new_deal`` cards, and ``deal_end`` never came) the deal is named and
left out, and the complete deals before it are the game.

What a real log showed (the sample bot's, one complete game): the seats are the ``new_game``
order, ``dealScore`` and ``gameScore`` are the server's scores (penalties negative, a moon's gain
positive), ``deal_end`` repeats every seat's ``initialCards``; the rest is from the SDK document.

>>> sniff('{"eventName": "new_deal", "data": {"dealNumber": 1}}')
True
>>> sniff("2018-09-10 21:37:59,683 INFO new_deal\\n2018-09-10 21:37:59,740 INFO {u'dealNumber': 1}")
True
"""

from __future__ import annotations

import io
from typing import Any, Iterable, Iterator, TextIO

from ..cards import card_name, names, parse_card
from ..engine.replay import replay_game
from ..records.errors import Item, RecordError
from ..records.model import GameRecord, HandRecord
from ..records.numbers import in_range, json_whole_number
from ..rules import Rules
from ..text import shown
from . import pylog
from .rebuild import (card_list, cut_tolerant, event_games, json_events, own_rules_unfit, pass_unrecorded, refuse_unfit,
                      write_events)

NAME = "trend"
TITLE = "Trend Micro Trend Hearts contest game log (JSON events, or the sample bot's Python log)"
PRESET = "trend_hearts"
PROGRAM = "Trend Hearts"
PLAYERS = 4
_TABLE = Rules().table(PLAYERS)
"""Four seats: who receives each pass."""
KNOWN_EVENTS = ("new_game", "new_deal", "pass_cards_end", "expose_cards_end", "turn_end", "deal_end", "game_end")


def sniff(head: str) -> bool:
    """JSON objects with an ``eventName`` of the contest's protocol, or Python log lines naming its events."""
    if '"eventName"' in head and any(f'"{name}"' in head for name in KNOWN_EVENTS):
        return True
    return pylog.looks_like(head, KNOWN_EVENTS + ("new_peer", "game_prepare", "new_round", "your_turn"))


# -- reading --------------------------------------------------------------------------
class _Deal:
    def __init__(self, number: int, line: int):
        self.number = number
        self.line = line
        self.dealt: list[tuple | None] = [None] * PLAYERS
        self.passes: list[tuple | None] = [None] * PLAYERS
        self.senders: list[int | None] = [None] * PLAYERS
        self.exposed: list[str] = []
        self.plays: list[tuple[int, int]] = []
        self.points: tuple[int, ...] | None = None
        self.totals: tuple[int, ...] | None = None


class _Game:
    def __init__(self, line: int):
        self.line = line
        self.players: list[str] = []
        self.deals: list[_Deal] = []
        self.complete: bool | None = None
        self.error: RecordError | None = None
        self.skipped: list[RecordError] = []
        """The cut-off deal left out, named (filled by :func:`_record`)."""


def _seat(game: _Game, name: Any, field: str) -> int:
    if name not in game.players:
        raise RecordError(f"{shown(name)} is not a player of this game ({', '.join(game.players) or 'none named'})",
                          field)
    return game.players.index(name)


def _players(data: dict, field: str) -> list[dict]:
    players = data.get("players")
    if not isinstance(players, list) or len(players) != PLAYERS or not all(isinstance(p, dict) for p in players):
        raise RecordError(f"expected the {PLAYERS} players, north, east, south, west", f"{field}.players")
    return players


def _apply(game: _Game, event: str, data: dict, line: int = 0) -> None:
    """One event into the game being read; raises :class:`RecordError` naming the field."""
    if event == "new_game" or not game.players:
        named = [p.get("playerName") for p in _players(data, event)]
        if not all(isinstance(n, str) and n for n in named) or len(set(named)) != PLAYERS:
            raise RecordError("expected 4 different player names", f"{event}.players[].playerName")
        game.players = named
        if event == "new_game":
            return
    if event == "game_end":
        game.complete = True
        return
    number = data.get("dealNumber")
    if event == "new_deal" or not game.deals or (isinstance(number, int) and number != game.deals[-1].number):
        if not isinstance(number, int) or isinstance(number, bool):
            if isinstance(number, float):   # beyond 64 bits (orjson reads it so), said so
                json_whole_number(number, f"{event}.dealNumber")
            raise RecordError(f"expected a deal number, got {shown(number)}", f"{event}.dealNumber")
        in_range(number, f"{event}.dealNumber")
        game.deals.append(_Deal(number, line))
    deal = game.deals[-1]
    if event == "new_deal":
        for seat, player in enumerate(_players(data, event)):
            if isinstance(player.get("cards"), list) and len(player["cards"]) > 0:
                deal.dealt[seat] = card_list(player["cards"], f"{event}.players[{seat}].cards")
    elif event in ("pass_cards_end", "deal_end", "expose_cards_end"):
        for seat, player in enumerate(_players(data, event)):
            where = f"{event}.players[{seat}]"
            if player.get("pickedCards"):
                deal.passes[seat] = card_list(player["pickedCards"], f"{where}.pickedCards")
            if player.get("receivedFrom"):
                deal.senders[seat] = _seat(game, player["receivedFrom"], f"{where}.receivedFrom")
            if player.get("exposedCards"):
                for card in card_list(player["exposedCards"], f"{where}.exposedCards"):
                    if card_name(card) not in deal.exposed:
                        deal.exposed.append(card_name(card))
            if event == "deal_end":
                if player.get("initialCards"):
                    deal.dealt[seat] = card_list(player["initialCards"], f"{where}.initialCards")
        if event == "deal_end":
            deal.points = tuple(-_int(p.get("dealScore"), f"{event}.players[{s}].dealScore")
                                for s, p in enumerate(_players(data, event)))
            deal.totals = tuple(-_int(p.get("gameScore"), f"{event}.players[{s}].gameScore")
                                for s, p in enumerate(_players(data, event)))
    elif event == "turn_end":
        seat = _seat(game, data.get("turnPlayer"), f"{event}.turnPlayer")
        deal.plays.append((seat, card_list([data.get("turnCard")], f"{event}.turnCard")[0]))


def _int(value: Any, field: str) -> int:
    return json_whole_number(value, field)


def _hand(deal: _Deal) -> HandRecord:
    field = f"deal {deal.number}"
    if any(d is None for d in deal.dealt):
        raise RecordError("the log does not show every player's dealt cards (new_deal cards or deal_end "
                          "initialCards)", field)
    passes = None
    direction = "hold"
    if any(deal.passes):
        offsets = {(seat - sender) % PLAYERS for seat, sender in enumerate(deal.senders) if sender is not None}
        if len(offsets) != 1 or 0 in offsets:
            raise RecordError("the players' receivedFrom do not name one pass direction", field)
        direction = _TABLE.direction_of_offset(offsets.pop())
        passes = tuple(deal.passes)
    return HandRecord(deal=tuple(deal.dealt), plays=tuple(deal.plays), passes=passes, pass_direction=direction,
                      points=deal.points, totals=deal.totals, charged=tuple(map(parse_card, deal.exposed)) or None)


def _record(game: _Game, game_id: str, name: str = "") -> GameRecord:
    """The game; a last deal cut off before ``deal_end`` whose dealt hands the log does not show is left
    out and named in ``game.skipped`` (only that deal: the ones before it are the game)."""
    rules = Rules.preset(PRESET)
    deals = list(game.deals)
    last = deals[-1] if deals else None
    if last is not None and last.points is None and any(d is None for d in last.dealt):
        shown_seats = [game.players[s] for s, d in enumerate(last.dealt) if d is not None]
        why = (f"cut off after {len(last.plays)} play(s), before deal_end, and the log shows the dealt cards "
               f"of {', '.join(shown_seats) or 'no player'} only")
        deals.pop()
        if not deals:
            raise RecordError(f"{why}: the game has no other deal, and is left out", f"deal {last.number}")
        error = RecordError(f"{why}: this deal is left out, the {len(deals)} before it are kept",
                            f"deal {last.number}")
        game.skipped.append(error.at(f"{name}:{last.line}") if name and last.line else error)
    return GameRecord(players=tuple(game.players), hands=tuple(_hand(d) for d in deals), rules=rules,
                      rules_spec=rules.to_spec(), game_id=game_id, complete=game.complete)


def _kind(event: Any) -> str | None:
    if not isinstance(event, dict) or not isinstance(event.get("data", {}), dict):
        return None
    return event.get("eventName") if isinstance(event.get("eventName"), str) else ""


@cut_tolerant
def read(stream: TextIO, name: str) -> Iterator[Item]:
    """Every game of a log (JSON events or the sample bot's Python log, told apart by the content); an event
    that cannot be read makes its game an error, the others still read."""
    text = stream.read()
    events = (pylog.events(text) if not text.lstrip().startswith(("{", "["))
              and pylog.looks_like(text[:1 << 16]) else json_events(io.StringIO(text)))
    return event_games(stream, name, kind_of=_kind, known=KNOWN_EVENTS, new_game=_Game,
                       starts=lambda game, kind: kind == "new_game" and bool(game.deals),
                       apply=lambda game, kind, event, line: _apply(game, kind, event.get("data") or {}, line),
                       record=lambda game, game_id: _record(game, game_id, name), ends="game_end",
                       events=events)


# -- writing --------------------------------------------------------------------------
def unfit(game: GameRecord) -> str | None:
    """Why the contest's log cannot hold this game, in words; ``None`` where it can: the contest plays its own
    rules at 4 seats, and its log shows each seat's passed cards."""
    return own_rules_unfit(game, PRESET, PROGRAM) or pass_unrecorded(game, replay_game(game), PROGRAM)


def game_events(game: GameRecord) -> list[dict]:
    """A game as the contest's events; raises :class:`ExportError` where the log cannot hold it (:func:`unfit`)."""
    refuse_unfit(game, unfit)
    result = replay_game(game)
    players = list(game.players)
    events: list[dict] = [{"eventName": "new_game", "data": {"players": [
        {"playerNumber": s + 1, "playerName": p} for s, p in enumerate(players)]}}]
    for number, (hand, replayed) in enumerate(zip(game.hands, result.hands), 1):
        direction = replayed.pass_direction
        exposed = list(hand.charged or ())

        def seat_info(seat: int) -> dict:
            info: dict[str, Any] = {"playerName": players[seat]}
            sender = _TABLE.pass_source(seat, direction)
            if sender is not None:
                info.update(pickedCards=names(hand.passes[seat]), receivedCards=names(hand.passes[sender]),
                            receivedFrom=players[sender])
            info["exposedCards"] = [card_name(c) for c in exposed if replayed.held[seat] >> c & 1]
            return info

        events.append({"eventName": "new_deal", "data": {"dealNumber": number, "players": [
            {"playerName": p, "cards": names(hand.deal[s])} for s, p in enumerate(players)]}})
        if direction != "hold":
            events.append({"eventName": "pass_cards_end", "data": {"dealNumber": number,
                                                                   "players": [seat_info(s) for s in range(4)]}})
        events.append({"eventName": "expose_cards_end", "data": {"dealNumber": number,
                                                                 "players": [seat_info(s) for s in range(4)]}})
        for index, (seat, card) in enumerate(hand.plays):
            events.append({"eventName": "turn_end", "data": {"dealNumber": number, "roundNumber": index // 4 + 1,
                                                             "turnPlayer": players[seat], "turnCard": card_name(card)}})
        final = []
        for seat in range(PLAYERS):
            info = seat_info(seat)
            info.update(initialCards=names(hand.deal[seat]), dealScore=-replayed.points[seat],
                        gameScore=-replayed.totals[seat])
            final.append(info)
        events.append({"eventName": "deal_end", "data": {"dealNumber": number, "players": final}})
    if result.complete:
        events.append({"eventName": "game_end", "data": {"players": [
            {"playerNumber": s + 1, "playerName": p, "gameScore": -result.totals[s]} for s, p in enumerate(players)]}})
    return events


def write(games: Iterable[GameRecord], out: TextIO) -> int:
    """The games as a log of events, one JSON object per line."""
    return write_events(games, out, game_events)


__all__ = ["NAME", "TITLE", "game_events", "read", "sniff", "unfit", "write"]
