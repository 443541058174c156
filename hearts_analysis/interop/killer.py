"""Killer Hearts' text log (``KHearts.log``) to and from ``hearts-game/1`` games.

Killer Hearts, an expert Windows Hearts program, appends every deal it plays to
one log. A public reader of it (ParseKiller, part of Brian Berns's Hearts
project) documents the layout, which is read here line by line::

       spades        hearts        clubs         diamonds   1WL 0 0 0 0
    W: 85            AQ8           QJT5          T652
    N: KT72          J92           AK            K983
    E: AJ943         K3            973           AQ4
    S: Q6            T7654         8642          J7
    left auto passes: W->QCQHAH N->KCACKD E->QDADKH S->7DJDQS

       spades        hearts  ...  (the hands after the pass, same layout)
    trick  1: S:2C  W:JC  N:QC  E:AC
    ...
    End of game: ...            (optional, at the last deal of a game)
    West Shoots the moon        (optional)
    W = 0 N = 26 E = 26 S = 26

- The header gives the deal number, the dealer (``W N E S``) and the pass
  (``L R A H``); the numbers after it are kept as written, not interpreted.
- Seats ``W N E S`` sit clockwise and are seats 0-3: play and a left pass go
  from W to N (seat + 1), as in ``hearts-game/1``.
- Hands are written by suit, spades hearts clubs diamonds, ``-`` for a void.
- The last line of a deal is the game score after it. A game ends at an
  ``End of game:`` line or where the running score restarts (the score line
  fits the deal's tricks as a first hand, not as a continuation); each hand's
  points are the difference of consecutive score lines, kept as the recorded
  points and totals so that the audit checks them.
- A deal cut off before its score line (the log ends, or the next deal starts)
  is kept with the plays it has: the audit reports it as incomplete.

The rules are the ``killer_hearts`` preset; a game whose first deal does not
pass left gets the cycle rotated to where it starts.

A game written as Killer Hearts logs it reads back with the same plays and scores,
the log's own score lines kept as the recorded totals the audit checks:

>>> import io
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset(PRESET), ["W", "N", "E", "S"], seed=1)
>>> log = io.StringIO()
>>> write([game], log)
1
>>> log.getvalue().splitlines()[-3:-1]
['End of game: West wins', 'W = 83 N = 95 E = 106 S = 106 ']
>>> sniff(log.getvalue())
True
>>> item = next(read(io.StringIO(log.getvalue()), "KHearts.log"))
>>> item.game.players, [hand.plays for hand in item.game.hands] == [hand.plays for hand in game.hands]
(('West', 'North', 'East', 'South'), True)
>>> replay_game(item.game).totals
(83, 95, 106, 106)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Sequence, TextIO

from ..cards import RANK_LETTERS, SUIT_LETTERS, Card, card_name, make_card, rank_of, suit_of
from ..engine.replay import replay_game
from ..engine.scoring import moon_points, moon_shooter, raw_points
from ..engine.state import HandState
from ..records.errors import Item, RecordError
from ..records.model import GameRecord, HandRecord
from ..records.numbers import whole_number
from ..rules import MOON_CHOICES, RULE_FIELDS, Rules, Table
from ..text import shown
from .rebuild import cut_tolerant, rule_differences

NAME = "killer"
TITLE = "Killer Hearts text log (KHearts.log)"
FILE_EXAMPLE = "KHearts.log"

SEATS = "WNES"
"""Killer Hearts' seat letters, clockwise: seats 0-3."""
SEAT_NAMES = ("West", "North", "East", "South")
DIRECTIONS = {"L": "left", "R": "right", "A": "across", "H": "hold"}
DIRECTION_LETTERS = {name: letter for letter, name in DIRECTIONS.items()}
CYCLE = ("left", "right", "across", "hold")
_TABLE = Rules().table(len(SEATS))
"""Four seats: who receives each pass, who wins."""
SUIT_ORDER = "SHCD"
"""The columns of a hand: spades, hearts, clubs, diamonds."""
PRESET = "killer_hearts"
HAND_SIZE = 13
COLUMN = 14

_HEADER = re.compile(r"^\s*spades\s+hearts\s+clubs\s+diamonds\s+(\d+)\s*([WNES])\s*([LRAH])(.*)$")
_ROW = re.compile(r"^\s*([WNES])\s*:(.*)$")
_PASSES = re.compile(r"^\s*(left|right|across)\s+(?:auto\s+)?passes\s*:(.*)$", re.IGNORECASE)
_PASS = re.compile(r"^([WNES])->((?:[2-9TJQKA][SHCD])*)$")
_TRICK = re.compile(r"^\s*trick\s+(\d+)\s*:(.*)$")
_PLAY = re.compile(r"^([WNES]):([2-9TJQKA][SHCD])$")
_END = re.compile(r"^\s*End of game:")
_SHOOT = re.compile(r"^\s*(West|North|East|South|[WNES])\b.*\b(shoots?|shot)\b", re.IGNORECASE)
_SCORE = re.compile(r"^\s*[WNES]\s*=\s*-?\d+")
_SCORE_ITEM = re.compile(r"([WNES])\s*=\s*(-?\d+)")


def sniff(head: str) -> bool:
    """A Killer Hearts deal header followed by the West hand row."""
    match = re.search(r"^\s*spades\s+hearts\s+clubs\s+diamonds\s+\d+\s*[WNES]\s*[LRAH].*\n\s*W\s*:", head, re.M)
    return match is not None


CARDS: dict[str, Card] = {rank + suit: make_card(s, r) for s, suit in enumerate(SUIT_LETTERS)
                          for r, rank in enumerate(RANK_LETTERS)}
"""Killer's spelling of each card: rank then suit, ten as ``T``."""


def parse_card(text: str) -> Card:
    """``TS`` -> the ten of spades (the text is known to be a card)."""
    return CARDS[text]


# -- one deal ------------------------------------------------------------------------
@dataclass
class Deal:
    """One deal as logged (the text and the JSON form read into this)."""

    number: int
    line: int
    """Where it starts in its file (the header line; the entry's index in JSON)."""
    dealer: int | None
    direction: str
    deal: tuple[tuple[Card, ...], ...]
    passes: tuple[tuple[Card, ...] | None, ...] | None = None
    plays: list[tuple[int, Card]] = field(default_factory=list)
    score: tuple[int, ...] | None = None
    """The game score after the deal; ``None`` when the deal was cut off."""
    ended: bool = False
    """An ``End of game:`` line closed it."""
    note: str | None = None
    """The header's words after the pass letter, as written."""
    error: RecordError | None = None


class _Bad(Exception):
    def __init__(self, line: int, field: str, message: str):
        super().__init__(message)
        self.line, self.field, self.message = line, field, message


def _suit_cards(text: str, suit: str, line: int, field: str) -> list[Card]:
    if text == "-":
        return []
    cards = []
    for rank in text:
        if rank not in RANK_LETTERS:
            raise _Bad(line, field, f"{shown(rank)} is not a rank in {shown(text)} (expected 2-9 T J Q K A, "
                       "or - for a void)")
        cards.append(CARDS[rank + suit])
    return cards


def _hand_row(text: str, seat: int, line: int) -> tuple[Card, ...]:
    match = _ROW.match(text)
    field = f"{SEATS[seat]} hand"
    if match is None or match.group(1) != SEATS[seat]:
        raise _Bad(line, field, f"expected the {SEAT_NAMES[seat]} hand, '{SEATS[seat]}: ' then spades hearts "
                   f"clubs diamonds, got {text.strip()[:40]!r}")
    columns = match.group(2).split()
    if len(columns) != 4:
        raise _Bad(line, field, f"expected 4 suits (spades hearts clubs diamonds, - for a void), got {len(columns)}")
    return tuple(c for suit, column in zip(SUIT_ORDER, columns) for c in _suit_cards(column, suit, line, field))


class _Lines:
    """The lines of a log, read as they are needed (a log can hold hundreds of thousands of deals)."""

    def __init__(self, stream: Iterable[str]):
        self._lines = iter(stream)
        self.consumed = 0
        """The number of the last line taken (lines count from 1)."""
        self._next: str | None = None
        self._load()

    def _load(self) -> None:
        line = next(self._lines, None)
        self._next = None if line is None else line.rstrip("\r\n")

    def peek(self) -> str | None:
        return self._next

    def advance(self) -> None:
        self.consumed += 1
        self._load()

    def skip_blank(self) -> None:
        while self._next is not None and not self._next.strip():
            self.advance()

    def take(self, what: str, field: str) -> str:
        self.skip_blank()
        text = self._next
        if text is None:
            raise _Bad(self.consumed + 1, field, f"the log ends where {what} should be")
        self.advance()
        return text


def _hands(lines: _Lines) -> tuple[tuple[Card, ...], ...]:
    rows = []
    for seat in range(4):
        text = lines.take(f"the {SEAT_NAMES[seat]} hand", f"{SEATS[seat]} hand")
        rows.append(_hand_row(text, seat, lines.consumed))
    return tuple(rows)


def _passes(text: str, direction: str, line: int) -> tuple[tuple[Card, ...] | None, ...]:
    match = _PASSES.match(text)
    if match is None:
        raise _Bad(line, "passes", f"expected '{direction} auto passes: W->... N->... E->... S->...' after the "
                   f"hands of a {direction} deal, got {text.strip()[:40]!r}")
    if match.group(1).lower() != direction:
        raise _Bad(line, "passes", f"the header says the pass goes {direction}, the pass line says "
                   f"{match.group(1).lower()}")
    passes: list[tuple[Card, ...] | None] = [None] * 4
    for token in match.group(2).split():
        item = _PASS.match(token)
        if item is None:
            raise _Bad(line, "passes", f"expected a seat's pass such as W->TD6HAC, got {shown(token)}")
        cards = item.group(2)
        passes[SEATS.index(item.group(1))] = tuple(parse_card(cards[i:i + 2]) for i in range(0, len(cards), 2))
    return tuple(passes)


def after_pass(deal: Sequence[Sequence[Card]], passes: Sequence[Sequence[Card] | None] | None,
               direction: str) -> list[frozenset[Card]]:
    """Each seat's cards once the pass is made."""
    hands = [set(cards) for cards in deal]
    if passes is None or direction == "hold":
        return [frozenset(h) for h in hands]
    for seat, cards in enumerate(passes):
        hands[seat] -= set(cards or ())
    for seat, cards in enumerate(passes):
        hands[_TABLE.pass_target(seat, direction)] |= set(cards or ())
    return [frozenset(h) for h in hands]


def _check_after_pass(lines: _Lines, deal: Deal) -> None:
    text = lines.take("the hands after the pass", "hands after the pass")
    header_line = lines.consumed
    if _HEADER.match(text) is None:
        raise _Bad(header_line, "hands after the pass", "expected the hands after the pass (a 'spades hearts clubs "
                   f"diamonds' header), got {text.strip()[:40]!r}")
    logged = _hands(lines)
    for seat, (want, got) in enumerate(zip(after_pass(deal.deal, deal.passes, deal.direction), logged)):
        if want != frozenset(got):
            raise _Bad(header_line + 1 + seat, f"{SEATS[seat]} hand after the pass",
                       f"the log shows {' '.join(map(card_name, sorted(got)))}, but the deal and the pass give "
                       f"{' '.join(map(card_name, sorted(want)))}")


def _trick(text: str, line: int) -> list[tuple[int, Card]]:
    match = _TRICK.match(text)
    assert match is not None
    plays = []
    for token in match.group(2).split():
        play = _PLAY.match(token)
        if play is None:
            raise _Bad(line, f"trick {match.group(1)}", f"expected a play such as W:TS, got {shown(token)}")
        plays.append((SEATS.index(play.group(1)), parse_card(play.group(2))))
    if not plays or len(plays) > 4:
        raise _Bad(line, f"trick {match.group(1)}", f"{len(plays)} plays; a trick has 4")
    return plays


def _whole(text: str, line: int, field: str) -> int:
    """A number of the log, within 64 bits (what a record holds)."""
    try:
        return whole_number(text, None)
    except RecordError as error:
        raise _Bad(line, field, error.detail) from None


def _score(text: str, line: int) -> tuple[int, ...]:
    found = dict((seat, _whole(points, line, "score")) for seat, points in _SCORE_ITEM.findall(text))
    if len(found) != 4:
        raise _Bad(line, "score", f"expected the game score of all four seats, 'W = 14 N = 3 E = 9 S = 0', "
                   f"got {text.strip()[:40]!r}")
    return tuple(found[seat] for seat in SEATS)


def _deal_body(lines: _Lines, deal: Deal) -> None:
    """Read a deal after its header, up to and including its score line; stop early at the next header."""
    deal.deal = _hands(lines)
    if deal.direction != "hold":
        deal.passes = _passes(lines.take("the pass line", "passes"), deal.direction, lines.consumed)
        _check_after_pass(lines, deal)
    while True:
        lines.skip_blank()
        text = lines.peek()
        if text is None or _HEADER.match(text):
            return  # cut off: the plays so far are the hand
        lines.advance()
        if _TRICK.match(text):
            deal.plays.extend(_trick(text, lines.consumed))
        elif _END.match(text):
            deal.ended = True
        elif _SHOOT.match(text):
            continue
        elif _SCORE.match(text):
            deal.score = _score(text, lines.consumed)
            return
        else:
            raise _Bad(lines.consumed, f"trick {len(deal.plays) // 4 + 1}",
                       "expected a trick line ('trick  1: W:TS  N:KH  E:AS  S:3D'), 'End of game:', "
                       f"'<Seat> Shoot' or the score line, got {text.strip()[:40]!r}")


def _resync(lines: _Lines, deal: Deal) -> None:
    """After an error, the rest of the deal: its score line (kept, to tell where games end), up to the next deal."""
    while (text := lines.peek()) is not None and not _HEADER.match(text):
        lines.advance()
        if _SCORE.match(text):
            try:
                deal.score = _score(text, lines.consumed)
            except _Bad:
                pass
            return


def read_deals(stream: Iterable[str], name: str) -> Iterator[Deal]:
    """Every deal of a log, in order; a deal that cannot be read carries its error. Text between deals is skipped."""
    lines = _Lines(stream)
    last: Deal | None = None  # held back until the next deal: an 'End of game:' line may follow its score
    while (text := lines.peek()) is not None:
        header = _HEADER.match(text)
        lines.advance()
        if header is None:
            if last is not None and _END.match(text):
                last.ended = True
            continue
        if last is not None:
            yield last
        number, dealer, direction, note = header.groups()
        last = Deal(0, lines.consumed, SEATS.index(dealer), DIRECTIONS[direction], (), note=note.strip() or None)
        try:
            last.number = _whole(number, lines.consumed, "number")
            _deal_body(lines, last)
        except _Bad as bad:
            where = f"deal {last.number}, {bad.field}" if last.number else f"deal {bad.field}"
            last.error = RecordError(bad.message, where, source=f"{name}:{bad.line}")
            _resync(lines, last)
    if last is not None:
        yield last


# -- deals -> games --------------------------------------------------------------------
@lru_cache(maxsize=1)
def _table() -> Table:
    """The rules the program plays by, as a table: the engine replays and scores a deal's tricks."""
    return Rules.preset(PRESET).table(4)


def _hand(plays: Sequence[tuple[int, Card]]) -> HandState | None:
    """A whole hand (52 plays) played through the engine's hand state, which finds each trick's winner."""
    if len(plays) != 4 * HAND_SIZE:
        return None
    hands = [0, 0, 0, 0]
    for seat, card in plays:
        hands[seat] |= 1 << card
    state = HandState(_table(), hands, plays[0][0])
    for seat, card in plays:
        state.push(seat, card)
    return state


def trick_points(plays: Sequence[tuple[int, Card]]) -> tuple[int, ...] | None:
    """Points each seat took in a whole hand (52 plays), before any moon; else ``None``."""
    state = _hand(plays)
    if state is None:
        return None
    return tuple(raw_points(state.table, taken, 1) for taken in state.taken)


def point_options(plays: Sequence[tuple[int, Card]]) -> dict[tuple[int, ...], str | None] | None:
    """The points a whole hand can score, each with its moon choice (``None`` without a moon)."""
    state = _hand(plays)
    if state is None:
        return None
    table, taken = state.table, state.taken
    shooter = moon_shooter(table, taken)
    if shooter is None:
        return {tuple(raw_points(table, cards, 1) for cards in taken): None}
    return {tuple(moon_points(table, taken, shooter, choice)): choice for choice in MOON_CHOICES}


def _minus(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b))


def starts_new_game(before: Sequence[int], deal: Deal) -> bool:
    """Whether a deal's score line restarts the running score rather than continuing ``before``.

    The deal's tricks decide where its score fits only one way; else a game is over at
    the target, and a score that drops (other than by a moon's points) restarts.
    """
    table = _table()
    over = table.game_over(before)
    if deal.score is None:
        return over
    options = point_options(deal.plays)
    if options is not None:
        continues, fresh = _minus(deal.score, before) in options, deal.score in options
        if continues != fresh:
            return fresh
    drop = [b - s for b, s in zip(before, deal.score) if s < b]
    return over or (bool(drop) and drop != [table.point_total])


def group_games(deals: Iterable[Deal]) -> Iterator[list[Deal]]:
    """Deals gathered into games: a game ends at ``End of game:`` or where the score restarts."""
    game: list[Deal] = []
    before: tuple[int, ...] = (0, 0, 0, 0)
    for deal in deals:
        if game and _same(game[-1], deal):
            continue  # the program logged the deal twice
        if game and deal.error is None and starts_new_game(before, deal):
            yield game
            game, before = [], (0, 0, 0, 0)
        game.append(deal)
        before = deal.score if deal.score is not None else before
        if deal.ended:
            yield game
            game, before = [], (0, 0, 0, 0)
    if game:
        yield game


def _same(a: Deal, b: Deal) -> bool:
    return (a.number, a.deal, a.passes, a.plays, a.score) == (b.number, b.deal, b.passes, b.plays, b.score)


def rules_for(directions: Sequence[str]) -> Rules:
    """The ``killer_hearts`` rules, with the pass cycle rotated to the game's first pass (``any`` if irregular)."""
    for start in range(len(CYCLE)):
        if all(d == CYCLE[(start + k) % len(CYCLE)] for k, d in enumerate(directions)):
            if start == 0:
                return Rules.preset(PRESET)
            return Rules.preset(PRESET, pass_cycle=list(CYCLE[start:] + CYCLE[:start]))
    return Rules.preset(PRESET, pass_cycle=["any"])


def build_game(deals: Sequence[Deal], name: str, complete: bool | None = None) -> Item:
    """One game of deals, or the first error among them; ``before`` scores start at zero."""
    first = deals[0]
    source = f"{name}:{first.line}"
    for deal in deals:
        if deal.error is not None:
            return Item(deal.error.source or source, error=deal.error)
    hands = []
    before: tuple[int, ...] | None = (0, 0, 0, 0)
    for deal in deals:
        points = moon = None
        if deal.score is not None and before is not None:
            points = _minus(deal.score, before)
            moon = (point_options(deal.plays) or {}).get(points)
        extra = {"deal_number": deal.number}
        if deal.note:
            extra["killer_header"] = deal.note
        hands.append(HandRecord(deal=deal.deal, plays=tuple(deal.plays), passes=deal.passes, dealer=deal.dealer,
                                pass_direction=deal.direction, moon=moon, points=points, totals=deal.score,
                                extra=extra))
        before = deal.score
    rules = rules_for([d.direction for d in deals])
    stem = Path(name).stem or name
    ended = True if deals[-1].ended else complete
    return Item(source, GameRecord(players=SEAT_NAMES, hands=tuple(hands), rules=rules, rules_spec=rules.to_spec(),
                                   game_id=f"{stem}-{first.number}", complete=ended))


@cut_tolerant
def read(stream: TextIO, name: str) -> Iterator[Item]:
    """Every game of a Killer Hearts log; a game with a deal that cannot be read is an error item."""
    for deals in group_games(read_deals(stream, name)):
        yield build_game(deals, name)


# -- games -> log ------------------------------------------------------------------------
def unfit(game: GameRecord) -> str | None:
    """Why Killer Hearts' log cannot hold this game, or ``None``."""
    if game.seats != 4:
        return f"{game.seats} players; Killer Hearts seats 4"
    differ = rule_differences(game.rules, Rules.preset(PRESET), 4,
                              [name for name in RULE_FIELDS if name not in ("pass_cycle", "moon")])
    if differ:
        return f"Killer Hearts plays its own rules; this game's differ: {'; '.join(differ)}"
    for number, hand in enumerate(game.hands, 1):
        if any(len(cards) != HAND_SIZE for cards in hand.deal):
            return f"hand {number}: every seat must be dealt 13 cards"
    return None


def _row(seat: int, cards: Iterable[Card]) -> str:
    columns = []
    for suit in SUIT_ORDER:
        ranks = sorted((rank_of(c) for c in cards if suit_of(c) == SUIT_LETTERS.index(suit)), reverse=True)
        columns.append("".join(RANK_LETTERS[r] for r in ranks) or "-")
    return f"{SEATS[seat]}: " + "".join(c.ljust(COLUMN) for c in columns[:3]) + columns[3].ljust(COLUMN - 1)


def _header(number: int, dealer: int, direction: str, note: str) -> str:
    return ("   " + "".join(w.ljust(COLUMN) for w in ("spades", "hearts", "clubs")) + "diamonds   "
            + f"{number}{SEATS[dealer]}{DIRECTION_LETTERS[direction]} {note}").rstrip()


def _cards(cards: Iterable[Card]) -> str:
    return "".join(card_name(c) for c in cards)


def write(games: Iterable[GameRecord], out: TextIO) -> int:
    """The games as a Killer Hearts log; each must fit (:func:`unfit`). Names of players are not kept."""
    count = 0
    next_number = 1
    for game in games:
        result = replay_game(game)
        before = (0, 0, 0, 0)
        for index, (hand, done) in enumerate(zip(game.hands, result.hands)):
            number = hand.extra.get("deal_number")
            number = number if isinstance(number, int) and number >= 0 else next_number
            next_number = number + 1
            direction = done.pass_direction
            note = hand.extra.get("killer_header")
            note = note if isinstance(note, str) else " ".join(map(str, before))
            lines = [_header(number, done.dealer, direction, note)]
            lines += [_row(seat, cards) for seat, cards in enumerate(hand.deal)]
            if direction != "hold":
                passes = hand.passes or (None,) * 4
                lines.append(f"{direction} auto passes: " + " ".join(
                    f"{SEATS[seat]}->{_cards(cards)}" for seat, cards in enumerate(passes) if cards is not None))
                lines.append("")
                lines.append(_header(number, done.dealer, direction, note))
                lines += [_row(seat, cards) for seat, cards in enumerate(after_pass(hand.deal, hand.passes, direction))]
            for start in range(0, len(hand.plays), 4):
                lines.append(f"trick {start // 4 + 1:2d}: " + "  ".join(
                    f"{SEATS[seat]}:{card_name(card)}" for seat, card in hand.plays[start:start + 4]))
            totals = hand.totals if hand.totals is not None else done.totals
            last = index == len(game.hands) - 1
            if last and game.complete:
                winners = [SEAT_NAMES[s] for s in _TABLE.winners(totals)]
                lines.append(f"End of game: {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}")
            if done.moon is not None:
                lines.append(f"{SEAT_NAMES[done.moon.seat]} Shoots the moon")
            lines.append(" ".join(f"{SEATS[seat]} = {totals[seat]}" for seat in range(4)) + " ")
            out.write("\n".join(lines) + "\n\n")
            before = tuple(totals)
        count += 1
    return count


__all__ = ["DIRECTIONS", "Deal", "NAME", "SEATS", "SEAT_NAMES", "TITLE", "after_pass", "build_game",
           "group_games", "point_options", "read", "read_deals", "rules_for", "sniff", "starts_new_game",
           "trick_points", "unfit", "write"]
