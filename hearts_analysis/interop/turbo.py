"""Turbo Hearts game event streams <-> ``hearts-game/1`` records.

Turbo Hearts' server stores a game as its events, each a JSON object tagged by ``type``
(its ``GameEvent``), one per line (or a JSON list of them). What the importer reads:

- ``sit``: ``north``, ``east``, ``south``, ``west`` (players, named by their ``name`` or
  ``user_id``; our seats 0-3, clockwise: a seat's left is the next seat) and the charging style;
- ``deal``: each seat's 13 cards and the ``pass`` (``left``, ``right``, ``across``, ``keeper``);
- ``send_pass`` (``from``, ``cards``) and ``recv_pass`` (``to``, ``cards``);
- ``charge`` (``seat``, ``cards``) and ``reveal_charges`` (every seat's, after blind charging);
- ``play`` (``seat``, ``card``);
- ``claim`` / ``accept_claim`` / ``reject_claim``: a claim all three others accept ends the hand,
  the claimer taking every card not yet played;
- ``hand_complete``: each seat's score for the hand (``north_score``, ...);
- ``game_complete``: the game is over (four deals).

Other events (``ping``, ``chat``, ``start_trick``, ``end_trick``, statuses, ...) are skipped.
Cards are written ``2C``..``AS``. The keeper pass (the fourth deal's exchange through a common
pile) has no rule field: such a deal is imported with the hands the seats held after it, as a
hand without a pass, and its audit says ``unmodelled: keeper pass``.

>>> sniff('{"type": "deal", "north": ["2C"], "pass": "left"}')
True
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, TextIO

from ..cards import card_name, iter_cards, mask_of, names, parse_card
from ..engine.replay import replay_game
from ..records.errors import Item, RecordError
from ..records.model import GameRecord, HandRecord
from ..records.numbers import json_whole_number
from ..rules import Rules
from ..text import shown
from .rebuild import card_list, cut_tolerant, event_games, own_rules_unfit, pass_unrecorded, refuse_unfit, write_events

NAME = "turbo"
TITLE = "Turbo Hearts game event stream (JSON events)"
PRESET = "turbo_hearts"
PROGRAM = "Turbo Hearts"
PLAYERS = 4
_TABLE = Rules().table(PLAYERS)
"""Four seats: who receives each pass."""
SEATS = ("north", "east", "south", "west")
DIRECTIONS = ("left", "right", "across", "keeper")
KEEPER_NOTE = "keeper pass (the fourth deal's cards were exchanged through a common pile)"


def sniff(head: str) -> bool:
    """JSON objects tagged ``"type"`` with Turbo Hearts' event names."""
    return '"type"' in head and any(f'"{name}"' in head for name in ("sit", "deal", "send_pass", "hand_complete",
                                                                      "play"))\
        and ('"north"' in head or '"seat"' in head)


# -- reading ----------------------------------------------------------------------------
class _Hand:
    def __init__(self, line: int, dealt: list[tuple], direction: str):
        self.line = line
        self.dealt = dealt
        self.direction = direction
        self.sent: list[tuple | None] = [None] * PLAYERS
        self.received: list[tuple | None] = [None] * PLAYERS
        self.charged: list[str] = []
        self.plays: list[tuple[int, int]] = []
        self.points: tuple[int, ...] | None = None
        self.accepts: dict[int, set[int]] = {}
        self.claim: int | None = None


class _Game:
    def __init__(self, line: int):
        self.line = line
        self.players: tuple[str, ...] | None = None
        self.charging: str | None = None
        self.hands: list[_Hand] = []
        self.complete: bool | None = None
        self.error: RecordError | None = None


def _seat(value: Any, field: str) -> int:
    if value not in SEATS:
        raise RecordError(f"expected a seat ({', '.join(SEATS)}), got {shown(value)}", field)
    return SEATS.index(value)


def _player_name(value: Any, field: str) -> str:
    if isinstance(value, dict):
        for key in ("name", "user_id"):
            if isinstance(value.get(key), str) and value[key]:
                return value[key]
    if isinstance(value, str) and value:
        return value
    raise RecordError(f"expected a player with a name or user_id, got {shown(value)}", field)


def _current(game: _Game, kind: str) -> _Hand:
    if not game.hands:
        raise RecordError(f"a {kind} event before any deal", "type")
    return game.hands[-1]


def _apply(game: _Game, kind: str, event: dict, line: int) -> None:
    if kind == "sit":
        game.players = tuple(_player_name(event.get(seat), f"sit.{seat}") for seat in SEATS)
        game.charging = event.get("rules") if isinstance(event.get("rules"), str) else None
    elif kind == "deal":
        direction = event.get("pass")
        if direction not in DIRECTIONS:
            raise RecordError(f"expected a pass direction ({', '.join(DIRECTIONS)}), got {shown(direction)}",
                              "deal.pass")
        game.hands.append(_Hand(line, [card_list(event.get(seat), f"deal.{seat}") for seat in SEATS], direction))
    elif kind in ("send_pass", "recv_pass"):
        hand = _current(game, kind)
        key = "from" if kind == "send_pass" else "to"
        seat = _seat(event.get(key), f"{kind}.{key}")
        (hand.sent if kind == "send_pass" else hand.received)[seat] = card_list(event.get("cards"), f"{kind}.cards")
    elif kind in ("charge", "reveal_charges"):
        hand = _current(game, kind)
        lists = ([event.get("cards")] if kind == "charge" else [event.get(seat) for seat in SEATS])
        for index, cards in enumerate(lists):
            where = "charge.cards" if kind == "charge" else f"reveal_charges.{SEATS[index]}"
            for card in card_list(cards or [], where):
                if card_name(card) not in hand.charged:
                    hand.charged.append(card_name(card))
    elif kind == "play":
        hand = _current(game, kind)
        hand.plays.append((_seat(event.get("seat"), "play.seat"), card_list([event.get("card")], "play.card")[0]))
    elif kind in ("claim", "accept_claim", "reject_claim"):
        hand = _current(game, kind)
        claimer = _seat(event.get("seat" if kind == "claim" else "claimer"),
                        f"{kind}.{'seat' if kind == 'claim' else 'claimer'}")
        if kind == "claim":
            hand.accepts[claimer] = {claimer}
        elif kind == "reject_claim":
            hand.accepts.pop(claimer, None)
        else:
            hand.accepts.setdefault(claimer, {claimer}).add(_seat(event.get("acceptor"), "accept_claim.acceptor"))
            if len(hand.accepts[claimer]) == PLAYERS:
                hand.claim = claimer
    elif kind == "hand_complete":
        hand = _current(game, kind)
        scores = []
        for seat in SEATS:
            scores.append(json_whole_number(event.get(f"{seat}_score"), f"hand_complete.{seat}_score"))
        hand.points = tuple(scores)
    elif kind == "game_complete":
        game.complete = True


def _hand(hand: _Hand, number: int) -> HandRecord:
    field = f"deal {number}"
    extra: dict[str, Any] = {}
    unmodelled = None
    deal = tuple(hand.dealt)
    passes = None
    direction = "hold" if hand.direction == "keeper" else hand.direction
    if hand.direction == "keeper":
        if any(hand.sent):
            if not all(hand.sent) or not all(hand.received):
                raise RecordError("the keeper pass does not show every seat's cards sent and received", field)
            deal = tuple(tuple(iter_cards((mask_of(d) & ~mask_of(s)) | mask_of(r)))
                         for d, s, r in zip(hand.dealt, hand.sent, hand.received))
            unmodelled = (KEEPER_NOTE,)
            extra["turbo_keeper"] = {"sent": [names(s) for s in hand.sent], "received": [names(r) for r in hand.received]}
    elif any(hand.sent):
        passes = tuple(hand.sent)
    return HandRecord(deal=deal, plays=tuple(hand.plays), passes=passes, pass_direction=direction,
                      points=hand.points, charged=tuple(map(parse_card, hand.charged)) or None, claim=hand.claim,
                      unmodelled=unmodelled, extra=extra)


def _record(game: _Game, game_id: str) -> GameRecord:
    if game.players is None:
        raise RecordError("no sit event names the players", "sit")
    rules = Rules.preset(PRESET)
    extra = {"turbo_charging": game.charging} if game.charging else {}
    return GameRecord(players=game.players, hands=tuple(_hand(h, k) for k, h in enumerate(game.hands, 1)),
                      rules=rules, rules_spec=rules.to_spec(), game_id=game_id, complete=game.complete, extra=extra)


_READ = ("sit", "deal", "send_pass", "recv_pass", "charge", "reveal_charges", "play", "claim", "accept_claim",
         "reject_claim", "hand_complete", "game_complete")


@cut_tolerant
def read(stream: TextIO, name: str) -> Iterator[Item]:
    """Every game of a stream (a ``sit`` starts one); an unreadable event makes its game an error."""
    return event_games(stream, name, kind_of=lambda e: (e.get("type") or "") if isinstance(e, dict) else None,
                       known=_READ, new_game=_Game,
                       starts=lambda game, kind: kind == "sit" and bool(game.hands or game.players),
                       apply=_apply, record=_record)


# -- writing -------------------------------------------------------------------------------
def unfit(game: GameRecord) -> str | None:
    """Why Turbo Hearts' event stream cannot hold this game, in words; ``None`` where it can: Turbo Hearts plays
    its own rules at 4 seats, its stream shows each seat's passed cards, and it has no field for what the record
    keeps but does not model."""
    reason = own_rules_unfit(game, PRESET, PROGRAM)
    if reason:
        return reason
    for number, hand in enumerate(game.hands, 1):
        if hand.unmodelled:
            return f"hand {number}: {', '.join(hand.unmodelled)} cannot be written back"
    return pass_unrecorded(game, replay_game(game), PROGRAM)


def game_events(game: GameRecord) -> list[dict]:
    """A game as Turbo Hearts events; raises :class:`ExportError` where the stream cannot hold it (:func:`unfit`)."""
    refuse_unfit(game, unfit)
    result = replay_game(game)
    events: list[dict] = [{"type": "sit", **{seat: {"type": "human", "user_id": player}
                                             for seat, player in zip(SEATS, game.players)},
                           "rules": game.extra.get("turbo_charging", "classic")}]
    for number, (hand, replayed) in enumerate(zip(game.hands, result.hands), 1):
        direction = "keeper" if replayed.pass_direction == "hold" else replayed.pass_direction
        events.append({"type": "deal", **{seat: names(hand.deal[s]) for s, seat in enumerate(SEATS)},
                       "pass": direction})
        if direction != "keeper":
            events += [{"type": "send_pass", "from": seat, "cards": names(hand.passes[s])}
                       for s, seat in enumerate(SEATS)]
            events += [{"type": "recv_pass", "to": seat, "cards": names(hand.passes[_TABLE.pass_source(s, direction)])}
                       for s, seat in enumerate(SEATS)]
        charged = hand.charged or ()
        for s, seat in enumerate(SEATS):
            mine = [c for c in charged if replayed.held[s] >> c & 1]
            events.append({"type": "charge", "seat": seat, "cards": names(mine)})
        for seat, card in hand.plays:
            events.append({"type": "play", "seat": SEATS[seat], "card": card_name(card)})
        claimer = hand.claim
        if claimer is not None:
            events.append({"type": "claim", "seat": SEATS[claimer], "hand": []})
            events += [{"type": "accept_claim", "claimer": SEATS[claimer], "acceptor": SEATS[s]}
                       for s in range(PLAYERS) if s != claimer]
        events.append({"type": "hand_complete", **{f"{seat}_score": replayed.points[s]
                                                   for s, seat in enumerate(SEATS)}})
    if result.complete:
        events.append({"type": "game_complete", "seed": {}})
    return events


def write(games: Iterable[GameRecord], out: TextIO) -> int:
    """The games as event streams, one JSON object per line (each game starts with its ``sit``)."""
    return write_events(games, out, game_events)


__all__ = ["NAME", "TITLE", "game_events", "read", "sniff", "unfit", "write"]
