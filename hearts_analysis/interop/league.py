"""Hearts League CSV histories (``TrickHistory.csv`` + ``RoundHistory.csv``) <-> ``hearts-game/1``.

The bot league program "Hearts League" writes its histories as CSV files without a header
row. Two of them make one record set:

- ``TrickHistory.csv``: ``Season, Game, Round, Trick, P1 Card, P2 Card, P3 Card, P4 Card, Lead,
  Winner``. Tricks -3, -2, -1 of a round are its pass, one card per player each (``Lead`` and
  ``Winner`` -1); tricks 0-12 are the plays, ``Pn Card`` being what player n played, ``Lead``
  and ``Winner`` players 0-3.
- ``RoundHistory.csv``: ``Season, Game, Round, P1 Score, ..., P4 Score, Queen``: the points of
  each round after the moon, and who took QS.
- ``GameHistory.csv`` (optional) gives the players' names (columns 3-6); without it they are
  ``P1``..``P4``.

How to pass them: give either file (or both; or the folder holding them, where the content is
recognised by the trick file). The others are found beside it, by the same name with ``Trick``
replaced by ``Round`` (or ``Game``): ``TrickHistory.csv`` -> ``RoundHistory.csv``,
``s1-TrickHistory.csv`` -> ``s1-RoundHistory.csv``. Without the round file the games are read
without recorded points. The games are those of the trick file, grouped by ``(Season, Game)``.

A card is ``suit * 13 + rank`` with suits clubs 0, diamonds 1, spades 2, hearts 3 and ranks two 0
to ace 12. Players 1-4 sit at seats 0-3 and pass to ``player + direction``: 1 (left), 3
(right), 2 (across), in that cycle from the first round. The deal is rebuilt from each player's
plays, less what it received, plus what it gave; the direction from where the passed cards were
played. A cut-off round costs only itself: the last round of a game with fewer than 13 tricks (or
part of its pass) is named and left out, since its deal cannot be known (the unplayed cards are not
guessed), and the complete rounds before it are the game. A row given twice (the same round and
trick of a game) is an error naming both lines, never a silent overwrite.

Either file is recognised from its content (:func:`sniff`); in a folder, a round file whose trick
file is beside it is read through that one (:func:`companion`), so no game is read twice.

>>> card_name(card_from_league(36)), league_card(parse_card("2C"))
('QS', 0)
"""

from __future__ import annotations

import contextlib
import csv
import io
from collections import OrderedDict
from pathlib import Path
from typing import Iterable, Iterator, TextIO

from ..atomic import atomic_open
from ..cards import HEARTS_MASK, QS, Card, card_name, iter_cards, mask_of, parse_card  # card_name, parse_card: doctest
from ..engine.replay import replay_game
from ..records.errors import Item, RecordError
from ..records.model import GameRecord, HandRecord
from ..records.numbers import whole_number
from ..rules import Rules
from ..text import shown
from .rebuild import cut_tolerant, deal_before_pass, own_rules_unfit, rebuild_direction, refuse_unfit

NAME = "league"
TITLE = "Hearts League CSV histories (TrickHistory.csv and RoundHistory.csv)"
PRESET = "hearts_league"
PLAYERS = 4
TRICKS = 13
PASS_CARDS = 3
TRICK_COLUMNS = ("Season", "Game", "Round", "Trick", "P1 Card", "P2 Card", "P3 Card", "P4 Card", "Lead", "Winner")
ROUND_COLUMNS = ("Season", "Game", "Round", "P1 Score", "P2 Score", "P3 Score", "P4 Score", "Queen")
GAME_COLUMNS = ("Season", "Game", "P1", "P2", "P3", "P4", "P1 Score", "P2 Score", "P3 Score", "P4 Score",
                "P1 Hearts", "P2 Hearts", "P3 Hearts", "P4 Hearts", "P1 Queens", "P2 Queens", "P3 Queens",
                "P4 Queens", "P1 Tricks", "P2 Tricks", "P3 Tricks", "P4 Tricks")
CYCLE = ("left", "right", "across")
"""The pass of round 1, 2, 3, then again."""
_TABLE = Rules().table(PLAYERS)
"""Four seats: who receives each pass."""

_SUIT_TO_OURS = (0, 1, 3, 2)
"""The program's suits clubs, diamonds, spades, hearts as ours (clubs, diamonds, hearts, spades)."""


def card_from_league(value: int) -> Card:
    return _SUIT_TO_OURS[value // 13] * 13 + value % 13


def league_card(card: Card) -> int:
    return _SUIT_TO_OURS.index(card // 13) * 13 + card % 13


def sibling(path: str | Path, kind: str) -> Path | None:
    """The file of ``kind`` (``Trick``, ``Round`` or ``Game``) beside a history file, by its name."""
    path = Path(path)
    for own in ("Trick", "Round", "Game"):
        if own in path.name:
            return path.with_name(path.name.replace(own, kind, 1))
    return None


ONE_FILE_NOTE = ("; the trick file only, without the points and the names: give an output named like "
                 "TrickHistory.csv for the round and game files beside it")
"""What ``hearts export league`` says when it writes the trick file alone (to stdout, or a name without ``Trick``)."""
KINDS = ("Trick", "Round", "Game")
FILE_NAMES = tuple(f"{kind}History.csv" for kind in KINDS)
"""The files of a record set as the program names them, trick file first."""


def companions(path: str | Path) -> list[Path]:
    """The other files of the record set ``path`` belongs to, by name (see :func:`sibling`); CSV files only.

    >>> [p.name for p in companions("L/TrickHistory.csv")], companions("games.jsonl")
    (['RoundHistory.csv', 'GameHistory.csv'], [])
    """
    path = Path(path)
    if path.suffix.lower() != ".csv":
        return []
    return [other for kind in KINDS if (other := sibling(path, kind)) is not None and other != path]


# -- recognising ----------------------------------------------------------------------
def _row_ints(row: list[str], start: int) -> list[int] | None:
    """The row's numbers from ``start`` on, for recognising the format: a number too large for a record is
    still a number (the reader names it), so it counts as 0 here."""
    values = []
    for text in row[start:]:
        try:
            values.append(_int_text(text))
        except RecordError as error:
            if not error.detail.startswith("expected a whole number within 64 bits"):
                return None
            values.append(0)
    return values


def _int_text(text: str, field: str | None = None) -> int:
    """A cell's whole number, within 64 bits; a :class:`RecordError` (a ``ValueError``) names ``field``."""
    text = text.strip()
    if text.endswith(".0"):  # pandas writes a column that once held a gap as floats
        text = text[:-2]
    return whole_number(text, field)


def sniff(head: str) -> bool:
    """The trick file (rows of ten fields: a season, then whole numbers, tricks -3..12, cards 0-51) or the
    round file (rows of eight: a season, game, round from 1, four scores 0-26, the QS taker 0-3)."""
    rows = [r for r in csv.reader(io.StringIO(head)) if r][:8]
    if rows and rows[0][:4] in (list(TRICK_COLUMNS[:4]), list(ROUND_COLUMNS[:4])):
        rows = rows[1:]
    width = len(rows[0]) if rows else 0
    if len(rows) < 2 and not (width == len(ROUND_COLUMNS) and head.endswith("\n")):
        return False  # one row is enough only for a round file's complete line
    complete_rows = rows[:-1] if not head.endswith("\n") else rows
    for row in complete_rows or rows[:1]:
        values = _row_ints(row, 1) if len(row) == width else None
        if values is None:
            return False
        if width == len(TRICK_COLUMNS):
            if not -3 <= values[2] <= 12 or not all(0 <= c <= 51 for c in values[3:7]):
                return False
        elif width != len(ROUND_COLUMNS) or values[1] < 1 or not all(0 <= p <= 26 for p in values[2:6]) \
                or not 0 <= values[6] < PLAYERS:
            return False
    return True


def companion(path: str | Path) -> Path | None:
    """The trick file a round file is read through (``None`` for a trick file): a folder holding both
    lists only the trick file's games."""
    trick = sibling(path, "Trick")
    return trick if trick is not None and trick.name != Path(path).name else None


# -- reading ---------------------------------------------------------------------------
class _Round:
    def __init__(self) -> None:
        self.passes: dict[int, list[int]] = {}
        self.tricks: dict[int, tuple[list[int], int]] = {}
        self.points: tuple[int, ...] | None = None


class _Game:
    def __init__(self, line: int) -> None:
        self.line = line
        self.rounds: OrderedDict[int, _Round] = OrderedDict()
        self.error: RecordError | None = None
        self.players: tuple[str, ...] | None = None
        self.rows: dict[tuple[int, int], int] = {}
        """The line of each ``(round, trick)`` row read: a second one is an error."""
        self.skipped: list[RecordError] = []
        """The cut-off last round, named and left out."""


def _cells(row: list[str], columns: tuple[str, ...], where: str) -> tuple[str, int, list[int]]:
    """``(season, game, numbers from the third column on)``; a :class:`RecordError` names the column."""
    if len(row) != len(columns):
        raise RecordError(f"expected {len(columns)} columns ({', '.join(columns)}), got {len(row)}", where)
    values = []
    for index in range(1, len(columns)):
        values.append(_int_text(row[index], columns[index]))
    return row[0], values[0], values[1:]


def _key(row: list[str]) -> tuple[str, str] | None:
    return (row[0], row[1].strip().removesuffix(".0")) if len(row) > 1 else None


def _csv_rows(stream: TextIO) -> Iterator[list[str] | RecordError]:
    """The rows of a CSV stream; in place of a row with a cell longer than the csv module reads (128 KB: no
    League cell is more than a few characters), the error saying so, and the rows after it still read."""
    reader = csv.reader(stream)
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield RecordError(f"a cell longer than {csv.field_size_limit():,} characters, or not CSV ({error}); "
                              "the row is not read", "row")


def _read_tricks(stream: TextIO, name: str, games: OrderedDict, errors: list[Item]) -> None:
    for line, row in enumerate(_csv_rows(stream), 1):
        if isinstance(row, RecordError):
            errors.append(Item(f"{name}:{line}", error=row.at(f"{name}:{line}")))
            continue
        if not row or (line == 1 and row[:2] == list(TRICK_COLUMNS[:2])):
            continue
        key = _key(row)
        game = games.setdefault(key, _Game(line)) if key else None
        try:
            _season, _number, (round_no, trick, *cards_lead_winner) = _cells(row, TRICK_COLUMNS, "row")
            cards, lead, winner = cards_lead_winner[:4], cards_lead_winner[4], cards_lead_winner[5]
            for i, value in enumerate(cards):
                if not 0 <= value <= 51:
                    raise RecordError(f"{value} is not a card code 0-51", TRICK_COLUMNS[4 + i])
            if not -3 <= trick < TRICKS:
                raise RecordError(f"{trick} is not a trick (-3..-1 the pass, 0-12 the plays)", "Trick")
            first = game.rows.setdefault((round_no, trick), line)
            if first != line:
                raise RecordError(f"round {round_no} trick {trick} of this game is given twice (first at line "
                                  f"{first}); the second row is not read", "Trick")
            hand = game.rounds.setdefault(round_no, _Round())
            if trick < 0:
                hand.passes[trick] = [card_from_league(c) for c in cards]
            else:
                if not 0 <= lead < PLAYERS:
                    raise RecordError(f"{lead} is not a player 0-3", "Lead")
                hand.tricks[trick] = ([card_from_league(c) for c in cards], lead)
        except RecordError as error:
            error.at(f"{name}:{line}")
            if game is None:
                errors.append(Item(f"{name}:{line}", error=error))
            elif game.error is None:
                game.error = error


def _read_rounds(path: Path, games: OrderedDict, errors: list[Item]) -> None:
    with path.open(newline="", encoding="utf-8") as stream:
        for line, row in enumerate(_csv_rows(stream), 1):
            if isinstance(row, RecordError):
                errors.append(Item(f"{path}:{line}", error=row.at(f"{path}:{line}")))
                continue
            if not row or (line == 1 and row[:2] == list(ROUND_COLUMNS[:2])):
                continue
            game = games.get(_key(row))
            try:
                _season, _number, (round_no, *scores) = _cells(row, ROUND_COLUMNS, "row")
                if game is None:
                    raise RecordError(f"no game {row[1]} of season {shown(row[0])} in the trick file", "Game")
                if round_no not in game.rounds:
                    if game.rounds and round_no > max(game.rounds):
                        continue  # the trick file was cut off before this round
                    raise RecordError(f"no round {round_no} of this game in the trick file", "Round")
                if game.rounds[round_no].points is not None:
                    raise RecordError(f"round {round_no} of this game is given twice; the second row is not read",
                                      "Round")
                game.rounds[round_no].points = tuple(scores[:PLAYERS])
            except RecordError as error:
                error.at(f"{path}:{line}")
                if game is not None and game.error is None:
                    game.error = error
                elif game is None:
                    errors.append(Item(f"{path}:{line}", error=error))


def _read_names(path: Path, games: OrderedDict) -> None:
    with path.open(newline="", encoding="utf-8") as stream:
        for row in _csv_rows(stream):
            if isinstance(row, RecordError):
                continue  # names only: a game without its names still reads
            game = games.get(_key(row))
            if game is not None and len(row) == len(GAME_COLUMNS) and all(row[2:6]):
                game.players = tuple(row[2:6])


def _hand(number: int, hand: _Round) -> HandRecord:
    field = f"round {number}"
    if sorted(hand.passes) != [-3, -2, -1]:
        raise RecordError(f"the pass has {len(hand.passes)} of its 3 rows (tricks -3, -2, -1)", field)
    passes = [tuple(hand.passes[t][seat] for t in (-3, -2, -1)) for seat in range(PLAYERS)]
    played = sorted(hand.tricks)
    if played != list(range(len(played))):
        raise RecordError(f"tricks {played} are not 0, 1, 2, ... in order", field)
    plays = []
    for trick in played:
        cards, lead = hand.tricks[trick]
        plays += [((lead + i) % PLAYERS, cards[(lead + i) % PLAYERS]) for i in range(PLAYERS)]
    held = [mask_of(card for seat_, card in plays if seat_ == seat) for seat in range(PLAYERS)]
    direction = CYCLE[(number - 1) % len(CYCLE)]
    if len(played) == TRICKS:
        direction = rebuild_direction(passes, held, _TABLE)
        if direction is None:
            raise RecordError("the passed cards were not each played by one receiving seat: no pass "
                              "direction fits", field)
    deal = deal_before_pass(held, passes, direction, _TABLE)
    return HandRecord(deal=tuple(tuple(iter_cards(m)) for m in deal), plays=tuple(plays),
                      passes=tuple(passes), pass_direction=direction, points=hand.points)


def _record(key: tuple[str, str], game: _Game) -> GameRecord:
    season, number = key
    rounds = list(game.rounds.items())
    if [n for n, _ in rounds] != list(range(1, len(rounds) + 1)):
        raise RecordError(f"rounds {[n for n, _ in rounds]} are not 1, 2, 3, ...", "Round")
    if rounds:
        last_number, last = rounds[-1]
        if len(last.tricks) < TRICKS or len(last.passes) < PASS_CARDS:
            why = (f"cut off after {len(last.passes)} of the pass's 3 rows and {len(last.tricks)} of 13 tricks, "
                   "so its deal cannot be known")
            rounds.pop()
            if not rounds:
                raise RecordError(f"{why}: the game has no other round, and is left out", f"round {last_number}")
            game.skipped.append(RecordError(f"{why}: this round is left out, the {len(rounds)} before it are kept",
                                            f"round {last_number}"))
    hands = tuple(_hand(n, r) for n, r in rounds)
    rules = Rules.preset(PRESET)
    return GameRecord(players=game.players or tuple(f"P{i}" for i in range(1, PLAYERS + 1)), hands=hands,
                      rules=rules, rules_spec=rules.to_spec(), game_id=f"{season}-{number}",
                      extra={"league_season": season, "league_game": _int_text(number, "Game")})


@cut_tolerant
def read(stream: TextIO, name: str) -> Iterator[Item]:
    """The games of a record set, given either its trick file or its round file (see the module's help)."""
    first = stream.readline()
    row = next(csv.reader([first]), [])
    if len(row) == len(ROUND_COLUMNS):  # the round file: the games come from the trick file beside it
        trick_path = sibling(name, "Trick")
        if trick_path is None or not trick_path.is_file():
            yield Item(f"{name}:1", error=RecordError(
                f"this is a round file (scores only); its trick file {trick_path.name if trick_path else '?'}"
                " must be beside it", "row").at(f"{name}:1"))
            return
        with trick_path.open(newline="", encoding="utf-8") as trick_stream:
            yield from read(trick_stream, str(trick_path))
        return
    games: OrderedDict[tuple[str, str], _Game] = OrderedDict()
    errors: list[Item] = []
    _read_tricks(_chain(first, stream), name, games, errors)
    rounds, names = sibling(name, "Round"), sibling(name, "Game")
    if rounds is not None and rounds.is_file():
        _read_rounds(rounds, games, errors)
    if names is not None and names.is_file():
        _read_names(names, games)
    yield from errors
    for key, game in games.items():
        source = f"{name}:{game.line}"
        if game.error is not None:
            yield Item(source, error=game.error)
            continue
        try:
            record = _record(key, game)
        except RecordError as error:
            yield Item(source, error=error.at(source))
            continue
        yield from (Item(source, error=error.at(source)) for error in game.skipped)
        yield Item(source, record)


def _chain(first: str, stream: TextIO) -> Iterator[str]:
    yield first
    yield from stream


# -- writing ----------------------------------------------------------------------------
def unfit(game: GameRecord) -> str | None:
    """Why the league's histories cannot hold this game, in words; ``None`` where they can: the league plays
    its own rules at 4 seats, and logs finished hands, each with its pass and one card from each player a trick.
    """
    reason = own_rules_unfit(game, PRESET, "the league")
    if reason:
        return reason
    result = replay_game(game)
    for number, (hand, replayed) in enumerate(zip(game.hands, result.hands), 1):
        if len(hand.plays) != PLAYERS * TRICKS:
            return f"hand {number}: {len(hand.plays)} of {PLAYERS * TRICKS} cards played; the league logs finished " \
                   "hands only"
        if not hand.passes or not all(hand.passes) or any(len(p) != PASS_CARDS for p in hand.passes):
            return f"hand {number}: no pass of {PASS_CARDS} cards from every player; the league logs each hand's pass"
        for trick in range(TRICKS):
            seats = {seat for seat, _ in hand.plays[trick * PLAYERS:(trick + 1) * PLAYERS]}
            if len(seats) != PLAYERS:
                return f"hand {number}, trick {trick + 1}: not one card from each player; the league logs a " \
                       "trick by player"
        if len(replayed.trick_winners) != TRICKS or not any(taken >> QS & 1 for taken in replayed.taken):
            return f"hand {number}: its tricks cannot be followed (a card played twice?); the league logs who won each"
    return None


def _checked(game: GameRecord):
    refuse_unfit(game, unfit)
    return replay_game(game)


def _ids(game: GameRecord, index: int) -> tuple[str, int]:
    return str(game.extra.get("league_season", "hearts-analysis")), int(game.extra.get("league_game", index))


def trick_rows(game: GameRecord, index: int = 1) -> list[list]:
    """The trick file's rows of one game."""
    result = _checked(game)
    season, number = _ids(game, index)
    rows = []
    for round_no, (hand, replayed) in enumerate(zip(game.hands, result.hands), 1):
        for step, trick in enumerate((-3, -2, -1)):
            rows.append([season, number, round_no, trick, *(league_card(p[step]) for p in hand.passes), -1, -1])
        for trick in range(TRICKS):
            played = hand.plays[trick * PLAYERS:(trick + 1) * PLAYERS]
            by_seat = {seat: card for seat, card in played}
            rows.append([season, number, round_no, trick, *(league_card(by_seat[s]) for s in range(PLAYERS)),
                         played[0][0], replayed.trick_winners[trick]])
    return rows


def write(games: Iterable[GameRecord], out: TextIO) -> int:
    """The trick file of the games alone (to a stream; :func:`write_set` writes the round and game files too)."""
    writer = csv.writer(out, lineterminator="\n")
    count = 0
    for index, game in enumerate(games, 1):
        writer.writerows(trick_rows(game, index))
        count += 1
    return count


def outputs(path: str | Path) -> list[Path]:
    """The files :func:`write_set` writes for ``path``: the trick file, and beside it the round and game files
    when its name says where they go (it holds ``Trick``)."""
    path = Path(path)
    if "Trick" not in path.name:
        return [path]
    return [path, *(sibling(path, kind) for kind in KINDS[1:])]


def write_set(games: Iterable[GameRecord], path: str | Path) -> list[Path]:
    """The record set of the games at ``path`` (the trick file) and beside it (:func:`outputs`), each file
    written beside its name and all renamed once every one is complete; returns the files written."""
    tables = _tables(list(games))
    files = outputs(path)
    with contextlib.ExitStack() as stack:
        for file, rows in zip(files, tables):
            out = stack.enter_context(atomic_open(file, "w"))
            csv.writer(out, lineterminator="\n").writerows(rows)
    return files


def _tables(games: list[GameRecord]) -> tuple[list, list, list]:
    """The rows of the trick, round and game files."""
    tricks, rounds, finals = [], [], []
    for index, game in enumerate(games, 1):
        tricks += trick_rows(game, index)
        result = replay_game(game)
        season, number = _ids(game, index)
        for round_no, hand in enumerate(result.hands, 1):
            queen = next(s for s, taken in enumerate(hand.taken) if taken >> QS & 1)
            rounds.append([season, number, round_no, *hand.points, queen])
        hearts = [sum((h.taken[s] & HEARTS_MASK).bit_count() for h in result.hands) for s in range(PLAYERS)]
        queens = [sum(h.taken[s] >> QS & 1 for h in result.hands) for s in range(PLAYERS)]
        tricks_won = [sum(h.tricks_won[s] for h in result.hands) for s in range(PLAYERS)]
        finals.append([season, number, *game.players, *result.totals, *hearts, *queens, *tricks_won])
    return tricks, rounds, finals


def write_files(games: Iterable[GameRecord], folder: str | Path) -> int:
    """The trick, round and game files of the games in ``folder`` (see :func:`write_set`)."""
    games = list(games)
    write_set(games, Path(folder) / FILE_NAMES[0])
    return len(games)


__all__ = ["FILE_NAMES", "NAME", "TITLE", "card_from_league", "companions", "league_card", "outputs", "read", "sibling",
           "sniff", "trick_rows", "unfit", "write", "write_files", "write_set"]
