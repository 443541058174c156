"""Player statistics over a corpus, streamed: one game at a time into additive counters.

A :class:`Tally` holds sums only (per player, per player and pass direction,
and the corpus-wide sums the leak finder weighs statistics with), plus one small
:class:`~hearts_analysis.analysis.rating.GameOutcome` per game for the rating, so a
corpus of any size is read in small memory, and tallies of separate chunks (files,
row groups, worker processes) combine with :meth:`Tally.merge`.

What the counts mean is computed from them on demand: the rating
(:mod:`~hearts_analysis.analysis.rating`) and the leak finder
(:mod:`~hearts_analysis.analysis.leaks`), which compares each player's decisions with
the typical other player's and says which differences are more than luck.

Counting the games in two chunks and merging gives the tally of the whole, which is
what lets files, row groups and processes be counted apart:

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> games = list(simulate_games(3, Rules.preset("standard", target=30)))
>>> whole = tally_games(games)
>>> tally_games(games[:1]).merge(tally_games(games[1:])) == whole
True
>>> whole.games, whole.hands
(3, 8)
>>> [(row["player"], row["games"], row["wins"]) for row in whole.player_rows()]
[('bot1', 3, 0), ('bot2', 3, 0), ('bot3', 3, 1), ('bot4', 3, 2)]
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from ..corpus_audit import error_report
from ..cpus import worker_count
from ..records.errors import Item
from ..records.model import GameRecord
from ..rules import Rules
from .catalogue import frame, stat
from .game import GameAnalysis, HandAnalysis, analyze_game, analyze_paths
from .leaks import REVIEW_STAT, TOP_LEAKS, ReviewCosts, costly, find_leaks, leak_sentence, leak_summary
from .passes import PASS_KINDS, PassReview, opportunities, pass_kinds
from .rating import GameOutcome, Ratings, rate_games

if TYPE_CHECKING:
    import pandas as pd

PASS_RATES: dict[str, str] = {
    "qs": "qs_pass_pct", "as": "as_pass_pct", "ks": "ks_pass_pct", "high_hearts": "high_heart_pass_pct",
    "low_spade": "low_spade_pass_pct", "void": "void_pass_pct", "flagged": "flagged_pass_pct",
}
"""Pass kind -> its rate column."""

RATES: tuple[str, ...] = (
    "qs_taken_pct", "moon_attempt_pct", "moon_success_pct", "missed_stop_pct", "hearts_broken_pct",
    *PASS_RATES.values(), "violation_hand_pct",
)
"""Rate statistics counted per seat-hand as (opportunity, event); the leak finder weighs the decisions among them."""

MIN_IMPACT_SAMPLES = 5
"""Hands needed on each side (event / no event) before a statistic's impact is trusted."""
MAX_ERRORS_KEPT = 100

Counter = dict[str, float]


def _counter() -> Counter:
    return defaultdict(int)


def seat_events(hand: HandAnalysis, seat: int, review: PassReview | None) -> dict[str, tuple[bool, bool]]:
    """``rate -> (could it happen, did it happen)`` for one seat in one hand."""
    moon = hand.moon
    runs = moon is not None and moon.seat == seat
    broken = hand.hearts_broken
    events = {
        "qs_taken_pct": (True, hand.seats[seat].qs),
        "moon_attempt_pct": (True, runs),
        "moon_success_pct": (runs, runs and moon.outcome == "shot"),
        "missed_stop_pct": (moon is not None and not runs,
                            moon is not None and any(m.seat == seat for m in moon.missed)),
        "hearts_broken_pct": (True, broken is not None and broken[1] == seat),
        "violation_hand_pct": (True, any(v.seat == seat for v in hand.result.violations)),
    }
    if review is not None:
        possible, done = opportunities(review), pass_kinds(review)
        for kind, rate in PASS_RATES.items():
            events[rate] = (possible[kind], done[kind])
    return events


@dataclass
class Tally:
    """Additive counters for a corpus (see the module notes)."""

    players: dict[str, Counter] = field(default_factory=lambda: defaultdict(_counter))
    passes: dict[tuple[str, str, str], Counter] = field(default_factory=lambda: defaultdict(_counter))
    """``(player, direction, kind) -> passes, points, back_points, receiver_points`` (kind ``any``: every pass)."""
    impact: dict[str, Counter] = field(default_factory=lambda: defaultdict(_counter))
    """``rate -> hit_points, hits, miss_points, misses`` over every seat-hand of the corpus."""
    outcomes: list[GameOutcome] = field(default_factory=list)
    """One entry per game counted, in the order counted (game id, played_at, players, final totals,
    complete): what the rating is computed from (in played_at order, then by game id, whatever
    order the games were counted in)."""
    points_hist: dict[str, dict[int, int]] = field(default_factory=lambda: defaultdict(_counter))
    """``player -> {points in a hand: hands}`` (after the moon adjustment)."""
    games: int = 0
    hands: int = 0
    error_count: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    details: bool = True
    """``passes`` and ``points_hist`` were counted. The players, leaks and ratings tables do not read them, so a
    count for those alone may leave them out (``tally_corpus(..., details=False)``); the tables that read them
    then refuse the tally rather than show empty tables."""
    _rated: tuple[int, Ratings] | None = field(default=None, init=False, repr=False, compare=False)
    """The ratings of the first n outcomes: rating a long corpus takes a while, and tables share them."""
    _leaks: tuple[tuple[int, int], ReviewCosts | None, list[dict[str, Any]]] | None = field(
        default=None, init=False, repr=False, compare=False)
    """The leak rows of these counts and review: the leaderboard and the leak sentences both read them, and
    each test of a large corpus sums a long hypergeometric tail."""

    # -- filling ----------------------------------------------------------------
    def add(self, analysis: GameAnalysis) -> None:
        """Count one analysed game."""
        result = analysis.result
        names = analysis.players
        violations = [0] * len(names)
        for violation in result.violations:
            if violation.seat is not None:
                violations[violation.seat] += 1
        record = analysis.record
        self.add_game(names, result.complete, analysis.positions, result.winners, violations,
                      record.game_id, record.played_at, tuple(result.totals))
        counters = [self.players[name] for name in names]
        for hand in analysis.hands:
            self._add_hand(hand, names, counters)

    def add_game(self, names: Sequence[str], complete: bool, positions: Sequence[int], winners: Iterable[int],
                 violations: Sequence[int], game_id: str | None, played_at: str | None,
                 totals: Sequence[int]) -> None:
        """Count one game's result, without its hands (the columnar statistics, :mod:`.columnar`, count the
        same counters for many games at once, and their outcomes with :meth:`add_outcomes`)."""
        self.add_outcomes([GameOutcome(game_id, played_at, tuple(names), tuple(totals), bool(complete))])
        counters = [self.players[name] for name in names]
        won = set(winners)
        for seat, c in enumerate(counters):
            c["games"] += 1
            if complete:
                c["complete_games"] += 1
                c["position_sum"] += positions[seat]
                c["wins"] += seat in won
            if violations[seat]:
                c["violations"] += violations[seat]

    def add_outcomes(self, outcomes: list[GameOutcome]) -> None:
        """Count games for the rating, their players' counters counted apart."""
        self.games += len(outcomes)
        self.outcomes.extend(outcomes)

    def _add_hand(self, hand: HandAnalysis, names: tuple[str, ...], counters: list[Counter]) -> None:
        self.hands += 1
        reviews = {review.seat: review for review in hand.passes}
        for seat, (c, points) in enumerate(zip(counters, hand.seats)):
            c["hands"] += 1
            c["points"] += points.points
            self.points_hist[names[seat]][points.points] += 1
            c["raw_points"] += points.points_before_moon
            c["hearts"] += points.hearts
            c["tricks"] += points.tricks_won
            c["suns"] += hand.sun == seat
            c["near_misses"] += hand.near_miss == seat
            for rate, (possible, happened) in seat_events(hand, seat, reviews.get(seat)).items():
                if possible:
                    c[rate + ".opp"] += 1
                    c[rate + ".hit"] += happened
                    c[rate + ".opp_points"] += points.points
                    c[rate + ".hit_points"] += points.points if happened else 0
                    side = self.impact[rate]
                    side["hit_points" if happened else "miss_points"] += points.points
                    side["hits" if happened else "misses"] += 1
        moon = hand.moon
        if moon is not None:
            runner = counters[moon.seat]
            runner["moon_attempts"] += 1
            runner["moons_" + moon.outcome] += 1
            if moon.stopper is not None:
                counters[moon.stopper]["moon_stops"] += 1
            for missed in moon.missed:
                counters[missed.seat]["missed_stops"] += 1
            if moon.choice is not None and moon.choice.correct is not None:
                runner["moon_choices"] += 1
                runner["moon_choices_correct"] += moon.choice.correct
        for review in hand.passes:
            c = counters[review.seat]
            c["passes"] += 1
            c["verdicts"] += len(review.verdicts)
            kinds = pass_kinds(review)
            player = names[review.seat]
            for kind in ("any", *PASS_KINDS):
                if kind != "any" and not kinds[kind]:
                    continue
                p = self.passes[(player, review.direction, kind)]
                p["passes"] += 1
                p["points"] += review.points
                p["back_points"] += review.back_points
                p["receiver_points"] += review.receiver_points
                if kind == "any":
                    p["verdicts"] += len(review.verdicts)
                    possible = opportunities(review)
                    for other in PASS_KINDS:
                        p[other + ".opp"] += possible[other]
                        p[other + ".hit"] += kinds[other]

    def add_error(self, item: Item) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_ERRORS_KEPT:
            self.errors.append(error_report(item))

    def merge(self, other: "Tally") -> "Tally":
        """Add another chunk's counts into this one (returns self)."""
        for mine, theirs in ((self.players, other.players), (self.passes, other.passes),
                             (self.impact, other.impact), (self.points_hist, other.points_hist)):
            for key, counter in theirs.items():
                target = mine[key]
                for name, value in counter.items():
                    target[name] += value
        self.outcomes.extend(other.outcomes)
        self.games += other.games
        self.hands += other.hands
        self.error_count += other.error_count
        self.details = self.details and other.details
        self.errors.extend(other.errors[:max(0, MAX_ERRORS_KEPT - len(self.errors))])
        return self

    # -- results ----------------------------------------------------------------
    def impacts(self) -> dict[str, float]:
        """``rate -> points per hand it matters`` (NaN until both sides have enough hands)."""
        out = {}
        for rate in RATES:
            side = self.impact.get(rate, {})
            hits, misses = side.get("hits", 0), side.get("misses", 0)
            if hits < MIN_IMPACT_SAMPLES or misses < MIN_IMPACT_SAMPLES:
                out[rate] = math.nan
            else:
                out[rate] = side["hit_points"] / hits - side["miss_points"] / misses
        return out

    def winning_players(self) -> set[str]:
        """Players whose share of wins beats the corpus's average share."""
        wins = sum(c.get("wins", 0) for c in self.players.values())
        games = sum(c.get("complete_games", 0) for c in self.players.values())
        if not games:
            return set()
        mean = wins / games
        return {name for name, c in self.players.items()
                if c.get("complete_games", 0) and c.get("wins", 0) / c["complete_games"] > mean}

    def ratings(self, history: bool = False) -> Ratings:
        """Every player's rating now, and with ``history`` after each game (see
        :mod:`~hearts_analysis.analysis.rating`; the leaderboard needs only the last)."""
        rated = self._rated
        if rated is None or rated[0] != len(self.outcomes) or (history and not rated[1].has_history):
            self._rated = (len(self.outcomes), rate_games(self.outcomes, history))
        return self._rated[1]

    def rating_rows(self) -> list[dict[str, Any]]:
        """The ``ratings`` table: each player's rating after each rated game, in the order rated."""
        return self.ratings(history=True).history

    def leak_rows(self, review: ReviewCosts | None = None) -> list[dict[str, Any]]:
        """The ``leaks`` table (see :mod:`~hearts_analysis.analysis.leaks`); ``review`` adds the review's costs.
        Computed once for the same counts and review: the rows are shared, to be read, not changed."""
        counted = (self.games, self.hands)
        if self._leaks is None or self._leaks[0] != counted or self._leaks[1] is not review:
            self._leaks = (counted, review, find_leaks(self, review))
        return self._leaks[2]

    def player_rows(self, review: ReviewCosts | None = None) -> list[dict[str, Any]]:
        """The ``players`` table, by player id; ``review`` adds the review's costs to the leak finder."""
        leaks: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for leak in costly(self.leak_rows(review)):
            leaks[leak["player"]].append(leak)
        ratings = self.ratings()
        rows = []
        for name in sorted(self.players):
            c = self.players[name]
            found = leaks[name]
            row = {
                "player": name, "games": c["games"], "complete_games": c["complete_games"], "hands": c["hands"],
                "wins": c["wins"], "win_pct": _pct(c["wins"], c["complete_games"]),
                "avg_position": _ratio(c["position_sum"], c["complete_games"]),
                **ratings.columns(name), "rated_games": ratings.games.get(name, 0),
                "points_per_hand": _ratio(c["points"], c["hands"]),
                "points_before_moon_per_hand": _ratio(c["raw_points"], c["hands"]),
                "hearts_per_hand": _ratio(c["hearts"], c["hands"]),
                "tricks_per_hand": _ratio(c["tricks"], c["hands"]),
                "moon_attempts": c["moon_attempts"], "moons_shot": c["moons_shot"],
                "moon_attempts_stopped": c["moons_stopped"], "moons_abandoned": c["moons_abandoned"],
                "others_moons_stopped": c["moon_stops"], "missed_stops": c["missed_stops"],
                "moon_choices": c["moon_choices"],
                "moon_choice_accuracy": _pct(c["moon_choices_correct"], c["moon_choices"]),
                "suns": c["suns"], "near_misses": c["near_misses"], "passes": c["passes"],
                "verdicts_per_pass": _ratio(c["verdicts"], c["passes"]),
                "violations": c["violations"],
                "violations_per_100_hands": _pct(c["violations"], c["hands"]),
                "leaks": len(found),
                "leak_cost": sum(leak["cost_per_hand"] for leak in found) if found else 0.0,
                "top_leaks": "; ".join(map(leak_summary, found[:TOP_LEAKS])),
            }
            for rate in RATES:
                row[rate] = _pct(c[rate + ".hit"], c[rate + ".opp"])
            rows.append(row)
        return rows

    def leaderboard_rows(self, review: ReviewCosts | None = None) -> list[dict[str, Any]]:
        """The ``players`` table best first: by the rating's conservative estimate, unrated players last."""
        def best_first(row: dict[str, Any]) -> tuple[bool, float, str]:
            unrated = math.isnan(row["rating_conservative"])
            return unrated, 0.0 if unrated else -row["rating_conservative"], row["player"]
        return sorted(self.player_rows(review), key=best_first)

    def _detailed(self) -> None:
        if not self.details:
            raise ValueError("this tally was counted without its pass tables (tally_corpus(..., details=True))")

    def pass_summary_rows(self) -> list[dict[str, Any]]:
        self._detailed()
        rows = []
        for (player, direction, kind), p in sorted(self.passes.items()):
            if kind != "any":
                continue
            row = {"player": player, "direction": direction, "passes": p["passes"],
                   "verdicts_per_pass": _ratio(p["verdicts"], p["passes"]),
                   "points_per_hand": _ratio(p["points"], p["passes"])}
            for kind_name, rate in PASS_RATES.items():
                row[rate] = _pct(p[kind_name + ".hit"], p[kind_name + ".opp"])
            rows.append(row)
        return rows

    def pass_outcome_rows(self) -> list[dict[str, Any]]:
        self._detailed()
        order = {kind: i for i, kind in enumerate(("any", *PASS_KINDS))}
        rows = []
        for (player, direction, kind), p in sorted(self.passes.items(), key=lambda kv: (kv[0][:2], order[kv[0][2]])):
            rows.append({"player": player, "direction": direction, "kind": kind, "passes": p["passes"],
                         "points_per_hand": _ratio(p["points"], p["passes"]),
                         "back_points_per_pass": _ratio(p["back_points"], p["passes"]),
                         "receiver_points_per_hand": _ratio(p["receiver_points"], p["passes"])})
        return rows

    def leak_sentences(self, all_leaks: bool = False, review: ReviewCosts | None = None) -> dict[str, list[str]]:
        """Each player's significant leaks (``all_leaks``: every costly one), largest first, in plain words: every
        one the players table counts, none left out."""
        out: dict[str, list[str]] = {name: [] for name in sorted(self.players)}
        for leak in costly(self.leak_rows(review), all_leaks):
            out[leak["player"]].append(leak_sentence(leak, _definition(leak["statistic"])))
        return out

    def document(self, review: ReviewCosts | None = None) -> dict[str, Any]:
        """``hearts stats --format json``: the counts, the players, leaks, ratings and pass summary tables, and
        the unreadable records."""
        self.ratings(history=True)   # rated once, for the players table and the ratings table
        return {"games": self.games, "hands": self.hands, "players": self.player_rows(review),
                "leaks": self.leak_rows(review), "ratings": self.rating_rows(),
                "pass_summary": self.pass_summary_rows(), "errors": self.errors, "unreadable": self.error_count}

    def players_frame(self) -> "pd.DataFrame":
        """The ``players`` table: one row per player."""
        return frame("players", self.player_rows())

    def leaks_frame(self, review: ReviewCosts | None = None) -> "pd.DataFrame":
        """The ``leaks`` table: one row per player and statistic tested, by player then largest cost."""
        return frame("leaks", self.leak_rows(review))

    def ratings_frame(self) -> "pd.DataFrame":
        """The ``ratings`` table: each player's rating after each rated game."""
        return frame("ratings", self.rating_rows())

    def pass_summary_frame(self) -> "pd.DataFrame":
        """The ``pass_summary`` table: one row per player and pass direction."""
        return frame("pass_summary", self.pass_summary_rows())

    def pass_outcomes_frame(self) -> "pd.DataFrame":
        """The ``pass_outcomes`` table: one row per player, pass direction and kind of pass."""
        return frame("pass_outcomes", self.pass_outcome_rows())


def _definition(statistic: str) -> str:
    if statistic == REVIEW_STAT:
        return "The review's average cost per unforced decision, in expected points"
    if statistic.startswith("review_"):
        kind = statistic.removeprefix("review_").removesuffix("_cost").replace("_", " ")
        return f"The review's average cost per unforced decision of the kind '{kind}', in expected points"
    return stat("players", statistic).definition.rstrip(".")


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else math.nan


def _pct(part: float, whole: float) -> float:
    return 100 * part / whole if whole else math.nan


Progress = Callable[[int, int], None]
"""Called with ``(games, hands)`` as they are counted."""

BATCH_GAMES = 64
"""Games sent to a worker process at a time."""


def tally_items(items: Iterable[Item], progress: Progress | None = None, workers: int = 1) -> Tally:
    """Tally every readable game of a stream of items; unreadable ones are counted and kept as errors.

    With ``workers`` > 1, batches of games are analysed in that many processes (at most one per
    CPU and per batch) and their tallies merged, in the order read, so the result is the same as with one;
    at most two batches a process are read ahead, so memory stays bounded on a stream of any length.
    """
    tally = Tally()
    if workers <= 1:
        for item in items:
            if item.game is None:
                tally.add_error(item)
                continue
            analysis = analyze_game(item.game, item.source)
            tally.add(analysis)
            if progress is not None:
                progress(1, len(analysis.hands))
        return tally
    batches = _batches(items, tally)
    first = list(itertools.islice(batches, worker_count(workers)))   # no more processes than CPUs or batches
    workers = worker_count(workers, len(first))
    from ..executor import Task, ordered, process_pool
    with contextlib.ExitStack() as stack:
        pool = stack.enter_context(process_pool(workers)) if workers > 1 else None
        tasks = (Task(_tally_batch, (batch,)) for batch in itertools.chain(first, batches))
        for part in ordered(tasks, pool, ahead=2 * workers):   # the input is read only as far as is needed
            tally.merge(part)
            if progress is not None:
                progress(part.games, part.hands)
    return tally


def _batches(items: Iterable[Item], tally: Tally) -> Iterator[list[tuple[str, GameRecord]]]:
    batch: list[tuple[str, GameRecord]] = []
    for item in items:
        if item.game is None:
            tally.add_error(item)
            continue
        batch.append((item.source, item.game))
        if len(batch) == BATCH_GAMES:
            yield batch
            batch = []
    if batch:
        yield batch


def _tally_batch(batch: list[tuple[str, GameRecord]]) -> Tally:
    tally = Tally()
    for source, game in batch:
        tally.add(analyze_game(game, source))
    return tally


def tally_paths(paths: Iterable[str | Path], rules: Rules | None = None, progress: Progress | None = None,
                workers: int = 1, keep_duplicates: bool = False) -> Tally:
    """Tally every game in files and folders (.json, .jsonl, .parquet), streaming; a game read twice once, unless
    ``keep_duplicates``."""
    from ..records.sources import iter_sources
    return tally_items(iter_sources(paths, rules, keep_duplicates), progress, workers)


def tally_games(games: Iterable[GameRecord | GameAnalysis]) -> Tally:
    """Tally games already in memory (records or analyses)."""
    tally = Tally()
    for game in games:
        tally.add(game if isinstance(game, GameAnalysis) else analyze_game(game))
    return tally


def player_leaks(paths: Iterable[str | Path], rules: Rules | None = None) -> dict[str, list[str]]:
    """``{player: [leak sentence, ...]}`` for a corpus (see :meth:`Tally.leak_sentences`)."""
    return tally_paths(paths, rules).leak_sentences()


def player_stats(games: Iterable[GameRecord | GameAnalysis] | str | Path) -> "pd.DataFrame":
    """The ``players`` table for games in memory, or for a path (file or folder)."""
    if isinstance(games, (str, Path)):
        return tally_paths([games]).players_frame()
    return tally_games(games).players_frame()


__all__ = ["RATES", "Tally", "analyze_paths", "player_leaks", "player_stats", "seat_events", "tally_games",
           "tally_items", "tally_paths"]
