"""The review as JSON-ready dicts (the ``hearts review --format json`` contract) and per-player rows.

Contract: ``{"games": [{"game_id", "decisions": [{"hand", "trick", "seat", "kind", "played",
"best", "cost", "class"}], "accuracy": {seat: percent}}]}``; cards are names (``"QS"``), a pass
is a list of them. Further keys only add detail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..cards import names
from .evaluate import Decision, Settings
from .game import GameReview, accuracy_percent


def _cards(decision: Decision, cards: tuple[int, ...]) -> str | list[str]:
    return names(cards) if decision.kind == "pass" else names(cards)[0]


def decision_dict(decision: Decision, players: tuple[str, ...]) -> dict:
    played = next(o for o in decision.options if o.cards == decision.played) if decision.options else None
    best = decision.options[0] if decision.options else None
    return {
        "hand": decision.hand,
        "trick": decision.trick,
        "seat": decision.seat,
        "player": players[decision.seat] if decision.seat < len(players) else None,
        "kind": decision.kind,
        "played": _cards(decision, decision.played),
        "best": _cards(decision, decision.best),
        "cost": round(decision.cost, 2),
        "class": decision.category,
        "margin": round(decision.margin, 2),
        "spread": round(decision.spread, 2),
        "forced": decision.forced,
        "unclear": decision.unclear,
        "expected": None if played is None else round(played.expected, 2),
        "best_expected": None if best is None else round(best.expected, 2),
        "alternatives": len(decision.options),
        "samples": decision.samples,
        "reason": decision.reason,
        "win_chance": None if decision.win_chance is None else
        {"played": round(decision.win_chance[0], 3), "best": round(decision.win_chance[1], 3)},
    }


def game_dict(review: GameReview, source: str | None = None) -> dict:
    return {
        "source": source,
        "game_id": review.game_id,
        "players": list(review.players),
        "decisions": [decision_dict(d, review.players) for d in review.decisions],
        "accuracy": {str(seat): value for seat, value in review.accuracy().items()},
        "skipped_hands": [{"hand": hand, "reason": why} for hand, why in review.skipped],
    }


def settings_dict(settings: Settings) -> dict:
    return {"samples": settings.samples, "seed": settings.seed, "exact_tricks": settings.exact_tricks,
            "confidence_z": settings.confidence_z, "budget": settings.budget, "batch": settings.batch,
            "tolerance": settings.tolerance, "model": settings.model}


@dataclass
class PlayerTally:
    """Running totals of one player's reviewed decisions over a corpus."""

    player: str
    games: set = field(default_factory=set)
    decisions: int = 0
    unforced: int = 0
    lost: float = 0.0
    stake: float = 0.0
    counts: dict = field(default_factory=lambda: {"inaccuracy": 0, "mistake": 0, "blunder": 0})

    def add(self, game: int, decision: Decision) -> None:
        self.games.add(game)
        self.decisions += 1
        if decision.forced:
            return
        self.unforced += 1
        self.lost += decision.cost
        self.stake += decision.spread
        if decision.category:
            self.counts[decision.category] += 1

    def row(self) -> dict:
        return {
            "player": self.player,
            "games": len(self.games),
            "decisions": self.decisions,
            "unforced": self.unforced,
            "inaccuracies": self.counts["inaccuracy"],
            "mistakes": self.counts["mistake"],
            "blunders": self.counts["blunder"],
            "mean_cost": round(self.lost / self.unforced, 3) if self.unforced else 0.0,
            "accuracy": accuracy_percent(self.lost, self.stake),
        }


SUMMARY_COLUMNS = ["player", "games", "decisions", "unforced", "inaccuracies", "mistakes", "blunders",
                   "mean_cost", "accuracy"]


def tally(tallies: dict[str, PlayerTally], number: int, review: GameReview) -> None:
    """Add game ``number``'s review to the running totals per player name."""
    for decision in review.decisions:
        name = review.players[decision.seat]
        tallies.setdefault(name, PlayerTally(name)).add(number, decision)


def summarise(reviews: Iterable[GameReview]) -> list[dict]:
    """One row per player name over all ``reviews``: counts by class, mean cost, accuracy."""
    tallies: dict[str, PlayerTally] = {}
    for number, review in enumerate(reviews):
        tally(tallies, number, review)
    return [tallies[name].row() for name in sorted(tallies)]
