"""The per-game analysis tables as pandas DataFrames (columns, units and dtypes in the catalogue).

Each ``*_rows`` function turns one :class:`GameAnalysis` into row dicts, so a
corpus can be written table by table in chunks; each ``*_frame`` function
gathers many games into one DataFrame.

Under standard rules the point cards of every hand add up to 26 before the moon
adjustment, whoever took them:

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.analysis.game import analyze_game
>>> analyses = [analyze_game(game) for game in simulate_games(2, Rules.preset("standard", target=30))]
>>> points = points_frame(analyses)
>>> len(points), points.groupby(["game_id", "hand"]).points_before_moon.sum().unique().tolist()
(24, [26])
>>> standings_frame(analyses).query("winner").player.tolist()
['bot4', 'bot4']
>>> moons_frame(analyses)[["game_id", "hand", "outcome"]].values.tolist()
[['sim-0-1', 2, 'stopped']]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from ..cards import QS, card_name
from ..simulate.bits import AS, KS, LOW_SPADES
from .catalogue import frame
from .game import GameAnalysis

if TYPE_CHECKING:
    import pandas as pd

Row = dict[str, Any]


def _game_ids(analysis: GameAnalysis) -> Row:
    return {"source": analysis.source, "game_id": analysis.record.game_id}


def points_rows(analysis: GameAnalysis) -> Iterator[Row]:
    ids, players = _game_ids(analysis), analysis.players
    for hand in analysis.hands:
        result = hand.result
        broken = hand.hearts_broken
        for seat, points in enumerate(hand.seats):
            yield {**ids, "hand": hand.number, "seat": seat, "player": players[seat],
                   "pass_direction": result.pass_direction, "hearts": points.hearts, "qs": points.qs,
                   "jd": points.jd, "qc_cancel": points.qc_cancel, "tricks_won": points.tricks_won,
                   "points_before_moon": points.points_before_moon, "points": points.points,
                   "total": points.total, "position": points.position, "points_given": points.points_given,
                   "moon": result.moon is not None and result.moon.seat == seat,
                   "broke_hearts": broken is not None and broken[1] == seat}


def point_cards_rows(analysis: GameAnalysis) -> Iterator[Row]:
    ids = _game_ids(analysis)
    for hand in analysis.hands:
        for point in hand.point_cards:
            yield {**ids, "hand": hand.number, "card": card_name(point.card), "trick": point.trick,
                   "giver": point.giver, "taker": point.taker}


def standings_rows(analysis: GameAnalysis) -> Iterator[Row]:
    ids, result = _game_ids(analysis), analysis.result
    for seat, (player, total, finish) in enumerate(zip(analysis.players, result.totals, analysis.positions)):
        yield {**ids, "seat": seat, "player": player, "final_total": total, "finish": finish,
               "winner": seat in result.winners, "complete": result.complete, "hands_played": len(analysis.hands)}


def moons_rows(analysis: GameAnalysis) -> Iterator[Row]:
    ids, players = _game_ids(analysis), analysis.players
    for hand in analysis.hands:
        moon = hand.moon
        if moon is None:
            continue
        choice = moon.choice
        yield {**ids, "hand": hand.number, "seat": moon.seat, "player": players[moon.seat],
               "outcome": moon.outcome, "start_trick": moon.start_trick, "trick": moon.trick,
               "stopper": moon.stopper, "taker": moon.taker,
               "card": None if moon.card is None else card_name(moon.card), "giver": moon.giver,
               "points_at_end": moon.points_at_end, "cost": moon.cost, "sun": moon.sun,
               "near_miss": moon.near_miss, "choice": None if choice is None else choice.choice,
               "better_choice": None if choice is None else choice.better,
               "choice_correct": None if choice is None else choice.correct, "missed_stops": len(moon.missed)}


def missed_stops_rows(analysis: GameAnalysis) -> Iterator[Row]:
    ids, players = _game_ids(analysis), analysis.players
    for hand in analysis.hands:
        if hand.moon is None:
            continue
        for missed in hand.moon.missed:
            yield {**ids, "hand": hand.number, "runner": hand.moon.seat, "seat": missed.seat,
                   "player": players[missed.seat], "trick": missed.trick, "card": card_name(missed.card)}


def passes_rows(analysis: GameAnalysis) -> Iterator[Row]:
    ids, players = _game_ids(analysis), analysis.players
    for hand in analysis.hands:
        for review in hand.passes:
            given = review.given
            yield {**ids, "hand": hand.number, "seat": review.seat, "player": players[review.seat],
                   "to": review.receiver, "direction": review.direction,
                   "cards": " ".join(card_name(c) for c in review.cards), "had_qs": review.had(QS),
                   "qs_passed": review.gave(QS), "as_passed": bool(given >> AS & 1),
                   "ks_passed": bool(given >> KS & 1), "high_hearts": review.high_hearts,
                   "low_spades": (given & LOW_SPADES).bit_count(), "voids": " ".join(review.voids),
                   "spade_guards": review.spade_guards, "kept_qs": review.kept_qs,
                   "back_points": review.back_points,
                   "qs_came_back": review.gave(QS) and hand.taker_of(QS) == review.seat,
                   "receiver_took": review.receiver_took, "points": review.points,
                   "receiver_points": review.receiver_points,
                   "verdicts": "; ".join(v.message for v in review.verdicts),
                   "verdict_codes": " ".join(v.code for v in review.verdicts)}


ROWS: dict[str, Callable[[GameAnalysis], Iterator[Row]]] = {
    "points": points_rows, "point_cards": point_cards_rows, "standings": standings_rows,
    "moons": moons_rows, "missed_stops": missed_stops_rows, "passes": passes_rows,
}
"""The per-game tables, by catalogue name."""


def table(name: str, analyses: Iterable[GameAnalysis]) -> "pd.DataFrame":
    """One per-game table (see :data:`ROWS`) over many games."""
    rows = ROWS[name]
    return frame(name, (row for analysis in analyses for row in rows(analysis)))


def points_frame(analyses: Iterable[GameAnalysis]) -> "pd.DataFrame":
    """The ``points`` table: one row per hand and seat."""
    return table("points", analyses)


def point_cards_frame(analyses: Iterable[GameAnalysis]) -> "pd.DataFrame":
    """The ``point_cards`` table: one row per point card taken."""
    return table("point_cards", analyses)


def standings_frame(analyses: Iterable[GameAnalysis]) -> "pd.DataFrame":
    """The ``standings`` table: one row per game and seat."""
    return table("standings", analyses)


def moons_frame(analyses: Iterable[GameAnalysis]) -> "pd.DataFrame":
    """The ``moons`` table: one row per moon attempt."""
    return table("moons", analyses)


def missed_stops_frame(analyses: Iterable[GameAnalysis]) -> "pd.DataFrame":
    """The ``missed_stops`` table: one row per missed chance to stop a run."""
    return table("missed_stops", analyses)


def passes_frame(analyses: Iterable[GameAnalysis]) -> "pd.DataFrame":
    """The ``passes`` table: one row per seat's pass."""
    return table("passes", analyses)
