"""Player statistics from the card columns: the clean games of a decoded row group counted thousands at once.

The per-game analysis (:func:`~hearts_analysis.analysis.game.analyze_game`)
replays each game in Python, about a millisecond a hand. Here the games the
screen found clean (:mod:`hearts_analysis.fastpath`) are counted from the
same arrays it judged them on: each trick's winner and the hands after the pass
as the screen found them (so those rules of play are written once), what each
seat held before each play, the moon detector's control plays, tricks let go
and missed stops, the pass advice, all as numpy arrays over the hands, with
loops only over the tricks of a hand and the seats of a trick (never over the
hands).
Chunks of hands keep the arrays small (memory stays bounded). The counts land in a :class:`~hearts_analysis.analysis.stats.Tally`,
exactly what :meth:`Tally.add` gives for the same games (the tests compare
them on simulated corpora of every preset); a game the screen doubts, or a
hand ended early by an ``ends_hand`` sweep, goes to the per-game analysis.

The bit helpers take a whole array of card masks at once, one mask per hand and
seat, and give what the replay gives hand by hand:

>>> import numpy as np
>>> from hearts_analysis.cards import card_name, mask_of, parse_card
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> hands = replay_game(game).hands
>>> taken = np.array([hand.taken for hand in hands], dtype=np.uint64)
>>> heart_points(taken).tolist() == [list(hand.raw_points) for hand in hands]
True
>>> masks = np.array([mask_of(parse_card(c) for c in cards) for cards in (["2H", "KH", "3C"], ["AS", "QS"], [])],
...                  dtype=np.uint64)
>>> [card_name(card) if card >= 0 else None for card in highest(masks).tolist()], popcount(masks).tolist()
(['KH', 'AS', None], [3, 2, 0])
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..cards import HEARTS, HEARTS_MASK, JD, POINT_CARDS_MASK, QS_MASK, SPADES, SUIT_MASKS
from ..fastpath.block import Block
from ..fastpath.lockstep import fold
from ..fastpath.params import HOLD, STATED, TableParams, table_params
from ..fastpath.screen import ScreenFindings, windows
from ..records.model import DIRECTION_CODES
from ..records.parquet.layout import PLAY
from ..rule_arrays import breaks_hearts, game_over, heart_points, jack_points, moon_scores, raw_points, took, winning_card
from ..rules import PASS_DIRECTIONS, RuleError
from ..simulate.bits import AS, HIGH_SPADES, KS, LOW_RANKS, LOW_SPADES
from .moons import MAX_TRICKS_LET_GO, MIN_CONTROL_PLAYS, MIN_POINT_PLAYS, MIN_RUN_POINTS, better_choices
from .passes import HIGH_HEARTS, LOW_HEARTS, PASS_KINDS
from .rating import GameOutcome
from .stats import PASS_RATES, Tally

U64 = np.uint64
ONE = U64(1)
SUITS = np.array(SUIT_MASKS, dtype=U64)
HEARTS_U, QS_U, POINTS_U = U64(HEARTS_MASK), U64(QS_MASK), U64(POINT_CARDS_MASK)
THREADS = 2
"""Threads counting chunks of hands in a run on one process."""
CHUNK_HANDS = 8192
"""Hands counted at once: their (hands, tricks, seats) arrays stay within a few megabytes each."""
OUTCOMES = ("shot", "stopped", "abandoned")
SHOT, STOPPED, ABANDONED = range(3)
_RIGHT = DIRECTION_CODES["right"]


# -- bit helpers --------------------------------------------------------------------
def bits(cards: np.ndarray) -> np.ndarray:
    """``1 << card`` as uint64 masks (cards 0-63): a shift of the cards widened to machine integers, several
    times faster than a table look-up with int8 indices."""
    return np.left_shift(ONE, cards.astype(np.intp).view(U64))


def highest(masks: np.ndarray) -> np.ndarray:
    """The highest card of each mask, -1 for an empty one: the exponent of the mask as a float (masks are
    below 2**52, exact as floats; 0.0 has the smallest exponent)."""
    return np.maximum((masks.astype(np.float64).view(np.int64) >> 52) - 1023, -1)


def below(cards: np.ndarray) -> np.ndarray:
    """The cards below each card (any suit), as masks; ``cards`` from 0 to 52."""
    return bits(cards) - ONE


def up_to(cards: np.ndarray) -> np.ndarray:
    """The cards up to each card, itself included; ``-1`` gives nothing."""
    return below(cards + 1)


def distinct(values: np.ndarray) -> list[int]:
    """The distinct values of an array of integers, in order (``np.unique`` loads numpy's masked arrays, which
    costs a run 20 ms).

    >>> distinct(np.array([3, -1, 3, 0]))
    [-1, 0, 3]
    """
    if not values.size:
        return []
    low = int(values.min())
    return (np.flatnonzero(np.bincount((values - low).ravel())) + low).tolist()


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks).astype(np.int64)




@lru_cache(maxsize=1)
def _top_hearts() -> np.ndarray:
    """(4, 8192): the top 0..3 cards of each 13-bit suit block."""
    blocks = np.arange(8192, dtype=np.int64)
    out = np.zeros((4, 8192), np.int64)
    rest = blocks.copy()
    for count in range(1, 4):
        top = np.where(rest > 0, 1 << (np.frexp(rest.astype(np.float64))[1] - 1).clip(0), 0)
        out[count] = out[count - 1] | top
        rest &= ~top
    return out


def top_hearts(masks: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` highest hearts of each mask (``passes._top`` on the hearts)."""
    block = ((masks >> U64(13 * HEARTS)) & U64(0x1FFF)).astype(np.int64)
    return _top_hearts()[count][block].astype(U64) << U64(13 * HEARTS)


# -- the hands of one table and layout ------------------------------------------------
@dataclass
class Hands:
    """``H`` clean hands of one table and layout, as arrays (seats 0-based; ``k`` tricks of ``n`` plays)."""

    hand: np.ndarray
    """(H,) the hands' indices in the block."""
    dealt: np.ndarray
    """(H, n) masks."""
    given: np.ndarray | None
    """(H, n) masks of the passed cards, ``None`` without passes."""
    direction: np.ndarray
    cards: np.ndarray
    """(H, k, n) int8 cards in the order played."""
    seats: np.ndarray
    """(H, k, n) int8: who played them."""
    left: np.ndarray
    """(H, k, n) what each seat held at the start of each trick (by seat, not by position)."""
    winner: np.ndarray
    """(H, k)."""
    trick_cards: np.ndarray
    """(H, k) masks."""
    played_before: np.ndarray
    """(H, k) masks of the cards played in earlier tricks."""
    taken: np.ndarray
    """(H, n) masks."""
    tricks_won: np.ndarray
    """(H, n)."""

    def take(self, rows: np.ndarray) -> "Hands":
        """Some of the hands."""
        return Hands(*(None if value is None else value[rows] for value in vars(self).values()))

    def held(self) -> np.ndarray:
        """(H, k, n) what the player held just before each play, by position in the trick."""
        return np.take_along_axis(self.left, self.seats.astype(np.intp), axis=2)


def hands_of(block: Block, verdict: ScreenFindings, p: TableParams, hands: np.ndarray, direction: np.ndarray,
             passed: int) -> Hands:
    """Clean hands of full tricks with ``passed`` pass rows, laid out as the screen checked them. The hands after
    the pass and the trick winners are the screen's (:attr:`ScreenFindings.held`,
    :attr:`ScreenFindings.trick_winners`): the pass exchange and who wins a trick are rules of play, written once
    in the screen, which has just judged these hands by them."""
    n, size, k = p.players, p.hand_size, p.hand_size
    count = len(hands)
    start = block.hand_rows[hands]
    before = p.deck_size + passed
    width = before + k * n
    # worked on with the hands on the last axis (each row contiguous), handed over as (H, ...) views
    cards = np.ascontiguousarray(windows(block.card, start, width).T)              # (width, H) int8
    dealt = fold(np.bitwise_or, bits(cards[:p.deck_size].reshape(n, size, count)).transpose(1, 0, 2))
    given = None
    if passed:
        given = fold(np.bitwise_or, bits(cards[p.deck_size:before].reshape(n, p.pass_count, count)).transpose(1, 0, 2))
    hand0 = np.ascontiguousarray(verdict.held[hands, :n].T)                         # (n, H)
    winner = np.ascontiguousarray(verdict.trick_winners[hands, :k].T)               # (k, H) int8
    plays = cards[before:].reshape(k, n, count)
    seats = np.ascontiguousarray(windows(block.seat, start + before, k * n).T).reshape(k, n, count)
    card_bits = bits(plays)
    trick_cards = fold(np.bitwise_or, card_bits.transpose(1, 0, 2))                 # (k, H)
    at_seat = (np.arange(k)[:, None, None] * n + seats.astype(np.int64)) * count + np.arange(count)
    by_seat = np.zeros(k * n * count, U64)
    by_seat[at_seat.ravel()] = card_bits.ravel()
    by_seat = by_seat.reshape(k, n, count)
    played_before = np.zeros((k, count), U64)
    hand_left = np.empty((k, n, count), U64)
    hand_left[0] = hand0
    for t in range(1, k):
        played_before[t] = played_before[t - 1] | trick_cards[t - 1]
        hand_left[t] = hand_left[t - 1] & ~by_seat[t - 1]
    won = winner[:, None, :] == np.arange(n, dtype=winner.dtype)[None, :, None]        # (k, n, H)
    taken = fold(np.bitwise_or, trick_cards[:, None, :] * won)
    tricks_won = fold(np.add, won.view(np.uint8)).astype(np.int64)
    plays, seats, left = (a.transpose(2, 0, 1) for a in (plays, seats, hand_left))   # cards and seats stay int8
    dealt, hand0, taken, tricks_won = dealt.T, hand0.T, taken.T, tricks_won.T
    given = None if given is None else given.T
    winner, trick_cards, played_before = winner.T.astype(np.int64), trick_cards.T, played_before.T
    return Hands(hands, dealt, given, direction, plays, seats, left, winner, trick_cards, played_before,
                 taken, tricks_won)


# -- the moon detector, on arrays ----------------------------------------------------------
def _sure_above(held: np.ndarray, suit: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The cards of ``held`` in ``suit`` above every card of ``out`` in it."""
    return held & suit & ~up_to(highest(out & suit))


def holder_plays(h: Hands, rows: np.ndarray, holder: np.ndarray,
                 free_first: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(control, let_go, on_points)``, each (len(rows), k): ``moons.control_plays`` of the seat ``holder`` of
    each hand ``rows`` in each trick, whether it let the trick go, and whether it took the trick's points on
    purpose. Only the holder's own play counts, so each trick is judged at its position in it (leading, in
    between, or last), not at every position."""
    _, k, n = h.cards.shape
    count = len(rows)
    tricks = np.arange(k)
    hand = rows[:, None]
    cards = h.cards[rows]
    # (H, k) its position in each trick: the screen passed only hands played in turn, from the leader on
    at = (holder[:, None] - h.seats[rows, :, 0]) % n
    card = cards[np.arange(count)[:, None], tricks, at]
    mine = h.left[hand, tricks, holder[:, None]]
    before = h.played_before[rows]
    lead = cards[:, :, 0]
    led = lead // 13
    suit = SUITS[led]
    so_far = np.zeros((count, k), U64)                                        # the cards played before it
    for i in range(n - 1):
        so_far |= np.where(at > i, bits(cards[:, :, i]), U64(0))
    # following: it takes the trick over a card it could have played under, or plays under while able to win
    top = winning_card(so_far, suit).clip(0)
    over = mine & suit & ~up_to(top)
    bar = highest(suit & ~before & ~so_far & ~mine)
    follows = card // 13 == led
    higher = card > top
    control = follows & higher & ((mine & suit & below(top)) != 0)
    last = at == n - 1   # the last card wins a trick without points for free, and no one after it can
    in_sight = (so_far & POINTS_U) != 0
    control &= ~last | in_sight
    won = h.winner[rows] == holder[:, None]
    on_points = control & in_sight & won   # over points in sight, and it won them
    # a heart led above a lower one, that won
    on_points |= (at == 0) & (led == HEARTS) & ((mine & suit & below(lead)) != 0) & won
    let_go = follows & ~higher & ((over & ~np.where(last, U64(0), up_to(bar))) != 0)
    # leading (judged only where it leads): a control play leads a low card while holding sure winners; it
    # lets the trick go with sure winners kept
    leads = at == 0
    mine, lead, suit = mine[leads], lead[leads], suit[leads]
    out = ~before[leads] & ~mine
    sure_led = _sure_above(mine, suit, out)
    sure_other = np.zeros_like(sure_led)
    for s in (0, 1, 3):
        sure_other |= _sure_above(mine, SUITS[s], out)
    lead_control = ((mine & suit & below(lead)) != 0) & (((sure_led >> lead.astype(U64)) & ONE) != 0)
    control[leads] = lead_control
    let_go[leads] = ~lead_control & (h.winner[rows] != holder[:, None])[leads] & (sure_other != 0)
    if free_first:
        control[:, 0] = let_go[:, 0] = on_points[:, 0] = False
    return control, let_go, on_points


def missed_plays(h: Hands) -> np.ndarray:
    """(H, k, n) by position in the trick: ``moons.missed_stops`` (before the runner is known) for every play."""
    count, k, n = h.cards.shape
    before = h.played_before
    cards = np.moveaxis(h.cards, 2, 0)   # by position: (n, H, k) views
    held = np.moveaxis(h.held(), 2, 0)
    suit = SUITS[cards[0] // 13]
    missed = np.zeros((n, count, k), bool)
    so_far = bits(cards[0])
    for i in range(1, n):
        mine = held[i]
        over = mine & suit & ~up_to(winning_card(so_far, suit))
        bar = highest(suit & ~before & ~so_far & ~mine) if i < n - 1 else np.full((count, k), -1)
        hearty = ((so_far & HEARTS_U) != 0) & ((so_far & QS_U) == 0)
        missed[i] = hearty & ((over & ~QS_U & ~up_to(bar)) != 0)
        so_far = so_far | bits(cards[i])
    return np.moveaxis(missed, 0, 2)


@dataclass
class Moons:
    """The moon attempt of each hand (``moons.detect_moon``), as far as the statistics need it."""

    seat: np.ndarray
    """(H,) the runner, -1 for none."""
    outcome: np.ndarray
    """(H,) :data:`SHOT`, :data:`STOPPED` or :data:`ABANDONED` (-1 for none)."""
    stopper: np.ndarray
    missed: np.ndarray
    """(H, n) missed stops by seat."""


def detect_moons(p: TableParams, h: Hands) -> Moons:
    """``moons.detect_moon`` for hands of full tricks, without a loop over the tricks.

    Only the winner of the first trick with a point card can ever hold every point card fallen so far,
    and only until another seat takes one; so the runner, if any, is that seat, its run starts at the
    first trick where the definition holds, and ends at the first point card another seat takes.
    """
    count, k, n = h.cards.shape
    rows = np.arange(count)
    targets = U64(p.deck & POINT_CARDS_MASK)
    has_points = (h.trick_cards & targets) != 0
    first = np.argmax(has_points, axis=1)
    holder = h.winner[rows, first]
    by_holder = h.winner == holder[:, None]
    other = has_points & ~by_holder
    stop = np.where(other.any(axis=1), np.argmax(other, axis=1), k)
    tricks = np.arange(k)
    holding = has_points.any(axis=1)[:, None] & (tricks >= first[:, None]) & (tricks < stop[:, None])
    held_points = np.cumsum(heart_points(h.trick_cards) * by_holder, axis=1)
    holding &= held_points >= MIN_RUN_POINTS
    # the plays are judged only in hands where a seat held enough points to run
    some = np.flatnonzero(holding.any(axis=1))
    control, let_go, on_points = holder_plays(h, some, holder[some], bool(p.first_trick_barred))
    controls = np.cumsum(control, axis=1)
    lets_go = np.cumsum(let_go, axis=1)
    running = (holding[some] & (controls >= MIN_CONTROL_PLAYS) & (np.cumsum(on_points, axis=1) >= MIN_POINT_PLAYS)
               & (lets_go <= MAX_TRICKS_LET_GO))
    has_runner = np.zeros(count, bool)
    has_runner[some] = running.any(axis=1)
    start = np.full(count, k)
    start[some] = np.where(has_runner[some], np.argmax(running, axis=1), k)
    runner = np.where(has_runner, holder, -1)
    ended = has_runner & (stop < k)
    at_stop = stop.clip(max=k - 1)
    runner_gave = np.zeros(count, bool)
    runner_gave[ended] = gave_up(h, np.flatnonzero(ended), stop[ended], runner[ended])
    shooter = np.full(count, -1)
    if targets:
        for s in range(n - 1, -1, -1):
            shooter = np.where((h.taken[:, s] & targets) == targets, s, shooter)
    seat = np.where(ended, runner, shooter)
    outcome = np.where(ended, np.where(runner_gave, ABANDONED, STOPPED), np.where(shooter >= 0, SHOT, -1))
    stopper = np.where(ended & ~runner_gave, h.winner[rows, at_stop], -1)
    window = ((tricks > start[:, None]) & (tricks < stop[:, None]) & by_holder
              & ((h.trick_cards & HEARTS_U) != 0))[:, :, None]
    missed = np.zeros((count, n), np.int64)
    runs = np.flatnonzero(has_runner)   # missed stops are looked for only in the few hands with a runner
    part = h.take(runs)
    hits = missed_plays(part) & window[runs] & (part.seats != holder[runs, None, None])
    for s in range(n):
        missed[runs, s] = (hits & (part.seats == s)).sum(axis=(1, 2))
    return Moons(seat, outcome, stopper, missed)


def gave_up(h: Hands, hands: np.ndarray, tricks: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``moons.gave_up`` of ``seats`` in trick ``tricks`` (0-based) of ``hands``."""
    cards, plays = h.cards[hands, tricks], h.seats[hands, tricks]
    at = np.argmax(plays == seats[:, None], axis=1)
    rows = np.arange(len(hands))
    card, mine = cards[rows, at], h.left[hands, tricks, seats]
    led = cards[:, 0] // 13
    suit = SUITS[led]
    top = winning_card(h.trick_cards[hands, tricks], suit)
    above = (mine & suit & ~up_to(top)) != 0
    discarded_points = ((card // 13 != led) & (((POINTS_U >> card.astype(U64)) & ONE) != 0)
                        & ((mine & ~POINTS_U) != 0))
    return above | discarded_points


# -- the pass advice, on arrays -----------------------------------------------------------
def verdict_counts(dealt: np.ndarray, given: np.ndarray, direction: np.ndarray, mooning: np.ndarray) -> np.ndarray:
    """How many verdicts ``passes.advise`` gives each pass (all arrays (H, n); ``direction`` (H, 1))."""
    zero = U64(0)
    kept = dealt & ~given
    spades = dealt & SUITS[SPADES]
    short = popcount(spades) < 4
    out = (short & ((kept & QS_U) != zero)).astype(np.int64)
    exempt = (direction == _RIGHT) & ((spades & U64(LOW_SPADES)) != zero)
    out += short & ((kept & U64(HIGH_SPADES)) != zero) & ~exempt
    out += ((given & U64(LOW_RANKS)) != zero) & ~mooning
    hearts = dealt & HEARTS_U
    count = popcount(hearts)
    top3 = top_hearts(hearts, 3)
    out += (count >= 3) & ((given & top3) == top3)
    ace = U64(1 << (HEARTS * 13 + 12))
    out += (hearts == ace) & ((given & ace) != zero)
    long_strong = (count >= 5) & ((hearts & U64(LOW_HEARTS)) != zero) & (popcount(hearts & U64(HIGH_HEARTS)) >= 2)
    allowed = np.where(mooning, zero, top_hearts(hearts, 2) & ~top_hearts(hearts, 1))
    out += long_strong & ((given & HEARTS_U & ~allowed) != zero)
    out += ((given & U64(LOW_SPADES)) != zero) & ~mooning
    return out


# -- counting into a Tally ---------------------------------------------------------------------
RATE_NAMES = ("qs_taken_pct", "moon_attempt_pct", "moon_success_pct", "missed_stop_pct", "hearts_broken_pct",
              "violation_hand_pct")


def sum_by(ids: np.ndarray, values, size: int) -> np.ndarray:
    """``values`` (an array of the shape of ``ids``, or one number) summed by id."""
    flat = ids.reshape(-1)
    if np.ndim(values) == 0:
        return np.bincount(flat, minlength=size) * values
    if values.shape != ids.shape:
        values = np.broadcast_to(values, ids.shape)
    if values.dtype == bool:   # most are flags, many rare: the ids where set, counted (no float weights)
        return np.bincount(flat[np.flatnonzero(values)], minlength=size)
    return np.bincount(flat, values.reshape(-1), minlength=size)


class Counts:
    """Seat-hand values summed by player id, then added to a :class:`Tally` at once."""

    def __init__(self, players: int, details: bool = True):
        self.size = players
        self.details = details
        """Count the pass tables and the points histogram too (:attr:`Tally.details`)."""
        self.players: dict[str, np.ndarray] = {}
        self.impact: dict[str, np.ndarray] = {}
        self.passes: dict[tuple[int, str, str], np.ndarray] = {}
        self.points: dict[int, np.ndarray] = {}

    def histogram(self, ids: np.ndarray, points: np.ndarray) -> None:
        """Seat-hands by player and points."""
        if not self.details:
            return
        low, high = int(points.min()), int(points.max())
        table = np.bincount(((points - low) * self.size + ids).ravel(),
                            minlength=(high - low + 1) * self.size).reshape(-1, self.size)
        for row in np.flatnonzero(table.any(axis=1)).tolist():
            self.points[row + low] = self.points.get(row + low, 0) + table[row]

    def add(self, name: str, ids: np.ndarray, values) -> None:
        self.players[name] = self.players.get(name, 0) + sum_by(ids, values, self.size)

    def rate(self, name: str, ids: np.ndarray, possible, happened, points: np.ndarray) -> None:
        possible = np.broadcast_to(possible, ids.shape)
        happened = np.broadcast_to(happened, ids.shape) & possible
        chances = np.count_nonzero(possible)
        if not chances:
            return
        self.add(name + ".opp", ids, possible)
        self.add(name + ".hit", ids, happened)
        self.add(name + ".opp_points", ids, np.where(possible, points, 0))
        self.add(name + ".hit_points", ids, np.where(happened, points, 0))
        flat = points.reshape(-1)
        hits, hit_points = np.count_nonzero(happened), int(np.dot(flat, happened.reshape(-1)))
        side = np.array([hit_points, hits, int(np.dot(flat, possible.reshape(-1))) - hit_points, chances - hits])
        self.impact[name] = self.impact.get(name, 0) + side

    def merge(self, other: "Counts") -> None:
        for mine, theirs in ((self.players, other.players), (self.impact, other.impact),
                             (self.passes, other.passes), (self.points, other.points)):
            for key, values in theirs.items():
                mine[key] = mine.get(key, 0) + values

    def into(self, tally: Tally, names: list[str]) -> None:
        for counter, values in self.players.items():
            for player in np.flatnonzero(values).tolist():
                tally.players[names[player]][counter] += _number(values[player])
        for value, found in self.points.items():
            for player in np.flatnonzero(found).tolist():
                tally.points_hist[names[player]][value] += int(found[player])
        for rate, side in self.impact.items():
            target = tally.impact[rate]
            for key, value in zip(("hit_points", "hits", "miss_points", "misses"), side.tolist()):
                target[key] += _number(value)
        for (player, direction, kind), values in self.passes.items():
            if not values[0]:
                continue
            target = tally.passes[(names[player], direction, kind)]
            for key, value in zip(PASS_FIELDS[kind], values.tolist()):
                target[key] += _number(value)


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


PASS_FIELDS = {kind: ("passes", "points", "back_points", "receiver_points") for kind in PASS_KINDS}
PASS_FIELDS["any"] = ("passes", "points", "back_points", "receiver_points", "verdicts",
                      *(f"{kind}.{side}" for kind in PASS_KINDS for side in ("opp", "hit")))


def count_hands(p: TableParams, h: Hands, verdict: ScreenFindings, totals_before: np.ndarray, ids: np.ndarray,
                counts: Counts) -> None:
    """Every seat-hand of ``h`` into ``counts`` (``Tally._add_hand``); ``ids`` (H, n) the players' ids."""
    count, k, n = h.cards.shape
    rules = p.table.rules
    seats = np.arange(n)
    points = verdict.points[h.hand, :n]
    moon_seat = verdict.moon_seat[h.hand]
    taken = h.taken
    hearts = popcount(taken & HEARTS_U)
    qs = (taken & QS_U) != 0
    raw = raw_points(rules, taken, (h.tricks_won == 0) & (moon_seat < 0)[:, None])
    add = counts.add
    add("hands", ids, 1)
    add("points", ids, points)
    counts.histogram(ids, points)
    add("raw_points", ids, raw)
    add("hearts", ids, hearts)
    add("tricks", ids, h.tricks_won)
    add("suns", ids, h.tricks_won == p.hand_size)
    total = p.point_total
    if total:
        near = heart_points(taken & U64(p.deck)) == total - 1
        add("near_misses", ids, near & (np.cumsum(near, axis=1) == 1))

    moons = detect_moons(p, h)
    runs = moons.seat[:, None] == seats
    attempt = (moons.seat >= 0)[:, None]
    # who broke hearts: the first trick with a breaking card, then the first such card in it
    broken = breaks_hearts(p.table, h.trick_cards)
    trick = np.argmax(broken, axis=1)
    hand = np.arange(count)
    at = np.argmax(breaks_hearts(p.table, bits(h.cards[hand, trick])), axis=1)
    breaker = np.where(broken.any(axis=1), h.seats[hand, trick, at], -1)
    rate = counts.rate
    rate("qs_taken_pct", ids, True, qs, points)
    rate("moon_attempt_pct", ids, True, runs, points)
    rate("moon_success_pct", ids, runs, runs & (moons.outcome == SHOT)[:, None], points)
    rate("missed_stop_pct", ids, attempt & ~runs, moons.missed > 0, points)
    rate("hearts_broken_pct", ids, True, breaker[:, None] == seats, points)
    rate("violation_hand_pct", ids, True, False, points)
    for outcome, name in enumerate(OUTCOMES):
        add("moons_" + name, ids, runs & (moons.outcome == outcome)[:, None])
    add("moon_attempts", ids, runs)
    add("moon_stops", ids, moons.stopper[:, None] == seats)
    add("missed_stops", ids, moons.missed)
    if rules.moon == "shooter_choice":
        shot = np.flatnonzero(moon_seat >= 0)   # only a shot moon has a choice to judge
        judged, correct = judge_choices(p, h, shot, verdict, totals_before[shot])
        chose = moon_seat[shot, None] == seats
        add("moon_choices", ids[shot], judged[:, None] & chose)
        add("moon_choices_correct", ids[shot], (judged & correct)[:, None] & chose)
    if h.given is not None:
        _count_passes(p, h, points, runs, ids, counts)


def judge_choices(p: TableParams, h: Hands, rows: np.ndarray, verdict: ScreenFindings,
                  before: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(judged, correct)`` per hand of ``rows``: ``moons.judge_choice`` where one option was better."""
    n = h.cards.shape[2]
    hand = h.hand[rows]
    shooter = verdict.moon_seat[hand]
    is_shooter = np.arange(n) == shooter[:, None]
    jack = jack_points(p.table.rules, took(h.taken[rows], JD))
    add, subtract = moon_scores(jack, p.point_total, is_shooter)
    add_after, sub_after = before + add, before + subtract
    over = lambda after: game_over(p.table, after)  # noqa: E731
    better = better_choices(add_after, over(add_after), sub_after, over(sub_after), shooter.clip(0))
    judged = (shooter >= 0) & (better >= 0)
    return judged, verdict.moon_choice[hand] == better


def _count_passes(p: TableParams, h: Hands, points: np.ndarray, runs: np.ndarray, ids: np.ndarray,
                  counts: Counts) -> None:
    count, _, n = h.cards.shape
    dealt, given = h.dealt, h.given
    zero = U64(0)
    kept = dealt & ~given
    direction = h.direction[:, None]
    verdicts = verdict_counts(dealt, given, direction, runs)
    receiver = (np.arange(n) + np.array(p.offsets)[h.direction][:, None]) % n
    back = heart_points(given & h.taken)
    receiver_points = np.take_along_axis(points, receiver, axis=1)
    voids = np.zeros((count, n), bool)
    for s in range(4):
        voids |= ((dealt & SUITS[s]) != zero) & ((kept & SUITS[s]) == zero)

    def has(mask: np.ndarray, cards: int) -> np.ndarray:
        return (mask & U64(cards)) != zero

    kinds = {"qs": has(given, QS_MASK), "as": has(given, 1 << AS), "ks": has(given, 1 << KS),
             "high_hearts": has(given, HIGH_HEARTS), "low_spade": has(given, LOW_SPADES), "void": voids,
             "flagged": verdicts > 0}
    possible = {"qs": has(dealt, QS_MASK), "as": has(dealt, 1 << AS), "ks": has(dealt, 1 << KS),
                "high_hearts": has(dealt, HIGH_HEARTS), "low_spade": has(dealt, LOW_SPADES),
                "void": np.ones((count, n), bool), "flagged": np.ones((count, n), bool)}
    counts.add("passes", ids, 1)
    counts.add("verdicts", ids, verdicts)
    for kind, rate in PASS_RATES.items():
        counts.rate(rate, ids, possible[kind], kinds[kind], points)
    directions = len(PASS_DIRECTIONS)
    keys = ids * directions + h.direction[:, None]
    size = counts.size * directions

    def sums(values: list, chosen: np.ndarray | None) -> np.ndarray:
        """(players x directions, len(values)) sums over the chosen passes."""
        if chosen is not None:
            values = [chosen if np.ndim(v) == 0 else v * chosen for v in values]
        return np.stack([sum_by(keys, v, size) for v in values], axis=1)

    if not counts.details:
        return
    base = [1, points, back, receiver_points]
    found = {"any": sums(base + [verdicts] + [m for kind in PASS_KINDS for m in (possible[kind], kinds[kind])], None)}
    for kind in PASS_KINDS:
        if kinds[kind].any():
            found[kind] = sums(base, kinds[kind])
    for kind, table in found.items():
        for key in np.flatnonzero(table[:, 0]).tolist():
            player, code = divmod(key, directions)
            entry = (player, PASS_DIRECTIONS[code], kind)
            counts.passes[entry] = counts.passes.get(entry, 0) + table[key]


# -- a block -------------------------------------------------------------------------------------
def full_games(block: Block, verdict: ScreenFindings) -> np.ndarray:
    """(games,) bool: clean games whose hands all have every trick played (no ``ends_hand`` sweep);
    the columnar statistics count these, the per-game analysis the rest."""
    fast = verdict.clean.copy()
    if not fast.any():
        return fast
    plays = np.diff(np.searchsorted(np.flatnonzero(block.event == PLAY), block.hand_rows))   # per hand
    needed = np.zeros(block.games, np.int64)
    for table in distinct(block.table_index[fast]):
        rules, seats = block.tables[table]
        try:
            needed[block.table_index == table] = table_params(rules, seats).deck_size
        except RuleError:
            fast[block.table_index == table] = False
    hand_game = np.repeat(np.arange(block.games), np.diff(block.game_hands))
    short = np.bincount(hand_game, plays != needed[hand_game], minlength=block.games) > 0
    return fast & ~short & (np.diff(block.game_hands) > 0)


def player_ids(block: Block) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """``(names, ids (games, 7), start, seats)``: each player name once, each game's players as indices into
    ``names`` (0 past its seats), and where each game's players start in the list column's values. Read from
    the column's buffers (``Block.players`` takes them with Arrow's compute module, whose import alone costs a
    run a tenth of a second), one dictionary look-up per name."""
    present, start, length = block.players_column.offsets()
    known: dict[str, int] = {}
    codes = np.array([known.setdefault(name, len(known)) for name in block.players_column.array.values.to_pylist()],
                     np.int64)
    seat = np.arange(7)
    inside = seat < length[:, None]
    ids = np.zeros((block.games, 7), np.int64)
    ids[inside] = codes[(start[:, None] + seat)[inside]]
    return list(known), ids, start, np.where(present, length, 0)


def tally_block(block: Block, verdict: ScreenFindings, games: np.ndarray, tally: Tally, threads: bool = False) -> None:
    """Count the games ``games`` (indices of clean games of full tricks, see :func:`full_games`) into ``tally``;
    ``threads``: count chunks of hands on :data:`THREADS` threads."""
    if not len(games):
        return
    names, game_ids, start, length = player_ids(block)
    counts = Counts(len(names), tally.details)
    sizes = length[games]
    present = np.arange(7) < sizes[:, None]
    totals = verdict.totals[games]
    complete = verdict.complete[games]
    finished = present & complete[:, None]
    places = 1 + ((totals[:, None, :] < totals[:, :, None]) & present[:, None, :]).sum(axis=2)
    ids = game_ids[games]
    counts.add("games", ids, present)     # what Tally.add_game counts, for every game at once
    counts.add("complete_games", ids, finished)
    counts.add("position_sum", ids, places * finished)
    counts.add("wins", ids, verdict.winners[games] & finished)
    flat = block.players_column.array.values.to_pylist()
    game_id, played_at = block.game_ids(), block.played_at()
    tally.add_outcomes([GameOutcome(game_id[g], played_at[g], tuple(flat[a:a + n]), tuple(row[:n]), done)
                        for g, a, n, row, done in zip(games.tolist(), start[games].tolist(), sizes.tolist(),
                                                      totals.tolist(), complete.tolist())])
    in_games = np.zeros(block.games, bool)
    in_games[games] = True
    for table in distinct(block.table_index[games]):
        rules, seats = block.tables[table]
        p = table_params(rules, seats)
        chosen = np.flatnonzero(in_games & (block.table_index == table))
        _tally_table(block, verdict, p, chosen, game_ids, counts, threads)
    tally.hands += int((block.game_hands[games + 1] - block.game_hands[games]).sum())
    counts.into(tally, names)


def _tally_table(block: Block, verdict: ScreenFindings, p: TableParams, games: np.ndarray, game_ids: np.ndarray,
                 counts: Counts, threads: bool) -> None:
    n = p.players
    first = block.game_hands[games]
    per_game = block.game_hands[games + 1] - first
    ends = np.cumsum(per_game)
    hands = np.arange(int(ends[-1])) + np.repeat(first - (ends - per_game), per_game)
    hand_game = np.repeat(games, per_game)
    number = block.hand_number[hands]
    expected = np.array(p.cycle)[(number - 1) % len(p.cycle)]
    stated = block.direction[hands]
    direction = np.where(expected == STATED, np.where(stated >= 0, stated, HOLD), expected)
    points = verdict.points[hands, :n]
    running = np.cumsum(points, axis=0)
    game_start = np.repeat(ends - per_game, per_game)
    offset = np.vstack([np.zeros((1, n), np.int64), running])[game_start]
    before = running - points - offset
    passed = np.where(direction == HOLD, 0, n * p.pass_count)

    def count(rows: int, members: np.ndarray, into: Counts) -> Counts:
        h = hands_of(block, verdict, p, hands[members], direction[members], rows)
        count_hands(p, h, verdict, before[members], game_ids[hand_game[members], :n], into)
        return into

    chunks = [(rows, chosen[at:at + CHUNK_HANDS]) for rows in distinct(passed)
              for chosen in [np.flatnonzero(passed == rows)] for at in range(0, len(chosen), CHUNK_HANDS)]
    if threads and len(chunks) > 1:  # numpy lets go of the interpreter in its loops: two chunks at a time
        for part in _thread_pool().map(lambda chunk: count(*chunk, Counts(counts.size, counts.details)), chunks):
            counts.merge(part)
    else:
        for rows, members in chunks:
            count(rows, members, counts)


@lru_cache(maxsize=1)
def _thread_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=THREADS)
