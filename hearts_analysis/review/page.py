"""What a game's review page shows, from the review document (:func:`~.report.game_dict`) and the game.

A player reads a review to learn, so the page must let them find each flagged
decision at the table: every decision carries its place in the replay (the
hand, and the 1-based play that shows it; 0 for a pass, which the replay shows
before the first lead). Accuracy over one game rests on a few dozen decisions,
and how hard those happened to be moves it as much as how well they were
played, so it is given with an interval: a bootstrap over the player's unforced
decisions (``scipy.stats.bootstrap``), resampling each decision's cost with
what was at stake in it.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.review import Settings, game_dict, review_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=1)
>>> page = review_page(game_dict(review_game(game, Settings(samples=16), hands=[1])), game)
>>> [row["player"] for row in page.players]
['ann', 'bob', 'cy', 'dee']
>>> all(d["fragment"] == f"#hand={d['hand']}&play={d['play']}" for d in page.decisions)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..records.model import GameRecord
from .report import is_played, line_words, option_cards, options_words

CLASS_NAMES = ("inaccuracy", "mistake", "blunder")
CONFIDENCE = 0.95
"""The confidence level of the accuracy interval."""
RESAMPLES = 2000
"""Bootstrap resamples: between seeds the interval's ends move by about 0.4 points (one standard deviation,
25 decisions); the seed is fixed, so a page is the same every time."""


def fragment(hand: int, play: int) -> str:
    """The replay's address of a position: hand number and plays shown, both as the viewer reads them.

    >>> fragment(2, 5)
    '#hand=2&play=5'
    """
    return f"#hand={hand}&play={play}"


def play_number(plays: Sequence[Sequence[int]], seats: int, trick: int | None, seat: int) -> int:
    """The 1-based play of ``seat`` in ``trick`` (0 for the pass, ``trick is None``), where the replay shows
    that decision made; the trick's end when the seat has no card in it (a hand cut short).

    >>> play_number([(0, 1), (1, 2), (2, 3), (3, 4), (1, 5), (2, 6)], 4, 2, 2)
    6
    """
    if trick is None:
        return 0
    first, last = (trick - 1) * seats, min(trick * seats, len(plays))
    for index in range(first, last):
        if plays[index][0] == seat:
            return index + 1
    return last


OPTION_FIELDS = ("cards", "points", "margin", "marks", "reason")
"""The fields of an option as the page's data gives it (an array: the page holds every decision's options)."""


def judge(d: dict[str, Any]) -> dict[str, Any]:
    """What "ask the judge here" shows of one decision ``d`` of the review document, and no more (the page
    carries one for every decision): ``seat``, ``played``, ``best`` (the card the review names better, which
    the line follows: not always the first option, whose lead may be within the noise), ``cost``; ``class``,
    ``forced`` and ``unclear`` where they hold; the ``options``, best first, each
    ``[cards, points, margin, marks, reason]`` (:data:`OPTION_FIELDS`, empty ends left off): the cards with
    the equal cards merged (``KS/AS``), expected points ± margin (to the tenth the panel shows), marks ``=`` within the noise of the first
    (the board's ``equal``; the played card: its cost within the cost's margin; another: its distance from the
    first within its own margin), ``p`` played, ``b`` the better card; and ``line``, the plays
    ``[seat, card]`` that follow the better card, starting with it.

    >>> d = {"seat": 1, "kind": "play", "played": "5S", "best": "KS", "cost": 2.5, "margin": 0.4,
    ...      "class": "inaccuracy", "equal": [["KS", "AS"], ["5S"], ["2C"]], "line": [[1, "KS"], [2, "3S"]],
    ...      "options": [{"cards": ["KS"], "expected_points": 1.0, "margin": 0.3, "equal": False, "reason": ""},
    ...                  {"cards": ["5S"], "expected_points": 3.5, "margin": 0.5, "equal": False, "reason": "ducks"},
    ...                  {"cards": ["2C"], "expected_points": 1.2, "margin": 0.4, "equal": False, "reason": ""}]}
    >>> entry = judge(d)
    >>> entry["options"]
    [['KS/AS', 1.0, 0.3, 'b'], ['5S', 3.5, 0.5, 'p', 'ducks'], ['2C', 1.2, 0.4, '=']]
    >>> entry["line"], entry["class"]
    ([[1, 'KS'], [2, '3S']], 'inaccuracy')
    """
    options = d.get("options") or []
    groups = d.get("equal") or ()
    best = options[0]["expected_points"] if options else 0.0
    best_cards = [d["best"]] if isinstance(d.get("best"), str) else d.get("best")
    shown = []
    for i, option in enumerate(options):
        played = is_played(d, option) or (isinstance(d.get("played"), str) and i < len(groups)
                                          and d["played"] in groups[i])
        if i == 0:
            near = False
        elif option.get("equal"):
            near = True
        elif played and d.get("margin") is not None:
            near = d["cost"] <= d["margin"]
        else:
            near = option["expected_points"] - best <= option["margin"]
        marks = "=" * near + "p" * played + "b" * (option["cards"] == best_cards)
        entry: list[Any] = [option_cards(d, option), round(option["expected_points"], 1), round(option["margin"], 1), marks,
                            option.get("reason") or ""]
        while entry[-1] == "":
            entry.pop()
        shown.append(entry)
    played_text = d["played"] if isinstance(d["played"], str) else " ".join(d["played"])
    out: dict[str, Any] = {"seat": d["seat"], "played": played_text,
                           "best": " ".join(d["best"]) if isinstance(d.get("best"), list) else d.get("best"),
                           "cost": d.get("cost"), "options": shown}
    for key in ("class", "forced"):
        if d.get(key):
            out[key] = d[key]
    if d.get("unclear"):    # why is the played option's reason
        out["unclear"] = True
    if d.get("line"):
        out["line"] = [[seat, card] for seat, card in d["line"]]
    return out


def accuracy_interval(costs: Sequence[float], spreads: Sequence[float],
                      confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """A ``confidence`` interval for accuracy (``100 * (1 - sum cost / sum spread)``) over these decisions;
    ``None`` where fewer than three decisions, or nothing at stake, leave nothing to resample.

    >>> low, high = accuracy_interval([0, 0, 2, 0, 5, 0, 0, 1], [3, 2, 4, 1, 9, 2, 6, 3])
    >>> low < 100 * (1 - 8 / 30) < high <= 100
    True
    """
    cost = np.asarray(costs, dtype=float)
    spread = np.asarray(spreads, dtype=float)
    if len(cost) < 3 or spread.sum() <= 0:
        return None
    if not cost.any():
        return (100.0, 100.0)
    from scipy.stats import bootstrap   # loads in about a second: only when a page is built

    def ratio(c: np.ndarray, s: np.ndarray, axis: int = -1) -> np.ndarray:
        lost, stake = c.sum(axis=axis), s.sum(axis=axis)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(stake > 0, 100.0 * (1.0 - lost / stake), 100.0)

    result = bootstrap((cost, spread), ratio, paired=True, vectorized=True, n_resamples=RESAMPLES,
                       confidence_level=confidence, method="percentile", rng=np.random.default_rng(0))
    low, high = result.confidence_interval
    return float(low), float(high)


@dataclass(frozen=True)
class ReviewPage:
    """A game's review as its page shows it."""

    players: list[dict[str, Any]]
    """One row per reviewed seat: ``seat, player, accuracy, low, high`` (the interval, ``None`` when too
    few decisions), ``decisions, unforced, inaccuracy, mistake, blunder, unclear, lost``."""
    decisions: list[dict[str, Any]]
    """Every unforced decision in game order, each a decision of the document plus ``play`` (1-based,
    0 for the pass) and ``fragment`` (its replay address)."""
    confidence: float = CONFIDENCE
    level: str | None = None
    """The review level (:mod:`.levels`) the document names, if it does."""

    @property
    def flagged(self) -> list[dict[str, Any]]:
        """Every flagged decision, in game order: the whole list, never cut."""
        return [d for d in self.decisions if d.get("class")]


def review_page(document: dict[str, Any], game: GameRecord, confidence: float = CONFIDENCE) -> ReviewPage:
    """The page data of one game's review ``document`` (one entry of ``hearts review --format json``)."""
    players = list(document.get("players") or game.players)
    decisions = []
    for d in document.get("decisions") or []:
        if d.get("forced"):
            continue
        hand = d["hand"]
        plays = game.hands[hand - 1].plays if 1 <= hand <= len(game.hands) else ()
        play = play_number(plays, game.seats, d.get("trick") if d.get("kind") == "play" else None, d["seat"])
        decisions.append({**d, "play": play, "fragment": fragment(hand, play), "options_text": options_words(d),
                          "line_text": line_words(d, players)})
    decisions.sort(key=lambda d: (d["hand"], d["play"], d["seat"]))
    accuracy = document.get("accuracy") or {}
    rows = []
    for key in sorted(accuracy, key=int):
        seat = int(key)
        mine = [d for d in decisions if d["seat"] == seat]
        every = sum(1 for d in document.get("decisions") or [] if d["seat"] == seat)
        costs = [d["cost"] for d in mine]
        spreads = [d.get("spread") for d in mine]
        interval = None if None in spreads else accuracy_interval(costs, spreads, confidence)
        point = None if accuracy[key] is None else float(accuracy[key])
        interval = None if point is None else interval
        row = {"seat": seat, "player": players[seat] if seat < len(players) else str(seat), "accuracy": point,
               "not_reviewed": (document.get("not_reviewed") or {}).get(key),
               "low": None if interval is None else round(min(interval[0], point), 1),
               "high": None if interval is None else round(max(interval[1], point), 1),
               "decisions": every, "unforced": len(mine), "unclear": sum(bool(d.get("unclear")) for d in mine),
               "lost": round(sum(costs), 2)}
        row.update({name: sum(d.get("class") == name for d in mine) for name in CLASS_NAMES})
        rows.append(row)
    return ReviewPage(rows, decisions, confidence, document.get("level"))
