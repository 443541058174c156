"""One game analysed: points, moon attempts and passes, hand by hand.

:func:`analyze_game` is the one entry point every table, statistic and
command builds on; it keeps pure-Python values so that corpora stream through
it game by game, and :func:`analysis_to_dict` is the ``hearts analyze --format
json`` shape of one game.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> analysis = analyze_game(game)
>>> analysis.result.totals, analysis.positions
((29, 2, 12, 35), (3, 1, 2, 4))
>>> first = analysis.hands[0]
>>> [(seat.hearts, seat.qs) for seat in first.seats], first.hearts_broken
([(0, False), (1, False), (6, False), (6, True)], (2, 0))
>>> analysis_to_dict(analysis)["winners"]
[1]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..cards import JD, QS, card_name
from ..engine.replay import GameResult, HandResult, replay_game
from ..records.errors import Item
from ..records.model import GameRecord, is_score_sheet
from ..records.sources import iter_sources
from ..rules import Rules, Table
from .moons import MoonAttempt, detect_moon, near_miss_seat, sun_seat
from .passes import PassReview, review_passes
from .points import PointCard, SeatPoints, point_cards, positions, seat_points
from .trace import HandTrace, trace_game


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """Everything the analysis knows about one hand."""

    result: HandResult
    trace: HandTrace
    seats: tuple[SeatPoints, ...]
    point_cards: tuple[PointCard, ...]
    moon: MoonAttempt | None
    passes: tuple[PassReview, ...]
    sun: int | None
    """The seat that won every trick."""
    near_miss: int | None
    """The seat that took all the heart and QS points but one."""
    hearts_broken: tuple[int, int] | None
    """``(trick, seat)`` of the card that broke hearts."""
    totals_before: tuple[int, ...]

    @property
    def number(self) -> int:
        return self.result.number

    def taker_of(self, card: int) -> int | None:
        return next((seat for seat, taken in enumerate(self.result.taken) if taken >> card & 1), None)


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """One game: its replay and the analysis of every hand."""

    source: str
    result: GameResult
    hands: tuple[HandAnalysis, ...]

    @property
    def record(self) -> GameRecord:
        return self.result.record

    @property
    def players(self) -> tuple[str, ...]:
        return self.result.record.players

    @property
    def positions(self) -> tuple[int, ...]:
        """Final standing by total (1 = lowest; ties share the better place)."""
        return positions(self.result.totals)


def analyze_hand(table: Table, trace: HandTrace, result: HandResult,
                 totals_before: tuple[int, ...]) -> HandAnalysis:
    cards = point_cards(table, trace)
    moon = detect_moon(table, trace, result, totals_before)
    return HandAnalysis(
        result=result, trace=trace, seats=seat_points(table, trace, result, cards), point_cards=cards,
        moon=moon, passes=review_passes(table, trace, result, None if moon is None else moon.seat),
        sun=sun_seat(table, result), near_miss=near_miss_seat(table, result),
        hearts_broken=trace.breaker(table), totals_before=totals_before)


def analyze_game(game: GameRecord | GameResult, source: str = "") -> GameAnalysis:
    """Replay (unless given the replay) and analyse every hand of a game."""
    result = game if isinstance(game, GameResult) else replay_game(game)
    record = result.record
    if is_score_sheet(record):  # points without cards: the game's result counts, no hand has plays to analyse
        return GameAnalysis(source, result, ())
    table = record.rules.table(record.seats)
    hands = []
    before = (0,) * record.seats
    for trace, hand in zip(trace_game(result), result.hands):
        hands.append(analyze_hand(table, trace, hand, before))
        before = hand.totals
    return GameAnalysis(source, result, tuple(hands))


def analyze_items(items: Iterable[Item]) -> Iterator[tuple[Item, GameAnalysis | None]]:
    """Analyse each readable game; unreadable ones pass through with ``None``."""
    for item in items:
        yield item, None if item.game is None else analyze_game(item.game, item.source)


def analyze_paths(paths: Iterable[str | Path],
                  rules: Rules | None = None) -> Iterator[tuple[Item, GameAnalysis | None]]:
    return analyze_items(iter_sources(paths, rules))


# -- JSON ---------------------------------------------------------------------
def _seat_of(mask_seats: Iterable[bool]) -> int | None:
    return next((seat for seat, has in enumerate(mask_seats) if has), None)


def hand_to_dict(hand: HandAnalysis) -> dict[str, Any]:
    result, seats = hand.result, hand.seats
    broken = hand.hearts_broken
    return {
        "hand": result.number, "dealer": result.dealer, "pass_direction": result.pass_direction,
        "points_before_moon": list(result.raw_points), "points": list(result.points),
        "totals": list(result.totals), "positions": [s.position for s in seats],
        "hearts": [s.hearts for s in seats], "qs": _seat_of(s.qs for s in seats),
        "jd": hand.taker_of(JD) if any(s.jd for s in seats) else None,
        "qc_cancel": [seat for seat, s in enumerate(seats) if s.qc_cancel],
        "tricks_won": list(result.tricks_won), "points_given": [s.points_given for s in seats],
        "moon": None if result.moon is None else result.moon.to_dict(),
        "sun": hand.sun, "near_miss": hand.near_miss,
        "hearts_broken": None if broken is None else {"trick": broken[0], "seat": broken[1]},
        "point_cards": [{"card": card_name(p.card), "trick": p.trick, "from": p.giver, "to": p.taker}
                        for p in hand.point_cards],
    }


def moon_to_dict(hand: int, moon: MoonAttempt) -> dict[str, Any]:
    choice = moon.choice
    return {
        "hand": hand, "seat": moon.seat, "outcome": moon.outcome, "stopper": moon.stopper,
        "trick": moon.trick, "start_trick": moon.start_trick, "taker": moon.taker,
        "card": None if moon.card is None else card_name(moon.card), "giver": moon.giver,
        "points_at_end": moon.points_at_end, "cost": moon.cost, "sun": moon.sun,
        "near_miss": moon.near_miss, "choice": None if choice is None else choice.choice,
        "better_choice": None if choice is None else choice.better,
        "choice_correct": None if choice is None else choice.correct,
        "missed_stops": [{"seat": m.seat, "trick": m.trick, "card": card_name(m.card)} for m in moon.missed],
    }


def pass_to_dict(hand: int, review: PassReview) -> dict[str, Any]:
    return {
        "hand": hand, "seat": review.seat, "to": review.receiver, "direction": review.direction,
        "cards": [card_name(c) for c in review.cards],
        "verdicts": [v.message for v in review.verdicts], "verdict_codes": [v.code for v in review.verdicts],
        "voids": list(review.voids), "spade_guards": review.spade_guards, "kept_qs": review.kept_qs,
        "qs_passed": review.gave(QS), "high_hearts": review.high_hearts, "back_points": review.back_points,
        "receiver_took": review.receiver_took, "points": review.points, "receiver_points": review.receiver_points,
    }


def analysis_to_dict(analysis: GameAnalysis) -> dict[str, Any]:
    """The ``hearts analyze --format json`` shape of one game (hands and tricks 1-based, seats 0-based)."""
    result = analysis.result
    return {
        "source": analysis.source, "game_id": analysis.record.game_id, "players": list(analysis.players),
        "hands": [hand_to_dict(h) for h in analysis.hands],
        "moons": [moon_to_dict(h.number, h.moon) for h in analysis.hands if h.moon is not None],
        "passes": [pass_to_dict(h.number, p) for h in analysis.hands for p in h.passes],
        "totals": list(result.totals), "positions": list(analysis.positions),
        "winners": list(result.winners), "complete": result.complete, "violations": len(result.violations),
    }
