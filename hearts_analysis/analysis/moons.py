"""Moon attempts: who ran for the moon, how the run ended, and who could have stopped it.

A moon attempt needs evidence of running: points taken on purpose while
holding control. Taking the QS is not evidence: a seat may be made to take it.

* A **control play** is a play to win when the seat could have ducked.
  Following: a card above the winning card so far, while it held a legal card
  of the led suit below it. Leading: a card no unplayed card of its suit
  beats, while it held a lower card of that suit. The last card of a trick
  with no point card in it is not a control play: it wins for free.
* A trick's points are **taken on purpose** when the seat won the trick and
  could have ducked. Following: it played a control play with a point card
  already on the trick. Leading: it led a heart while it held a lower heart.
* A seat **lets a trick go** when it was sure to win it and did not.
  Following: it played under the winning card while it held a card of the
  suit sure to win (it played last, or no card still out beat it). Leading:
  it led a card that lost while it held a sure winner in clubs, diamonds or
  spades.
* Trick 1 counts for none of these when no points may fall on it.
* A seat is **running** from the end of the first trick after which all of
  these hold:
  (1) every heart and QS played so far is in its tricks;
  (2) it has at least :data:`MIN_RUN_POINTS` points of them;
  (3) it has made at least :data:`MIN_CONTROL_PLAYS` control plays;
  (4) it has taken the points of at least :data:`MIN_POINT_PLAYS` trick on purpose;
  (5) it has let go at most :data:`MAX_TRICKS_LET_GO` tricks.
* A seat that takes every heart and QS has always made an attempt. Its run
  starts where (1) to (5) first held, else where (1) and (2) first held.
* The attempt ends in **shot** (it took every heart and QS), **stopped**
  (another seat won a trick holding a point card and the runner could not
  have prevented it: the winner is the stopper), or **abandoned** (in that
  trick the runner held a legal card of the led suit above the winning card,
  or, void in the suit, discarded a point card while it held one that scores
  nothing; an unfinished hand also leaves the run abandoned).
* A **missed stop**: during a run, a trick the runner won with a heart in it
  (and no QS) in which another seat, when it played, already saw a heart on
  the trick and held a legal card sure to win it — it played last, or no card
  still out in that suit beat it — and played something else.
* **Shooting the sun**: one seat won every trick. A **near miss**: one seat
  took all the heart and QS points but one.
* The **moon choice** under ``shooter_choice`` is judged on the totals before
  the hand: an option that ends the game with the shooter winning beats one
  that keeps it going, which beats one that ends it with the shooter losing;
  when neither ends the game, adding to the others is better for a shooter
  then lowest (alone or tied: it brings nearer an end it would win) and
  subtracting is better otherwise; when both options end the game alike,
  either choice is as good.

Points alone are not evidence: a player left with QS holds "all the points"
by accident in most hands. Requirements (3) to (5) separate an attempt from
bad luck. The definition assumes purposeful play: a random player, who plays
high by chance, still gets a few false attempts. The thresholds were measured
on labelled simulated corpora (``benchmarks/moon_detector.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import HEARTS_MASK, POINT_CARDS_MASK, QS_MASK, SUIT_MASKS, Card, Mask, highest
from ..engine.interpreter import winning_card
from ..engine.replay import HandResult
from ..engine.scoring import moon_points
from ..records.model import MOON_CODES
from ..rule_arrays import lowest
from ..rules import MOON_CHOICES, Table, heart_points
from .trace import HandTrace, Play, Trick

_ADD, _SUBTRACT = MOON_CODES["add_to_others"], MOON_CODES["subtract_from_shooter"]

MIN_RUN_POINTS = 5
"""Points (hearts 1, QS 13) a runner must hold before its run counts as an attempt."""
MIN_CONTROL_PLAYS = 2
"""Plays to win where a duck was possible, before a run counts as an attempt."""
MIN_POINT_PLAYS = 1
"""Tricks whose points a runner must have taken on purpose (module notes) before its run counts as an attempt."""
MAX_TRICKS_LET_GO = 0
"""Tricks a seat may have let go, though sure to win them, before its run counts as an attempt."""

CHOICES = ("add_to_others", "subtract_from_shooter", "either")


@dataclass(frozen=True, slots=True)
class MissedStop:
    """A seat that could have taken a heart from a runner for sure, and did not."""

    seat: int
    trick: int
    card: Card
    """The lowest card that would have won the trick for sure."""


@dataclass(frozen=True, slots=True)
class MoonChoice:
    """How a shot was scored under ``shooter_choice``, and which option was better."""

    choice: str
    better: str
    """``add_to_others``, ``subtract_from_shooter`` or ``either``."""

    @property
    def correct(self) -> bool | None:
        """``None`` when either option was as good."""
        return None if self.better == "either" else self.choice == self.better


@dataclass(frozen=True, slots=True)
class MoonAttempt:
    """One run for the moon and how it ended."""

    seat: int
    start_trick: int
    """The trick after which the run met the definition."""
    outcome: str
    trick: int | None
    """The trick in which the run ended (``None`` for a shot)."""
    stopper: int | None
    """The seat that stopped the run (``stopped`` only)."""
    taker: int | None
    """The seat that took the point card that ended the run (``stopped`` or ``abandoned``)."""
    card: Card | None
    """The first point card of the trick that ended the run."""
    giver: int | None
    """The seat that played that card."""
    points_at_end: int
    """Heart and QS points the runner held when the run ended (all of them for a shot)."""
    cost: int
    """The runner's points for the hand, after the moon adjustment."""
    sun: bool
    """The runner won every trick."""
    near_miss: bool
    """The runner took all the heart and QS points but one."""
    choice: MoonChoice | None
    missed: tuple[MissedStop, ...] = ()


_points = heart_points


def _play_of(trick: Trick, seat: int) -> Play | None:
    return next((play for play in trick.plays if play.seat == seat), None)


def _sure_winners(held: Mask, out: Mask) -> Mask:
    """The cards of ``held`` that beat every card of their suit in ``out``."""
    sure = 0
    for suit in SUIT_MASKS:
        mine = held & suit
        if mine and highest(mine) > highest(out & suit):
            sure |= mine & ~((2 << highest(out & suit)) - 1) if out & suit else mine
    return sure


def control_plays(trick: Trick, played_before: Mask,
                  free_first_trick: bool) -> tuple[list[int], list[int], list[int]]:
    """``(control plays, tricks let go, points taken on purpose)``: the seats that played to win this trick
    although they could have ducked; those that let it go although they were sure to win it; and those that
    took its points on purpose: they won it, holding a lower card of the suit, with a heart led or a card played
    over points in sight (module notes)."""
    if free_first_trick and trick.number == 1:
        return [], [], []
    suit = SUIT_MASKS[trick.led_suit]
    last = len(trick.plays) - 1
    lead = trick.plays[0]
    control: list[int] = []
    let_go: list[int] = []
    on_points: list[int] = []
    if trick.winner == lead.seat and HEARTS_MASK >> lead.card & 1 and lead.held & suit & ((1 << lead.card) - 1):
        on_points.append(lead.seat)
    sure = _sure_winners(lead.held, ~played_before & ~lead.held)
    if lead.held & suit & ((1 << lead.card) - 1) and sure >> lead.card & 1:
        control.append(lead.seat)
    elif trick.winner != lead.seat and sure & ~HEARTS_MASK:
        let_go.append(lead.seat)
    so_far = 1 << lead.card
    for index in range(1, last + 1):
        play = trick.plays[index]
        if suit >> play.card & 1:
            top = winning_card(so_far, suit)
            over = play.held & suit & ~((2 << top) - 1)
            if play.card > top:
                if (index < last or so_far & POINT_CARDS_MASK) and play.held & suit & ((1 << top) - 1):
                    control.append(play.seat)
                    if so_far & POINT_CARDS_MASK and trick.winner == play.seat:
                        on_points.append(play.seat)
            elif index == last and over:
                let_go.append(play.seat)
            elif over & _sure_winners(play.held, suit & ~played_before & ~so_far & ~play.held):
                let_go.append(play.seat)
        so_far |= 1 << play.card
    return control, let_go, on_points


def gave_up(trick: Trick, seat: int) -> bool:
    """``seat`` lost this trick by choice: it held a legal card of the led suit above the winning
    card, or, void in the led suit, it discarded a point card while holding a card that scores nothing."""
    play = _play_of(trick, seat)
    if play is None:
        return False
    suit = SUIT_MASKS[trick.led_suit]
    if play.held & suit & ~((2 << winning_card(trick.cards, suit)) - 1):
        return True
    return not suit >> play.card & 1 and bool(POINT_CARDS_MASK >> play.card & 1) and bool(play.held & ~POINT_CARDS_MASK)


def missed_stops(trick: Trick, runner: int, played_before: Mask, players: int) -> list[MissedStop]:
    """Seats that could surely have taken this heart trick from the runner (who won it)."""
    out = []
    suit = SUIT_MASKS[trick.led_suit]
    so_far = 0
    for index, play in enumerate(trick.plays):
        if play.seat != runner and so_far & HEARTS_MASK and not so_far & QS_MASK:
            top = winning_card(so_far, suit)
            over = play.held & suit & ~((2 << top) - 1) & ~QS_MASK
            if over:
                still_out = suit & ~played_before & ~so_far & ~play.held
                bar = -1 if index == players - 1 else highest(still_out)
                sure = over & ~((2 << bar) - 1) if bar >= 0 else over
                if sure:
                    out.append(MissedStop(play.seat, trick.number, (sure & -sure).bit_length() - 1))
        so_far |= 1 << play.card
    return out


def better_choices(add_after: np.ndarray, add_over: np.ndarray, sub_after: np.ndarray, sub_over: np.ndarray,
                   shooter: np.ndarray) -> np.ndarray:
    """The better moon option of each row: its code (:data:`~hearts_analysis.records.model.MOON_CODES`),
    -1 for either; the one judgement of the scalar analysis and the columnar statistics.

    ``*_after``: ``(rows, seats)`` totals after the hand scored by each option; ``*_over``: whether the
    game then ends. An option that wins the game beats one that ties it, which beats one that goes on,
    which beats one that loses; where the game goes on either way, adding keeps a shooter who then
    leads in the lead, else subtracting is better.

    >>> after = np.array([[60, 90, 90, 90]])
    >>> better_choices(after, np.array([False]), np.array([[8, 64, 64, 64]]), np.array([False]), np.array([0]))
    array([0])
    >>> better_choices(after, np.array([False]), after - 26, np.array([False]), np.array([1]))
    array([1])
    """
    rows = np.arange(len(shooter))

    def value(after: np.ndarray, over: np.ndarray) -> np.ndarray:
        won = lowest(after)
        alone = won.sum(axis=1) == 1
        return np.where(~over, 1, np.where(~won[rows, shooter], 0, np.where(alone, 3, 2)))

    add, sub = value(add_after, add_over), value(sub_after, sub_over)
    leads = lowest(add_after)[rows, shooter]
    return np.where(add != sub, np.where(add > sub, _ADD, _SUBTRACT),
                    np.where(add == 1, np.where(leads, _ADD, _SUBTRACT), -1))


def judge_choice(table: Table, totals_before: tuple[int, ...], result: HandResult) -> MoonChoice | None:
    """The shooter's choice against the better option (``None`` unless the rules let it choose)."""
    if result.moon is None or table.rules.moon != "shooter_choice":
        return None
    shooter = result.moon.seat
    afters = [tuple(t + p for t, p in zip(totals_before, moon_points(table, list(result.taken), shooter, option)))
              for option in MOON_CHOICES]
    over = [np.array([table.game_over(after)]) for after in afters]
    better = better_choices(np.array([afters[0]]), over[0], np.array([afters[1]]), over[1], np.array([shooter]))[0]
    return MoonChoice(result.moon.choice, "either" if better < 0 else MOON_CHOICES[better])


def detect_moon(table: Table, trace: HandTrace, result: HandResult,
                totals_before: tuple[int, ...]) -> MoonAttempt | None:
    """The hand's moon attempt, if any (at most one seat can hold every point card).

    :func:`~hearts_analysis.analysis.game.analyze_game` runs it on every hand. A run the
    table stopped: seat 2 met the definition after trick 5, and seat 0 ended it in
    trick 12 by keeping QS, so the runner paid its 13 heart points:

    >>> from hearts_analysis.cards import card_name
    >>> from hearts_analysis.simulate import simulate_game
    >>> from hearts_analysis.analysis.game import analyze_game
    >>> from hearts_analysis.rules import Rules
    >>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=48)
    >>> run = analyze_game(game).hands[0].moon
    >>> run.seat, run.start_trick, run.outcome, run.trick, run.stopper, card_name(run.card), run.cost
    (2, 5, 'stopped', 12, 0, 'QS', 13)
    """
    targets = table.deck & POINT_CARDS_MASK
    n = table.players
    taken = [0] * n
    control = [0] * n
    let_go_count = [0] * n
    purpose = [0] * n
    free_first = bool(table.first_trick_barred)  # no points on trick 1: nobody plays to win or lose it
    fallen = played = 0
    runner: int | None = None
    holder: int | None = None  # the seat holding every heart and QS fallen so far
    start = visible = None
    missed: list[MissedStop] = []
    steps: list[tuple[Trick | None, int, Mask]] = [(t, t.winner, t.cards) for t in trace.tricks]
    if trace.sweeper is not None and trace.swept:
        steps.append((None, trace.sweeper, trace.swept))
    for number, (trick, winner, cards) in enumerate(steps, 1):
        points = cards & targets
        if runner is not None and trick is not None and winner == runner and cards & HEARTS_MASK:
            missed += missed_stops(trick, runner, played, n)
        if runner is not None and points and winner != runner:
            return _ended(table, trace, result, runner, start, trick, number, winner, points,
                          _points(taken[runner]), missed)
        if trick is not None:
            controls, let_go, on_points = control_plays(trick, played, free_first)
            for seat in controls:
                control[seat] += 1
            for seat in let_go:
                let_go_count[seat] += 1
            for seat in on_points:
                purpose[seat] += 1
        taken[winner] |= cards
        fallen |= points
        played |= cards
        if points:
            holder = winner if taken[winner] & targets == fallen else None
        if runner is None and holder is not None and _points(taken[holder]) >= MIN_RUN_POINTS:
            visible = visible or number
            if (control[holder] >= MIN_CONTROL_PLAYS and purpose[holder] >= MIN_POINT_PLAYS
                    and let_go_count[holder] <= MAX_TRICKS_LET_GO):
                runner, start = holder, number
        elif holder is None:
            visible = None
    shooter = next((s for s in range(n) if targets and taken[s] & targets == targets), None)
    if shooter is None:
        if runner is None:
            return None
        return _ended(table, trace, result, runner, start, None, None, None, 0, _points(taken[runner]), missed)
    return MoonAttempt(
        seat=shooter, start_trick=start or visible or len(steps), outcome="shot", trick=None, stopper=None,
        taker=None, card=None, giver=None, points_at_end=_points(taken[shooter]),
        cost=result.points[shooter], sun=result.tricks_won[shooter] == table.hand_size,
        near_miss=False, choice=judge_choice(table, totals_before, result), missed=tuple(missed))


def _ended(table: Table, trace: HandTrace, result: HandResult, runner: int, start: int, trick: Trick | None,
           number: int | None, winner: int | None, points: Mask, held_points: int,
           missed: list[MissedStop]) -> MoonAttempt:
    """The attempt of a run that ended in trick ``number`` (``None``: the hand ran out)."""
    card = giver = None
    outcome = "abandoned"
    if number is not None:
        if trick is None:  # swept up unplayed by an ends_hand leader
            card = highest(points & QS_MASK or points)
            giver = next((s for s, held in enumerate(trace.held) if held >> card & 1), winner)
        else:
            first = next(play for play in trick.plays if points >> play.card & 1)
            card, giver = first.card, first.seat
        outcome = "abandoned" if trick is not None and gave_up(trick, runner) else "stopped"
    total = table.point_total
    final = _points(result.taken[runner])
    return MoonAttempt(
        seat=runner, start_trick=start, outcome=outcome, trick=number,
        stopper=winner if outcome == "stopped" else None, taker=winner, card=card, giver=giver,
        points_at_end=held_points, cost=result.points[runner], sun=False,
        near_miss=final == total - 1 and total > 0, choice=None, missed=tuple(missed))


def near_miss_seat(table: Table, result: HandResult) -> int | None:
    """The seat that took all the heart and QS points but one, if any."""
    total = table.point_total
    for seat, taken in enumerate(result.taken):
        if total and _points(taken & table.deck) == total - 1:
            return seat
    return None


def sun_seat(table: Table, result: HandResult) -> int | None:
    """The seat that won every trick, if one did."""
    return next((seat for seat, won in enumerate(result.tricks_won) if won == table.hand_size), None)
