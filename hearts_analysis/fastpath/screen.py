"""Screen a decoded row group: which games are clean, and their scores.

A game is *clean* when the reference engine would report no violation at all
and the reference reader would read it exactly as decoded; its report then
follows from the numbers computed here. Every other game is left for the
reference engine (see :mod:`hearts_analysis.fastpath.run`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..records.events_layout import DEAL, PASS, PLAY
from ..rules import RuleError
from .block import Block
from .lockstep import bits, first_leaders, fold, popcount, score, screen_play
from .params import DIRECTION_CODES, HOLD, STATED, TableParams, table_params

MAX_SEATS = 7
_ACROSS = DIRECTION_CODES["across"]


@dataclass
class Verdict:
    """What the screen found in a block; hand arrays are filled for clean games only."""

    clean: np.ndarray
    """(games,) bool."""
    points: np.ndarray
    """(hands, 7) int64 points after the moon adjustment."""
    moon_seat: np.ndarray
    moon_choice: np.ndarray
    totals: np.ndarray
    """(games, 7) int64 final totals."""
    winners: np.ndarray
    """(games, 7) bool: seats with the lowest total once the game is over."""
    complete: np.ndarray
    """(games,) bool: a total reached the target."""


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised."""
    total = int(counts.sum())
    if not total:
        return np.zeros(0, dtype=np.intp)
    ends = np.cumsum(counts)
    return np.arange(total, dtype=np.intp) + np.repeat(starts - (ends - counts), counts)


def screen_block(block: Block) -> Verdict:
    """Every game of a block, screened table by table (one rule set and table size at a time)."""
    games, hands = block.games, block.hands
    verdict = Verdict(clean=np.zeros(games, dtype=bool),
                      points=np.zeros((hands, MAX_SEATS), dtype=np.int64),
                      moon_seat=np.full(hands, -1, dtype=np.int64),
                      moon_choice=np.full(hands, -1, dtype=np.int64),
                      totals=np.zeros((games, MAX_SEATS), dtype=np.int64),
                      winners=np.zeros((games, MAX_SEATS), dtype=bool),
                      complete=np.zeros(games, dtype=bool))
    has_hands = np.diff(block.game_hands) > 0
    index = np.where(block.game_doubt | ~has_hands, -1, block.table_index)
    for table in np.unique(index[index >= 0]).tolist():
        rules, seats = block.tables[table]
        try:
            params = table_params(rules, seats)
        except RuleError:
            continue
        _screen_games(block, params, np.flatnonzero(index == table), verdict)
    return verdict


def _screen_games(block: Block, p: TableParams, games: np.ndarray, out: Verdict) -> None:
    """Games of one table: each hand's layout, direction and dealer, the hands by layout, then the game."""
    n, size, deck_size = p.players, p.hand_size, p.deck_size
    first_hand = block.game_hands[games]
    counts = block.game_hands[games + 1] - first_hand
    hands = ranges(first_hand, counts)
    number = np.arange(len(hands)) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    ok = ~block.hand_doubt[hands] & (block.hand_number[hands] == number)

    recorded_dealer = block.dealer[hands]
    ok &= (recorded_dealer >= -1) & (recorded_dealer < n)
    dealer = np.where(recorded_dealer < 0, (number - 1) % n, recorded_dealer)
    stated = block.direction[hands]
    expected = np.array(p.cycle)[(number - 1) % len(p.cycle)]
    from_record = expected == STATED
    direction = np.where(from_record, np.where(stated >= 0, stated, HOLD), expected)
    ok &= from_record | (stated < 0) | (stated == expected)
    if n % 2:
        ok &= ~(from_record & (direction == _ACROSS))
    pass_rows = np.where(direction == HOLD, 0, n * p.pass_count)
    ok &= ~(block.hold_only[hands] & (pass_rows > 0))
    start = block.hand_rows[hands]
    length = block.hand_rows[hands + 1] - start
    play_rows = length - deck_size - pass_rows
    tricks = play_rows // n
    ok &= (play_rows >= 0) & (play_rows % n == 0) & ((tricks == size) | ((tricks < size) & p.ends_hand))

    hand_clean = np.zeros(len(hands), dtype=bool)
    points = np.zeros((len(hands), n), dtype=np.int64)
    moon_seat = np.full(len(hands), -1, dtype=np.int64)
    moon_choice = np.full(len(hands), -1, dtype=np.int64)
    shape_key = pass_rows * 64 + tricks
    for key in np.unique(shape_key[ok]).tolist():
        members = np.flatnonzero(ok & (shape_key == key))
        passed, k = divmod(key, 64)
        result = _screen_shape(block, p, hands[members], start[members], direction[members],
                               dealer[members], passed, k)
        hand_clean[members], points[members], moon_seat[members], moon_choice[members] = result

    # the game: running totals, recorded totals, the end, the complete flag
    first = np.cumsum(counts) - counts
    running = np.cumsum(points, axis=0)
    running -= np.repeat(np.vstack([np.zeros((1, n), np.int64), running[first[1:] - 1]]), counts, axis=0)
    has_totals = block.has_totals[hands]
    hand_clean &= ~(has_totals & (block.totals[hands, :n] != running).any(axis=1))
    top = running.max(axis=1)
    over = top > p.target if p.exceed else top >= p.target
    last = first + counts - 1
    over_before_last = np.zeros(len(hands), dtype=bool)
    over_before_last[over] = True
    over_before_last[last] = False
    game_clean = np.logical_and.reduceat(hand_clean, first) & ~np.logical_or.reduceat(over_before_last, first)
    complete = over[last]
    game_clean &= ~(block.complete[games] & ~complete)

    final = running[last]
    out.clean[games] = game_clean
    out.complete[games] = complete
    out.totals[games, :n] = final
    out.winners[games, :n] = complete[:, None] & (final == final.min(axis=1)[:, None])
    out.points[hands, :n] = points
    out.moon_seat[hands] = moon_seat
    out.moon_choice[hands] = moon_choice


def _pattern(deal: np.ndarray, passes: np.ndarray | None, plays: np.ndarray) -> np.ndarray:
    """The expected values of a hand's rows: its deal rows, pass rows (if any), play rows."""
    return np.concatenate([deal] + ([] if passes is None else [passes]) + [plays])


def _windows(values: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """``values[start:start + width]`` for each start, as one (len(starts), width) copy."""
    return sliding_window_view(values, width)[starts]


def _screen_shape(block: Block, p: TableParams, hands: np.ndarray, start: np.ndarray,
                  direction: np.ndarray, dealer: np.ndarray, passed: int, k: int):
    """Hands with the same layout: ``deck_size`` deal rows, ``passed`` pass rows, ``k`` tricks."""
    n, size, deck_size = p.players, p.hand_size, p.deck_size
    count = len(hands)
    width = deck_size + passed + k * n
    event, seat = _windows(block.event, start, width), _windows(block.seat, start, width)
    card, index = _windows(block.card, start, width), _windows(block.index, start, width)
    passes = passed > 0
    wrong = event != _pattern(np.full(deck_size, DEAL), np.full(passed, PASS) if passes else None,
                              np.full(k * n, PLAY))
    wrong |= index != _pattern(np.tile(np.arange(size), n), np.tile(np.arange(p.pass_count), n) if passes else None,
                               np.arange(k * n))
    wrong[:, :deck_size + passed] |= seat[:, :deck_size + passed] != _SEATS[n, size, p.pass_count][:deck_size + passed]
    wrong[:, deck_size + passed:] |= seat[:, deck_size + passed:].view(np.uint8) >= n
    wrong |= card < 0
    ok = ~wrong.any(axis=1)
    cards = np.ascontiguousarray(card.T)
    seats = np.ascontiguousarray(seat[:, deck_size + passed:].T)
    if not ok.all():
        cards *= ok
        seats *= ok

    dealt_bits = bits(cards[:deck_size]).reshape(n, size, count)
    dealt = np.stack([fold(np.bitwise_or, dealt_bits[s]) for s in range(n)])
    ok &= (popcount(dealt) == size).all(axis=0)
    ok &= fold(np.bitwise_or, dealt) == np.uint64(p.deck)
    hand0 = dealt
    if passes:
        given_bits = bits(cards[deck_size:deck_size + passed]).reshape(n, p.pass_count, count)
        given = np.stack([fold(np.bitwise_or, given_bits[s]) for s in range(n)])
        ok &= (popcount(given) == p.pass_count).all(axis=0)
        ok &= ~(given & ~dealt).any(axis=0)
        offset = np.array(p.offsets)[direction]
        received = np.zeros_like(given)
        for shift in np.unique(offset).tolist():
            received += np.roll(given, shift, axis=0) * (offset == shift)
        hand0 = (dealt & ~given) | received

    plays = cards[deck_size + passed:].reshape(k, n, count)
    leader0 = first_leaders(p, hand0, dealer)
    play = screen_play(p, hand0, plays, seats.reshape(k, n, count), leader0)
    ok &= play.clean
    scores = score(p, play, block.points[hands, :n].T, block.has_points[hands], block.moon[hands])
    ok &= scores.clean
    return ok, scores.points.T, scores.moon_seat, scores.moon_choice


class _SeatPatterns(dict):
    """The seat column of a hand's deal rows then pass rows, by (players, hand size, pass count)."""

    def __missing__(self, key: tuple[int, int, int]) -> np.ndarray:
        n, size, count = key
        self[key] = pattern = np.concatenate([np.repeat(np.arange(n), size), np.repeat(np.arange(n), count)])
        return pattern


_SEATS = _SeatPatterns()
