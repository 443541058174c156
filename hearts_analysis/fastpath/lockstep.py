"""The vectorised screen: thousands of hands of one rule set and one row layout judged at once.

A hand passes only when the reference engine would find nothing wrong with it,
and then its points and moon are exactly the engine's; anything else is
*suspicious*, and the caller has the reference engine replay it (that hand
alone where its rows were read whole, :mod:`~hearts_analysis.fastpath.findings`), so
that violations and their messages come from one place.

A clean hand is fully determined by its record, so every trick is judged at
once instead of one after another: the winner of a trick comes from its own
cards, what a seat holds at trick ``t`` is what it plays from ``t`` on (plus, in
a hand ended early, what it still holds), hearts are broken before ``t`` when a
breaking card fell earlier. Cards are ints 0-51 (:mod:`hearts_analysis.cards`),
hands are 64-bit masks, and what a seat holds is a set of five *classes*
(clubs, diamonds, hearts, spades but QS, QS): all the legality cascade of
:func:`~hearts_analysis.engine.interpreter.legal_cards` looks at beyond the first lead.

Arrays put the hands on the *last* axis (``(tricks, seats, H)``), so that every
operation runs over long contiguous rows; selections are arithmetic
(``b + c * (a - b)``) rather than ``np.where``, which is many times slower here.

A simulated hand, as recorded and with two cards of the first trick swapped
between seats: the first is clean and seat 0 took 2 hearts and QS, the second
is not.

>>> from hearts_analysis.engine.replay import replay_game
>>> from hearts_analysis.fastpath.params import table_params
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=1)
>>> plays, held = game.hands[0].plays, replay_game(game).hands[0].held
>>> cards = np.array([[card for _, card in plays]] * 2, np.int8).T.reshape(13, 4, 2)
>>> seats = np.array([[seat for seat, _ in plays]] * 2, np.int8).T.reshape(13, 4, 2)
>>> cards[0, 1:3, 1] = cards[0, 2:0:-1, 1].copy()
>>> play = screen_play(table_params(game.rules, 4), np.array([held] * 2, np.uint64).T, cards, seats,
...                    np.array([plays[0][0]] * 2))
>>> play.clean.tolist(), play.hearts[:, 0].tolist(), play.queen.tolist()
([True, False], [1, 2, 4, 6], [0, 0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import HEARTS, HEARTS_MASK, JD, QC, QS, SPADES
from ..records.model import MOON_CODES
from ..rule_arrays import moon_scores, point_parts, total
from ..rules import Table
from .params import TableParams

U64 = np.uint64
ONE = U64(1)
ADD, SUBTRACT = MOON_CODES["add_to_others"], MOON_CODES["subtract_from_shooter"]

CLASS_HEARTS, CLASS_SPADES, CLASS_QUEEN = HEARTS, SPADES, 4
"""Classes: a card's suit, except QS, which is class 4."""
HEARTS_BIT = np.uint8(1 << CLASS_HEARTS)
QUEEN_BIT = np.uint8(1 << CLASS_QUEEN)
NON_POINT_BITS = np.uint8(0b11111 & ~(HEARTS_BIT | QUEEN_BIT))
NON_HEART_BITS = np.uint8(0b11111 & ~HEARTS_BIT)
OTHER_SPADES_BIT = np.uint8(1 << CLASS_SPADES)


def pick(condition: np.ndarray, yes, no):
    """``np.where(condition, yes, no)`` for integers, by arithmetic."""
    return no + condition * (yes - no)


def bits(cards: np.ndarray) -> np.ndarray:
    """``1 << card`` as uint64 masks (cards must be 0-51)."""
    return np.left_shift(ONE, cards.astype(U64))


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks)


def fold(function, stacked: np.ndarray) -> np.ndarray:
    """``function.reduce(stacked, axis=0)`` as a loop over the (short) first axis."""
    out = stacked[0].copy()
    for part in stacked[1:]:
        function(out, part, out=out)
    return out


def classes_of(cards: np.ndarray) -> np.ndarray:
    """The class of each card: its suit, or 4 for QS."""
    return cards // 13 + (cards == QS)


def class_set(masks: np.ndarray) -> np.ndarray:
    """The classes present in each mask, as 5-bit sets."""
    out = np.zeros(masks.shape, np.uint8)
    for suit in range(4):
        block = (masks >> U64(13 * suit)) & U64(0x1FFF)
        if suit == SPADES:
            out |= (((block >> U64(QS - 39)) & ONE) != 0).astype(np.uint8) << np.uint8(CLASS_QUEEN)
            block &= ~(ONE << U64(QS - 39))
        out |= (block != 0).astype(np.uint8) << np.uint8(suit)
    return out


def class_bits(mask: int) -> np.uint8:
    """The classes a mask of cards touches, as a 5-bit set: a table fact (a Python int) in class form."""
    return np.uint8(class_set(np.array([mask], U64))[0])


def suit_bits(suits: np.ndarray) -> np.ndarray:
    """The class set of a whole suit (spades: both spade classes)."""
    suits = suits.astype(np.uint8)
    return (np.uint8(1) << suits) | ((suits == SPADES).astype(np.uint8) << np.uint8(CLASS_QUEEN))


def rotate_to_seats(by_position: np.ndarray, leaders: np.ndarray, n: int) -> np.ndarray:
    """``(k, n, H)`` in playing order to seat order: row ``s`` is what seat ``s`` did in each trick."""
    doubled = np.concatenate([by_position, by_position], axis=1)
    out = by_position * (leaders == 0)[:, None, :]
    for leader in range(1, n):
        out += doubled[:, n - leader:2 * n - leader, :] * (leaders == leader)[:, None, :]
    return out


def first_seat(flags: np.ndarray, default):
    """The first seat whose flag is set in each column of ``flags`` (n, H), else ``default``
    (``argmax`` along a short first axis is many times slower)."""
    seat = default
    for candidate in range(len(flags) - 1, -1, -1):
        seat = pick(flags[candidate], candidate, seat)
    return seat


def exchange(dealt: np.ndarray, given: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The hands after the pass (``interpreter.exchange``): seat ``s`` gives ``given[s]`` (cards it holds) to
    seat ``s + offset``; ``dealt`` and ``given`` are (n, H), ``offsets`` one a hand. The one vectorised copy of the
    rule: the screen and the review's pass rollouts both ask it."""
    received = np.zeros_like(given)
    for shift in np.flatnonzero(np.bincount(offsets, minlength=len(given))).tolist():
        received += np.roll(given, shift, axis=0) * (offsets == shift)
    return (dealt & ~given) | received


def first_leaders(table: Table, hands: np.ndarray, dealers: np.ndarray) -> np.ndarray:
    """The seat that leads trick 1 (``HandState.first_leader_for``); ``hands`` is (n, H). The one vectorised
    copy of the rule: the screen and the review's pass rollouts both ask it."""
    left_of_dealer = (dealers + 1) % table.players
    if not table.first_lead_cards:
        return left_of_dealer
    holds = ((hands >> U64(table.lowest_club)) & ONE).astype(bool)
    return first_seat(holds, left_of_dealer)


@dataclass(frozen=True)
class PlayScreen:
    """The play of ``H`` hands: clean or not, and what each seat took."""

    clean: np.ndarray
    """(H,) bool: every card held, in turn, legal; the hand ends as the rules say."""
    hearts: np.ndarray
    """(n, H) hearts each seat took."""
    queen: np.ndarray
    """(H,) the seat that took QS (-1: not in the deck)."""
    queen_of_clubs: np.ndarray | None
    """(H,) the seat that took QC; None where the rules do not score it."""
    jack: np.ndarray | None
    tricks_won: np.ndarray
    """(n, H)."""
    winners: np.ndarray
    """(k, H) int8: the seat that won each trick played (the statistics count from it, see
    :attr:`~hearts_analysis.fastpath.screen.ScreenFindings.trick_winners`)."""


def screen_play(p: TableParams, hand0: np.ndarray, cards: np.ndarray, seats: np.ndarray,
                leader0: np.ndarray) -> PlayScreen:
    """Judge the recorded play of ``H`` hands of ``k`` whole tricks each.

    ``hand0`` (n, H) the hands after passing; ``cards`` and ``seats`` (k, n, H) int8
    in the order played; ``leader0`` (H,) the first leader. Hands of fewer tricks than
    a full hand are clean only where ``only_hearts_lead ends_hand`` ends them there.
    Seats need not be in range: a seat out of range plays out of turn.
    """
    k, n, count = cards.shape
    if not k:
        return _ended_at_once(p, hand0, leader0)
    ended = k < p.hand_size
    players = np.int8(n)
    leaders = seats[:, 0, :]
    out_of_turn = np.zeros((k, count), bool)
    for i in range(1, n):
        turn = leaders + np.int8(i)
        turn -= players * (turn >= players)
        out_of_turn |= seats[:, i, :] != turn
    bad = out_of_turn.any(axis=0)

    suits = cards // np.int8(13)
    led = suits[:, 0, :]
    best = cards[:, 0, :]
    position = np.zeros((k, count), np.int8)
    for i in range(1, n):
        better = (suits[:, i, :] == led) & (cards[:, i, :] > best)
        best = pick(better, cards[:, i, :], best)
        position = pick(better, np.int8(i), position)
    # in range wherever the leaders are (elsewhere the turn check already failed)
    winners = leaders + position
    winners -= players * (winners >= players)
    bad |= leaders[0] != leader0
    bad |= (leaders[1:] != winners[:-1]).any(axis=0)

    # seat order: every seat played once per trick, and played what it held
    by_seat = rotate_to_seats(cards, leaders, n)
    played = fold(np.bitwise_or, bits(by_seat))
    bad |= (popcount(played) != k).any(axis=0)
    bad |= (played & ~hand0).any(axis=0)
    rest = hand0 & ~played
    seat_suits = by_seat // np.int8(13)
    seat_classes = seat_suits.view(np.uint8) + (by_seat == QS)
    card_bits = np.uint8(1) << seat_classes
    held = card_bits.copy()
    for t in range(k - 2, -1, -1):
        held[t] |= held[t + 1]
    if ended:
        held |= class_set(rest)[None, :, :]

    # a leader's card is of the suit led, so leaders never fail to follow
    can_follow = (held & suit_bits(led)[:, None, :]) != 0
    bad |= (can_follow & (seat_suits != led[:, None, :])).any(axis=(0, 1))

    trick_classes = fold(np.bitwise_or, card_bits.transpose(1, 0, 2))
    breaker_bits = class_bits(p.breakers)
    breaks = (trick_classes & breaker_bits) != 0
    unbroken = np.ones((k, count), bool)
    for t in range(1, k):
        unbroken[t] = unbroken[t - 1] & ~breaks[t - 1]

    is_leader = np.arange(n, dtype=np.int8)[None, :, None] == leaders[:, None, :]
    if p.first_trick_barred:  # hearts and QS: the classes CLASS_HEARTS and CLASS_QUEEN
        first = held[0]
        card_class = seat_classes[0]
        is_points = (card_class == CLASS_HEARTS) | (card_class == CLASS_QUEEN)
        first_led = led[0]
        dodge_following = (first_led <= 1) | ((first_led == SPADES) & ((first & OTHER_SPADES_BIT) != 0))
        dodge_void = (first & NON_POINT_BITS) != 0
        could_dodge = (can_follow[0] & dodge_following) | (~can_follow[0] & dodge_void)
        bad |= (~is_leader[0] & is_points & could_dodge).any(axis=0)

    # leads: the cascade of interpreter.legal_cards, on classes
    lead_held = fold(np.bitwise_or, (held * is_leader).transpose(1, 0, 2))
    lead_class = classes_of(cards[:, 0, :]).view(np.uint8)
    legal = lead_held.copy()
    if p.first_lead_cards:  # the first leader holds the lowest club (first_leaders), so has a card to lead
        bad |= ((U64(p.first_lead_cards) >> cards[0, 0].astype(U64)) & ONE) == 0
    elif p.first_trick_barred:
        dodge = legal[0] & ~class_bits(p.first_trick_barred)
        legal[0] = pick(dodge != 0, dodge, legal[0])
    others = class_bits(p.deck & ~p.heart_lead_hand)
    if others:  # a card outside heart_lead_hand is not a heart, so the step always keeps something
        legal = pick(unbroken & ((legal & others) != 0), legal & NON_HEART_BITS, legal)
    judged = ((legal >> lead_class) & 1) != 0
    if p.first_lead_cards:
        judged[0] = True
    bad |= ~judged.all(axis=0)

    last_leader = winners[-1] % players
    if p.ends_hand:
        only_hearts = unbroken & (lead_held != 0) & ((lead_held & NON_HEART_BITS) == 0)
        bad |= only_hearts.any(axis=0)
        if ended:
            left = class_set(np.take_along_axis(rest, last_leader[None, :].astype(np.intp), axis=0)[0])
            bad |= ~(unbroken[-1] & ~breaks[-1] & (left != 0) & ((left & NON_HEART_BITS) == 0))
    elif ended:
        bad[:] = True

    # what each seat took: per trick, one-hot by winner
    hearts_in_trick = fold(np.add, (seat_classes == CLASS_HEARTS).transpose(1, 0, 2).view(np.uint8))
    won = (winners[None, :, :] == np.arange(n, dtype=np.int8)[:, None, None]).view(np.uint8)
    hearts = fold(np.add, (won * hearts_in_trick[None, :, :]).transpose(1, 0, 2)).astype(np.int64)
    tricks_won = fold(np.add, won.transpose(1, 0, 2)).astype(np.int64)
    if ended:
        taker = np.arange(n)[:, None] == last_leader[None, :]
        hearts += taker * popcount(rest & U64(HEARTS_MASK)).astype(np.int64).sum(axis=0)[None, :]
        tricks_won += taker * (p.hand_size - k)

    def taker_of(in_trick: np.ndarray) -> np.ndarray:
        took = fold(np.add, winners * in_trick)
        if ended:
            took = pick(in_trick.any(axis=0), took, last_leader)
        return took.astype(np.int64)

    def card_taker(card: int, needed: bool = True) -> np.ndarray | None:
        if not needed:
            return None
        if not p.deck >> card & 1:
            return np.full(count, -1, np.int64)
        if card == QS:
            return taker_of((trick_classes & QUEEN_BIT) != 0)
        return taker_of(fold(np.logical_or, (cards == card).transpose(1, 0, 2)))

    return PlayScreen(~bad, hearts, card_taker(QS), card_taker(QC, p.queen_of_clubs_cancels),
                      card_taker(JD, p.jack_of_diamonds != 0), tricks_won, winners)


def _ended_at_once(p: TableParams, hand0: np.ndarray, leader0: np.ndarray) -> PlayScreen:
    """Hands without a play: clean where ``ends_hand`` ends them before the first lead (the first
    leader holds only hearts), and that leader takes every card."""
    n, count = hand0.shape
    lead_hand = np.take_along_axis(hand0, leader0[None, :].astype(np.int64), axis=0)[0]
    clean = np.full(count, p.ends_hand) & (lead_hand != 0) & ((lead_hand & ~U64(HEARTS_MASK)) == 0)
    taker = np.arange(n)[:, None] == leader0[None, :]
    hearts = taker * (p.deck & HEARTS_MASK).bit_count()

    def taker_of(card: int) -> np.ndarray:
        return leader0.astype(np.int64) if p.deck >> card & 1 else np.full(count, -1, np.int64)

    return PlayScreen(clean, hearts.astype(np.int64), taker_of(QS), taker_of(QC), taker_of(JD),
                      (taker * p.hand_size).astype(np.int64), np.zeros((0, count), np.int8))


@dataclass(frozen=True)
class Scores:
    """Points of ``H`` hands after the moon adjustment, and who shot the moon."""

    clean: np.ndarray
    """(H,) bool: the recorded points and moon choice agree with the play."""
    points: np.ndarray
    """(n, H) int64."""
    moon_seat: np.ndarray
    """(H,) int: the shooter, -1 for none."""
    moon_choice: np.ndarray
    """(H,) int: :data:`~hearts_analysis.records.model.MOON_CODES`, -1 for none."""
    points_off: np.ndarray
    """(n, H) bool: the recorded points of a seat differ from the play's (``points-mismatch``)."""
    moon_invalid: np.ndarray
    """(H,) bool: the recorded moon choice is refused (``moon-choice-invalid``)."""


def score(p: TableParams, play: PlayScreen, recorded_points: np.ndarray, has_points: np.ndarray,
          recorded_moon: np.ndarray) -> Scores:
    """``engine.scoring.score_hand`` and the audit of recorded points and moon, for ``H`` hands.

    ``recorded_points`` (n, H) is read only where ``has_points``; ``recorded_moon``
    holds moon codes, -1 where no choice was recorded.
    """
    n, count = play.hearts.shape
    seats = np.arange(n)[:, None]
    queen = seats == play.queen[None, :]
    clubs = seats == play.queen_of_clubs[None, :] if p.queen_of_clubs_cancels else None
    parts = point_parts(p.table.rules, play.hearts, queen, clubs,
                        seats == play.jack[None, :] if p.jack_of_diamonds else None,
                        play.tricks_won == 0 if p.no_tricks_bonus else None)
    jack = parts.get("jack", 0)
    points = total(parts)

    moon_seat = np.full(count, -1, dtype=np.int64)
    moon_choice = np.full(count, -1, dtype=np.int64)
    moon_invalid = np.zeros(count, dtype=bool)
    if p.moon_cards:
        shot = play.hearts == (p.moon_cards & HEARTS_MASK).bit_count()
        if p.moon_cards >> QS & 1:
            shot &= seats == play.queen[None, :]
        moon = shot.any(axis=0)
        if moon.any():
            shooter = first_seat(shot, 0)
            is_shooter = seats == shooter[None, :]
            added, subtracted = moon_scores(jack, p.point_total, is_shooter)
            if p.moon_rule == "shooter_choice":
                fits_subtract = (has_points & (recorded_points == subtracted).all(axis=0)
                                 & ~(recorded_points == added).all(axis=0))
                choice = pick(recorded_moon >= 0, recorded_moon, pick(fits_subtract, SUBTRACT, ADD))
            else:
                fixed = MOON_CODES[p.moon_rule]
                choice = np.full(count, fixed)
                moon_invalid |= moon & (recorded_moon >= 0) & (recorded_moon != fixed)
            moon_points = pick((choice == SUBTRACT)[None, :], subtracted, added)
            points = pick(moon[None, :], moon_points, points)
            moon_seat = pick(moon, shooter, -1)
            moon_choice = pick(moon, choice, -1)
    moon_invalid |= (recorded_moon >= 0) & (moon_seat < 0)
    points_off = has_points & (recorded_points != points)
    clean = ~moon_invalid & ~points_off.any(axis=0)
    return Scores(clean, points, moon_seat, moon_choice, points_off, moon_invalid)
