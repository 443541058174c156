"""Each game counted once: the same game read twice (two files, two formats, a log and its derived records).

Two records are the same game when their ``game_id`` matches and so do their cards, or when their deals and
plays are identical under another id (and the same rules and recorded moon choices: the same deal scored otherwise is another game). A game is known by two 64-bit numbers: a hash of its id
(:func:`id_digest`) and a hash of its cards (:func:`cards_digest`: every dealt card by hand and seat, every
play by hand, number, seat and card), so that :class:`SeenGames` holds a few dozen bytes and the place
(``file:line`` or ``file:#record``) of each game, however long the corpus.

The columnar fast path computes the same cards hash from a decoded block's arrays at once for all its games
(:func:`block_digests`), so a game in a Parquet file and the same game in a JSON file or a log are found equal.

A record whose id matches an earlier one but whose cards differ is a *conflict*: two different games under
one name. Both are kept (neither is known to be the wrong one) and the conflict is warned about, naming both.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> import dataclasses
>>> a, b, c = simulate_games(3, Rules.preset("standard", target=30))
>>> seen = SeenGames()
>>> seen.check(a, "a.json"), seen.check(b, "b.json")
(None, None)
>>> print(seen.check(a, "c.jsonl:3").message)
c.jsonl:3: game "sim-0-1" duplicates a.json (same game_id and cards): counted once
>>> print(seen.check(dataclasses.replace(a, game_id="copy"), "d.json").message)
d.json: game "copy" duplicates a.json (same deals and plays as game "sim-0-1"): counted once
>>> conflict = seen.check(dataclasses.replace(c, game_id="sim-0-1"), "e.json")
>>> conflict.dropped, conflict.message
(False, 'e.json: game_id "sim-0-1" also names a different game at a.json (other deals or plays): both kept')
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable, Iterator

import numpy as np
import orjson

from ..text import shown
from .model import MOON_CODES

DEAL_EVENT, PLAY_EVENT, MOON_CHOICE = 0, 2, 15
"""The row kinds of the columnar layout (``records.parquet.layout.DEAL`` and ``PLAY``) the cards hash reads."""

_M1, _M2, _GOLDEN = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), np.uint64(0x9E3779B97F4A7C15)


def _mix(codes: np.ndarray) -> np.ndarray:
    """splitmix64 of each uint64 code: one well-spread number per card event."""
    with np.errstate(over="ignore"):
        z = codes * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


def _codes(hand, event, seat, card, number) -> np.ndarray:
    """One number per card event: the hand's place in its game, the kind, the seat, the card, the play's number."""
    as64 = lambda value: np.asarray(value, dtype=np.int64).astype(np.uint64)   # noqa: E731
    return ((as64(hand) << np.uint64(24)) | (as64(event) << np.uint64(20)) | (as64(seat) << np.uint64(16))
            | (as64(card) << np.uint64(8)) | as64(number)) + np.uint64(1)


def id_digest(game_id: str | None) -> int | None:
    """A 64-bit hash of a game's id (the same in every process); ``None`` for a game without one (or an empty
    one, which names no game)."""
    if not game_id:
        return None
    return int.from_bytes(hashlib.blake2b(str(game_id).encode(), digest_size=8).digest(), "little")


def rules_digest(rules) -> int:
    """A 64-bit hash of a rule set (the same deal played under other rules is another game)."""
    if rules is None:
        return 0
    text = orjson.dumps(rules.to_dict(), option=orjson.OPT_SORT_KEYS)
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def cards_digest(game) -> int | None:
    """A 64-bit hash of a game's rule set, deals and plays (order of the deal within a seat ignored); ``None``
    without cards."""
    hand, event, seat, card, number = [], [], [], [], []
    for h, record in enumerate(game.hands):
        for s, cards in enumerate(record.deal or ()):
            for c in cards or ():   # a view: None for a seat it cannot see
                hand.append(h), event.append(DEAL_EVENT), seat.append(s), card.append(int(c)), number.append(0)
        for k, (s, c) in enumerate(record.plays or ()):
            hand.append(h), event.append(PLAY_EVENT), seat.append(s), card.append(int(c)), number.append(k)
        if record.moon is not None:   # the shooter's recorded choice: the same cards with another choice differ
            hand.append(h), event.append(MOON_CHOICE), seat.append(0), card.append(MOON_CODES.get(record.moon, 99) + 1)
            number.append(0)
    if not card:
        return None
    return (int(_mix(_codes(hand, event, seat, card, number)).sum(dtype=np.uint64)) + rules_digest(game.rules)) % (1 << 64)


def block_digests(block, start: int, stop: int) -> list[tuple[str | None, int | None, int | None]]:
    """``(game_id, id digest, cards digest)`` of games ``[start, stop)`` of a decoded block
    (:class:`hearts_analysis.fastpath.block.Block`), computed for all of them at once from its arrays."""
    rows = slice(int(block.game_rows[start]), int(block.game_rows[stop]))
    hand_of_row = np.repeat(np.arange(block.hands), np.diff(block.hand_rows))[rows]
    game_of_hand = np.repeat(np.arange(block.games), np.diff(block.game_hands))
    place = hand_of_row - block.game_hands[game_of_hand[hand_of_row]]
    event = block.event[rows].astype(np.int64)
    cards = (event == DEAL_EVENT) | (event == PLAY_EVENT)
    number = np.where(event == PLAY_EVENT, block.index[rows].astype(np.int64), 0)
    mixed = np.where(cards, _mix(_codes(place, event, np.maximum(block.seat[rows], 0), np.maximum(block.card[rows], 0),
                                        np.maximum(number, 0))), np.uint64(0))
    sums = np.concatenate([[np.uint64(0)], np.cumsum(mixed, dtype=np.uint64)])
    bounds = block.game_rows[start:stop + 1] - block.game_rows[start]
    with np.errstate(over="ignore"):
        digests = (sums[bounds[1:]] - sums[bounds[:-1]]).tolist()
    counts = np.concatenate([[0], np.cumsum(cards)])
    has = (counts[bounds[1:]] - counts[bounds[:-1]]) > 0
    hands = np.arange(int(block.game_hands[start]), int(block.game_hands[stop]))
    moon = block.moon[hands]
    moon_terms = np.where(moon >= 0, _mix(_codes(hands - block.game_hands[game_of_hand[hands]], MOON_CHOICE, 0,
                                                 np.maximum(moon, 0) + 1, 0)), np.uint64(0))
    moon_sums = np.concatenate([[np.uint64(0)], np.cumsum(moon_terms, dtype=np.uint64)])
    at = block.game_hands[start:stop + 1] - block.game_hands[start]
    with np.errstate(over="ignore"):
        digests = [(d + int(m)) % (1 << 64) for d, m in zip(digests, (moon_sums[at[1:]] - moon_sums[at[:-1]]).tolist())]
    ids = block.game_ids()[start:stop]
    of_table = [rules_digest(rules) for rules, _ in block.tables]
    tables = block.table_index[start:stop].tolist()
    digests = [(d + (of_table[t] if t >= 0 else 0)) % (1 << 64) for d, t in zip(digests, tables)]
    return [(i, id_digest(i), d if h else None) for i, d, h in zip(ids, digests, has.tolist())]


@dataclass(frozen=True)
class Repeat:
    """A game seen before: ``dropped`` for a duplicate (counted once), not for a conflict (both kept)."""

    message: str
    dropped: bool


class SeenGames:
    """The games read so far, by id hash and cards hash, with the place of each; :meth:`check` each new one."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[int | None, str]] = {}
        self._by_cards: dict[int, tuple[str | None, str]] = {}

    def check(self, game, source: str) -> Repeat | None:
        """``None`` for a new game (now remembered); else what it repeats."""
        return self.check_digests(game.game_id, id_digest(game.game_id), cards_digest(game), source)

    def check_digests(self, game_id: str | None, ident: int | None, cards: int | None, source: str,
                      place=None) -> Repeat | None:
        """:meth:`check` from the hashes; ``game_id`` only names the game in a message (``place`` gives the
        place of the game only when one is found, for a caller that does not build every game's label)."""
        if cards is not None and cards in self._by_cards:
            their_id, first = self._by_cards[cards]
            where = source if place is None else place()
            if their_id == game_id:
                return Repeat(f"{where}: game {shown(game_id)} duplicates {first} (same game_id and cards): "
                              "counted once", True)
            return Repeat(f"{where}: game {shown(game_id)} duplicates {first} (same deals and plays as game "
                          f"{shown(their_id)}): counted once", True)
        if ident is not None and ident in self._by_id:
            their_cards, first = self._by_id[ident]
            where = source if place is None else place()
            if their_cards == cards:   # neither has cards
                return Repeat(f"{where}: game {shown(game_id)} duplicates {first} (same game_id, no cards): "
                              "counted once", True)
            return Repeat(f"{where}: game_id {shown(game_id)} also names a different game at {first} "
                          "(other deals or plays): both kept", False)
        label = source if place is None else place()
        if ident is not None:
            self._by_id.setdefault(ident, (cards, label))
        if cards is not None:
            self._by_cards.setdefault(cards, (game_id, label))
        return None


def once(items: Iterable, warn, seen: SeenGames | None = None) -> Iterator:
    """Items (:class:`~hearts_analysis.records.errors.Item`) with each game's repeats left out; ``warn(message)``
    once per repeat (a conflict is warned about and kept)."""
    seen = SeenGames() if seen is None else seen
    for item in items:
        if item.game is not None:
            repeat = seen.check(item.game, item.source)
            if repeat is not None:
                warn(repeat.message)
                if repeat.dropped:
                    continue
        yield item
