"""The rollout player: a careful club player for every lane at once.

A review's verdict is what a decision cost against this model of the others,
so it has to play the way decent players do; a model that never flushes the
queen makes keeping a short QS look safe. It follows the heuristics of the
simulator's :class:`~hearts_analysis.simulate.bots.HeuristicBot` (the online
rules page 'Play Hearts online with friends for free'), deterministically, so
that every alternative meets the same replies on the same deal:

- **pass** QS/AS/KS without four spades, then the high cards of short suits
  without low exits (towards a void), at most two hearts; never a spade below
  the queen (they flush and guard it);
- **lead** low from short suits, never into the queen; without QS, AS or KS and
  while QS is out, a low spade to flush it; a sure top heart when one other
  seat has every point so far (that stops its moon);
- **follow** by ducking as high as possible, taking a clean last trick high,
  winning a trick the would-be shooter is winning;
- **discard** when void QS, then AS/KS while QS is out, then the highest heart
  or the high card of a short suit (towards another void); never a point card
  onto the would-be shooter;
- **run** for the moon with a hand of hearts and few losers while no other seat
  has a point card: sure winners first, low cards when void;
- under Omnibus rules, take JD when it is a sure winner and never give it away.

It sees only what its seat could know: its hand, the trick, the cards played
and who took them. The first, simpler player is :mod:`.basic`
(``Settings(model="basic")``).

The same hand :mod:`.basic` strips of KS and AS keeps its spades here: four
of them guard QS, and they are what flushes the queen later.

>>> from hearts_analysis.cards import mask_of, names, parse_card
>>> hand = mask_of(parse_card(c) for c in "2C 3C 4C 5C 6C 2D 3D 4D 9H QS KS AS 2S".split())
>>> names(int(choose_passes([hand], 3)[0]))
['6C', '4D', '9H']
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from ..cards import CLUBS, DIAMONDS, HEARTS, JD, QS, SPADES
from .basic import HIGH_RANK, LOW_RANK, choose_passes_basic, choose_plays_basic, suit_fields
from ..rules import Rules
from .lanes import BELOW, BIT, POINTS, QS_BIT, SUIT, U64, ZERO, Lanes, highest, keep_or, lowest, popcount

_SUITS = np.arange(4)
_NONE = 1 << 20
_HEARTS = SUIT[HEARTS]
_SPADES = SUIT[SPADES]
_HIGH_SPADES = BIT[QS + 1] | BIT[QS + 2]
_LOW_SPADES = BELOW[QS] & _SPADES
_JD = BIT[JD]
_ABOVE_JD = SUIT[DIAMONDS] & ~(BELOW[JD] | _JD)
_LOW_RANKS = BIT[0] | BIT[1] | BIT[13] | BIT[14] | BIT[26] | BIT[27] | BIT[39] | BIT[40]
_THREAT_CARDS = 3
"""Point cards a lone taker must hold before the others play to stop its moon."""
_MOON_LOSERS = 3
"""Losers a hand may carry and still run for the moon."""
_MOON_HEARTS = 5
"""Hearts (held or taken) a hand needs to run for the moon."""


class _Seat:
    """What the seat to move in each lane knows and has decided, computed once per play."""

    __slots__ = ("hand", "unseen", "queen_out", "shooter", "running", "trick_points", "jd", "winner")

    def __init__(self, lanes: Lanes | None, seat: np.ndarray | None = None):
        if lanes is None:
            return
        rules = lanes.rules
        self.hand = lanes.hand_of(seat)
        held = lanes.hands[:, 0].copy()
        for other in range(1, lanes.players):
            held |= lanes.hands[:, other]
        self.unseen = held & ~self.hand  # what the others hold: the cards the seat has not seen
        self.queen_out = (self.unseen & QS_BIT) != ZERO
        self.jd = rules.jack_of_diamonds
        self.winner = lanes.winner
        self.trick_points = (lanes.trick & POINTS) != ZERO
        count = lanes.count
        self.shooter = np.full(count, -1)
        self.running = np.zeros(count, bool)
        if rules.moon == "none":
            return
        cards = lanes.taken & POINTS
        many = np.zeros(count, np.int64)
        first = np.full(count, -1)
        for other in reversed(range(lanes.players)):
            took = cards[:, other] != ZERO
            many += took
            first = np.where(took, other, first)
        held = popcount(cards.reshape(-1)[lanes.base + np.maximum(first, 0)])
        self.shooter = np.where((many == 1) & (first != seat) & (held >= _THREAT_CARDS), first, -1)
        mine = cards.reshape(-1)[lanes.base + seat]
        hopeful = (many == (mine != ZERO)) & (popcount((self.hand | mine) & _HEARTS) >= _MOON_HEARTS)
        if hopeful.any():
            where = np.flatnonzero(hopeful)
            self.running[where] = _strong(self.hand[where], self.unseen[where], self.queen_out[where])

    def take(self, where: np.ndarray) -> "_Seat":
        """The same for the lanes ``where`` only."""
        other = _Seat(None)
        for name in _Seat.__slots__:
            value = getattr(self, name)
            setattr(other, name, value[where] if isinstance(value, np.ndarray) else value)
        return other


def _strong(hand: np.ndarray, unseen: np.ndarray, queen_out: np.ndarray) -> np.ndarray:
    """A hand that can take every point card: at most a few losers (counted as in bridge: the
    missing top cards among each suit's first three, against the unseen cards), hearts led by
    their top."""
    mine, live = suit_fields(hand), suit_fields(unseen)
    length = np.bitwise_count(mine).astype(np.int64)
    winners = np.bitwise_count(mine >> (HIGH_RANK[live] + 1)).astype(np.int64)
    missing = np.where(length > 0, np.maximum(np.minimum(length, 3) - winners, 0), 0)
    weak_hearts = (length[:, HEARTS] > 0) & ((missing[:, HEARTS] > 1) | (winners[:, HEARTS] == 0))
    losers = missing.sum(axis=1) + (queen_out & ((hand & (QS_BIT | _HIGH_SPADES)) == ZERO))
    return ~weak_hearts & (losers <= _MOON_LOSERS)


def choose_plays(lanes: Lanes, seat: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The rollout player's card in every lane (-1 where the hand has ended)."""
    me = _Seat(lanes, seat)
    if lanes.position == 0:
        card = _lead(lanes, me, legal)
    else:
        follow = legal & SUIT[lanes.led]
        void = np.flatnonzero(follow == ZERO)
        if len(void) == 0:
            card = _follow(lanes, me, seat, follow)
        elif len(void) == lanes.count:
            card = _discard(me, legal)
        else:
            card = _follow(lanes, me, seat, follow)
            card[void] = _discard(me.take(void), legal[void])
    return np.where(legal == ZERO, -1, card)


def _over(unseen: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """How many unseen cards of the same suit beat each card (of a ``(lanes, 4)`` rank table)."""
    return np.bitwise_count(suit_fields(unseen) >> (np.maximum(cards, -1) + 1)).astype(np.int64)


def _lead(lanes: Lanes, me: _Seat, legal: np.ndarray) -> np.ndarray:
    fields = suit_fields(legal)
    if me.jd < 0:
        diamonds = fields[:, DIAMONDS]
        fields[:, DIAMONDS] = np.where(diamonds & ~(1 << 9), diamonds & ~(1 << 9), diamonds)
    low = LOW_RANK[fields]
    length = np.bitwise_count(suit_fields(me.hand)).astype(np.int64)
    over = _over(me.unseen, low)
    spade_risk = ((me.hand & QS_BIT) != ZERO) | (me.queen_out & ((me.hand & _HIGH_SPADES) != ZERO))
    score = length * 3 + low + np.where(over == 0, 40, np.where(over < lanes.players - 1, 4, 0))
    score[:, HEARTS] += 2
    score[:, SPADES] += 60 * (spade_risk | (low[:, SPADES] == QS - 13 * SPADES))
    suit = np.argmin(np.where(low >= 0, score * 4 + _SUITS, _NONE), axis=1)
    card = suit * 13 + np.take_along_axis(low, suit[:, None], axis=1)[:, 0]
    spades = legal & _SPADES
    flush = me.queen_out & (spades != ZERO) & ((me.hand & _SPADES & ~_LOW_SPADES) == ZERO)
    card = np.where(flush, lowest(spades), card)
    hearts = highest(legal & _HEARTS)
    sure_heart = (hearts >= 0) & ((me.unseen & _HEARTS & ~BELOW[np.maximum(hearts, 0)] & ~BIT[np.maximum(hearts, 0)])
                                  == ZERO)
    card = np.where((me.shooter >= 0) & sure_heart, hearts, card)
    if me.jd < 0:
        card = np.where(((legal & _JD) != ZERO) & ((me.unseen & _ABOVE_JD) == ZERO), JD, card)
    run = np.flatnonzero(me.running)
    if len(run):
        card[run] = _run_lead(me.take(run), legal[run])
    return card


_RUN_ORDER = np.array([HEARTS, SPADES, DIAMONDS, CLUBS])


def _run_lead(me: _Seat, legal: np.ndarray) -> np.ndarray:
    """A sure winner (hearts first), else the top card of the longest suit."""
    fields = suit_fields(legal)[:, _RUN_ORDER]
    high = HIGH_RANK[fields]
    sure = (high >= 0) & (HIGH_RANK[suit_fields(me.unseen)[:, _RUN_ORDER]] < high)
    longest = np.argmax(np.bitwise_count(fields), axis=1)
    pick = np.where(sure.any(axis=1), np.argmax(sure, axis=1), longest)
    return _RUN_ORDER[pick] * 13 + np.take_along_axis(high, pick[:, None], axis=1)[:, 0]


def _follow(lanes: Lanes, me: _Seat, seat: np.ndarray, follow: np.ndarray) -> np.ndarray:
    rules = lanes.rules
    top = np.maximum(lanes.top, 0)
    under = follow & BELOW[top]
    jack = follow & _JD if me.jd < 0 else np.zeros_like(follow)
    winning_jack = (jack != ZERO) & (lanes.top < JD)
    under = keep_or(under & ~jack, under)
    to_win = keep_or(follow & ~QS_BIT & ~jack, keep_or(follow & ~QS_BIT, follow))
    ducked = highest(under)
    can_duck = under != ZERO
    trick = lanes.trick
    if lanes.trick_number == 1 and not rules.points_on_first_trick:
        card = np.where(winning_jack, JD, highest(to_win))
    elif lanes.position == lanes.players - 1:
        value = popcount(trick & _HEARTS) + 13 * ((trick & QS_BIT) != ZERO) + me.jd * ((trick & _JD) != ZERO)
        shy = rules.no_tricks_bonus < 0
        has_trick = lanes.won[np.arange(lanes.count), seat] > 0
        clean = (value < 0) | ((value == 0) & (has_trick | (not shy)))
        card = np.where(can_duck, ducked, np.where(winning_jack, JD, highest(to_win)))
        card = np.where(clean, highest(to_win), card)
        card = np.where(winning_jack & (value + me.jd <= 0), JD, card)
    else:
        careful = me.trick_points | ((lanes.led == SPADES) & me.queen_out)
        card = np.where(careful, lowest(to_win), highest(to_win))
        if me.jd < 0:
            card = np.where(winning_jack & ((me.unseen & _ABOVE_JD) == ZERO), JD, card)
        card = np.where(can_duck, ducked, card)
    over = follow & ~BELOW[top] & ~BIT[top]
    stop = (me.shooter >= 0) & (lanes.winner == me.shooter) & (over != ZERO)
    card = np.where(stop, highest(keep_or(over & ~QS_BIT, over)), card)
    run = np.flatnonzero(me.running & ((over != ZERO) | ~me.trick_points))
    if len(run):
        over = over[run]
        win = lowest(over) if lanes.position == lanes.players - 1 else highest(over)
        card[run] = np.where(over != ZERO, win, lowest(follow[run]))
    return card


def _discard(me: _Seat, legal: np.ndarray) -> np.ndarray:
    feeding = (me.shooter >= 0) & (me.winner == me.shooter)
    legal = np.where(feeding, keep_or(legal & ~POINTS, legal), legal)
    spare = legal
    if me.jd < 0:
        keep = _JD | np.where((me.unseen & _JD) != ZERO, _ABOVE_JD, ZERO)
        spare = keep_or(legal & ~keep, legal)
    high = HIGH_RANK[suit_fields(spare)]
    short = np.bitwise_count(suit_fields(me.hand)) <= 2
    score = np.where(high >= 0, high * 2 + 3 * short, -1)
    score[:, HEARTS] += np.where(high[:, HEARTS] >= 0, 10, 0)
    suit = np.argmax(score, axis=1)
    card = suit * 13 + np.take_along_axis(high, suit[:, None], axis=1)[:, 0]
    high_spades = legal & _HIGH_SPADES
    card = np.where(me.queen_out & (high_spades != ZERO), highest(high_spades), card)
    card = np.where((legal & QS_BIT) != ZERO, QS, card)
    run = np.flatnonzero(me.running & ~me.trick_points & ((legal & ~POINTS) != ZERO))
    if len(run):
        low = LOW_RANK[suit_fields(legal[run] & ~POINTS)]
        suit = np.argmin(np.where(low >= 0, low * 4 + _SUITS, _NONE), axis=1)
        card[run] = suit * 13 + np.take_along_axis(low, suit[:, None], axis=1)[:, 0]
    return card


def choose_passes(hands: np.ndarray, count: int, direction: str = "left", rules: Rules | None = None) -> np.ndarray:
    """The ``count`` cards each hand passes, as masks: QS, AS, KS without four spades (only QS
    passing right with low spades to flush it back), then the high cards of short suits without
    low exits, at most two hearts, never a spade below the queen, a 2 or a 3 while others remain
    (nor, when JD scores for its taker, JD and the diamonds that catch it)."""
    hands = np.asarray(hands, U64)
    fields = suit_fields(hands)
    length = np.bitwise_count(fields).astype(np.int64)
    spades = length[:, SPADES]
    short = spades < 4
    low_spades = (hands & _LOW_SPADES) != ZERO
    danger = np.where((direction == "right") & low_spades, QS_BIT, QS_BIT | _HIGH_SPADES)
    danger = hands & np.where(short, danger, ZERO)
    keep = _LOW_SPADES | _LOW_RANKS | np.where(short, ZERO, _SPADES)
    if rules is not None and rules.jack_of_diamonds < 0:
        keep = keep | _JD | _ABOVE_JD
    hearts = hands & _HEARTS
    top = highest(hearts)
    keep = keep | np.where((length[:, HEARTS] == 1) & (top == 13 * HEARTS + 12), hearts, ZERO)
    pool = hands & ~keep & ~danger
    first = highest(pool & _HEARTS)
    second = highest(pool & _HEARTS & ~np.where(first >= 0, BIT[np.maximum(first, 0)], ZERO))
    allowed = np.where(first >= 0, BIT[np.maximum(first, 0)], ZERO) | np.where(second >= 0, BIT[np.maximum(second, 0)],
                                                                             ZERO)
    pool = pool & (~_HEARTS | allowed)
    has_low = (fields & 0b1111) != 0
    bonus = np.where((length <= 3) & ~has_low, (4 - length) * 5, np.where((length >= 5) & has_low, -8, 0))
    bonus[:, HEARTS] += 2
    cards = np.arange(52)
    rank = cards % 13
    score = rank[None, :] * 4 + bonus[:, cards // 13] + 16
    top_hearts = _top_three_hearts(hearts)
    held = (hands[:, None] & BIT[None, :]) != ZERO
    tier = np.select([(danger[:, None] & BIT) != ZERO, (pool[:, None] & BIT) != ZERO,
                      ((hands & ~_LOW_SPADES & ~top_hearts)[:, None] & BIT) != ZERO,
                      ((hands & ~top_hearts)[:, None] & BIT) != ZERO], [4, 3, 2, 1], 0)
    order = np.where(tier == 4, np.where(cards == QS, 3, cards - QS), np.where(tier == 3, score * 64 + cards, cards))
    key = np.where(held, tier * (1 << 16) + order, -(1 << 20))
    chosen = np.argsort(-key, axis=1, kind="stable")[:, :count]
    result = np.zeros(len(hands), U64)
    for column in range(count):
        result = result | BIT[chosen[:, column]]
    return result


def _top_three_hearts(hearts: np.ndarray) -> np.ndarray:
    out = np.zeros_like(hearts)
    rest = hearts
    for _ in range(3):
        top = highest(rest)
        bit = np.where(top >= 0, BIT[np.maximum(top, 0)], ZERO)
        out |= bit
        rest &= ~bit
    return out


class Model(NamedTuple):
    """A model of the players for the rollouts: ``plays(lanes, seat, legal) -> cards`` and
    ``passes(hands, count, direction, rules) -> masks``."""

    plays: Callable[[Lanes, np.ndarray, np.ndarray], np.ndarray]
    passes: Callable[..., np.ndarray]


MODELS = {"strong": Model(choose_plays, choose_passes), "basic": Model(choose_plays_basic, choose_passes_basic)}
"""The rollout players a review can use (``Settings.model``)."""
OTHER_MODEL = {"strong": "basic", "basic": "strong"}
"""The second, independent model that confirms a flagged verdict of each (``Settings.confirm``)."""
MODEL_WORDS = {"strong": "the stronger opponent model", "basic": "the basic opponent model"}
"""How a verdict names each model to a player."""
