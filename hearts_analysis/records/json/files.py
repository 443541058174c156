"""``hearts-game/1`` JSON files: one game per ``.json`` file (or a list of games), one per line in ``.jsonl``.

Each game read becomes an :class:`~hearts_analysis.records.errors.Item`: the record, or
the error naming its file and line (``games.jsonl:9``) and field; the other games are
still read. Writing is atomic.

A line cut off in the middle is one unreadable game, named by its line:

>>> jsonl_item(b'{"players": ["ann",\\n', "games.jsonl:9").error.text()
'bad JSON: the text ends early, inside a value (cut off?) at column 1'
>>> jsonl_item(b'{"players": 3}\\n', "games.jsonl:10").error.text()
'players: expected a list, got 3'
"""

from __future__ import annotations

import gc
import re
import sys
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator

import orjson

from ...atomic import atomic_open
from ...rules import Rules
from ...text import shown
from ..errors import Item, RecordError
from ..model import GameRecord
from ..paths import JSONL_SUFFIXES
from ..numbers import too_big
from .decode import TOO_BIG, game_from_dict
from .encode import dumps_game, game_to_dict
from .stream import STREAM_BYTES, NotPlain, document, text_of


_READ_BUFFER = 1 << 20
"""Bytes read at a time from a JSON Lines file: a line longer than the buffer is read in pieces and joined."""
MAX_LINE_BYTES = 64 << 20
"""The longest line of JSON Lines read: about 70,000 hands, twice the longest game a Parquet corpus numbers. A
longer one is reported, not held in memory: no game is that long, and a file without newlines would otherwise
be read whole."""
MAX_LINE_PLAYS = MAX_LINE_BYTES // len('[0,"2C"],')
"""The most plays a game written as one line can have and still be read back: each play takes at least that
many bytes. A game of more (millions of plays) is refused before its line is built, which would take gigabytes
and, under a memory limit, end the process without a word."""
MAX_DOCUMENT_BYTES = 256 << 20
"""The largest ``.json`` document (or standard input) read; more games than that belong in JSON Lines."""


_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
WIDE_TEXT = "the text is UTF-16 or UTF-32, not UTF-8: save the file as UTF-8"


def is_wide_text(data: bytes) -> bool:
    r"""Text saved as UTF-16 or UTF-32: a byte order mark, or NUL bytes between the characters, which read as text
    in one of those encodings (a file of NUL bytes, or other binary data, does not).

    >>> is_wide_text("game 1".encode("utf-16-le")), is_wide_text("game".encode("utf-32-be"))
    (True, True)
    >>> is_wide_text(bytes(300)), is_wide_text(b"game 1"), is_wide_text(b"PK\x03\x04\x14\x00\x00\x00\x08\x00")
    (False, False, False)
    """
    if data.startswith(_WIDE_BOMS):
        return True
    head = data[:256]
    if b"\x00" not in head:
        return False
    for encoding, width in (("utf-32-le", 4), ("utf-32-be", 4), ("utf-16-le", 2), ("utf-16-be", 2)):
        text = head[:len(head) // width * width].decode(encoding, "replace").rstrip("\ufffd")
        if text.strip() and all(char.isprintable() or char in "\t\r\n" for char in text):
            return True
    return False


NOT_TEXT = "the file holds NUL bytes: binary data, not text (a game file or log is UTF-8 text)"


def bad_json(error: orjson.JSONDecodeError, data: bytes, document: bool = False) -> str:
    """What is wrong with JSON text that orjson refused, in the user's terms.

    Text saved as UTF-16 or UTF-32 (a byte order mark, or NUL bytes between the
    characters) is named as such; text that stops inside a value is said to end
    early (a cut-off line or file), not to be wrong at its last column.
    ``document``: ``data`` is a whole ``.json`` file (the line is then named too).
    """
    if is_wide_text(data):
        return WIDE_TEXT
    if b"\x00" in data:
        return NOT_TEXT
    where = f"line {error.lineno}, column {error.colno}" if document else f"column {error.colno}"
    if error.pos >= len(data.rstrip()):
        return f"bad JSON: the text ends early, inside a value (cut off?) at {where}"
    return f"bad JSON: {error.msg} ({where})"


def _item(obj: Any, source: str, rules: Rules | None, hands: Iterator[Any] | None = None) -> Item:
    try:
        return Item(source, game_from_dict(obj, rules, hands))
    except RecordError as error:
        return Item(source, error=error.at(source))


def _as_written(item: Item, raw: bytes) -> Item:
    """``item``, its error showing a number too large to read as it is written in ``raw`` (its game's JSON)."""
    error = item.error
    if error is None or error.detail != TOO_BIG:
        return item
    written = _number_at(raw, error.field or "")
    if written is None:
        return item
    return Item(item.source, error=too_big(error.field, str(written)).at(item.source))


def _number_at(raw: bytes, field: str) -> int | None:
    """The integer at ``field`` (``hands[0].points[1]``) of a game's JSON text, read exactly (Python's own
    JSON reader keeps every digit); ``None`` if it cannot be found."""
    import json
    try:
        value: Any = json.loads(raw)
        for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", field):
            value = value[int(index)] if index else value[key]
    except (ValueError, LookupError, TypeError, RecursionError):
        return None
    return value if isinstance(value, int) else None


def iter_jsonl(lines: Iterable[bytes | None], name: str, rules: Rules | None = None) -> Iterator[Item]:
    """Every non-blank line's game; ``lines`` as :func:`bounded_lines` gives them (``None``: a line too long)."""
    for number, line in enumerate(lines, 1):
        if line is None:
            yield long_line_item(f"{name}:{number}")
        elif line and not line.isspace():
            yield jsonl_item(line, f"{name}:{number}", rules)


def bounded_lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """The lines of a stream, ``None`` for each longer than :data:`MAX_LINE_BYTES` (read past, never held)."""
    limit = MAX_LINE_BYTES
    while line := stream.readline(limit + 1):
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        while (more := stream.readline(_READ_BUFFER)) and not more.endswith(b"\n"):
            pass
        yield None


def long_line_item(source: str) -> Item:
    """The error of a line longer than :data:`MAX_LINE_BYTES`."""
    return Item(source, error=RecordError(f"a line longer than {MAX_LINE_BYTES >> 20} MB, not read: no game "
                                          "record is that long (is this JSON Lines?)", source=source))


def read_document(stream: BinaryIO, name: str) -> bytes:
    """A whole JSON document, or :class:`RecordError` past :data:`MAX_DOCUMENT_BYTES` (read no further)."""
    data = stream.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise RecordError(f"more than {MAX_DOCUMENT_BYTES >> 20} MB, not read: write that many games as JSON "
                          "Lines, one game a line", source=name)
    return data


def jsonl_item(line: bytes, source: str, rules: Rules | None = None) -> Item:
    """One non-blank line of a JSON Lines file (with its newline), as :func:`iter_jsonl` reads it.

    The cycle collector is paused meanwhile: a game's decoded JSON is hundreds
    of short-lived lists, which would otherwise set it off mid-game and age
    into the older generations, to be scanned again and again in full.
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        if len(line) > STREAM_BYTES:
            try:
                listed, games = document(text_of(line))
            except NotPlain:
                listed = True
            if not listed:  # a list is no game: the usual reading says so
                (obj, hands), = games
                return _item(obj, source, rules, hands)
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as error:
            return Item(source, error=RecordError(bad_json(error, line), source=source))
        return _as_written(_item(obj, source, rules), line)
    finally:
        if paused:
            gc.enable()


def _looks_like_jsonl(lines: list[bytes]) -> bool:
    """One of the first two non-empty lines is a whole JSON object on its own.

    An indented game that fails to parse is one broken document (report its line), not
    one bad record per line: none of its lines is an object by itself.
    """
    for line in [l for l in lines if l.strip()][:2]:
        try:
            if isinstance(orjson.loads(line), dict):
                return True
        except orjson.JSONDecodeError:
            continue
    return False


def iter_json_text(data: bytes, name: str, rules: Rules | None = None) -> Iterator[Item]:
    """A whole ``.json`` document: one game (or a list of games); JSON Lines if it is not one document."""
    if len(data) > STREAM_BYTES:
        try:
            listed, games = document(text_of(data))
        except NotPlain:
            pass
        else:
            for index, (obj, hands) in enumerate(games):
                yield _item(obj, f"{name}:#{index + 1}" if listed else f"{name}:1", rules, hands)
            return
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        lines = data.splitlines()
        if len([l for l in lines if l.strip()]) > 1 and _looks_like_jsonl(lines):
            yield from iter_jsonl(iter(lines), name, rules)
            return
        source = f"{name}:{error.lineno}"
        yield Item(source, error=RecordError(bad_json(error, data, document=True), source=source))
        return
    if isinstance(obj, list):
        for index, game in enumerate(obj):
            yield _item(game, f"{name}:#{index + 1}", rules)
    else:
        yield _as_written(_item(obj, f"{name}:1", rules), data)


def read_json_path(path: Path, rules: Rules | None = None) -> Iterator[Item]:
    name = str(path)
    try:
        with open(path, "rb", buffering=_READ_BUFFER) as stream:
            if path.suffix.lower() in JSONL_SUFFIXES:
                yield from iter_jsonl(bounded_lines(stream), name, rules)
                return
            data = read_document(stream, name)
        yield from iter_json_text(data, name, rules)
    except OSError as error:
        yield Item(name, error=RecordError(f"cannot read: {error.strerror or error}", source=name))
    except RecordError as error:
        yield Item(name, error=error)


def read_stdin(rules: Rules | None = None) -> Iterator[Item]:
    try:
        data = read_document(sys.stdin.buffer, "<stdin>")
    except RecordError as error:
        yield Item("<stdin>", error=error)
        return
    yield from iter_json_text(data, "<stdin>", rules)


def too_long_for_a_line(game: GameRecord, source: str) -> RecordError | None:
    """The error of a game with more plays than a line of JSON Lines holds (:data:`MAX_LINE_PLAYS`), or ``None``.

    >>> from hearts_analysis.simulate import simulate_games
    >>> from hearts_analysis.rules import Rules
    >>> game = next(iter(simulate_games(1, Rules.preset("standard", target=30))))
    >>> too_long_for_a_line(game, "games.jsonl:1") is None
    True
    """
    plays = sum(len(hand.plays) for hand in game.hands)
    if plays <= MAX_LINE_PLAYS:
        return None
    return RecordError(f"{plays:,} plays: more than {MAX_LINE_PLAYS:,}, so its line would be longer than "
                       f"{MAX_LINE_BYTES >> 20} MB, which no reader reads; not written", "hands", source=source)


def write_games(games: Iterable[GameRecord], path: str | Path) -> int:
    """Write games as JSON Lines (or one ``.json`` game) atomically; returns the count."""
    path = Path(path)
    count = 0
    with atomic_open(path, "wb") as out:
        if path.suffix.lower() == ".json":
            games = list(games)
            if len(games) != 1:
                raise ValueError(f"{path}: a .json file holds exactly one game; use .jsonl for {len(games)}")
            out.write(orjson.dumps(game_to_dict(games[0]), option=orjson.OPT_INDENT_2) + b"\n")
            return 1
        for game in games:
            out.write(dumps_game(game) + b"\n")
            count += 1
    return count
