"""What foreign logs leave out, rebuilt from what they keep: deals, pass directions, who played.

Many programs log the hands *after* the pass, or the plays without seats. These
helpers rebuild the rest the one way the rules allow, so that every reader does
it alike and the audit then checks the result.

>>> table = Rules().table(4)
>>> rebuild_direction([[1], [2], [3], [4]], [1 << 4, 1 << 1, 1 << 2, 1 << 3], table)
'left'
>>> deal_before_pass([1 << 4, 1 << 1, 1 << 2, 1 << 3], [[1], [2], [3], [4]], "left", table)
[2, 4, 8, 16]
>>> trick_seats([0, 5, 3, 1], first_leader=2, players=4)
([2, 3, 0, 1], 3)
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO

import orjson

from ..cards import SUIT_MASKS, Card, CardError, Mask, mask_of, parse_card, suit_of
from ..engine.interpreter import winning_card
from ..engine.replay import GameResult
from ..records.errors import Item, RecordError
from ..records.model import GameRecord, is_score_sheet
from ..records.numbers import whole_number
from ..rules import PASS_DIRECTIONS, RULE_FIELDS, RuleError, Rules, Table
from ..rules_help import value_text
from ..text import shown



class ExportError(ValueError):
    """A game that a foreign format cannot hold (named, with the reason)."""


def rebuild_direction(passes: Sequence[Sequence[Card] | None], held: Sequence[Mask], table: Table) -> str | None:
    """The pass direction that puts every passed card in its receiver's held hand (``hold`` when nothing
    was passed).

    ``held`` are the hands after the exchange. ``None`` when no direction fits (or several do and the
    passes cannot tell them apart).
    """
    given = [mask_of(p or ()) for p in passes]
    if not any(given):
        return "hold"
    fits = [direction for direction in PASS_DIRECTIONS if direction != "hold"
            and (direction != "across" or table.players % 2 == 0)
            and all(given[s] & ~held[table.pass_target(s, direction)] == 0 for s in range(table.players))]
    return fits[0] if len(fits) == 1 else None


def deal_before_pass(held: Sequence[Mask], passes: Sequence[Sequence[Card] | None], direction: str,
                     table: Table) -> list[Mask]:
    """Each seat's dealt hand: what it held after the exchange, less what it received, plus what it gave."""
    given = [mask_of(p or ()) for p in passes]
    if direction == "hold":
        return list(held)
    return [(held[s] & ~given[table.pass_source(s, direction)]) | given[s] for s in range(table.players)]


def trick_winner(cards: Sequence[Card]) -> int:
    """Index in ``cards`` (play order) of the card that takes the trick (the engine's rule)."""
    return list(cards).index(winning_card(mask_of(cards), SUIT_MASKS[suit_of(cards[0])]))


def trick_seats(cards: Sequence[Card], first_leader: int, players: int) -> tuple[list[int], int]:
    """Who played each card of a log that lists the cards in play order only, and who leads next.

    Play goes to seat + 1 and the winner of a trick leads the next; a last, unfinished trick is
    seated the same way. ``cards`` may hold several tricks.
    """
    seats: list[int] = []
    leader = first_leader
    for start in range(0, len(cards), players):
        trick = cards[start:start + players]
        seats += [(leader + i) % players for i in range(len(trick))]
        if len(trick) == players:
            leader = (leader + trick_winner(trick)) % players
    return seats, leader


def integers(text: str, field: str, count: int | None = None) -> list[int]:
    """The whole numbers of a line of a text log; a :class:`RecordError` names the field and the token."""
    values = []
    for index, token in enumerate(text.split()):
        values.append(whole_number(token, f"{field}[{index}]"))
    if count is not None and len(values) != count:
        raise RecordError(f"expected {count} numbers, got {len(values)}", field)
    return values


def card_list(value: Any, field: str) -> tuple[Card, ...]:
    """A JSON list of card names as cards; a :class:`RecordError` names the field."""
    if not isinstance(value, list):
        raise RecordError(f"expected a list of cards, got {shown(value)}", field)
    try:
        return tuple(parse_card(v) for v in value)
    except (CardError, TypeError) as error:
        raise RecordError(str(error), field) from None


def json_events(stream: TextIO) -> Iterator[tuple[int, Any]]:
    """``(line, event)`` of an event log: one JSON value per line, or one JSON list of them.

    A line that is not JSON gives a :class:`RecordError` in place of its event, so that the reader
    can name it and go on.
    """
    text = stream.read()
    if text.lstrip().startswith("["):
        try:
            events = orjson.loads(text)
        except orjson.JSONDecodeError as error:
            yield 1, RecordError(f"bad JSON: {error}", "event")
            return
        yield from ((index + 1, event) for index, event in enumerate(events if isinstance(events, list) else []))
        return
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield number, orjson.loads(line)
            except orjson.JSONDecodeError as error:
                yield number, RecordError(f"bad JSON: {error}", "event")


def event_games(stream: TextIO, name: str, *, kind_of: Callable[[Any], str | None], known: Sequence[str],
                new_game: Callable[[int], Any], starts: Callable[[Any, str], bool],
                apply: Callable[[Any, str, Any, int], None], record: Callable[[Any, str], GameRecord],
                ends: str | None = None, events: Iterable[tuple[int, Any]] | None = None) -> Iterator[Item]:
    """The games of an event log, each an :class:`Item`: read as they end, an error where an event was bad.

    ``kind_of`` names an event (``None``: not an event object); events not ``known`` are skipped;
    ``starts(game, kind)`` says an event opens a new game; ``apply`` takes an event into the game
    (raising :class:`RecordError` naming the field); ``record`` builds it; an ``ends`` event closes it.
    The first bad event of a game makes the game an error, named ``file:line`` of that event (of the
    game's first event where the game cannot be built); the next game is read.
    ``events`` are the ``(line, event)`` pairs when the log is not JSON (default: :func:`json_events`).
    A game whose ``skipped`` (a list, filled by ``record``) names deals left out yields those errors
    before the game: a cut-off deal costs only itself.
    """
    stem = Path(name).stem or "log"
    game: Any = None
    count = 0

    def finish(current: Any) -> list[Item]:
        nonlocal count
        count += 1
        source = f"{name}:{current.line}"
        if current.error is not None:
            return [Item(current.error.source or source, error=current.error)]
        try:
            built = record(current, f"{stem}-{count}")
        except RecordError as error:
            return [Item(source, error=error.at(source))]
        skipped = [Item(error.source or source, error=error if error.source else error.at(source))
                   for error in getattr(current, "skipped", ())]
        return [*skipped, Item(source, built)]

    for line, event in (json_events(stream) if events is None else events):
        kind = None
        if not isinstance(event, RecordError):
            kind = kind_of(event)
            if kind is None:
                event = RecordError("expected an event object", "event")
            elif kind not in known:
                continue
        if game is None or (kind is not None and starts(game, kind)):
            if game is not None:
                yield from finish(game)
            game = new_game(line)
        if isinstance(event, RecordError):
            if game.error is None:
                game.error = event.at(f"{name}:{line}")
            continue
        try:
            apply(game, kind, event, line)
        except RecordError as error:
            if game.error is None:
                game.error = error.at(f"{name}:{line}")
        if kind == ends:
            yield from finish(game)
            game = None
    if game is not None:
        yield from finish(game)


def _hands_read(items: list[Item]) -> int:
    return sum(len(item.game.hands) for item in items if item.game is not None)


def cut_tolerant(read: Callable[[TextIO, str], Iterator[Item]]) -> Callable[[TextIO, str], Iterator[Item]]:
    """A line-based reader for which a log cut off inside its last line costs only what that line held.

    A file that ends without a newline, and whose reading fails somewhere, is read again without its
    partial last line; where that reads more hands, that reading is the result, with the cut line named. A
    cut at a line's end is each reader's to handle (the cut-off deal kept as far as it goes, or named).
    """
    def tolerant(stream: TextIO, name: str) -> Iterator[Item]:
        text = stream.read()
        if text.endswith("\n") or "\n" not in text:  # not cut inside a line: read as it comes
            yield from read(io.StringIO(text), name)
            return
        items = list(read(io.StringIO(text), name))
        if all(i.error is None for i in items):
            yield from items
            return
        again = list(read(io.StringIO(text[:text.rfind("\n") + 1]), name))
        if _hands_read(again) <= _hands_read(items):
            yield from items
            return
        where = f"{name}:{text.count(chr(10)) + 1}"
        yield Item(where, error=RecordError("the file ends inside this line (a log cut off): the line is not read",
                                            "line", where))
        yield from again

    return functools.wraps(read)(tolerant)


def rule_differences(rules: Rules, own: Rules, players: int, names: Iterable[str] = RULE_FIELDS) -> list[str]:
    """The fields of ``names`` where ``rules`` play otherwise than ``own`` at a table of ``players``, in words:
    ``"moon shooter_choice, where it plays add_to_others"``. Unset fields are resolved by the player count, so that
    ``standard``'s unset pass cycle is the same as a preset's left right across hold at 4 seats:

    >>> rule_differences(Rules.preset("standard"), Rules.preset("sturtevant"), 4, ["pass_cycle", "moon"])
    ['moon shooter_choice, where it plays add_to_others']
    >>> rule_differences(Rules.preset("standard"), Rules.preset("turbo_hearts"), 4, ["pass_cycle", "target"])
    []
    """
    mine, theirs = _as_played(rules, players), _as_played(own, players)
    return [f"{name} {value_text(name, mine[name])}, where it plays {value_text(name, theirs[name])}"
            for name in names if mine[name] != theirs[name]]


def _as_played(rules: Rules, players: int) -> dict[str, Any]:
    """Every field as a table of this many players plays it (unset fields resolved by the count, where the rules
    can seat that many)."""
    values = {name: getattr(rules, name) for name in RULE_FIELDS}
    try:
        table = rules.table(players)
    except RuleError:
        return values
    return {**values, "removed_cards": tuple(table.removed_cards), "pass_cycle": tuple(table.pass_cycle)}


def own_rules_unfit(game: GameRecord, preset: str, program: str, players: int = 4) -> str | None:
    """Why a program that plays only its own rules (``preset``) at ``players`` seats cannot hold the game, in
    words; ``None`` where it can.

    >>> from hearts_analysis.records.model import GameRecord
    >>> own_rules_unfit(GameRecord(players=("a", "b", "c"), hands=(), rules=Rules.preset("standard")),
    ...                 "trend_hearts", "Trend Hearts")
    '3 players; Trend Hearts seats 4'
    """
    if game.seats != players:
        return f"{game.seats} players; {program} seats {players}"
    differ = rule_differences(game.rules, Rules.preset(preset), players)
    if differ:
        return f"{program} plays only its own rules (the {preset} preset); this game's differ: {'; '.join(differ)}"
    return None


def unfit_for(module: Any, game: GameRecord) -> str | None:
    """Why the format of ``module`` (a writable format of :mod:`.formats`) cannot hold ``game``, or ``None``: its
    own ``unfit`` check, and a score sheet (points without cards) in a log that holds the cards (every format but
    one whose module sets ``SCORE_SHEETS``)."""
    if is_score_sheet(game) and not getattr(module, "SCORE_SHEETS", False):
        return "a score sheet (points without cards): this format's log holds each hand's cards"
    unfit = getattr(module, "unfit", None)
    return unfit(game) if unfit is not None else None


def refuse_unfit(game: GameRecord, unfit: Callable[[GameRecord], str | None]) -> None:
    """Raise :class:`ExportError` naming the game where ``unfit`` gives a reason: a writer handed a game its
    format cannot hold refuses it before writing any of it."""
    reason = unfit(game)
    if reason:
        raise ExportError(f"game {game.game_id or '?'}: {reason}")


def pass_unrecorded(game: GameRecord, result: GameResult, program: str) -> str | None:
    """The first hand that passes but has no recorded pass for every seat, in words (a log that shows each
    seat's passed cards cannot be written without them)."""
    for number, (hand, replayed) in enumerate(zip(game.hands, result.hands), 1):
        if replayed.pass_direction != "hold" and (hand.passes is None or any(p is None for p in hand.passes)):
            return f"hand {number}: the pass ({replayed.pass_direction}) is not recorded for every seat; " \
                   f"{program} logs each seat's passed cards"
    return None


def write_events(games: Iterable[GameRecord], out: TextIO, events_of: Callable[[GameRecord], list[dict]]) -> int:
    """Each game's events, one JSON object per line; the count of games."""
    count = 0
    for game in games:
        for event in events_of(game):
            out.write(orjson.dumps(event).decode() + "\n")
        count += 1
    return count


__all__ = ["ExportError", "card_list", "cut_tolerant", "deal_before_pass", "event_games", "integers", "json_events",
           "own_rules_unfit", "pass_unrecorded", "rebuild_direction", "refuse_unfit", "unfit_for",
           "rule_differences", "trick_seats", "trick_winner", "write_events"]
