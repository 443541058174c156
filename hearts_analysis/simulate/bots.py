"""Seeded players: a random legal player, a heuristic one, and one that blunders on purpose.

A bot sees only a :class:`~hearts_analysis.simulate.knowledge.SeatView` (its
cards, its pass, the public record) and the mask of its legal cards, so the
review can reuse it for rollouts judged on what a seat could know. Bots are
deterministic for the ``random.Random`` they are built with.

The heuristics follow the strategy notes of the online rules page 'Play Hearts online with friends for free':
duck under the trick, take a clean last trick, dump QS and high hearts when
void, protect QS with low spades and flush it with them, lead low from short
suits, pass AS/KS/QS with fewer than four spades, and now and then, with a
hand of high hearts and control, run for the moon.

A :class:`BlunderBot` gives a review something certain to find: here seat 2 wins its
own QS in hand 3 where 5S would have ducked, and the replay shows it took the queen:

>>> import functools
>>> from hearts_analysis.cards import card_name
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> found = []
>>> seats = [HeuristicBot, HeuristicBot, functools.partial(BlunderBot, log=found), HeuristicBot]
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=0, bot=seats)
>>> [(b.hand, b.trick, b.seat, card_name(b.card), card_name(b.better), b.kind) for b in found]
[(3, 3, 2, 'QS', '5S', 'plays-queen')]
>>> bool(replay_game(game).hands[2].taken[2] >> QS & 1)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Protocol

from ..cards import (CLUBS, DIAMONDS, HEARTS, HEARTS_MASK, JD, POINT_CARDS_MASK, QS, QS_MASK, SPADES,
                     SUIT_MASKS, Card, Mask)
from ..rules import heart_points, jack_points
from .bits import (ABOVE, AS, BELOW, HIGH_SPADES, JD_MASK, KS, LOW_RANKS, LOW_SPADES, RANK, SPADES_MASK,
                   above_all)
from .knowledge import PublicInfo, SeatView


class Bot(Protocol):
    """A player: passes a set of cards, then plays one legal card at a time."""

    def choose_pass(self, view: SeatView, count: int) -> Mask:
        """``count`` cards of ``view.hand`` to pass (direction: ``view.public.pass_direction``)."""

    def choose_play(self, view: SeatView, legal: Mask) -> Card:
        """One card of ``legal``."""


BotFactory = Callable[[random.Random], Bot]
"""Builds one seat's bot from that seat's random stream."""


def _nth_card(mask: Mask, index: int) -> Card:
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class RandomBot:
    """Plays a uniformly random legal card and passes random cards."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose_pass(self, view: SeatView, count: int) -> Mask:
        hand = view.hand
        chosen = 0
        for index in sorted(self.rng.sample(range(hand.bit_count()), count), reverse=True):
            chosen |= 1 << _nth_card(hand, index)
        return chosen

    def choose_play(self, view: SeatView, legal: Mask) -> Card:
        return _nth_card(legal, int(self.rng.random() * legal.bit_count()))


_MOON_LOSERS = 3
"""Losers a hand may carry when it runs for the moon (see ``HeuristicBot._moon_losers``)."""
_THREAT_CARDS = 3
"""Point cards a lone taker must hold before the others play to stop its moon."""


class HeuristicBot:
    """Plays like a careful club player; see the module notes for the heuristics.

    ``moon_attempts`` lists the hand numbers on which this bot decided to run.
    """

    __slots__ = ("rng", "shooting", "moon_attempts", "_passing", "_playing", "_jd_bonus",
                 "_first_trick_safe", "_avoid_tricks", "_moon_losers_allowed")

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.shooting = False
        """Running for the moon this hand."""
        self.moon_attempts: list[int] = []
        self._passing: PublicInfo | None = None
        self._playing: PublicInfo | None = None
        self._jd_bonus = False
        self._first_trick_safe = False
        self._avoid_tricks = False
        self._moon_losers_allowed = -1

    # -- the hand's plan --------------------------------------------------
    def _learn_rules(self, public: PublicInfo) -> None:
        rules = public.table.rules
        self._jd_bonus = rules.jack_of_diamonds < 0
        self._first_trick_safe = bool(public.table.first_trick_barred)
        self._avoid_tricks = rules.no_tricks_bonus < 0
        bold = self.rng.random() < 0.3
        crowded = public.players > 4  # more seats to take the hearts from
        self._moon_losers_allowed = -1 if rules.moon == "none" else _MOON_LOSERS + bold - crowded

    @staticmethod
    def _moon_losers(hand: Mask, live: Mask) -> int:
        """Tricks a moon run would likely lose; 99 without high hearts and length.

        Losers are counted as in bridge (the missing top cards among a suit's first three),
        against the cards still live; a heart hand may miss one honour.
        """
        hearts = hand & HEARTS_MASK
        if hearts.bit_count() * 13 < 5 * hand.bit_count():
            return 99
        losers = 0
        for suit in range(4):
            mine = hand & SUIT_MASKS[suit]
            if not mine:
                continue
            count = mine.bit_count()
            winners = above_all(mine, live & SUIT_MASKS[suit] & ~mine).bit_count()
            missing = min(count, 3) - winners
            if missing > 0:
                if suit == HEARTS and (missing > 1 or winners == 0):
                    return 99
                losers += missing
        if live & QS_MASK and not hand & (QS_MASK | HIGH_SPADES):
            losers += 1  # the queen may never come to us
        return losers

    def _runs_for_moon(self, hand: Mask, live: Mask, passing: int) -> bool:
        """Run with at most three losers (four for a bold player, one less at a table of five or more),
        after passing ``passing`` away."""
        return self._moon_losers(hand, live) - passing <= self._moon_losers_allowed

    def plan(self, public: PublicInfo) -> tuple[int, bool, bool, bool]:
        """The hand's plan, made before this bot's first play (the rules it learns, and ``bold``: a draw
        from its stream on a hold hand), as ``(moon losers allowed, JD bonus, first trick safe, avoid
        tricks)``: what the compiled twin of its play (:mod:`hearts_analysis.kernel.heuristic`) reads. Asked again
        in the same hand, the same plan."""
        if public is not self._playing:  # once a hand
            if public is not self._passing:
                self._learn_rules(public)
            self._playing = public
        return self._moon_losers_allowed, self._jd_bonus, self._first_trick_safe, self._avoid_tricks

    def ran_for_moon(self, hand_number: int, started: bool, running: bool) -> None:
        """Record a hand played elsewhere (the compiled twin): whether this bot ran for the moon from its
        first play, and whether it still was at the end."""
        self.shooting = running
        if started:
            self.moon_attempts.append(hand_number)

    def _start_play(self, view: SeatView) -> None:
        public = view.public
        self.plan(public)
        running = self._runs_for_moon(view.hand, public.deck & ~public.played, 0)
        self.ran_for_moon(public.hand_number, running, running)

    # -- the pass ---------------------------------------------------------
    def choose_pass(self, view: SeatView, count: int) -> Mask:
        public = view.public
        self._passing = public
        self._learn_rules(public)
        hand = view.hand
        if self._runs_for_moon(hand, public.deck, count):
            return self._moon_pass(hand, count)
        chosen = 0
        spades = hand & SPADES_MASK
        if spades.bit_count() < 4:
            low = spades & LOW_SPADES
            danger = QS_MASK if public.pass_direction == "right" and low else QS_MASK | HIGH_SPADES
            for card in (QS, AS, KS):
                if count and danger & spades & (1 << card):
                    chosen |= 1 << card
                    count -= 1
        if not count:
            return chosen
        keep = LOW_SPADES | LOW_RANKS | (JD_MASK | ABOVE[JD] if self._jd_bonus else 0)  # the jack, its catchers
        if spades.bit_count() >= 4:
            keep |= SPADES_MASK
        hearts = hand & HEARTS_MASK
        n_hearts = hearts.bit_count()
        if n_hearts:
            top = hearts.bit_length() - 1
            if n_hearts == 1 and RANK[top] == 12:
                keep |= hearts  # never a singleton AH
            elif n_hearts >= 5 and hearts & LOW_RANKS and RANK[top] >= 11:
                keep |= hearts & ~(1 << (hearts & ~(1 << top)).bit_length() - 1)  # only the second-highest
        pool = hand & ~keep & ~chosen
        rng = self.rng.random
        scored = []
        for suit in range(4):
            cards = pool & SUIT_MASKS[suit]
            if not cards:
                continue
            held = hand & SUIT_MASKS[suit]
            length = held.bit_count()
            has_low = held & BELOW[suit * 13 + 4]  # a 2, 3, 4 or 5
            bonus = 2 if suit == HEARTS else 0
            if length <= 3 and not has_low:
                bonus += (4 - length) * 5  # shed a short suit without exits: a void
            elif length >= 5 and has_low:
                bonus -= 8  # high cards of long suits with low cards are fine
            while cards:
                card = cards.bit_length() - 1
                cards ^= 1 << card
                scored.append((RANK[card] * 4 + bonus + rng() * 3, card))
        scored.sort(reverse=True)
        hearts_given = 0
        for _, card in scored:
            if not count:
                break
            if card // 13 == HEARTS:
                if hearts_given == 2:
                    continue  # never three hearts: it may hand someone a moon
                hearts_given += 1
            chosen |= 1 << card
            count -= 1
        return self._fill(hand, chosen, count) if count else chosen

    @staticmethod
    def _fill(hand: Mask, chosen: Mask, count: int) -> Mask:
        """Add the highest cards left when the advice runs out, the hand's top three hearts and
        its spades below the queen last."""
        top_hearts, hearts = 0, hand & HEARTS_MASK
        for _ in range(3):
            if hearts:
                top = 1 << hearts.bit_length() - 1
                top_hearts |= top
                hearts ^= top
        for pool in (hand & ~LOW_SPADES & ~top_hearts, hand & ~top_hearts, hand):
            while count and pool & ~chosen:
                chosen |= 1 << (pool & ~chosen).bit_length() - 1
                count -= 1
        return chosen

    @staticmethod
    def _moon_pass(hand: Mask, count: int) -> Mask:
        """Going for the moon: give away the lowest side cards, the ones that would lose tricks."""
        keep = POINT_CARDS_MASK | HIGH_SPADES
        ranked = sorted((keep >> c & 1, RANK[c], c) for c in range(52) if hand >> c & 1)
        chosen = 0
        for _, _, card in ranked[:count]:
            chosen |= 1 << card
        return chosen

    # -- the play ---------------------------------------------------------
    def choose_play(self, view: SeatView, legal: Mask) -> Card:
        public = view.public
        if public is not self._playing:
            self._start_play(view)
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        if self.shooting:
            if public.point_seats & ~(1 << view.seat):
                self.shooting = False
            else:
                card = self._shoot(view, public, legal)
                if card >= 0:
                    return card
                self.shooting = False
        led = public.led  # read once: the record reads it from the hand's state machine
        if not led:
            return self._lead(view, public, legal)
        if legal & led:
            return self._follow(view, public, legal)
        return self._discard(view, public, legal)

    def _lead(self, view: SeatView, public: PublicInfo, legal: Mask) -> Card:
        hand = view.hand
        unseen = public.deck & ~public.played & ~hand
        if self._jd_bonus and legal & JD_MASK and not ABOVE[JD] & unseen:
            return JD  # the top diamond left: it wins the -10 jack
        if public.point_seats and _moon_threat(public, view.seat) >= 0:
            hearts = legal & HEARTS_MASK
            if hearts and not ABOVE[hearts.bit_length() - 1] & unseen:
                return hearts.bit_length() - 1  # take a heart: the moon is off
        spades = legal & SPADES_MASK
        if unseen & QS_MASK and spades and not hand & ~LOW_SPADES & SPADES_MASK:
            return (spades & -spades).bit_length() - 1  # flush the queen out with a low spade
        best, best_score = -1, 1 << 30
        for suit in range(4):
            mine = legal & SUIT_MASKS[suit]
            if not mine:
                continue
            if suit == DIAMONDS and self._jd_bonus:
                mine = mine & ~JD_MASK or mine
            card = (mine & -mine).bit_length() - 1
            score = (hand & SUIT_MASKS[suit]).bit_count() * 3 + RANK[card]
            if suit == SPADES and (hand & QS_MASK or unseen & QS_MASK and hand & HIGH_SPADES or card == QS):
                score += 60  # keep the queen's guards, and never lead into it
            elif suit == HEARTS:
                score += 2
            over = (ABOVE[card] & unseen).bit_count()
            if not over:
                score += 40  # this card would win the trick
            elif over < public.players - 1:
                score += 4
            if score < best_score:
                best, best_score = card, score
        return best

    def _follow(self, view: SeatView, public: PublicInfo, legal: Mask) -> Card:
        top = public.top
        jack = legal & JD_MASK if self._jd_bonus else 0
        winning_jack = jack and JD > top
        under = legal & BELOW[top]
        under = under & ~jack or under  # never hand the -10 jack to another seat
        under = under & ~_stopper(public, view.seat, view.hand) or under  # a moon is stopped with it
        to_win = legal & ~QS_MASK & ~jack or legal & ~QS_MASK or legal
        if public.trick_number == 1 and self._first_trick_safe:
            return JD if winning_jack else to_win.bit_length() - 1  # no points can fall yet: shed the highest
        trick = public.trick_cards
        if public.point_seats and public.winner == _moon_threat(public, view.seat) and legal & ABOVE[top]:
            over = legal & ABOVE[top]
            return (over & ~QS_MASK or over).bit_length() - 1
        if len(public.trick) == public.players - 1:
            value = heart_points(trick) + jack_points(public.table.rules, trick)
            if winning_jack and value + public.table.rules.jack_of_diamonds <= 0:
                return JD
            if value < 0 or value == 0 and not (self._avoid_tricks and not public.tricks_won[view.seat]):
                return to_win.bit_length() - 1  # a clean trick: take it with the highest card
            if under:
                return under.bit_length() - 1
            return JD if winning_jack else to_win.bit_length() - 1
        if under:
            return under.bit_length() - 1  # duck as high as possible
        if winning_jack and not ABOVE[JD] & view.unseen:
            return JD  # a sure winner that also keeps the jack
        if trick & POINT_CARDS_MASK or self._later_void(public, view.seat) or (
                public.led == SPADES_MASK and view.unseen & QS_MASK):
            return (to_win & -to_win).bit_length() - 1
        return to_win.bit_length() - 1

    @staticmethod
    def _later_void(public: PublicInfo, seat: int) -> bool:
        """Has a seat still to play shown it cannot follow (and so may dump points)?"""
        led, voids, n = public.led, public.voids, public.players
        for step in range(1, n - len(public.trick)):
            if voids[(seat + step) % n] & led:
                return True
        return False

    def _discard(self, view: SeatView, public: PublicInfo, legal: Mask) -> Card:
        hand = view.hand
        if public.point_seats and public.winner == _moon_threat(public, view.seat):
            legal = legal & ~POINT_CARDS_MASK or legal  # do not feed a moon
        legal = legal & ~_stopper(public, view.seat, hand) or legal
        if legal & QS_MASK:
            return QS
        unseen = public.deck & ~public.played & ~hand
        if unseen & QS_MASK and legal & HIGH_SPADES:
            return (legal & HIGH_SPADES).bit_length() - 1
        if self._jd_bonus:
            keep = JD_MASK | (ABOVE[JD] if unseen & JD_MASK else 0)  # the jack, and what can still catch it
            legal = legal & ~keep or legal
        best, best_score = -1, -1
        for suit in range(4):
            mine = legal & SUIT_MASKS[suit]
            if not mine:
                continue
            card = mine.bit_length() - 1
            score = RANK[card] * 2 + (10 if suit == HEARTS else 0)
            if (hand & SUIT_MASKS[suit]).bit_count() <= 2:
                score += 3  # towards a void
            if score > best_score:
                best, best_score = card, score
        return best

    # -- the moon ---------------------------------------------------------
    def _shoot(self, view: SeatView, public: PublicInfo, legal: Mask) -> Card:
        """A play towards taking every point card; -1 when the moon is lost."""
        unseen = public.deck & ~public.played & ~view.hand
        led = public.led
        if not led:
            fallback, longest = -1, 0
            for suit in (HEARTS, SPADES, DIAMONDS, CLUBS):
                mine = legal & SUIT_MASKS[suit]
                if not mine:
                    continue
                card = mine.bit_length() - 1
                if not ABOVE[card] & unseen:
                    return card  # a sure winner
                length = mine.bit_count()
                if length > longest:
                    fallback, longest = card, length
            return fallback
        follow = legal & led
        if follow:
            over = follow & ABOVE[public.top]
            if over:
                if len(public.trick) == public.players - 1:
                    return (over & -over).bit_length() - 1
                return over.bit_length() - 1
            if public.trick_cards & POINT_CARDS_MASK:
                return -1
            return (follow & -follow).bit_length() - 1
        if public.trick_cards & POINT_CARDS_MASK:
            return -1
        spare = legal & ~POINT_CARDS_MASK
        if not spare:
            return -1
        best, best_rank = -1, 99
        while spare:
            card = (spare & -spare).bit_length() - 1
            spare &= spare - 1
            if RANK[card] < best_rank:
                best, best_rank = card, RANK[card]
        return best


def _moon_threat(public: PublicInfo, seat: int) -> int:
    """The one other seat that has taken every point card so far, once it has many; else -1."""
    takers = public.point_seats
    if not takers or takers & (takers - 1) or takers >> seat & 1:
        return -1
    shooter = takers.bit_length() - 1
    taken = public.taken[shooter] & POINT_CARDS_MASK
    return shooter if taken.bit_count() >= _THREAT_CARDS else -1


def _stopper(public: PublicInfo, seat: int, hand: Mask) -> Mask:
    """The highest heart of ``hand`` while one other seat has taken every point card so far (it may be running
    for the moon, and a heart that can win a trick stops it); else 0: the card a careful player keeps."""
    takers, hearts = public.point_seats, hand & HEARTS_MASK
    if not takers or not hearts or takers & (takers - 1) or takers >> seat & 1:
        return 0
    return 1 << hearts.bit_length() - 1


@dataclass(frozen=True, slots=True)
class Blunder:
    """A deliberately bad play: where it was, what was played, and the card that was better."""

    hand: int
    trick: int
    seat: int
    card: Card
    better: Card
    kind: str
    """``takes-queen``: took a trick holding QS when it could duck; ``plays-queen``: won its own QS
    when a lower spade ducked; ``leads-queen``: led QS with no higher spade out, so it wins it back."""


class BlunderBot(HeuristicBot):
    """Plays like :class:`HeuristicBot` but makes one known, clearly bad play per hand when it can.

    The blunders are certain to take QS (13 points) when a duck was legal, so a review must
    flag them. Each is appended to ``blunders`` (pass a shared list as ``log`` to collect them).
    """

    __slots__ = ("blunders", "_blundered")

    def __init__(self, rng: random.Random, log: list[Blunder] | None = None):
        super().__init__(rng)
        self.blunders: list[Blunder] = [] if log is None else log
        self._blundered: PublicInfo | None = None

    def choose_play(self, view: SeatView, legal: Mask) -> Card:
        public = view.public
        if public is not self._playing:
            self._start_play(view)
        if (public is not self._blundered and not self.shooting  # a shooter wants the queen
                and legal & (SPADES_MASK if public.led else QS_MASK) and public.led in (0, SPADES_MASK)):
            blunder = self._find_blunder(view, public, legal)
            if blunder is not None:
                self._blundered = public
                self.blunders.append(blunder)
                return blunder.card
        return super().choose_play(view, legal)

    def _find_blunder(self, view: SeatView, public: PublicInfo, legal: Mask) -> Blunder | None:
        unseen = public.deck & ~public.played & ~view.hand
        if not public.led:
            if (legal & QS_MASK and legal & ~SPADES_MASK and not ABOVE[QS] & unseen
                    and (view.hand & ~SPADES_MASK).bit_count() >= 3):
                better = self._lead(view, public, legal & ~QS_MASK)
                return Blunder(public.hand_number, public.trick_number, view.seat, QS, better, "leads-queen")
            return None
        top = public.top
        under = legal & BELOW[top]
        if not under:
            return None
        last = len(public.trick) == public.players - 1
        better = under.bit_length() - 1
        where = (public.hand_number, public.trick_number, view.seat)
        over = legal & ABOVE[top] & ~QS_MASK
        if over and public.trick_cards & QS_MASK:
            card = over.bit_length() - 1
            if last or not ABOVE[card] & unseen:
                return Blunder(*where, card, better, "takes-queen")
        if legal & QS_MASK and top < QS and (last or not ABOVE[QS] & unseen):
            return Blunder(*where, QS, better, "plays-queen")
        return None


def mixed_bot(rng: random.Random) -> Bot:
    """A seat that is a :class:`HeuristicBot` three times in four, else a :class:`RandomBot`."""
    return HeuristicBot(rng) if rng.random() < 0.75 else RandomBot(rng)
