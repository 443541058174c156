"""A corpus as pandas DataFrames: one table for each thing an analysis counts.

``read_corpus`` reads a Parquet file, a folder of them, or JSON / JSON Lines,
and returns :class:`Corpus`: ``games``, ``hands``, ``plays``, ``passes``,
``deals`` and ``errors``. Every table is keyed by ``game`` (0-based across the
whole corpus) and, below it, ``hand`` (1-based); cards, suits, ranks, seats and
players are categoricals, so grouping is cheap and the card order is the deck's.

>>> import hearts_analysis as ha                                       # doctest: +SKIP
>>> corpus = ha.read_corpus("corpus.parquet")                          # doctest: +SKIP
>>> corpus.plays.query("card == 'QS'").groupby("player", observed=True).size()  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from collections.abc import Mapping
from typing import Iterator

import numpy as np
import pandas as pd
import pyarrow as pa

from .records.errors import Item, RecordError
from .records.model import DIRECTION_CODES, MOON_CODES
from .records.parquet import iter_row_groups, parquet_files
from .records.parquet.decode import RowGroup, decode_table
from .records.parquet.encode import EventEncoder
from .records.parquet.layout import CARD_NAMES, DEAL, PASS, PLAY, ROW_GROUP_HANDS
from .records.paths import PARQUET_SUFFIXES
from .records.sources import iter_sources

SUITS = ("C", "D", "H", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
CARD_DTYPE = pd.CategoricalDtype(list(CARD_NAMES))
"""Cards in deck order (clubs 2..A, diamonds, hearts, spades): the category code is the card code."""
SUIT_DTYPE = pd.CategoricalDtype(list(SUITS))
RANK_DTYPE = pd.CategoricalDtype(list(RANKS), ordered=True)
DIRECTION_DTYPE = pd.CategoricalDtype(list(DIRECTION_CODES))
"""Pass directions; the category code is the direction's code (``records.model.DIRECTION_CODES``)."""
MOON_DTYPE = pd.CategoricalDtype(list(MOON_CODES))
SEAT_DTYPE = pd.CategoricalDtype(list(range(7)))
"""Seats 0-6 whatever the table size; ``groupby(..., observed=True)`` skips the empty ones."""
_INT_LISTS = pd.ArrowDtype(pa.list_(pa.int64()))
_NAME_LISTS = pd.ArrowDtype(pa.list_(pa.string()))


TABLES = ("games", "hands", "plays", "passes", "deals", "errors")


@dataclass(frozen=True, eq=False, repr=False)
class Corpus(Mapping[str, pd.DataFrame]):
    """The tables of a corpus; ``game`` and ``hand`` join them.

    Each table is an attribute (``corpus.plays``) and, for code that takes a mapping of
    tables, an item (``corpus["plays"]``, ``dict(corpus)``); the repr counts, it does not
    print the tables.

    >>> import pathlib, tempfile
    >>> import hearts_analysis as ha
    >>> from hearts_analysis.records.json import write_games
    >>> from hearts_analysis.simulate import simulate_game
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
    >>> write_games([simulate_game(ha.Rules(), ["ann", "bob", "cy", "dee"], seed=1, max_hands=2)], path)
    1
    >>> corpus = ha.read_corpus(path)
    >>> corpus
    Corpus(games=1, hands=2, errors=0; tables: games, hands, plays, passes, deals, errors)
    >>> corpus["plays"].shape == corpus.plays.shape
    True
    """

    games: pd.DataFrame
    """One row per game: ``game``, ``source``, ``game_id``, ``players``, ``seats``, ``rules`` (JSON as
    written), ``preset``, ``played_at``, ``complete``, ``winners`` (as recorded), ``hands``."""
    hands: pd.DataFrame
    """One row per hand: ``game``, ``hand``, ``dealer``, ``pass_direction``, ``moon``, ``points``, ``totals``
    (as recorded)."""
    plays: pd.DataFrame
    """One row per card played: ``game``, ``hand``, ``index`` (0-based in the hand), ``trick``, ``seat``,
    ``player``, ``card``, ``suit``, ``rank``."""
    passes: pd.DataFrame
    """One row per card passed: ``game``, ``hand``, ``seat`` (the passer), ``player``, ``index``, ``card``,
    ``suit``, ``rank``."""
    deals: pd.DataFrame
    """One row per card dealt: ``game``, ``hand``, ``seat``, ``player``, ``index``, ``card``, ``suit``, ``rank``."""
    errors: pd.DataFrame
    """One row per record that could not be read (and is in no other table): ``source``, ``field``, ``message``."""

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in TABLES:
            raise KeyError(f"{name!r}: no such table (the tables are {', '.join(TABLES)})")
        return getattr(self, name)

    def __iter__(self) -> Iterator[str]:
        return iter(TABLES)

    def __len__(self) -> int:
        return len(TABLES)

    def __repr__(self) -> str:
        return (f"Corpus(games={len(self.games):,}, hands={len(self.hands):,}, errors={len(self.errors):,}; "
                f"tables: {', '.join(TABLES)})")


def read_corpus(path: str | Path) -> Corpus:
    """Read a corpus (``.parquet``, a folder of Parquet files, ``.json`` or ``.jsonl``) into DataFrames.

    Unreadable records are skipped and listed in :attr:`Corpus.errors`.
    """
    builder = _Builder()
    for group, sources in _row_groups(Path(path)):
        if isinstance(group, Item):
            builder.error(group)
        else:
            builder.add(group, sources)
    return builder.corpus()


def _row_groups(path: Path) -> Iterator[tuple[RowGroup | Item, list[str] | None]]:
    """Decoded row groups of a Parquet corpus, or of JSON records encoded on the fly (with their sources)."""
    is_parquet = (path.is_dir() and any(True for _ in parquet_files(path))) or path.suffix.lower() in PARQUET_SUFFIXES
    if is_parquet:
        for group in iter_row_groups(path):
            yield group, None
        return
    encoder = EventEncoder()
    sources: list[str] = []
    for item in iter_sources([path]):
        if item.game is None:
            yield item, None
            continue
        encoder.add_record(item.game)
        sources.append(item.source)
        if encoder.hands >= ROW_GROUP_HANDS:
            yield _decoded_batch(encoder, path), sources
            sources = []
    if encoder.games:
        yield _decoded_batch(encoder, path), sources


def _decoded_batch(encoder: EventEncoder, path: Path) -> RowGroup:
    headers, cards = encoder.take_batch().tables()
    return decode_table(cards, str(path), headers=headers)


class _Builder:
    """Collects numpy columns group by group; the DataFrames are built once at the end."""

    def __init__(self) -> None:
        self.games: list[dict] = []
        self.hand_parts: list[dict] = []
        self.card_parts: dict[int, list[dict]] = {PLAY: [], PASS: [], DEAL: []}
        self.errors: list[dict] = []
        self.names: dict[str, int] = {}
        self.next_game = 0

    def error(self, item: Item) -> None:
        error = item.error or RecordError("unreadable")
        self.errors.append({"source": item.source, "field": error.field, "message": error.detail})

    def add(self, group: RowGroup, sources: list[str] | None) -> None:
        readable = group.readable
        number = np.cumsum(readable) - 1 + self.next_game        # corpus-wide number of each readable game
        self.next_game += int(readable.sum())
        hand_numbers = group.hand[group.hand_rows[:-1]]
        keep_hand = readable[group.hand_game] & (hand_numbers > 0)
        hand_counts = np.bincount(group.hand_game[keep_hand], minlength=len(group.games)).tolist()
        player_codes = np.full((len(group.games), 7), -1, np.int32)
        for g, header in enumerate(group.games):
            source = sources[g] if sources is not None else group.source(g)
            if isinstance(header, RecordError):
                self.error(Item(source, error=header))
                continue
            player_codes[g, :header.seats] = [self.names.setdefault(name, len(self.names)) for name in header.players]
            self.games.append({
                "game": int(number[g]), "source": source, "game_id": header.game_id, "players": list(header.players),
                "seats": header.seats, "rules": group.game_columns["rules"][g].as_py(),
                "preset": header.rules.preset,
                "played_at": None if header.played_at is None else str(header.played_at),
                "complete": header.complete, "winners": None if header.winners is None else list(header.winners),
                "hands": hand_counts[g]})
        self.hand_parts.append({
            "game": number[group.hand_game][keep_hand], "hand": hand_numbers[keep_hand],
            "dealer": group.dealer[keep_hand], "pass_direction": group.pass_direction[keep_hand],
            "moon": group.moon[keep_hand],
            "points": group.points.filter(pa.array(keep_hand)), "totals": group.totals.filter(pa.array(keep_hand))})
        game_of_row = np.repeat(np.arange(len(group.games)), np.diff(group.game_rows))
        seats = np.array([0 if isinstance(h, RecordError) else h.seats for h in group.games], np.int16)
        for event, parts in self.card_parts.items():
            pick = np.flatnonzero(readable[game_of_row] & (group.event == event))
            games, seat = game_of_row[pick], group.seat[pick]
            part = {"game": number[games].astype(np.int32), "hand": group.hand[pick].astype(np.int16),
                    "index": group.index[pick].astype(np.int16), "seat": seat,
                    "player": player_codes[games, seat], "card": group.card[pick]}
            if event == PLAY:
                part["trick"] = (part["index"] // seats[games] + 1).astype(np.int8)
            parts.append(part)

    def corpus(self) -> Corpus:
        names = pd.CategoricalDtype(list(self.names))
        tables = {}
        for name, event in (("plays", PLAY), ("passes", PASS), ("deals", DEAL)):
            parts = self.card_parts[event]
            column = {key: _concat(parts, key, dtype) for key, dtype in _CARD_COLUMNS.items()}
            card = column["card"]
            order = ["game", "hand", "index", "trick"] if event == PLAY else ["game", "hand"]
            columns = {key: column[key] for key in order}
            columns["seat"] = pd.Categorical.from_codes(column["seat"], dtype=SEAT_DTYPE)
            columns["player"] = pd.Categorical.from_codes(column["player"], dtype=names)
            if event != PLAY:
                columns["index"] = column["index"]
            columns["card"] = pd.Categorical.from_codes(card, dtype=CARD_DTYPE)
            columns["suit"] = pd.Categorical.from_codes(card // 13, dtype=SUIT_DTYPE)
            columns["rank"] = pd.Categorical.from_codes(card % 13, dtype=RANK_DTYPE)
            self.card_parts[event] = []                     # let each table's pieces go once it is built
            tables[name] = pd.DataFrame(columns)
        games = pd.DataFrame(self.games, columns=list(_GAME_DTYPES)).astype(_GAME_DTYPES)
        hands = {key: _concat(self.hand_parts, key, dtype) for key, dtype in _HAND_COLUMNS.items()}
        dealer = hands["dealer"]
        hand_table = pd.DataFrame({
            "game": hands["game"], "hand": hands["hand"],
            "dealer": pd.arrays.IntegerArray(np.maximum(dealer, 0), dealer < 0),
            "pass_direction": pd.Categorical.from_codes(hands["pass_direction"], dtype=DIRECTION_DTYPE),
            "moon": pd.Categorical.from_codes(hands["moon"], dtype=MOON_DTYPE),
            "points": _lists([part["points"] for part in self.hand_parts]),
            "totals": _lists([part["totals"] for part in self.hand_parts]),
        })
        errors = pd.DataFrame(self.errors, columns=["source", "field", "message"]).astype("string")
        return Corpus(games=games, hands=hand_table, plays=tables["plays"], passes=tables["passes"],
                      deals=tables["deals"], errors=errors)


_GAME_DTYPES = {"game": np.int32, "source": "string", "game_id": "string", "players": _NAME_LISTS,
                "seats": np.int8, "rules": "string", "preset": "category", "played_at": "string",
                "complete": "boolean", "winners": _NAME_LISTS, "hands": np.int32}


_CARD_COLUMNS = {"game": np.int32, "hand": np.int16, "index": np.int16, "trick": np.int8, "seat": np.int8,
                 "player": np.int32, "card": np.int8}
_HAND_COLUMNS = {"game": np.int32, "hand": np.int16, "dealer": np.int8, "pass_direction": np.int8, "moon": np.int8}


def _concat(parts: list[dict], key: str, dtype) -> np.ndarray:
    pieces = [part[key] for part in parts if key in part]
    return np.concatenate(pieces).astype(dtype, copy=False) if pieces else np.zeros(0, dtype)


def _lists(arrays: list[pa.Array]) -> pd.api.extensions.ExtensionArray:
    """Per-hand recorded numbers as one Arrow-backed column of int lists."""
    merged = pa.chunked_array([a.cast(pa.list_(pa.int64())) for a in arrays], pa.list_(pa.int64()))
    return pd.array(merged, dtype=_INT_LISTS)
