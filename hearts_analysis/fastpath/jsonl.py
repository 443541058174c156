"""JSON Lines through the screen: chunks of lines encoded into the block a Parquet row group decodes to.

Each chunk's lines are encoded by :class:`~.jsonl_text.LineEncoder`: compact
lines from their text, any other parsed once with orjson (a game's ``game``
value is its line number, so reports name ``file:line``); the encoder's
lists become the screen's block directly (:func:`line_block`), judged by the
decoder's own rules (:func:`~.decode.judged_block`). A line the encoder does not
take (bad JSON, a record it declines or refuses) and a game the screen doubts
are read by the JSON reader itself (:func:`jsonl_item`) and replayed by the
reference engine, so errors and violations come from one place.

A file of three clean games and a broken line: the clean ones pass the screen as one run, the
broken line is read by the JSON reader and named by its line.

>>> import tempfile, pathlib
>>> from hearts_analysis.records.json import write_games
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.fastpath.decode import Judgements
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> write_games(simulate_games(3, Rules.preset("standard", target=30)), path)
3
>>> with open(path, "ab") as file:
...     _ = file.write(b'{"format": "hearts-game/1", "players": 4}\\n')
>>> [(task.first_line, task.data.count(b"\\n")) for task in split_lines(path)]
[(1, 4)]
>>> entries = audit_lines(next(split_lines(path)), Judgements(None), None)
>>> [(type(e).__name__, getattr(e, "games", None)) for e in entries]
[('CleanRun', 3), ('Audited', None)]
>>> entries[1].item.source.endswith("games.jsonl:4"), entries[1].report is None
(True, True)
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from itertools import chain, compress, repeat
from typing import Iterator

import numpy as np

from ..records.duplicates import block_digests
from ..records.json import files as json_files, jsonl_item
from ..records.model import DIRECTION_CODES, MOON_CODES
from ..records.parquet import arrays as arrow
from ..records.parquet.encode import EventBatch
from ..rules import Rules
from .block import NULL, Block
from .decode import ABSENT, At, HeaderValues, Judgements, judged_block
from .jsonl_text import LineEncoder
from .run import Entry, clean_run, replayed, screened
from .screen import ScreenFindings, screen_block

CHUNK_BYTES = 2 << 20
"""Bytes of whole lines per task: a few thousand hands, what the screen handles well at once."""


@dataclass(frozen=True)
class JsonlTask:
    """Whole lines of a JSON Lines file, the first of them line ``first_line`` (counted from 1); or, with
    ``too_long``, that one line, longer than the JSON reader reads (:data:`MAX_LINE_BYTES`), which is reported."""

    path: str
    first_line: int
    data: bytes
    too_long: bool = False


def split_lines(path: Path, chunk: int | None = None) -> Iterator[JsonlTask | OSError]:
    """The file as tasks of whole lines (about ``chunk`` bytes each, :data:`CHUNK_BYTES` by default), in order;
    an ``OSError`` where it stops being readable. A line too long is read past, never held whole."""
    name, limit = str(path), json_files.MAX_LINE_BYTES
    chunk = min(chunk or CHUNK_BYTES, limit)  # a line within one chunk is never too long: only one begun before
    try:
        with open(path, "rb") as stream:
            line, rest = 1, b""
            while block := stream.read(chunk):
                data = rest + block
                end = data.find(b"\n", len(rest)) if rest else -1
                if end > limit:  # the line begun before ends too late
                    yield JsonlTask(name, line, b"", too_long=True)
                    data, line = data[end + 1:], line + 1
                cut = data.rfind(b"\n") + 1
                if cut:
                    yield JsonlTask(name, line, data[:cut])
                    line += data.count(b"\n", 0, cut)
                rest = data[cut:]
                if len(rest) > limit:
                    yield JsonlTask(name, line, b"", too_long=True)
                    rest, line = _past_line(stream, chunk), line + 1
            if rest:
                yield JsonlTask(name, line, rest)
    except OSError as error:
        yield error


def _past_line(stream, chunk: int) -> bytes:
    """Read past the end of the current line; what follows it in the block read."""
    while block := stream.read(chunk):
        at = block.find(b"\n")
        if at >= 0:
            return block[at + 1:]
    return b""


class _LineBlock(Block):
    """A block whose ``game`` numbers are line numbers less one: sources read ``file:line``, as the JSON reader's."""

    def source(self, game: int) -> str:
        return f"{self.path}:{int(self.game_number[game]) + 1}"


def line_block(batch: EventBatch, judge: Judgements, path: str) -> Block:
    """The screen's block of the games an encoder collected, made from its lists and arrays as they are: writing
    them as Arrow tables for the Parquet decoder to read back cost a third of the time of reading the lines.

    >>> from hearts_analysis.records.json import game_to_dict
    >>> from hearts_analysis.rules import Rules
    >>> from hearts_analysis.simulate import simulate_games
    >>> encoder = LineEncoder()
    >>> for game in simulate_games(3, Rules.preset("standard", target=30)):
    ...     _ = encoder.add_json(game_to_dict(game))
    >>> block = line_block(encoder.take_batch(), Judgements(None), "games.jsonl")
    >>> block.games, block.hands, block.source(2), block.players()[0]
    (3, 8, 'games.jsonl:3', ['bot1', 'bot2', 'bot3', 'bot4'])
    """
    rows = batch.card_rows()
    hand_rows = np.zeros(len(rows.hand_rows) + 1, np.int64)
    np.cumsum(rows.hand_rows, out=hand_rows[1:])
    game_hands = np.append(np.array(batch.g_first_hand, np.int64), len(rows.hand_rows))
    hand_seats = np.array(batch.h_players, np.int64)
    every_game = np.arange(batch.games)
    headers = HeaderValues(
        seats=np.fromiter(map(len, batch.g_players), np.int64, batch.games), rules=_distinct(batch.g_rules),
        game_meta=_distinct(batch.g_meta), id_is_null=np.array([i is None for i in batch.g_id], bool),
        dealer=np.array([ABSENT if d is None else d for d in batch.h_dealer], np.int64),
        direction=np.array(list(map(DIRECTION_CODES.get, batch.h_direction, repeat(NULL))), np.int64),
        moon=np.array(list(map(MOON_CODES.get, batch.h_moon, repeat(NULL))), np.int64),
        points=_number_lists(batch.h_points, hand_seats), totals=_number_lists(batch.h_totals, hand_seats),
        hand_meta=_distinct(batch.h_meta), players=At(batch.players_array(), every_game),
        game_ids=At(arrow.strings(batch.g_id), every_game))
    return judged_block(headers, judge, np.zeros(batch.games, bool), path, block=_LineBlock, event=rows.event,
                        seat=rows.seat, card=rows.card, index=rows.index, hand_rows=hand_rows,
                        hand_number=np.array(batch.h_number, np.int64), game_hands=game_hands,
                        game_rows=hand_rows[game_hands], game_number=np.array(batch.g_index, np.int64))


def _distinct(texts: list[str | None]) -> tuple[np.ndarray, list[str | None]]:
    """Each text's index among the distinct texts, which start with ``None``: as the Parquet decoder numbers a
    dictionary column's values."""
    index: dict[str | None, int] = {None: 0}
    keys = np.array([index.setdefault(text, len(index)) for text in texts], np.int64)
    return keys, list(index)


def _number_lists(lists: list[list[int] | None], seats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values (hands, 7) zero-padded, present, one number per seat)`` of each hand's points or totals."""
    present = np.array([value is not None for value in lists], bool)
    given = list(compress(lists, present))
    lengths = np.fromiter(map(len, given), np.int64, len(given))
    values = np.zeros((len(lists), 7), np.int64)
    hand = np.repeat(np.flatnonzero(present), lengths)
    seat = np.arange(len(hand)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    fits = seat < 7
    values[hand[fits], seat[fits]] = np.fromiter(chain.from_iterable(given), np.int64, len(hand))[fits]
    well_formed = ~present
    well_formed[present] = lengths == seats[present]
    return values, present, well_formed


def screened_lines(task: JsonlTask, judge: Judgements) -> tuple[list[tuple[int, bytes, int]], Block | None,
                                                                  ScreenFindings | None]:
    """The task's lines that are not blank, each as ``(line number, text, its game in the block or -1)``, and the
    block of the games the encoder took with the screen's verdict (``None`` where the screen could not judge
    them: every line is then the reference reader's)."""
    numbered = [(number, line) for number, line in enumerate(io.BytesIO(task.data), task.first_line)
                if line and not line.isspace()]  # not blank (isspace: no copy of a long line, as strip makes)
    encoder = LineEncoder()
    lines = [(number, line, game) for (number, line), game in zip(numbered, encoder.add_lines(numbered))]
    batch = encoder.take_batch()
    if batch is None:
        return lines, None, None
    try:
        block = line_block(batch, judge, task.path)
        return lines, block, screen_block(block)
    except (ValueError, IndexError, TypeError, OverflowError):
        return lines, None, None  # input the screen does not expect: the reference path decides


def audit_lines(task: JsonlTask, judge: Judgements, rules: Rules | None) -> list[Entry]:
    """Every record of the task's lines, in order: the screen's clean runs, the reference engine's reports."""
    if task.too_long:
        return replayed([json_files.long_line_item(f"{task.path}:{task.first_line}")])
    lines, block, verdict = screened_lines(task, judge)
    clean = np.zeros(0, bool) if verdict is None else verdict.clean
    entries: list[Entry] = []
    run = None  # [start, stop) of the clean games since the last doubtful line
    names = None
    keys = block_digests(block, 0, block.games) if verdict is not None and block.games else None   # once for the block
    for number, line, game in lines:
        if verdict is not None and game >= 0 and clean[game]:
            run = (game if run is None else run[0], game + 1)
            continue
        if run is not None:
            entries.append(clean_run(block, verdict, *run, keys))
            run = None
        if verdict is not None and game >= 0 and verdict.judged[game]:   # faults the screen judged itself
            names = names or (block.players(), block.game_ids())
            entries.append(screened(block, verdict, game, *names, keys))
            continue
        entries.extend(replayed([jsonl_item(line, f"{task.path}:{number}", rules)]))
    if run is not None:
        entries.append(clean_run(block, verdict, *run, keys))
    return entries
