"""The leak finder: where a player's decisions differ from the typical player's, what that
costs, and whether the difference is more than luck.

Comparing a player with the corpus's winners mistakes luck for skill: winners are partly
the players whom the cards favoured, so every other player looks leaky against them, even
when all of them are the same program. So:

* **Decisions and tendencies, not outcomes.** The statistics compared are choices (what a
  player passes, running for the moon, missing a sure stop, breaking a rule), not results
  such as taking QS, which the deal decides as much as the player.
* **Against the typical player.** The reference is the median of the other players' values
  (for an even number of them, the two middle players pooled), and the test compares the
  player's counts with that player's counts. The pooled rest of the corpus would not do: a
  few very different players (two random bots among six careful ones) drag a pooled value
  toward them, and the careful players would then look leaky in whatever the bots do well.
* **Costed.** A difference costs ``(value - reference) x impact x opportunities per hand``
  points a hand, where the *impact* is how much the statistic goes with the score in the
  corpus: average points in a hand where the event happened minus where it could have and
  did not (``Tally.impacts``). Errors by definition (a missed stop, a violation) can only
  cost in the direction of more of them: their cost is ``(value - reference) x |impact|``, so
  fewer errors than the typical player's is never a costly leak, whatever the sign the corpus
  happens to give their impact.
* **Significant only beyond luck.** Each (player, statistic) is tested one-sided in the
  costly direction: Fisher's exact test for a rate (the player's events against the
  reference player's, a hypergeometric law), Welch's t-test for a mean. The
  p-values are corrected for the number of players times statistics tested (Holm), and a
  leak is ``significant`` only when the corrected p-value is below 0.05 and the cost is
  positive.
* **The review, where there is one, is the most direct evidence.** ``hearts review``
  scores every decision by its cost in expected points; its average per unforced decision
  (``review_cost_per_decision``, with ``hearts stats --review``) needs no impact, the cost
  being in points already.

The interval ``ci_low``-``ci_high`` is a 95 % confidence interval of the player's own value
(Wilson's for a rate, Student's t for a mean): where it excludes the reference by
far, the leak is no accident of the sample.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Protocol

import orjson

from .significance import fisher_tail, wilson_interval


class Counts(Protocol):
    """What the leak finder reads of a corpus's counts (a :class:`~hearts_analysis.analysis.stats.Tally`)."""

    players: Mapping[str, Mapping[str, float]]

    def impacts(self) -> Mapping[str, float]: ...

    def winning_players(self) -> set[str]: ...


LEAK_RATES: tuple[str, ...] = (
    "moon_attempt_pct", "missed_stop_pct", "qs_pass_pct", "as_pass_pct", "ks_pass_pct", "high_heart_pass_pct",
    "low_spade_pass_pct", "void_pass_pct", "violation_hand_pct",
)
"""The rate statistics compared: decisions and tendencies. Left out: QS taken and moons shot (outcomes),
breaking hearts (mostly forced by a void; whether it goes with more or fewer points changes with the company),
and flagged passes (judged by the passing advice, which overlaps every other kind of pass)."""

PASS_LEAKS = frozenset({"qs_pass_pct", "as_pass_pct", "ks_pass_pct", "high_heart_pass_pct", "low_spade_pass_pct",
                        "void_pass_pct"})
"""Pass tendencies: one pass may be of several kinds, so at most one of them counts in a player's leak cost."""

SITUATIONS = ("pass", "first_trick", "queen", "moon_defence", "lead", "other_play")
"""The review's decisions by kind of situation (:func:`situation`): ``review_<situation>_cost`` rows."""

GAP_STAT = "unexplained_gap"
"""A player's gap to the median player's points per hand minus what its counted leaks claim."""

ERROR_RATES = frozenset({"missed_stop_pct", "violation_hand_pct"})
"""Rates that count mistakes by definition: only more of them is a leak."""

MIN_OWN_HANDS = 5
"""Hands the player needs on each side (pass made / not made) before a pass leak is costed within the player."""

REVIEW_STAT = "review_cost_per_decision"
"""The review's average cost per unforced decision, in expected points."""

ALPHA = 0.05
"""Family-wise error rate over every (player, statistic) tested."""
CONFIDENCE = 0.95
"""Level of each value's confidence interval."""
TOP_LEAKS = 3


def situation(decision: Mapping[str, Any], players: int) -> str:
    """The kind of situation of a review decision (``hearts review --format json``), read from the decision alone.

    ``pass``; ``first_trick`` (a play to trick 1); ``queen`` (covering or ducking QS: QS, KS or AS is the card
    played or the better card); ``moon_defence`` (the review's reason speaks of the moon); ``lead``
    (the likely line runs from the better card to the end of the next trick: two whole tricks, or one in the
    last trick); else ``other_play``.

    >>> situation({"kind": "play", "trick": 3, "played": "QS", "best": "4S"}, 4)
    'queen'
    >>> situation({"kind": "play", "trick": 5, "played": "7D", "best": "3C", "line": [[0, "3C"]] * 8}, 4)
    'lead'
    """
    if decision.get("kind") == "pass":
        return "pass"
    if decision.get("trick") == 1:
        return "first_trick"
    cards = {decision.get("played"), decision.get("best")}
    if cards & {"QS", "KS", "AS"}:
        return "queen"
    if "moon" in str(decision.get("reason") or "").lower():
        return "moon_defence"
    line = decision.get("line") or ()
    if players and (len(line) == 2 * players or len(line) == players and decision.get("trick") == 52 // players):
        return "lead"
    return "other_play"


@dataclass
class ReviewCosts:
    """The review's decision costs summed per player, to compare players by them."""

    players: dict[str, dict[str, float]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))
    """``player -> decisions, cost, cost_sq, hands`` over unforced decisions (hands: reviewed hands)."""
    situations: dict[str, dict[str, dict[str, float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: defaultdict(float))))
    """``situation -> player -> decisions, cost, cost_sq`` (:func:`situation`)."""

    def add_game(self, game: Mapping[str, Any], where: str = "review") -> None:
        """Count one game of the ``hearts review --format json`` contract (forced decisions are free)."""
        players = game.get("players") or []
        seen: set[tuple[str, Any]] = set()
        for number, decision in enumerate(game.get("decisions") or []):
            try:
                name = decision.get("player") or players[decision["seat"]]
                cost = float(decision["cost"])
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                raise ValueError(f"{where}: decisions[{number}]: needs a player (or seat) and a numeric cost") \
                    from None
            if decision.get("forced"):
                continue
            counter = self.players[name]
            counter["decisions"] += 1
            counter["cost"] += cost
            counter["cost_sq"] += cost * cost
            by_kind = self.situations[situation(decision, len(players))][name]
            by_kind["decisions"] += 1
            by_kind["cost"] += cost
            by_kind["cost_sq"] += cost * cost
            if (name, decision.get("hand")) not in seen:
                seen.add((name, decision.get("hand")))
                counter["hands"] += 1


def read_review_costs(paths: Iterable[str | Path]) -> ReviewCosts:
    """The decision costs of ``hearts review --format json`` documents.

    Raises ``ValueError`` naming the file (and the game and decision) that cannot be read.
    """
    costs = ReviewCosts()
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise ValueError(f"{path}: cannot read: {error.strerror or error}") from None
        try:
            document = orjson.loads(data)
        except orjson.JSONDecodeError as error:
            raise ValueError(f"{path}: not a review document ({error})") from None
        games = document.get("games") if isinstance(document, dict) else None
        if not isinstance(games, list):
            raise ValueError(f"{path}: games: missing; write the review with hearts review --format json")
        for index, game in enumerate(games):
            if not isinstance(game, dict):
                raise ValueError(f"{path}: games[{index}]: not an object")
            costs.add_game(game, f"{path}: games[{index}]")
    return costs


def _holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment (scipy has none; it is four lines, statsmodels a heavy dependency)."""
    order = sorted(range(len(p_values)), key=p_values.__getitem__)
    adjusted, running = [1.0] * len(p_values), 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def _typical_others(values: Mapping[str, float]) -> dict[str, list[str]]:
    """For each player, the other player in the middle of the others' values (the two middle ones for an even
    number): a reference that a few very different players (beginners, bots) cannot drag."""
    order = sorted(values, key=lambda name: (values[name], name))
    others = len(order) - 1
    middle = sorted({(others - 1) // 2, others // 2})
    return {name: [order[j if j < k else j + 1] for j in middle] if others else []
            for k, name in enumerate(order)}


def _rate_rows(tally: Counts) -> list[dict[str, Any]]:
    impacts = tally.impacts()
    winners = tally.winning_players()
    rows = []
    for rate in LEAK_RATES:
        counts = {name: (c.get(rate + ".hit", 0), c.get(rate + ".opp", 0)) for name, c in tally.players.items()
                  if c.get(rate + ".opp", 0) and c.get("hands")}
        if math.isnan(impacts[rate]) and rate not in PASS_LEAKS:
            continue
        typical = _typical_others({name: hits / opp for name, (hits, opp) in counts.items()})
        for name, (hits, opp) in counts.items():
            if not typical[name]:
                continue
            if rate in PASS_LEAKS:   # costed within the player: its own hands with the pass against those without
                own = tally.players[name]
                if min(hits, opp - hits) < MIN_OWN_HANDS:
                    continue
                hit_points = own.get(rate + ".hit_points", 0)
                impact = hit_points / hits - (own.get(rate + ".opp_points", 0) - hit_points) / (opp - hits)
            else:
                impact = impacts[rate]
            ref_hits, ref_opp = (sum(counts[other][i] for other in typical[name]) for i in (0, 1))
            value, reference = 100 * hits / opp, 100 * ref_hits / ref_opp
            pool = [tally.players[w] for w in winners if w != name]
            pool_opp = sum(p.get(rate + ".opp", 0) for p in pool)
            per_hand = opp / tally.players[name]["hands"]
            low, high = wilson_interval(hits, opp, CONFIDENCE)
            more_costs = impact > 0 or rate in ERROR_RATES
            if rate in ERROR_RATES:   # an error costs in the direction of more of them, by definition
                impact = abs(impact)
            # Fisher's exact test: given all the events of the two, the player's share follows a hypergeometric law
            rows.append({"player": name, "statistic": rate, "value": value, "reference": reference,
                         "unit": "percent", "sample_size": int(opp), "group": "pass" if rate in PASS_LEAKS else "rate",
                         "cost_per_hand": (value - reference) / 100 * impact * per_hand,
                         "impact": impact, "opportunities_per_hand": per_hand,
                         "winners_value": 100 * sum(p.get(rate + ".hit", 0) for p in pool) / pool_opp
                         if pool_opp else math.nan,
                         "p_raw": fisher_tail(hits, opp, hits + ref_hits, opp + ref_opp, more_costs),
                         "ci_low": 100 * low, "ci_high": 100 * high})
    return rows


def _moments(counters: Iterable[Mapping[str, float]]) -> tuple[float, float, float]:
    """``(decisions, mean, standard deviation)`` of the pooled costs."""
    n = s = sq = 0.0
    for c in counters:
        n, s, sq = n + c["decisions"], s + c["cost"], sq + c["cost_sq"]
    mean = s / n
    return n, mean, math.sqrt(max(0.0, (sq - n * mean * mean) / (n - 1)))


def _review_rows(review: ReviewCosts) -> list[dict[str, Any]]:
    """The review's cost per decision overall (not counted in the leak cost: the situations split it), and per kind
    of situation (counted)."""
    hands = {name: c.get("hands", 0) for name, c in review.players.items()}
    rows = _cost_rows(review.players, hands, REVIEW_STAT, "review")
    for row in rows:
        row["counted"] = False
    for kind in SITUATIONS:
        if kind in review.situations:
            rows += _cost_rows(review.situations[kind], hands, f"review_{kind}_cost", "pass" if kind == "pass"
                               else "card_play")
    return rows


def _cost_rows(players: Mapping[str, Mapping[str, float]], hands: Mapping[str, float], statistic: str,
               group: str) -> list[dict[str, Any]]:
    from scipy import stats
    players = {name: c for name, c in players.items() if c.get("decisions", 0) >= 2}
    typical = _typical_others({name: c["cost"] / c["decisions"] for name, c in players.items()})
    rows = []
    for name in sorted(players):
        if not typical[name]:
            continue
        c = players[name]
        n, mean, sd = _moments([c])
        ref_n, ref_mean, ref_sd = _moments(players[other] for other in typical[name])
        if sd == 0 and ref_sd == 0:
            p = 0.0 if mean > ref_mean else 1.0
        else:
            p = float(stats.ttest_ind_from_stats(mean, sd, n, ref_mean, ref_sd, ref_n, equal_var=False,
                                                 alternative="greater").pvalue)
        low, high = (float(x) for x in stats.t.interval(CONFIDENCE, n - 1, loc=mean, scale=sd / math.sqrt(n))) \
            if sd else (mean, mean)
        per_hand = n / hands[name] if hands.get(name) else math.nan
        rows.append({"player": name, "statistic": statistic, "value": mean, "reference": ref_mean,
                     "unit": "points/decision", "sample_size": int(n), "ci_low": low, "ci_high": high,
                     "cost_per_hand": (mean - ref_mean) * per_hand, "impact": 1.0, "group": group,
                     "opportunities_per_hand": per_hand, "winners_value": math.nan, "p_raw": p})
    return rows


def _gap_rows(tally: Counts, rows: list[dict[str, Any]], reviewed: bool) -> list[dict[str, Any]]:
    """Per player: its points per hand above the typical player's, minus what its counted leaks claim."""
    points = {name: c["points"] / c["hands"] for name, c in tally.players.items() if c.get("hands")}
    typical = _typical_others(points)
    claimed: dict[str, float] = defaultdict(float)
    for row in costly(rows):
        claimed[row["player"]] += row["cost_per_hand"]
    out = []
    for name in sorted(points):
        if not typical[name]:
            continue
        hands = sum(tally.players[other]["hands"] for other in typical[name])
        reference = sum(tally.players[other]["points"] for other in typical[name]) / hands
        gap = points[name] - reference
        out.append({"player": name, "statistic": GAP_STAT, "value": gap, "reference": claimed[name],
                    "unit": "points/hand", "sample_size": int(tally.players[name]["hands"]),
                    "cost_per_hand": gap - claimed[name], "impact": 1.0, "opportunities_per_hand": 1.0,
                    "winners_value": math.nan, "ci_low": math.nan, "ci_high": math.nan, "p_value": math.nan,
                    "significant": False, "counted": False, "group": "gap", "card_play_reviewed": reviewed,
                    "stat": GAP_STAT, "player_value": gap, "cost": gap - claimed[name]})
    return out


def find_leaks(tally: Counts, review: ReviewCosts | None = None, alpha: float = ALPHA) -> list[dict[str, Any]]:
    """One row per player and statistic tested (the ``leaks`` table), by player then largest cost.

    A random bot among three careful ones: over six games its passes already differ from
    the typical player's beyond luck, and the careful players show no leak:

    >>> from hearts_analysis.rules import Rules
    >>> from hearts_analysis.simulate import make_pool, parse_mix, simulate_pool
    >>> from hearts_analysis.analysis.stats import tally_games
    >>> pool = make_pool(4, parse_mix("heuristic=3,random=1"), seed=1)
    >>> [player.bot for player in pool]
    ['heuristic', 'heuristic', 'heuristic', 'random']
    >>> games = simulate_pool(6, Rules.preset("standard", target=50), pool, players=4, seed=1)
    >>> leaks = costly(find_leaks(tally_games(games)))
    >>> {row["player"] for row in leaks}
    {'p04'}
    >>> for row in leaks:
    ...     print(leak_summary(row))
    low_spade_pass_pct: 70.0% vs 0.0% (+0.92)
    """
    rows = _rate_rows(tally) + (_review_rows(review) if review is not None else [])
    for row, adjusted in zip(rows, _holm([row.pop("p_raw") for row in rows])):
        cost = row["cost_per_hand"]
        row.setdefault("counted", True)
        row.update(p_value=adjusted, significant=bool(adjusted < alpha and cost > 0),
                   stat=row["statistic"], player_value=row["value"], cost=cost, card_play_reviewed=review is not None)
    _one_pass_leak(rows)
    rows += _gap_rows(tally, rows, review is not None)
    return sorted(rows, key=lambda row: (row["player"], -row["cost_per_hand"]))


def _one_pass_leak(rows: list[dict[str, Any]]) -> None:
    """Count one pass leak per player, its costliest significant one (with a review, the review's pass cost): one
    pass may be of several kinds, and the pass statistics would count it again in each."""
    best: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["group"] != "pass":
            continue
        row["counted"] = False
        if not (row["significant"] and row["cost_per_hand"] > 0):
            continue
        mine = best.get(row["player"])
        review_first = (row["statistic"] == "review_pass_cost", row["cost_per_hand"])
        if mine is None or review_first > (mine["statistic"] == "review_pass_cost", mine["cost_per_hand"]):
            best[row["player"]] = row
    for row in best.values():
        row["counted"] = True


def costly(rows: Iterable[dict[str, Any]], all_leaks: bool = False) -> list[dict[str, Any]]:
    """The leaks worth showing, largest cost first: significant ones, or with ``all_leaks`` every costly one."""
    return sorted((row for row in rows if row["cost_per_hand"] > 0 and row["group"] != "gap"
                   and (row["counted"] or row["group"] == "pass" and all_leaks)
                   and (all_leaks or row["significant"])),
                  key=lambda row: -row["cost_per_hand"])


def _shown(row: dict[str, Any], value: float) -> str:
    return f"{value:.1f}%" if row["unit"] == "percent" else f"{value:.2f}"


def leak_summary(row: dict[str, Any]) -> str:
    """``stat: value vs reference (+cost)``, as the players table's ``top_leaks`` lists them."""
    return (f"{row['statistic']}: {_shown(row, row['value'])} vs {_shown(row, row['reference'])} "
            f"(+{row['cost_per_hand']:.2f})")


def p_text(p: float) -> str:
    """A p-value as a reader reads it: two figures, and below 0.001 only that it is.

    >>> p_text(6.8e-248), p_text(0.0), p_text(0.0123), p_text(1.0)
    ('p < 0.001', 'p < 0.001', 'p = 0.012', 'p = 1')
    """
    return "p < 0.001" if p < 0.001 else f"p = {p:.2g}"


def leak_sentence(row: dict[str, Any], definition: str) -> str:
    """One leak in plain words, with its evidence."""
    flag = "" if row["significant"] else " (not significant)"
    p_value = p_text(row["p_value"])
    return (f"{row['statistic']} {_shown(row, row['value'])} against {_shown(row, row['reference'])} for the "
            f"typical player ({definition[0].lower() + definition[1:]}): about {row['cost_per_hand']:.2f} points a "
            f"hand; 95% CI {_shown(row, row['ci_low'])}-{_shown(row, row['ci_high'])} over {row['sample_size']:,}, "
            f"{p_value} after Holm{flag}")


__all__ = ["ALPHA", "ERROR_RATES", "GAP_STAT", "LEAK_RATES", "PASS_LEAKS", "REVIEW_STAT", "SITUATIONS", "ReviewCosts", "costly", "find_leaks",
           "leak_sentence", "leak_summary", "p_text", "read_review_costs", "situation"]
