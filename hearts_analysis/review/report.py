"""The review as JSON-ready dicts (the ``hearts review --format json`` contract) and per-player rows.

Contract: ``{"games": [{"game_id", "decisions": [{"hand", "trick", "seat", "kind", "played",
"best", "cost", "class"}], "accuracy": {seat: percent}}]}``; cards are names (``"QS"``), a pass
is a list of them. Further keys only add detail.

>>> from hearts_analysis.review import Settings, review_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=1)
>>> review = review_game(game, Settings(samples=20), seats=[0], hands=[1])
>>> document = game_dict(review, source="games.jsonl")
>>> {"hand", "trick", "seat", "kind", "played", "best", "cost", "class"} <= set(document["decisions"][0])
True
>>> document["decisions"][0]["kind"], document["decisions"][0]["player"], len(document["decisions"])
('pass', 'ann', 14)
>>> row = decision_rows(document)[0]
>>> row["source"], row["kind"], len(row["played"].split())
('games.jsonl', 'pass', 3)
>>> [(row["player"], row["decisions"]) for row in summarise([review])]
[('ann', 14)]
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
        "unclear_reason": decision.unclear_reason,
        "other_cost": None if decision.other_cost is None else round(decision.other_cost, 2),
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


def review_document(games: list[dict], settings: Settings, errors: list[dict]) -> dict:
    """``hearts review --format json``: each game's review (:func:`game_dict`), the settings, the unreadable
    records."""
    return {"games": games, "settings": settings_dict(settings), "errors": errors}


def summary_document(rows: list[dict], settings: Settings, errors: list[dict]) -> dict:
    """``hearts review --summary --format json``: one row per player (:data:`SUMMARY_COLUMNS`)."""
    return {"players": rows, "settings": settings_dict(settings), "errors": errors}


def cards_text(cards: str | list[str]) -> str:
    """A decision's cards as one text (``"QS"``, a pass as ``"QS AH KH"``)."""
    return cards if isinstance(cards, str) else " ".join(cards)


DECISION_COLUMNS = ["source", "game_id", "hand", "trick", "seat", "player", "kind", "played", "best", "cost",
                    "margin", "class", "forced", "reason", "unclear", "unclear_reason"]
"""``hearts review --format csv``: one row per decision."""


def decision_rows(game: dict) -> list[dict]:
    """The decisions of a game's review as flat rows (cards as text), for :data:`DECISION_COLUMNS`."""
    return [{**d, "source": game["source"], "game_id": game["game_id"], "played": cards_text(d["played"]),
             "best": cards_text(d["best"])} for d in game["decisions"]]


def settings_dict(settings: Settings) -> dict:
    return {"samples": settings.samples, "pass_samples": settings.pass_deals, "seed": settings.seed,
            "exact_tricks": settings.exact_tricks,
            "confidence_z": settings.confidence_z, "budget": settings.budget, "batch": settings.batch,
            "tolerance": settings.tolerance, "early_tolerance": settings.early_tolerance, "model": settings.model,
            "own_model": settings.own_model, "look_ahead": settings.look_ahead, "confirm": settings.confirm,
            "infer": settings.infer}


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
