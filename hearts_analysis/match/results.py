"""A match's results: points per hand with standard errors from the duplicate deals, and every pair's
paired difference.

Each deal gives each player one number, its mean points per hand over the seats it sat on
that deal's cards (every seat once, :mod:`.seating`); the deals are independent, so the mean
of those numbers over the deals has the standard error of a sample mean, and so has the mean
of the deal-by-deal difference between two players. The pairing removes the luck of the cards:

>>> from hearts_analysis.match.players import Clock
>>> from hearts_analysis.match.play import DealResult
>>> tally = Tally(["a", "b"])
>>> for k, (a, b) in enumerate([(10, 42), (20, 32), (4, 48)]):
...     tally.add(DealResult(k, [a, b], [2, 2], [0, 1], [0, 0], [Clock(1, 0.5), Clock(1, 0.25)]))
>>> doc = tally.summary()
>>> [(p["player"], p["points_per_hand"], round(p["se"], 2)) for p in doc["players"]]
[('a', 5.67, 2.33), ('b', 20.33, 2.33)]
>>> pair = doc["pairs"][0]
>>> pair["a"], pair["b"], pair["difference"], round(pair["se"], 2)
('a', 'b', -14.67, 4.67)
>>> tally.paired(0, 1)
[-16.0, -6.0, -22.0]

Each deal also ranks the players by their number on it, fewer points first; the project's rating
(:mod:`hearts_analysis.analysis.rating`, openskill) rates those rankings in deal order. ``a`` took
fewer points on every deal, so it rates higher:

>>> [(p["player"], p["rating"] > 25, p["rating_conservative"] < p["rating"]) for p in doc["players"]]
[('a', True, True), ('b', False, True)]
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from ..analysis.rating import GameOutcome, Ratings, rate_games
from ..text import counted, csv_safe, terminal_safe
from .play import DealResult
from .players import Clock

Z95 = 1.959963984540054
FAULT_KINDS = ("illegal", "late", "crash", "garbled")
RATING_COLUMNS = ("rating", "rating_sigma", "rating_conservative")
"""A player's openskill rating as ``hearts stats`` names it: ``mu``, ``sigma``, and ``mu - 3 sigma``."""
FAULTS_LISTED = 1000
"""Faults listed one by one in the document; every fault is counted."""


def mean_se(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error (NaN below two values)."""
    n = len(values)
    if not n:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _num(x: float, digits: int = 4) -> float | None:
    return None if math.isnan(x) else round(x, digits)


class Tally:
    """The deals' results as they come in (:meth:`add`), and the document of them (:meth:`summary`)."""

    def __init__(self, names: list[str]):
        m = len(names)
        self.names = names
        self.per_deal: list[list[float]] = [[] for _ in range(m)]
        self.hands = 0
        self.seats = [0] * m
        self.queens = [0] * m
        self.moons = [0] * m
        self.clocks = [Clock() for _ in range(m)]
        self.faults: list[dict] = []
        self.fault_count = 0

    def add(self, deal: DealResult) -> None:
        for i, clock in enumerate(deal.clocks):
            self.per_deal[i].append(deal.points[i] / deal.seats[i])
            self.seats[i] += deal.seats[i]
            self.queens[i] += deal.queens[i]
            self.moons[i] += deal.moons[i]
            self.clocks[i].add(clock)
        self.hands += len(deal.clocks)  # one hand a rotation, a rotation a player
        self.fault_count += len(deal.faults)
        self.faults.extend(deal.faults[:max(0, FAULTS_LISTED - len(self.faults))])

    @property
    def deals(self) -> int:
        return len(self.per_deal[0])

    def difference(self, a: int, b: int) -> tuple[float, float]:
        return mean_se(self.paired(a, b))

    def paired(self, a: int, b: int) -> list[float]:
        """Player ``a``'s number minus player ``b``'s, deal by deal in deal order: what the pair's difference
        is the mean of (the page charts it as it runs)."""
        return [x - y for x, y in zip(self.per_deal[a], self.per_deal[b])]

    def ratings(self) -> Ratings:
        """Each player's openskill rating from the deals, each deal a game that ranks the players by their
        number on it (fewer points first, equal numbers tied), rated in deal order."""
        width = len(str(self.deals))
        return rate_games((GameOutcome(f"deal-{k + 1:0{width}d}", None, tuple(self.names),
                                       tuple(values[k] for values in self.per_deal), True)
                           for k in range(self.deals)), history=False)

    def running(self) -> str:
        """The first pair's difference so far, for the progress display."""
        if len(self.names) < 2 or self.deals < 2:
            return ""
        diff, se = self.difference(0, 1)
        return f"{self.names[0]} - {self.names[1]}: {diff:+.2f} \u00b1 {se:.2f} pts/hand"

    def summary(self) -> dict[str, Any]:
        players = []
        ratings = self.ratings()
        for i, name in enumerate(self.names):
            mean, se = mean_se(self.per_deal[i])
            clock, seats = self.clocks[i], self.seats[i]
            players.append({
                "player": name, "points_per_hand": _num(mean, 2), "se": _num(se), "hands": seats,
                "moons": self.moons[i], "qs_taken": self.queens[i],
                "qs_per_hand": _num(self.queens[i] / seats if seats else math.nan),
                "decisions": clock.decisions,
                "seconds_per_decision": _num(clock.seconds / clock.decisions if clock.decisions else math.nan, 6),
                **{kind: clock.faults.get(kind, 0) for kind in FAULT_KINDS},
                "fallback_decisions": clock.fallback,
                **{key: _num(value) for key, value in ratings.columns(name).items()}})
        pairs = []
        for a in range(len(self.names)):
            for b in range(a + 1, len(self.names)):
                diff, se = self.difference(a, b)
                pairs.append({"a": self.names[a], "b": self.names[b], "difference": _num(diff, 2), "se": _num(se),
                              "ci95": [_num(diff - Z95 * se, 2), _num(diff + Z95 * se, 2)]})
        return {"deals": self.deals, "hands": self.hands, "players": players, "pairs": pairs,
                "faults": self.faults, "fault_count": self.fault_count}


def _pm(value: float | None, se: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if se is None else f"{value:.2f} \u00b1 {se:.2f}"


def text(doc: dict[str, Any]) -> str:
    """The document as a short report: players (rating ``mu ± sigma`` and ``mu - 3 sigma``), pairs, faults;
    names terminal-safe."""
    lines = [f"{counted(doc['deals'], 'deal')}, {counted(doc['hands'], 'hand')} (each deal played once per seating)", "",
             f"{'player':<28} {'points/hand':>15} {'rating':>13} {'mu-3sigma':>9} {'QS/hand':>8} {'moons':>6} "
             f"{'ms/decision':>12} {'illegal':>7} {'late':>5} {'crash':>5} {'garbled':>7}"]
    for p in doc["players"]:
        ms, conservative = p["seconds_per_decision"], p["rating_conservative"]
        lines.append(f"{terminal_safe(p['player'][:28]):<28} {_pm(p['points_per_hand'], p['se']):>15} "
                     f"{_pm(p['rating'], p['rating_sigma']):>13} {'-' if conservative is None else f'{conservative:.2f}':>9} "
                     f"{(p['qs_per_hand'] or 0):>8.3f} {p['moons']:>6} {'-' if ms is None else f'{1000 * ms:.3f}':>12} "
                     f"{p['illegal']:>7} {p['late']:>5} {p['crash']:>5} {p['garbled']:>7}")
    if doc["pairs"]:
        lines += ["", "paired differences (a minus b, points per hand; fewer is better):"]
        for q in doc["pairs"]:
            low, high = q["ci95"]
            ci = "" if low is None else f"   95% CI [{low:+.2f}, {high:+.2f}]"
            lines.append(f"  {terminal_safe(q['a'])} - {terminal_safe(q['b'])}: {_pm(q['difference'], q['se'])}{ci}")
    if doc["fault_count"]:
        lines += ["", f"{counted(doc['fault_count'], 'fault')} (the fallback played those decisions); the first:"]
        for f in doc["faults"][:10]:
            lines.append(terminal_safe(f"  {f['game_id']} seat {f['seat']} {f['decision']}: {f['player']}: "
                                       f"{f['kind']}: {f['detail']}"))
    return "\n".join(lines)


def csv_text(doc: dict[str, Any]) -> str:
    """One row per player, then one row per pair (``kind`` tells them apart); a name a spreadsheet would run as a
    formula is defused (:func:`hearts_analysis.text.csv_safe`)."""
    out = io.StringIO()
    fields = ["kind", "player", "points_per_hand", "se", "hands", "moons", "qs_taken", "qs_per_hand", "decisions",
              "seconds_per_decision", *FAULT_KINDS, "fallback_decisions", *RATING_COLUMNS, "a", "b", "difference", "ci95_low",
              "ci95_high"]
    writer = csv.DictWriter(out, fields, lineterminator="\n")
    writer.writeheader()
    for p in doc["players"]:
        writer.writerow({"kind": "player", **p, "player": csv_safe(p["player"])})
    for q in doc["pairs"]:
        writer.writerow({"kind": "pair", "a": csv_safe(q["a"]), "b": csv_safe(q["b"]), "difference": q["difference"], "se": q["se"],
                         "ci95_low": q["ci95"][0], "ci95_high": q["ci95"][1]})
    return out.getvalue()
