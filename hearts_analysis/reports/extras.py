"""The optional sections of the game report: the analysis (moon attempts, pass verdicts) and the
review (the cost of each decision).

Both come in the JSON shapes their commands print (``hearts analyze --format json`` and
``hearts review --format json``, one entry of ``"games"`` each), so the report reads exactly
what users can read, and either layer may be absent: the report then leaves its section out.

Without review settings there is no review, and the report leaves that section out:

>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> extras = game_extras(replay_game(game), "games.jsonl:1")
>>> extras.review is None, extras.analysis["winners"], [moon["hand"] for moon in extras.analysis["moons"]]
(True, [3], [2])
"""

from __future__ import annotations

from ..records.model import is_score_sheet

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..engine.replay import GameResult

if TYPE_CHECKING:
    from ..review import Settings
    from ..review.batch import ReviewPlan

GameJSON = dict[str, Any]


@dataclass(frozen=True)
class GameExtras:
    """What the analysis and the review say about one game."""

    analysis: GameJSON | None = None
    """``{"moons": [{"hand", "seat", "outcome", "stopper", "trick"}], "passes": [{"hand", "seat", "to",
    "cards", "verdicts"}]}`` (hand and trick 1-based, seats 0-based)."""
    review: GameJSON | None = None
    """``{"decisions": [{"hand", "trick", "seat", "kind", "played", "best", "cost", "class"}],
    "accuracy": {seat: percent}}``."""

    @property
    def moons(self) -> list[dict[str, Any]]:
        return sorted((self.analysis or {}).get("moons") or [], key=lambda m: (m["hand"], m["seat"]))

    @property
    def passes(self) -> list[dict[str, Any]]:
        return sorted((self.analysis or {}).get("passes") or [], key=lambda p: (p["hand"], p["seat"]))

    @property
    def reviewed_passes(self) -> frozenset[tuple[int, int]]:
        """``(hand, seat)`` of every pass the review judged."""
        return frozenset((d["hand"], d["seat"]) for d in (self.review or {}).get("decisions") or []
                         if d.get("kind") == "pass")

    @property
    def flagged_passes(self) -> list[dict[str, Any]]:
        """The passes the advisor has a verdict on and the review did not judge (the replay shows every
        pass). A page has one judge: where the review judged a pass, its verdict stands alone, and the
        advice it agrees with is in its reason."""
        reviewed = self.reviewed_passes
        return [p for p in self.passes if p.get("verdicts") and (p["hand"], p["seat"]) not in reviewed]

    @property
    def accuracy(self) -> list[tuple[int, float]]:
        raw = (self.review or {}).get("accuracy") or {}
        return sorted((int(seat), float(value)) for seat, value in raw.items() if value is not None)

    @cached_property
    def _by_hand(self) -> dict[str, dict[int, list[dict[str, Any]]]]:
        """The moons, passes and reviewed decisions of each hand, found once: the report asks hand by hand,
        and scanning the whole game each time made a long game's report take minutes."""
        found: dict[str, dict[int, list[dict[str, Any]]]] = {"moons": {}, "passes": {}, "decisions": {}}
        for kind, entries in (("moons", self.moons), ("passes", self.passes),
                              ("decisions", (self.review or {}).get("decisions") or [])):
            for entry in entries:
                found[kind].setdefault(entry["hand"], []).append(entry)
        return found

    def moon_notes(self, hand: int, players: list[str], seats: int) -> dict[str, list[str]]:
        """What the moon detector saw in one hand, keyed by the replay step it belongs to."""
        notes: dict[str, list[str]] = {}
        for moon in self._by_hand["moons"].get(hand, ()):
            runner = players[moon["seat"]]
            start = moon.get("start_trick")
            if start:
                notes.setdefault(str(start * seats), []).append(
                    f"{runner} is running for the moon: every point so far is theirs.")
            if moon["outcome"] == "stopped" and moon.get("trick"):
                stopper = players[moon["stopper"]] if moon.get("stopper") is not None else "another seat"
                card = f" ({moon['card']})" if moon.get("card") else ""
                notes.setdefault(str(moon["trick"] * seats), []).append(
                    f"{stopper} stopped {runner}'s moon run{card}.")
            elif moon["outcome"] == "abandoned" and moon.get("trick"):
                notes.setdefault(str(moon["trick"] * seats), []).append(f"{runner} gave up the moon run.")
            for missed in moon.get("missed_stops") or []:
                notes.setdefault(str(missed["trick"] * seats), []).append(
                    f"{players[missed['seat']]} could have stopped the moon with {missed['card']} and did not.")
        return dict(sorted(notes.items(), key=lambda kv: int(kv[0])))

    def pass_verdicts(self, hand: int) -> dict[int, list[str]]:
        """The advisor's verdicts on each seat's pass in one hand, where the review did not judge it."""
        reviewed = self.reviewed_passes
        return {p["seat"]: [] if (hand, p["seat"]) in reviewed else list(p.get("verdicts") or [])
                for p in self._by_hand["passes"].get(hand, ())}

    def pass_reviews(self, hand: int, players: list[str]) -> dict[int, dict[str, Any]]:
        """The review of each seat's pass in one hand."""
        return {d["seat"]: {"class": d.get("class"), "text": decision_text(d, players)}
                for d in self._by_hand["decisions"].get(hand, ()) if d.get("kind") == "pass"}

    @property
    def skipped(self) -> list[dict[str, Any]]:
        return list((self.review or {}).get("skipped_hands") or [])

    def review_notes(self, hand: int, plays: list[list[Any]], players: list[str]) -> dict[str, dict[str, Any]]:
        """The review of each play of one hand, keyed by play index, as text for the replay viewer."""
        n = len(players)
        notes: dict[str, dict[str, Any]] = {}
        for decision in self._by_hand["decisions"].get(hand, ()):
            if decision.get("kind") != "play":
                continue
            index = next((i for i, (seat, _) in enumerate(plays)
                          if i // n + 1 == decision["trick"] and seat == decision["seat"]), None)
            if index is None:
                continue
            notes[str(index)] = {"class": decision.get("class"), "text": decision_text(decision, players)}
        return dict(sorted(notes.items(), key=lambda kv: int(kv[0])))

    def judge_notes(self, hand: int, plays: list[list[Any]], seats: int) -> dict[str, list[dict[str, Any]]]:
        """What "ask the judge here" shows at each position of one hand (:func:`~..review.page.judge`), keyed
        by the replay's step as the page's addresses count it: 0 for the passes (one per reviewed seat), s for
        the s-th play."""
        decisions = self._by_hand["decisions"].get(hand, ())
        if not decisions:   # no review: the review (and its compiled kernel) is not loaded
            return {}
        from ..review.page import judge
        notes: dict[int, list[dict[str, Any]]] = {}
        for decision in decisions:
            if decision.get("kind") == "pass":
                notes.setdefault(0, []).append(judge(decision))
                continue
            index = next((i for i, (seat, _) in enumerate(plays)
                          if i // seats + 1 == decision["trick"] and seat == decision["seat"]), None)
            if index is not None:
                notes.setdefault(index + 1, []).append(judge(decision))
        return {str(step): sorted(entries, key=lambda e: e["seat"]) for step, entries in sorted(notes.items())}


def _cards_text(cards: Any) -> str:
    return " ".join(cards) if isinstance(cards, list) else str(cards)


def decision_text(decision: dict[str, Any], players: list[str]) -> str:
    who = players[decision["seat"]]
    what = "passed" if decision.get("kind") == "pass" else "played"
    text = f"Review: {who} {what} {_cards_text(decision['played'])}"
    if decision.get("forced"):
        return f"{text}: forced."
    if decision.get("class"):
        text = (f"{text}: {decision['class']}, {decision['cost']:.1f} expected points lost; "
                f"better: {_cards_text(decision['best'])}.")
        reason = decision.get("reason")
        return f"{text} {reason[0].upper()}{reason[1:]}." if reason else text
    return f"{text}: no clear loss ({decision['cost']:.1f} points)."


def game_extras(result: GameResult, source: str = "", review: "Settings | ReviewPlan | None" = None
                ) -> GameExtras | None:
    """The analysis of a game and, when ``review`` settings (or a plan: workers, cache, progress) are given,
    its review (which takes about a second per hand, so it is asked for, never implied). Either layer may be
    absent; a score sheet has neither (it has no cards to analyse)."""
    if is_score_sheet(result.record):
        return None
    analysis = None
    try:
        from ..analysis import analyze_game, analysis_to_dict
    except ImportError:
        pass
    else:
        analysis = analysis_to_dict(analyze_game(result, source))
    reviewed = None
    if review is not None:
        from ..review import game_dict
        from ..review.batch import ReviewPlan
        plan = ReviewPlan.of(review)
        reviewed = {**game_dict(plan.review_game(source, result.record), source), "level": plan.settings.level}
    extras = GameExtras(analysis, reviewed)
    return extras if extras.analysis is not None or extras.review is not None else None
