"""Screen a decoded row group: which games are clean, and their scores.

A game is *clean* when the reference engine would report no violation at all
and the reference reader would read it exactly as decoded; its report then
follows from the numbers computed here. A game whose hands were all read whole
is *judged* even when broken: its scoring faults are reported from these
numbers, and a hand with a play fault is replayed alone by the reference engine
(:mod:`hearts_analysis.fastpath.findings`). Every other game is left to the
reference reader and engine (see :mod:`hearts_analysis.fastpath.run`).

Under Omnibus rules (JD counts -10) the screen's totals are the reference
engine's, and it reads them from the columns without building a record:

>>> import pathlib, tempfile
>>> from hearts_analysis.engine.replay import replay_game
>>> from hearts_analysis.fastpath.decode import Judgements, decode_unit, open_units
>>> from hearts_analysis.records.parquet import write_parquet
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> games = list(simulate_games(2, Rules.preset("omnibus", target=30)))
>>> path = pathlib.Path(tempfile.mkdtemp()) / "omnibus.parquet"
>>> write_parquet(games, path)
2
>>> [unit] = open_units(path)
>>> verdict = screen_block(decode_unit(unit, Judgements(None)))
>>> verdict.clean.tolist(), verdict.totals[:, :4].tolist()
([True, True], [[30, -7, 25, 0], [39, -5, 18, -4]])
>>> verdict.totals[:, :4].tolist() == [list(replay_game(game).hands[-1].totals) for game in games]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..records.model import DIRECTION_CODES
from ..records.parquet.layout import DEAL, PASS, PLAY
from ..rule_arrays import dealers, lowest, over_at
from ..rules import MIN_PLAYERS, RuleError
from .block import Block
from .findings import continued_game, game_violations, judge_game
from .lockstep import bits, exchange, first_leaders, fold, popcount, score, screen_play
from .params import HOLD, STATED, TableParams, table_params

MAX_SEATS = 7
MAX_TRICKS = 52 // MIN_PLAYERS
"""The most tricks a hand has: a full deck dealt to the fewest players."""
_ACROSS = DIRECTION_CODES["across"]


@dataclass
class ScreenFindings:
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
    held: np.ndarray
    """(hands, 7) uint64: each seat's cards once the pass is made. With :attr:`trick_winners`, what the
    statistics (:mod:`hearts_analysis.analysis.columnar`) count clean games from, so that the pass exchange
    and the trick-winner rule are written once, here; filled for every hand the screen laid out, to be trusted
    in clean games only."""
    trick_winners: np.ndarray
    """(hands, :data:`MAX_TRICKS`) int8: the seat that won each trick played, -1 past the last (as :attr:`held`)."""
    judged: np.ndarray | None = None
    """(games,) bool: the screen judged the game whole, clean or not; its report follows from these
    arrays and ``violations`` (for the others, filled only where clean)."""
    violations: dict[int, list[dict]] | None = None
    """The violations of each judged game that is not clean, as the reference engine reports them."""


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised."""
    total = int(counts.sum())
    if not total:
        return np.zeros(0, dtype=np.intp)
    ends = np.cumsum(counts)
    return np.arange(total, dtype=np.intp) + np.repeat(starts - (ends - counts), counts)


def screen_block(block: Block) -> ScreenFindings:
    """Every game of a block, screened table by table (one rule set and table size at a time)."""
    games, hands = block.games, block.hands
    verdict = ScreenFindings(clean=np.zeros(games, dtype=bool),
                      points=np.zeros((hands, MAX_SEATS), dtype=np.int64),
                      moon_seat=np.full(hands, -1, dtype=np.int64),
                      moon_choice=np.full(hands, -1, dtype=np.int64),
                      totals=np.zeros((games, MAX_SEATS), dtype=np.int64),
                      winners=np.zeros((games, MAX_SEATS), dtype=bool),
                      complete=np.zeros(games, dtype=bool), held=np.zeros((hands, MAX_SEATS), dtype=np.uint64),
                      trick_winners=np.full((hands, MAX_TRICKS), -1, dtype=np.int8),
                      judged=np.zeros(games, dtype=bool), violations={})
    has_hands = np.diff(block.game_hands) > 0
    index = np.where(block.game_doubt | ~has_hands, -1, block.table_index)
    for table in np.flatnonzero(np.bincount(index[index >= 0])).tolist():
        rules, seats = block.tables[table]
        try:
            params = table_params(rules, seats)
        except RuleError:
            continue
        if not params.table.models("screen"):   # the judge leaves these to the reference engine; so does the screen
            continue
        _screen_games(block, params, np.flatnonzero(index == table), verdict)
    return verdict


def _screen_games(block: Block, p: TableParams, games: np.ndarray, out: ScreenFindings) -> None:
    """Games of one table: each hand's layout, direction and dealer, the hands by layout, then the game."""
    n, size, deck_size = p.players, p.hand_size, p.deck_size
    first_hand = block.game_hands[games]
    counts = block.game_hands[games + 1] - first_hand
    hands = ranges(first_hand, counts)
    number = np.arange(len(hands)) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    ok = ~block.hand_doubt[hands] & (block.hand_number[hands] == number)

    recorded_dealer = block.dealer[hands]
    ok &= (recorded_dealer >= -1) & (recorded_dealer < n)
    dealer = dealers(number, recorded_dealer, n)
    laid = ok & ~block.hold_only[hands]   # what the rows may be read as, whatever the pass and the plays
    stated = block.direction[hands]
    expected = np.array(p.cycle)[(number - 1) % len(p.cycle)]
    from_record = expected == STATED
    direction = np.where(from_record, np.where(stated >= 0, stated, HOLD), expected)
    ok &= from_record | (stated < 0) | (stated == expected)
    if n % 2:
        ok &= ~(from_record & (direction == _ACROSS))
        laid &= ~(from_record & (direction == _ACROSS))
    pass_rows = np.where(direction == HOLD, 0, n * p.pass_count)
    ok &= ~(block.hold_only[hands] & (pass_rows > 0))
    start = block.hand_rows[hands]
    length = block.hand_rows[hands + 1] - start
    play_rows = length - deck_size - pass_rows
    tricks = play_rows // n
    whole = (play_rows % n == 0) & ((tricks == size) | ((tricks < size) & p.ends_hand))
    ok &= (play_rows >= 0) & whole
    odd = np.flatnonzero(laid & ~ok)   # a play too few or too many, a pass the cycle does not make: replayed alone

    hand_clean = np.zeros(len(hands), dtype=bool)
    played = np.zeros(len(hands), dtype=bool)
    readable = np.zeros(len(hands), dtype=bool)
    points = np.zeros((len(hands), n), dtype=np.int64)
    points_off = np.zeros((len(hands), n), dtype=bool)
    moon_invalid = np.zeros(len(hands), dtype=bool)
    moon_seat = np.full(len(hands), -1, dtype=np.int64)
    moon_choice = np.full(len(hands), -1, dtype=np.int64)
    shape_key = pass_rows * 64 + tricks
    for key in np.flatnonzero(np.bincount(shape_key[ok])).tolist():
        members = np.flatnonzero(ok & (shape_key == key))
        passed, k = divmod(key, 64)
        played[members], readable[members], scores, held, winners = _screen_shape(
            block, p, hands[members], start[members], direction[members], dealer[members], passed, k)
        hand_clean[members] = played[members] & scores.clean
        out.held[hands[members], :n] = held.T
        out.trick_winners[hands[members], :k] = winners.T
        points[members], moon_seat[members], moon_choice[members] = scores.points.T, scores.moon_seat, scores.moon_choice
        points_off[members], moon_invalid[members] = scores.points_off.T, scores.moon_invalid
    for i in odd.tolist():
        at = int(start[i]) + deck_size
        passed = n * p.pass_count if p.pass_count and at < block.hand_rows[hands[i] + 1] and \
            block.event[at] == PASS else 0
        plays = int(length[i]) - deck_size - passed
        if plays >= 0 and _laid_out(block, p, int(start[i]), passed, plays):
            readable[i], pass_rows[i] = True, passed

    # the game: running totals, recorded totals, the end, the complete flag
    first = np.cumsum(counts) - counts
    running = np.cumsum(points, axis=0)
    running -= np.repeat(np.vstack([np.zeros((1, n), np.int64), running[first[1:] - 1]]), counts, axis=0)
    has_totals = block.has_totals[hands]
    totals_off = np.zeros(len(hands), dtype=bool)
    if has_totals.any():
        totals_off = has_totals & fold(np.logical_or, (block.totals[hands, :n] != running).T)
        hand_clean &= ~totals_off
    top = fold(np.maximum, running.T)
    over = over_at(p.table, top)
    last = first + counts - 1
    over_before_last = np.zeros(len(hands), dtype=bool)
    over_before_last[over] = True
    over_before_last[last] = False
    game_clean = np.logical_and.reduceat(hand_clean, first) & ~np.logical_or.reduceat(over_before_last, first)
    complete = over[last]
    game_clean &= ~(block.complete[games] & ~complete)
    judged = np.logical_and.reduceat(played, first) & ~np.logical_or.reduceat(over_before_last, first)
    faulty = np.flatnonzero(judged & ~game_clean).tolist()
    names = block.players() if faulty else []
    for g in faulty:
        at, stop = int(first[g]), int(first[g] + counts[g])
        out.violations[int(games[g])] = game_violations(
            p, names[int(games[g])], hands[at:stop], block, running[at:stop],
            points_off[at:stop], moon_invalid[at:stop], moon_seat[at:stop], moon_choice[at:stop],
            bool(block.complete[games[g]] and not complete[g]))

    final = running[last]
    out.clean[games] = game_clean
    out.judged[games] = judged
    out.complete[games] = complete
    out.totals[games, :n] = final
    out.winners[games, :n] = complete[:, None] & lowest(final)
    out.points[hands, :n] = points
    out.moon_seat[hands] = moon_seat
    out.moon_choice[hands] = moon_choice

    # games with hands the screen doubted but read whole: those hands replayed alone, the rest from the arrays;
    # a game recorded past its end whose hands up to the end were played by the rules: those from the arrays, each
    # later hand checked as a hand
    slow = np.flatnonzero(~judged & np.logical_and.reduceat(played | readable, first)).tolist()
    names = names or (block.players() if slow else [])
    by_deals = bool(p.table.rules.deals_per_game)
    for g in slow:
        at, stop = int(first[g]), int(first[g] + counts[g])
        game = int(games[g])
        end = int(np.argmax(over[at:stop])) if over_before_last[at:stop].any() and not by_deals else -1
        if end >= 0 and played[at:at + end + 1].all():
            out.violations[game] = continued_game(
                p, names[game], hands[at:stop], block, running[at:stop], end, played[at:stop], start[at:stop],
                pass_rows[at:stop], points_off[at:stop], moon_invalid[at:stop], moon_seat[at:stop],
                moon_choice[at:stop], out)
        else:
            out.violations[game] = judge_game(p, names[game], hands[at:stop], block, played[at:stop], start[at:stop],
                                              pass_rows[at:stop], points_off[at:stop], moon_invalid[at:stop], out)
        out.judged[game] = True
        out.clean[game] = False


@dataclass(frozen=True)
class _Layout:
    """The expected event, index and seat columns of a hand's rows, for one layout."""

    event: np.ndarray
    index: np.ndarray
    seat: np.ndarray
    """The deal and pass rows only: who plays a card is judged with the play."""


@lru_cache(maxsize=256)
def _layout(n: int, size: int, pass_count: int, passed: int, k: int) -> _Layout:
    passes = passed > 0
    event = [np.full(n * size, DEAL)] + ([np.full(passed, PASS)] if passes else []) + [np.full(k * n, PLAY)]
    index = [np.tile(np.arange(size), n)] + ([np.tile(np.arange(pass_count), n)] if passes else []) + [np.arange(k * n)]
    seat = [np.repeat(np.arange(n), size)] + ([np.repeat(np.arange(n), pass_count)] if passes else [])
    return _Layout(np.concatenate(event).astype(np.int8), np.concatenate(index).astype(np.int16),
                   np.concatenate(seat).astype(np.int8))


def windows(values: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """``values[start:start + width]`` for each start, as one (len(starts), width) copy.

    Each window is taken as one opaque item (a copy of ``width`` items at once),
    about twice as fast as taking the rows of a two-dimensional window view.
    """
    if not values.flags.c_contiguous or not width:
        return sliding_window_view(values, width)[starts]
    size = values.itemsize
    items = np.ndarray((len(values) - width + 1,), f"V{width * size}", values, 0, (size,))
    return items[starts].view(values.dtype).reshape(len(starts), width)


def _rows_match(rows: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """Whether each row of ``rows`` (its last axis contiguous) equals ``pattern``.

    Rows are compared a word at a time, and the per-word results of a row are
    reduced as 64-bit lanes: a reduction along short rows is slow in numpy.
    """
    pattern = pattern.astype(rows.dtype, copy=False)
    word = next(np.dtype(f"u{size}") for size in (8, 4, 2, 1) if rows.shape[1] * rows.itemsize % size == 0)
    rows, pattern = rows.view(word), pattern.view(word)
    words = rows.shape[1]
    differs = np.zeros((len(rows), -(-words // 8) * 8), bool)
    np.not_equal(rows, pattern, out=differs[:, :words])
    return fold(np.bitwise_or, differs.view(np.uint64).T) == 0


def _laid_out(block: Block, p: TableParams, start: int, passed: int, plays: int) -> bool:
    """Whether a hand whose plays do not fill its tricks (a play dropped or added), or whose pass rows are not the
    ones its place in the pass cycle makes (a hand recorded after the game's end; rare, one hand at a time), has
    the rows :func:`~hearts_analysis.fastpath.findings.hand_record` reads as the reference reader reads them: the
    deal rows seat by seat, then the pass rows, then ``plays`` play rows in order, every seat at the table, every
    card a card, the deal the deck and each pass cards its passer was dealt. Its play faults are then the
    reference engine's to find, in that hand alone."""
    n, deck_size = p.players, p.deck_size
    before_play = deck_size + passed
    layout = _layout(n, p.hand_size, p.pass_count, passed, 0)
    rows = slice(start, start + before_play + plays)
    event, index, seat, card = block.event[rows], block.index[rows], block.seat[rows], block.card[rows]
    if not ((event[:before_play] == layout.event).all() and (index[:before_play] == layout.index).all()
            and (seat[:before_play] == layout.seat).all() and (event[before_play:] == PLAY).all()
            and (index[before_play:] == np.arange(plays)).all() and (seat[before_play:] >= 0).all()
            and (seat[before_play:] < n).all() and (card >= 0).all()):
        return False
    dealt = bits(card[:deck_size]).reshape(n, p.hand_size)
    hands = np.bitwise_or.reduce(dealt, axis=1)
    deck = np.bitwise_or.reduce(hands)
    if int(deck) != int(p.deck) or int(popcount(deck)) != deck_size:
        return False
    if passed:
        given = np.bitwise_or.reduce(bits(card[deck_size:before_play]).reshape(n, p.pass_count), axis=1)
        if not ((popcount(given) == p.pass_count).all() and not (given & ~hands).any()):
            return False
    return True


def _screen_shape(block: Block, p: TableParams, hands: np.ndarray, start: np.ndarray,
                  direction: np.ndarray, dealer: np.ndarray, passed: int, k: int):
    """Hands with the same layout: ``deck_size`` deal rows, ``passed`` pass rows, ``k`` tricks. Returns
    ``(played, readable, scores, held, winners)``: the hands after the pass (n, H) and the trick winners (k, H)
    as well, for :class:`ScreenFindings`."""
    n, size, deck_size = p.players, p.hand_size, p.deck_size
    count = len(hands)
    before_play = deck_size + passed
    layout = _layout(n, size, p.pass_count, passed, k)
    width = before_play + k * n
    ok = _rows_match(windows(block.event, start, width), layout.event)
    ok &= _rows_match(windows(block.index, start, width), layout.index)
    seat = windows(block.seat, start, width)
    ok &= _rows_match(seat[:, :before_play], layout.seat)
    seats = np.ascontiguousarray(seat[:, before_play:].T)
    cards = np.ascontiguousarray(windows(block.card, start, width).T)
    ok &= cards.min(axis=0) >= 0
    readable = ok & ((seats >= 0) & (seats < n)).all(axis=0)   # laid out as a hand: a wrong deal or pass is
    if not ok.all():                                             # then the reference engine's, in that hand alone
        cards *= ok

    # the deal rows are n * size distinct cards of the deck when together they are the deck
    dealt = np.bitwise_or.reduce(bits(cards[:deck_size]).reshape(n, size, count), axis=1)
    ok &= fold(np.bitwise_or, dealt) == np.uint64(p.deck)
    hand0 = dealt
    if passed:
        given = np.bitwise_or.reduce(bits(cards[deck_size:before_play]).reshape(n, p.pass_count, count), axis=1)
        ok &= (popcount(given) == p.pass_count).all(axis=0)
        ok &= ~(given & ~dealt).any(axis=0)
        hand0 = exchange(dealt, given, np.array(p.offsets)[direction])

    plays = cards[before_play:].reshape(k, n, count)
    leader0 = first_leaders(p.table, hand0, dealer)
    play = screen_play(p, hand0, plays, seats.reshape(k, n, count), leader0)
    ok &= play.clean
    scores = score(p, play, block.points[hands, :n].T, block.has_points[hands], block.moon[hands])
    return ok, readable, scores, hand0, play.winners


