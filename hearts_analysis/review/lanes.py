"""Many copies of one hand position, stepped a play at a time with numpy.

Every lane starts from the same decision point and every play is one card, so
the trick number and the position in the trick are shared by all lanes; only
hands, leaders, winners and taken cards differ. Legality and scoring are the
interpreter's (:mod:`~hearts_analysis.engine.interpreter`) and
:mod:`~hearts_analysis.engine.scoring`'s, spelled in arrays from the same facts
of the :class:`~hearts_analysis.rules.Table` (the tests hold them to it).

Two lanes of the last trick that differ only in seat 2's card: the same
plays give QS and the hearts to a different seat.

>>> from hearts_analysis.cards import parse_card
>>> from hearts_analysis.rules import Rules
>>> table = Rules.preset("standard").table(4)
>>> def hands(*texts): return [[1 << parse_card(c) for c in text.split()] for text in texts]
>>> lanes = Lanes(table, np.array(hands("KH QS AH 2C", "KH QS 2H 2C"), U64), np.array([0, 0]),
...               broken=np.array([True, True]), trick_number=13)
>>> for seat in range(4):
...     lanes.play(highest(lanes.hands[:, seat]))
>>> lanes.points().tolist()
[[0, 0, 15, 0], [15, 0, 0, 0]]
"""

from __future__ import annotations

import numpy as np

from ..cards import DECK, HEARTS_MASK, JD, POINT_CARDS_MASK, QC, QS, QS_MASK, SUIT_MASKS
from ..engine.state import HandState
from ..rules import QUEEN_POINTS, Table

U64 = np.uint64
BIT = np.left_shift(U64(1), np.arange(52, dtype=U64))
"""``BIT[c]``: the mask of card ``c``."""
BELOW = BIT - U64(1)
"""``BELOW[c]``: the cards lower than ``c`` (of every suit; intersect with a suit)."""
SUIT = np.array(SUIT_MASKS, dtype=U64)
HEARTS = U64(HEARTS_MASK)
POINTS = U64(POINT_CARDS_MASK)
NOT_POINTS = ~POINTS
NOT_HEARTS = ~HEARTS
QS_BIT = U64(QS_MASK)
ZERO = U64(0)


def highest(masks: np.ndarray) -> np.ndarray:
    """The top card of each mask (-1 for an empty one); exact, as masks have at most 52 bits."""
    return np.frexp(masks.astype(np.float64))[1].astype(np.int64) - 1


def lowest(masks: np.ndarray) -> np.ndarray:
    """The bottom card of each mask (-1 for an empty one)."""
    return highest(masks & (~masks + U64(1)))


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks).astype(np.int64)


def special_cards(table: Table) -> int:
    """Cards that score on their own under the rules, so never equivalent to a neighbour."""
    rules = table.rules
    special = 1 << QS
    if rules.jack_of_diamonds:
        special |= 1 << JD
    if rules.queen_of_clubs_cancels_queen:
        special |= 1 << QC
    return special


def keep_or(keep: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """One cascade step: the kept cards, unless none would be left."""
    return np.where(keep != ZERO, keep, legal)


class Lanes:
    """A batch of positions of one hand, in lockstep. Mutable, like the :class:`HandState` it copies."""

    __slots__ = ("table", "rules", "players", "hands", "taken", "won", "leader", "trick", "led", "top",
                 "winner", "broken", "ended", "trick_number", "position", "base", "_breakers")

    def __init__(self, table: Table, hands: np.ndarray, leader: np.ndarray, *, taken: np.ndarray | None = None,
                 won: np.ndarray | None = None, broken: np.ndarray | None = None, trick_number: int = 1):
        count = hands.shape[0]
        self.table = table
        self.rules = table.rules
        self.players = table.players
        self.hands = hands.astype(U64, copy=True)
        self.taken = np.zeros_like(self.hands) if taken is None else taken.astype(U64, copy=True)
        self.won = np.zeros(self.hands.shape, np.int64) if won is None else won.astype(np.int64, copy=True)
        self.leader = np.asarray(leader, np.int64).copy()
        self.trick = np.zeros(count, U64)
        self.led = np.zeros(count, np.int64)
        self.top = np.zeros(count, np.int64)
        self.winner = np.zeros(count, np.int64)
        self.broken = np.zeros(count, bool) if broken is None else np.asarray(broken, bool).copy()
        self.ended = np.zeros(count, bool)
        self.trick_number = trick_number
        self.position = 0
        self.base = np.arange(count) * self.players
        """Each lane's offset in the flattened ``(lanes * seats)`` arrays."""
        self._breakers = U64(table.breakers)
        self._check_only_hearts_end()

    @classmethod
    def from_state(cls, state: HandState, hands: np.ndarray, repeat: int = 1) -> "Lanes":
        """Lanes for ``state`` with the hidden hands replaced by ``hands`` (one row per sample),
        each sample repeated ``repeat`` times, sample-minor: lane ``a * samples + i``."""
        if state.ended:
            raise ValueError("the hand is over")
        hands = np.tile(hands, (repeat, 1)).astype(U64)
        count = hands.shape[0]
        for seat, card in state.trick:
            hands[:, seat] |= BIT[card]
        lanes = cls(state.table, hands, np.full(count, state.leader),
                    taken=np.tile(np.array(state.taken, U64), (count, 1)),
                    won=np.tile(np.array(state.tricks_won, np.int64), (count, 1)),
                    broken=np.full(count, state.broken), trick_number=state.trick_number)
        for _, card in state.trick:
            lanes.play(np.full(count, card))
        return lanes

    def select(self, rows: np.ndarray) -> "Lanes":
        """The lanes ``rows`` (in that order, repeats allowed), as a new batch: a search's children."""
        other = Lanes.__new__(Lanes)
        for name in Lanes.__slots__:
            value = getattr(self, name)
            # np.take, not value[rows]: ten times faster on the two-dimensional arrays
            setattr(other, name, np.take(value, rows, axis=0) if isinstance(value, np.ndarray) else value)
        other.base = np.arange(len(rows)) * other.players
        return other

    # -- queries ----------------------------------------------------------
    @property
    def count(self) -> int:
        return len(self.leader)

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return self.table.hand_size - self.trick_number + 1

    @property
    def is_over(self) -> bool:
        return self.trick_number > self.table.hand_size or bool(self.ended.all())

    def mover(self) -> np.ndarray:
        return (self.leader + self.position) % self.players

    def hand_of(self, seat: np.ndarray) -> np.ndarray:
        """Each lane's hand of ``seat[lane]``."""
        return self.hands.reshape(-1)[self.base + seat]

    def all_taken(self) -> np.ndarray:
        """The cards taken in each lane by anyone (the completed tricks)."""
        out = self.taken[:, 0].copy()
        for seat in range(1, self.players):
            out |= self.taken[:, seat]
        return out

    def legal(self, seat: np.ndarray) -> np.ndarray:
        """The cascade of :func:`~hearts_analysis.engine.interpreter.legal_cards`, for every lane at once."""
        table = self.table
        legal = self.hand_of(seat)
        leading = self.position == 0
        first_trick = self.trick_number == 1
        if not leading:
            legal = keep_or(legal & SUIT[self.led], legal)
        elif first_trick and table.first_lead_cards:
            legal = keep_or(legal & U64(table.first_lead_cards), legal)
        if first_trick and table.first_trick_barred:
            legal = keep_or(legal & ~U64(table.first_trick_barred), legal)
        if leading and table.heart_lead_hand != DECK:
            # a card outside heart_lead_hand is not a heart, so the step always keeps something
            fires = ~self.broken & ((legal & ~U64(table.heart_lead_hand)) != ZERO)
            legal = np.where(fires, legal & NOT_HEARTS, legal)
        return legal

    # -- moves ------------------------------------------------------------
    def play(self, cards: np.ndarray, seat: np.ndarray | None = None) -> None:
        """The seat to move in each lane plays ``cards`` (-1 in a lane whose hand has ended)."""
        seat = self.mover() if seat is None else seat
        bit = np.where(cards >= 0, BIT[cards], ZERO)
        self.hands.reshape(-1)[self.base + seat] &= ~bit
        self.trick |= bit
        suit = cards // 13
        if self.position == 0:
            self.led = suit
            self.top = cards.astype(np.int64, copy=True)
            self.winner = seat.copy()
        else:
            better = (suit == self.led) & (cards > self.top)
            self.top = np.where(better, cards, self.top)
            self.winner = np.where(better, seat, self.winner)
        self.position += 1
        if self.position == self.players:
            self._finish_trick()

    def play_last_trick(self) -> None:
        """The forced last trick at once: each seat's last card, the top card of the led suit wins."""
        assert self.position == 0 and self.tricks_left == 1
        cards = highest(self.hands)
        lead = np.take_along_axis(cards, self.leader[:, None], axis=1)[:, 0]
        following = (cards // 13 == (lead // 13)[:, None]) & (cards >= 0)
        self.winner = np.argmax(np.where(following, cards, -1), axis=1)
        self.trick = self.hands[:, 0].copy()
        for seat in range(1, self.players):
            self.trick |= self.hands[:, seat]
        self.hands[:] = ZERO
        self.position = self.players - 1
        self._finish_trick()

    def _finish_trick(self) -> None:
        live = ~self.ended
        flat = self.base + self.winner
        self.taken.reshape(-1)[flat] |= self.trick
        self.won.reshape(-1)[flat] += live
        self.broken |= (self.trick & self._breakers) != ZERO
        self.leader = np.where(live, self.winner, self.leader)
        self.trick = np.zeros_like(self.trick)
        self.position = 0
        self.trick_number += 1
        self._check_only_hearts_end()

    def _check_only_hearts_end(self) -> None:
        """``only_hearts_lead ends_hand``: a leader left with only hearts while unbroken takes the rest."""
        if not self.table.ends_hand or self.trick_number > self.table.hand_size:
            return
        hand = self.hand_of(self.leader)
        ends = ~self.broken & ~self.ended & (hand != ZERO) & ((hand & NOT_HEARTS) == ZERO)  # interpreter.sweeps
        if not ends.any():
            return
        rest = np.bitwise_or.reduce(self.hands, axis=1)[ends]
        flat = (self.base + self.leader)[ends]
        self.taken.reshape(-1)[flat] |= rest
        self.won.reshape(-1)[flat] += popcount(rest) // self.players
        self.hands[ends] = ZERO
        self.ended |= ends

    # -- scoring ----------------------------------------------------------
    def points(self, moon_choice: str = "add_to_others") -> np.ndarray:
        """Hand points per lane and seat, as :func:`~hearts_analysis.engine.scoring.score_hand`
        gives them; under ``shooter_choice`` the shooter's choice is ``moon_choice``."""
        return hand_points(self.table, self.taken, self.won, moon_choice)


def hand_points(table: Table, taken: np.ndarray, won: np.ndarray, moon_choice: str = "add_to_others") -> np.ndarray:
    """:func:`~hearts_analysis.engine.scoring.score_hand`'s points in arrays (the tests hold them equal)."""
    rules = table.rules
    points = popcount(taken & HEARTS)
    queen = ((taken >> U64(QS)) & U64(1)).astype(np.int64)
    if rules.queen_of_clubs_cancels_queen:
        queen &= 1 - ((taken >> U64(QC)) & U64(1)).astype(np.int64)
    points += QUEEN_POINTS * queen
    jack = rules.jack_of_diamonds * ((taken >> U64(JD)) & U64(1)).astype(np.int64)
    points += jack
    if rules.no_tricks_bonus:
        points += rules.no_tricks_bonus * (won == 0)
    if not table.moon_cards:
        return points
    needed = U64(table.moon_cards)
    shot = (taken & needed) == needed
    moon = shot.any(axis=1)
    if not moon.any():
        return points
    choice = moon_choice if rules.moon == "shooter_choice" else rules.moon
    if choice == "subtract_from_shooter":
        moon_points = jack - table.point_total * shot
    else:
        moon_points = jack + table.point_total * ~shot
    return np.where(moon[:, None], moon_points, points)
