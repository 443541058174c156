"""The simulator's HeuristicBot, compiled: its plays of whole hands on the kernel's positions.

In Python a hand of four :class:`~hearts_analysis.simulate.bots.HeuristicBot` seats cost about
140 µs of play, most of a simulated hand. The bot's play is deterministic for what the seat sees (its
random stream is drawn only for the pass and for ``bold``, once a hand, before its first play), so the
same plays can be computed here: :func:`play_hands` plays many deals, each from its first lead to the
end, on the positions and rules of :mod:`.compiled` (``legal``, ``play``, the trick and the sweep are
its, written once). What stays in Python is what draws from a random stream or builds the record: the
deal, the pass, ``bold``, the score (:mod:`hearts_analysis.simulate.kernel_play` calls this).

**What the seat sees, read from a position.** The bot reads its view and the public record; each is
a fact of the kernel's position, but one: ``unseen`` (the deck less the played cards and the seat's
hand) is the cards the other seats hold; the seats that took a point card are those whose taken cards
hold one; the suits each seat has shown void in are kept here (the position does not keep them).

**Each function twins one method of the bot**, under its name, and follows its steps in their order,
so that a change to one shows where the other must change; ``tests/test_simulate_kernel.py`` holds
the games of every preset and player count to the bot's, card by card.

**The disk cache.** numba's cache follows a change to the file that defines a function, not to the
files of the functions it calls; the rules these functions call are :mod:`.compiled`'s. So only the
entry point is cached, and it is a closure over a digest of :mod:`.compiled`'s source, which numba's
cache key includes: a change to either file compiles it again. The helpers are inlined into it and
never cached on their own.

The bots' own game of a hand dealt round the table, and the kernel's: the same plays, the same tricks.

>>> import random
>>> from hearts_analysis.cards import card_name
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import HandPlay, HeuristicBot
>>> from hearts_analysis.kernel.compiled import facts
>>> table = Rules.preset("standard").table(4)
>>> hands = [sum(1 << card for card in range(seat, 52, 4)) for seat in range(4)]
>>> hand, bots = HandPlay(table, hands), [HeuristicBot(random.Random(seat)) for seat in range(4)]
>>> hand.start()
>>> by_the_bots = hand.play_out(bots)
>>> plans = [bot.plan(hand.public) for bot in bots]      # as the bots left them at their first play
>>> seats, cards, taken, won, moons = play_hands(facts(table), np.array([hands]), np.array([hand.first_leader]),
...                                              np.array([plans]))
>>> [card_name(card) for card in cards[0, :4]], won[0].tolist()
(['2C', 'JC', 'QC', 'KC'], [4, 4, 2, 3])
>>> list(zip(seats[0].tolist(), cards[0].tolist())) == by_the_bots, won[0].tolist() == hand.tricks_won
(True, True)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from numba import njit

from ..cards import CLUBS, DIAMONDS, HEARTS, JD, QS, SPADES
from . import compiled
from .compiled import (HANDS, JACK, LEADER, LED, NUMBER, PLAYERS, POSITION, POINTS, SEATS, SIZE, SUIT, TAKEN, TOP,
                       TRICK, WINNER, WON, held, highest, is_over, legal, lowest, mover, play, popcount, sweep)

ALLOWED, JD_BONUS, FIRST_TRICK_SAFE, AVOID_TRICKS = range(4)
"""A seat's plan for the hand, as :meth:`HeuristicBot.plan <hearts_analysis.simulate.bots.HeuristicBot.plan>`
gives it: the moon losers allowed, then the JD bonus, first-trick-safe and avoid-tricks flags as 0 or 1."""
PLAN = 4

STARTED, SHOOTING = 1, 2
"""The bits of a seat's moon code: it ran for the moon from its first play (the bot's ``moon_attempts``),
and it was still running at the end (its ``shooting`` flag)."""

_HEARTS = int(SUIT[HEARTS])
_SPADES = int(SUIT[SPADES])
_QS = 1 << QS
_JD = 1 << JD
_HIGH_SPADES = (1 << (QS + 1)) | (1 << (QS + 2))
_LOW_SPADES = ((1 << QS) - 1) & _SPADES
_MOON_LOSERS_NONE = 99
_THREAT_CARDS = 3
_MOST_PLAYS = 52

_OPTIONS = dict(_nrt=False, error_model="numpy", inline="always")   # inlined into the entry, never cached alone


# -- card masks -------------------------------------------------------------------------------------
@njit(**_OPTIONS)
def above(card):
    """Cards of ``card``'s suit ranked above it (the bot's ``ABOVE``)."""
    return SUIT[card // 13] & ~((np.int64(2) << card) - 1)


@njit(**_OPTIONS)
def under(card):
    """Cards of ``card``'s suit ranked below it (the bot's ``BELOW``)."""
    return SUIT[card // 13] & ((np.int64(1) << card) - 1)


@njit(**_OPTIONS)
def or_else(first, second):
    """Python's ``first or second`` for masks."""
    return first if first != 0 else second


# -- what the seat sees -----------------------------------------------------------------------------
@njit(**_OPTIONS)
def point_seats(state, rules):
    """A bit per seat that has taken a heart or QS (the public record's ``point_seats``)."""
    out = 0
    for seat in range(rules[PLAYERS]):
        if state[TAKEN + seat] & POINTS:
            out |= 1 << seat
    return out


@njit(**_OPTIONS)
def moon_threat(state, rules, seat, takers):
    """The bot's ``_moon_threat``: the one other seat that has taken every point card so far, once it
    has many; else -1."""
    if takers == 0 or (takers & (takers - 1)) != 0 or (takers >> seat) & 1:
        return -1
    shooter = highest(takers)
    return shooter if popcount(state[TAKEN + shooter] & POINTS) >= _THREAT_CARDS else -1


@njit(**_OPTIONS)
def stopper(seat, hand, takers):
    """The bot's ``_stopper``: the highest heart of ``hand`` while one other seat has taken every point card
    so far; else 0."""
    hearts = hand & _HEARTS
    if takers == 0 or hearts == 0 or (takers & (takers - 1)) != 0 or (takers >> seat) & 1:
        return 0
    return np.int64(1) << highest(hearts)


@njit(**_OPTIONS)
def later_void(state, rules, seat, voids):
    """The bot's ``_later_void``: has a seat still to play shown it cannot follow?"""
    players = rules[PLAYERS]
    led = SUIT[state[LED]]
    for step in range(1, players - state[POSITION]):
        if voids[(seat + step) % players] & led:
            return True
    return False


# -- the plan ---------------------------------------------------------------------------------------
@njit(**_OPTIONS)
def moon_losers(hand, live):
    """The bot's ``_moon_losers``: tricks a moon run would likely lose; 99 without high hearts and length."""
    if popcount(hand & _HEARTS) * 13 < 5 * popcount(hand):
        return _MOON_LOSERS_NONE
    losers = 0
    for suit in range(4):
        mine = hand & SUIT[suit]
        if mine == 0:
            continue
        others = live & SUIT[suit] & ~mine
        sure = mine & ~((np.int64(1) << (highest(others) + 1)) - 1) if others != 0 else mine
        winners = popcount(sure)
        missing = min(popcount(mine), 3) - winners
        if missing > 0:
            if suit == HEARTS and (missing > 1 or winners == 0):
                return _MOON_LOSERS_NONE
            losers += missing
    if (live & _QS) != 0 and (hand & (_QS | _HIGH_SPADES)) == 0:
        losers += 1
    return losers


# -- the play ---------------------------------------------------------------------------------------
@njit(**_OPTIONS)
def lead(state, rules, seat, cards, plan, takers):
    """The bot's ``_lead``."""
    hand = state[HANDS + seat]
    unseen = held(state, rules) & ~hand
    jd_bonus = plan[JD_BONUS] != 0
    if jd_bonus and (cards & _JD) != 0 and (above(JD) & unseen) == 0:
        return JD
    if takers != 0 and moon_threat(state, rules, seat, takers) >= 0:
        hearts = cards & _HEARTS
        if hearts != 0 and (above(highest(hearts)) & unseen) == 0:
            return highest(hearts)
    spades = cards & _SPADES
    if (unseen & _QS) != 0 and spades != 0 and (hand & ~_LOW_SPADES & _SPADES) == 0:
        return lowest(spades)
    best, best_score = -1, 1 << 30
    for suit in range(4):
        mine = cards & SUIT[suit]
        if mine == 0:
            continue
        if suit == DIAMONDS and jd_bonus:
            mine = or_else(mine & ~_JD, mine)
        card = lowest(mine)
        score = popcount(hand & SUIT[suit]) * 3 + card % 13
        if suit == SPADES and ((hand & _QS) != 0 or ((unseen & _QS) != 0 and (hand & _HIGH_SPADES) != 0)
                               or card == QS):
            score += 60
        elif suit == HEARTS:
            score += 2
        over = popcount(above(card) & unseen)
        if over == 0:
            score += 40
        elif over < rules[PLAYERS] - 1:
            score += 4
        if score < best_score:
            best, best_score = card, score
    return best


@njit(**_OPTIONS)
def follow(state, rules, seat, cards, plan, takers, voids):
    """The bot's ``_follow``."""
    top = state[TOP]
    jack = cards & _JD if plan[JD_BONUS] != 0 else 0
    winning_jack = jack != 0 and JD > top
    ducks = cards & under(top)
    ducks = or_else(ducks & ~jack, ducks)
    ducks = or_else(ducks & ~stopper(seat, state[HANDS + seat], takers), ducks)
    to_win = or_else(cards & ~_QS & ~jack, or_else(cards & ~_QS, cards))
    if state[NUMBER] == 1 and plan[FIRST_TRICK_SAFE] != 0:
        return JD if winning_jack else highest(to_win)
    trick = state[TRICK]
    if takers != 0 and state[WINNER] == moon_threat(state, rules, seat, takers) and (cards & above(top)) != 0:
        over = cards & above(top)
        return highest(or_else(over & ~_QS, over))
    if state[POSITION] == rules[PLAYERS] - 1:
        value = popcount(trick & _HEARTS) + (13 if (trick & _QS) != 0 else 0)
        if trick & _JD:
            value += rules[JACK]
        if winning_jack and value + rules[JACK] <= 0:
            return JD
        if value < 0 or (value == 0 and not (plan[AVOID_TRICKS] != 0 and state[WON + seat] == 0)):
            return highest(to_win)
        if ducks != 0:
            return highest(ducks)
        return JD if winning_jack else highest(to_win)
    if ducks != 0:
        return highest(ducks)
    unseen = held(state, rules) & ~state[HANDS + seat]
    if winning_jack and (above(JD) & unseen) == 0:
        return JD
    if ((trick & POINTS) != 0 or later_void(state, rules, seat, voids)
            or (state[LED] == SPADES and (unseen & _QS) != 0)):
        return lowest(to_win)
    return highest(to_win)


@njit(**_OPTIONS)
def discard(state, rules, seat, cards, plan, takers):
    """The bot's ``_discard``."""
    hand = state[HANDS + seat]
    if takers != 0 and state[WINNER] == moon_threat(state, rules, seat, takers):
        cards = or_else(cards & ~POINTS, cards)
    cards = or_else(cards & ~stopper(seat, hand, takers), cards)
    if cards & _QS:
        return QS
    unseen = held(state, rules) & ~hand
    if (unseen & _QS) != 0 and (cards & _HIGH_SPADES) != 0:
        return highest(cards & _HIGH_SPADES)
    if plan[JD_BONUS] != 0:
        keep = _JD | (above(JD) if (unseen & _JD) != 0 else 0)
        cards = or_else(cards & ~keep, cards)
    best, best_score = -1, -1
    for suit in range(4):
        mine = cards & SUIT[suit]
        if mine == 0:
            continue
        card = highest(mine)
        score = (card % 13) * 2 + (10 if suit == HEARTS else 0)
        if popcount(hand & SUIT[suit]) <= 2:
            score += 3
        if score > best_score:
            best, best_score = card, score
    return best


@njit(**_OPTIONS)
def shoot(state, rules, seat, cards):
    """The bot's ``_shoot``: a play towards taking every point card; -1 when the moon is lost."""
    unseen = held(state, rules) & ~state[HANDS + seat]
    trick = state[TRICK]
    if state[POSITION] == 0:
        fallback, longest = -1, 0
        for suit in (HEARTS, SPADES, DIAMONDS, CLUBS):
            mine = cards & SUIT[suit]
            if mine == 0:
                continue
            card = highest(mine)
            if (above(card) & unseen) == 0:
                return card
            length = popcount(mine)
            if length > longest:
                fallback, longest = card, length
        return fallback
    suited = cards & SUIT[state[LED]]
    if suited != 0:
        over = suited & above(state[TOP])
        if over != 0:
            if state[POSITION] == rules[PLAYERS] - 1:
                return lowest(over)
            return highest(over)
        if trick & POINTS:
            return -1
        return lowest(suited)
    if trick & POINTS:
        return -1
    spare = cards & ~POINTS
    if spare == 0:
        return -1
    best, best_rank = -1, 99
    while spare != 0:
        card = lowest(spare)
        spare &= spare - 1
        if card % 13 < best_rank:
            best, best_rank = card, card % 13
    return best


@njit(**_OPTIONS)
def choose_play(state, rules, seat, plan, voids, moon):
    """The bot's ``choose_play`` once its plan is made; ``moon[seat]`` holds its moon code (the
    ``SHOOTING`` bit turns off as the bot's flag does)."""
    cards = legal(state, rules, seat)
    if (cards & (cards - 1)) == 0:
        return highest(cards)
    takers = point_seats(state, rules)
    if moon[seat] & SHOOTING:
        if takers & ~(1 << seat):
            moon[seat] &= ~SHOOTING
        else:
            card = shoot(state, rules, seat, cards)
            if card >= 0:
                return card
            moon[seat] &= ~SHOOTING
    if state[POSITION] == 0:
        return lead(state, rules, seat, cards, plan, takers)
    if cards & SUIT[state[LED]]:
        return follow(state, rules, seat, cards, plan, takers, voids)
    return discard(state, rules, seat, cards, plan, takers)


def _entry(stamp: int):
    """The cached entry point, a closure over ``stamp`` (see the module notes on the disk cache)."""

    @njit(cache=True, error_model="numpy")
    def play_hands(rules, deals, leaders, plans):
        """Each deal of ``deals`` (``(hands, seats)``, the hands after the pass) played from its
        ``leaders`` by HeuristicBots whose ``plans`` (``(hands, seats, PLAN)``) are made: ``(seats,
        cards, taken, won, moons)``, the seat and card of each play in order (-1 after the last),
        the cards each seat took and its tricks, and each seat's moon code (``STARTED | SHOOTING``)."""
        assert stamp != 0
        count, players = deals.shape
        seats = np.full((count, _MOST_PLAYS), -1, np.int64)
        cards = np.full((count, _MOST_PLAYS), -1, np.int64)
        taken = np.zeros((count, players), np.int64)
        won = np.zeros((count, players), np.int64)
        moons = np.zeros((count, players), np.int64)
        state = np.zeros(SIZE, np.int64)
        voids = np.zeros(SEATS, np.int64)
        started = np.zeros(SEATS, np.bool_)
        for row in range(count):
            state[:] = 0
            voids[:] = 0
            started[:] = False
            for seat in range(players):
                state[HANDS + seat] = deals[row, seat]
            state[LEADER] = leaders[row]
            state[NUMBER] = 1
            sweep(state, rules)
            moon = moons[row]
            done = 0
            while not is_over(state, rules):
                seat = mover(state, rules)
                if state[HANDS + seat] == 0:
                    break
                plan = plans[row, seat]
                if not started[seat]:   # the bot's _start_play, at its first play
                    started[seat] = True
                    if moon_losers(state[HANDS + seat], held(state, rules)) <= plan[ALLOWED]:
                        moon[seat] = STARTED | SHOOTING
                card = choose_play(state, rules, seat, plan, voids, moon)
                if state[POSITION] != 0 and card // 13 != state[LED]:
                    voids[seat] |= SUIT[state[LED]]
                seats[row, done] = seat
                cards[row, done] = card
                done += 1
                play(state, rules, seat, card)
            for seat in range(players):
                taken[row, seat] = state[TAKEN + seat]
                won[row, seat] = state[WON + seat]
        return seats, cards, taken, won, moons

    return play_hands


STAMP = int.from_bytes(hashlib.sha256(Path(compiled.__file__).read_bytes()).digest()[:7], "big") | 1
"""A digest of :mod:`.compiled`'s source (never 0)."""
play_hands = _entry(STAMP)
