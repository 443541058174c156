"""Audit the units of a Parquet corpus with the screen, sending whatever it doubts to the reference engine.

The result of a unit (whole games from one file) is a list of entries in input
order: :class:`Audited` for a game the reference engine replayed or a record
that could not be read, and :class:`CleanRun` for consecutive games the screen
found clean, whose reports are built only when asked for. Reports are exactly
the dicts :func:`hearts_analysis.corpus_audit.game_report` gives.

Three games, the second recorded with wrong points for its first hand: the
screen clears the other two, and the reference engine says what is wrong.

>>> import dataclasses, pathlib, tempfile
>>> from hearts_analysis.records.parquet import write_parquet
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> games = list(simulate_games(3, Rules.preset("standard", target=30)))
>>> wrong = dataclasses.replace(games[1].hands[0], points=(26, 0, 0, 0))
>>> games[1] = dataclasses.replace(games[1], hands=(wrong,) + games[1].hands[1:])
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> write_parquet(games, path)
3
>>> from hearts_analysis.fastpath.decode import Judgements, open_units
>>> [unit] = open_units(path)
>>> entries = audit_unit(unit, Judgements(None), None)
>>> [type(entry).__name__ for entry in entries]
['CleanRun', 'Audited', 'CleanRun']
>>> [v["code"] for v in entries[1].report["violations"]], [r["valid"] for r in entries[0].reports()]
(['points-mismatch', 'points-mismatch'], [True])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np
import orjson
import pyarrow as pa

from ..corpus_audit import GameReport, audit_report, game_report, hand_audit
from ..engine.replay import replay_game
from ..records.duplicates import block_digests
from ..records.errors import Item, RecordError
from ..records.parquet import read as parquet_read
from ..rules import MOON_CHOICES, Rules
from .block import Block
from .decode import TEXT_COLUMNS, Judgements, Unit, decode_unit
from .screen import ScreenFindings, screen_block


@dataclass(frozen=True)
class Audited:
    """A game replayed by the reference engine (``report``), or an unreadable record (``report is None``)."""

    item: Item
    report: GameReport | None
    key: tuple | None = None
    """``(game_id, id digest, cards digest)`` where the screen judged the game (:mod:`~hearts_analysis.records.duplicates`);
    else they come from ``item.game``."""


@dataclass
class CleanRun:
    """Consecutive games without any violation.

    ``reports()`` builds their reports from the screen's arrays; :meth:`slim`
    drops the arrays (keeping rendered reports, if any) before a result
    travels between processes.
    """

    games: int
    hands: int
    block: Block | None
    verdict: ScreenFindings | None
    start: int
    stop: int
    rendered: list[bytes] | None = None
    keys: list[tuple] | None = None
    """Each game's ``(game_id, id digest, cards digest)``, ``sources`` its place, ``hand_counts`` its hands: what
    finds a game read twice (:mod:`~hearts_analysis.records.duplicates`) once the arrays are gone."""
    sources: list[str] | None = None
    hand_counts: list[int] | None = None
    dropped: frozenset[int] = frozenset()
    """Games of the run (from 0) left out as repeats of earlier ones: :meth:`reports` skips them."""

    def drop(self, dropped: set[int]) -> None:
        """Leave out these games of the run (from 0), and their hands from the counts."""
        self.dropped = frozenset(dropped)
        self.games -= len(dropped)
        self.hands -= sum(self.hand_counts[i] for i in dropped)

    def reports(self) -> Iterator[GameReport]:
        for i, report in enumerate(self._all_reports()):
            if i not in self.dropped:
                yield report

    def _all_reports(self) -> Iterator[GameReport]:
        if self.rendered is not None:
            for text in self.rendered:
                yield orjson.loads(text)
            return
        block, verdict = self.block, self.verdict
        first = block.game_hands[self.start:self.stop + 1]
        points = verdict.points[first[0]:first[-1]].tolist()
        moon_seat = verdict.moon_seat[first[0]:first[-1]].tolist()
        moon_choice = verdict.moon_choice[first[0]:first[-1]].tolist()
        totals = verdict.totals[self.start:self.stop].tolist()
        winners = verdict.winners[self.start:self.stop].tolist()
        complete = verdict.complete[self.start:self.stop].tolist()
        players, game_ids = block.players(), block.game_ids()
        at = 0
        for g in range(self.start, self.stop):
            n = len(players[g])
            count = int(first[g - self.start + 1] - first[g - self.start])
            hands = []
            for k in range(at, at + count):
                moon = None if moon_seat[k] < 0 else {"seat": moon_seat[k], "choice": MOON_CHOICES[moon_choice[k]]}
                hands.append(hand_audit(points[k][:n], moon))
            at += count
            i = g - self.start
            yield audit_report(block.source(g), game_ids[g], list(players[g]), [], hands, totals[i][:n],
                               [s for s in range(n) if winners[i][s]], complete[i])

    def render(self) -> list[bytes]:
        """Each report as ``orjson.dumps`` bytes, kept (so that a worker process can do it); those of
        :attr:`dropped` games left out of what is returned."""
        if self.rendered is None:
            self.rendered = [orjson.dumps(report) for report in self._all_reports()]
        if self.dropped:
            return [text for i, text in enumerate(self.rendered) if i not in self.dropped]
        return self.rendered

    def slim(self) -> "CleanRun":
        self.block = self.verdict = None
        return self


Entry = Audited | CleanRun


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """``[start, stop)`` of each run of True."""
    edges = np.flatnonzero(np.diff(np.concatenate([[False], flags, [False]]).astype(np.int8)))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))


def _as_text(table: pa.Table) -> pa.Table:
    """The sparse text columns back as plain strings, as the reference reader reads them."""
    for name in TEXT_COLUMNS:
        if name in table.column_names and pa.types.is_dictionary(table.schema.field(name).type):
            table = table.set_column(table.column_names.index(name), name, table[name].cast(pa.string()))
    return table


def _reference_items(unit: Unit, start_row: int, stop_row: int, rules: Rules | None) -> list[Item]:
    """The reference reader's items for the games in rows ``[start_row, stop_row)`` of an ``events/1`` unit.

    Where the first game's number is below the one before it, the slice starts one
    row early, so that the reader finds that fault as it does in the whole unit;
    that row's game is dropped.
    """
    game = unit.table["game"]
    lead = 1 if start_row and game[start_row].as_py() < game[start_row - 1].as_py() else 0
    items = _read(unit.table.slice(start_row - lead, stop_row - start_row + lead), unit,
                  unit.first_row + start_row - lead, rules)
    return items[1:] if lead else items


def _game_items(unit: Unit, block: Block, games: list[int], rules: Rules | None) -> list[Item]:
    """The reference reader's items for some games of a unit, read together as one table of their rows
    (the file rows in error messages are right only for a single game, or a run of games)."""
    rows = block.game_rows
    cards = pa.concat_tables([unit.table.slice(rows[g], rows[g + 1] - rows[g]) for g in games])
    first_row = unit.first_row + int(rows[games[0]])
    if unit.headers is None:
        return _read(cards, unit, first_row, rules)
    heads = block.header_rows
    headers = pa.concat_tables([unit.headers.slice(heads[g], heads[g + 1] - heads[g]) for g in games])
    return _read(cards, unit, first_row, rules, headers, unit.header_row + int(heads[games[0]]))


def _forget_tracebacks(headers) -> None:
    """A reader error's traceback holds the reader's frames, and through them the row group's arrays,
    in a reference cycle that only a full collection would free."""
    for header in headers:
        if isinstance(header, RecordError):
            header.__traceback__ = None


def whole_unit_items(unit: Unit, rules: Rules | None) -> list[Item]:
    """The reference reader's items for a whole unit."""
    return _read(unit.table, unit, unit.first_row, rules, unit.headers, unit.header_row)


def replayed(items: list[Item]) -> list[Entry]:
    """Items through the reference engine."""
    return [Audited(item, None if item.game is None else game_report(replay_game(item.game), item.source))
            for item in items]


def audit_unit(unit: Unit, judge: Judgements, rules: Rules | None) -> list[Entry]:
    """Every game of a unit, in order: the screen's clean runs, the reference engine's reports."""
    try:
        block = decode_unit(unit, judge)
        verdict = None if block is None else screen_block(block)
    except (ValueError, IndexError, TypeError, OverflowError, pa.ArrowException):
        block = None  # input the screen does not expect: the reference path decides, as for any doubt
    if block is None or verdict is None:
        return replayed(whole_unit_items(unit, rules))
    judged = verdict.judged
    items = _doubtful_items(unit, block, np.flatnonzero(~judged), rules)
    if items is None:
        return replayed(whole_unit_items(unit, rules))
    entries: list[Entry] = []
    at = 0
    names = (block.players(), block.game_ids()) if (judged & ~verdict.clean).any() else ([], [])
    keys = block_digests(block, 0, block.games) if block.games else []   # once: a call costs the whole block's
    for start, stop in _runs(~verdict.clean):
        if start > at:
            entries.append(clean_run(block, verdict, at, start, keys))
        entries.extend(screened(block, verdict, g, *names, keys) if judged[g] else replayed([items[g]])[0]
                       for g in range(start, stop))
        at = stop
    if at < block.games:
        entries.append(clean_run(block, verdict, at, block.games, keys))
    return entries


def screened(block: Block, verdict: ScreenFindings, game: int, players: list[list[str]], game_ids: list,
             keys: list[tuple] | None = None) -> Audited:
    """A game the screen judged whole but found faults in (:mod:`~hearts_analysis.fastpath.findings`), reported
    as the reference engine reports it, without reading it into a record. ``keys``: the block's
    :func:`~hearts_analysis.records.duplicates.block_digests` for all its games, where the caller has them."""
    first, stop = int(block.game_hands[game]), int(block.game_hands[game + 1])
    players = list(players[game])
    n = len(players)
    hands = []
    for k in range(first, stop):
        seat = int(verdict.moon_seat[k])
        moon = None if seat < 0 else {"seat": seat, "choice": MOON_CHOICES[int(verdict.moon_choice[k])]}
        hands.append(hand_audit(verdict.points[k, :n].tolist(), moon))
    source = block.source(game)
    report = audit_report(source, game_ids[game], players, verdict.violations[game], hands,
                          verdict.totals[game, :n].tolist(), np.flatnonzero(verdict.winners[game, :n]).tolist(),
                          bool(verdict.complete[game]))
    return Audited(Item(source), report, keys[game] if keys is not None else block_digests(block, game, game + 1)[0])


def reference_items(unit: Unit, block: Block, games: np.ndarray, rules: Rules | None) -> dict[int, Item] | None:
    """The reference reader's item for each of ``games`` (indices in the block), for a caller that leaves them to
    the reference path; ``None`` if they must be read with the whole unit (:func:`whole_unit_items`)."""
    return _doubtful_items(unit, block, games, rules)


def _doubtful_items(unit: Unit, block: Block, games: np.ndarray, rules: Rules | None) -> dict[int, Item] | None:
    """The reference reader's item for each doubtful game; ``None`` if they must be read with the whole unit.

    Where the games are in order, all of them are read in one go, as one table of
    their rows (each game is read on its own rows alone); a game found unreadable
    is read again from its place in the unit, so that its error names its file row.
    """
    rows = block.game_rows
    items: dict[int, Item] = {}
    if len(games) and (np.diff(block.game_number) > 0).all():
        found = _game_items(unit, block, games.tolist(), rules)
        if len(found) == len(games):
            items = {g: item for g, item in zip(games.tolist(), found) if item.error is None}
    for g in games.tolist():
        if g not in items:
            if unit.headers is None:
                again = _reference_items(unit, int(rows[g]), int(rows[g + 1]), rules)
            else:
                again = _game_items(unit, block, [g], rules)
            if len(again) != 1:  # the game read differently from the unit
                return None
            items[g] = again[0]
    return items


def _read(table: pa.Table, unit: Unit, first_row: int, rules: Rules | None, headers: pa.Table | None = None,
          header_row: int = 0) -> list[Item]:
    """The reference reader's items for a table of whole games from ``unit`` (and their header rows)."""
    items: list[Item] = []
    if headers is not None:
        headers = _as_text(headers)
    for part in parquet_read.decoded(_as_text(table), unit.path, unit.number, first_row, rules, headers, header_row):
        if isinstance(part, Item):
            items.append(part)
        else:
            _forget_tracebacks(part.games)
            items.extend(part.items())
    return items


def clean_run(block: Block, verdict: ScreenFindings, start: int, stop: int,
              keys: list[tuple] | None = None) -> CleanRun:
    """Games ``[start, stop)`` of a screened block, all clean, as one entry. ``keys``: the block's
    :func:`~hearts_analysis.records.duplicates.block_digests` for all its games, where the caller has them (a call
    costs about as much for one game as for the whole block)."""
    hands = int(block.game_hands[stop] - block.game_hands[start])
    return CleanRun(stop - start, hands, block, verdict, start, stop,
                    keys=keys[start:stop] if keys is not None else block_digests(block, start, stop),
                    sources=[block.source(g) for g in range(start, stop)],
                    hand_counts=np.diff(block.game_hands[start:stop + 1]).tolist())
