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
from typing import Iterable, Sequence

from ..cards import card_name, names
from .board import AdvisedOption
from .decision import Decision
from .settings import Settings
from .game import GameReview, accuracy_percent


def _cards(decision: Decision, cards: tuple[int, ...]) -> str | list[str]:
    return names(cards) if decision.kind == "pass" else names(cards)[0]


def options_list(decision: Decision) -> list[dict]:
    """Every real option of ``decision``, best first, in the shape of the advice's options (built by the same
    :class:`~.board.AdvisedOption`); the played option carries the decision's reason."""
    margins = decision.margins or (0.0,) * len(decision.options)
    return [AdvisedOption(o, m, decision.reason if o.cards == decision.played and decision.reason else "").to_dict()
            for o, m in zip(decision.options, margins)]


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
        "decided_by": decision.decided_by,
        "win_cost": None if decision.win_cost is None else round(decision.win_cost, 3),
        "win_margin": None if decision.win_margin is None else round(decision.win_margin, 3),
        "options": options_list(decision),
        "equal": [names(group) for group in decision.equal],
        "line": [[seat, card_name(card)] for seat, card in decision.line],
    }


def not_reviewed(review: GameReview, seat: int) -> str | None:
    """Why ``seat`` has no accuracy in ``review`` (``None``: it has one): no hand of it was reviewed, or every
    decision it made was forced."""
    mine = [d for d in review.decisions if d.seat == seat]
    if any(not d.forced for d in mine):
        return None
    if mine:
        return "every decision reviewed was forced"
    if review.skipped:
        return "no hand was reviewed (" + "; ".join(skipped_lines(review.skipped)) + ")"
    return "no decision was reviewed"


def skipped_lines(skipped: Iterable[tuple[int, str]]) -> list[str]:
    """The hands not reviewed, once per reason: ``"hands 1-4: why"``.

    >>> skipped_lines([(1, "charges"), (2, "charges"), (4, "charges"), (3, "a violation")])
    ['hands 1-2, 4: charges', 'hand 3: a violation']
    """
    by_reason: dict[str, list[int]] = {}
    for hand, why in skipped:
        by_reason.setdefault(why, []).append(hand)
    return [f"{'hand' if len(hands) == 1 else 'hands'} {_ranges(sorted(hands))}: {why}"
            for why, hands in by_reason.items()]


def _ranges(numbers: list[int]) -> str:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def game_dict(review: GameReview, source: str | None = None, seats: Iterable[int] | None = None) -> dict:
    """A game's review; ``accuracy`` has every seat reviewed (``seats``, default all), ``None`` (n/a) for a seat
    with no unforced decision, and ``not_reviewed`` says why for each such seat."""
    seats = range(len(review.players)) if seats is None else sorted(seats)
    measured = review.accuracy()
    why = {seat: not_reviewed(review, seat) for seat in seats}
    return {
        "source": source,
        "game_id": review.game_id,
        "players": list(review.players),
        "decisions": [decision_dict(d, review.players) for d in review.decisions],
        "accuracy": {str(seat): None if why[seat] else measured.get(seat) for seat in seats},
        "not_reviewed": {str(seat): text for seat, text in why.items() if text},
        "skipped_hands": [{"hand": hand, "reason": why} for hand, why in review.skipped],
        "skipped": skipped_lines(review.skipped),
    }


def review_document(games: list[dict], settings: Settings, errors: list[dict]) -> dict:
    """``hearts review --format json``: each game's review (:func:`game_dict`), the settings, the unreadable
    records."""
    return {"games": games, "level": settings.level, "settings": settings_dict(settings), "errors": errors}


def summary_document(rows: list[dict], settings: Settings, errors: list[dict]) -> dict:
    """``hearts review --summary --format json``: one row per player (:data:`SUMMARY_COLUMNS`)."""
    return {"players": rows, "level": settings.level, "settings": settings_dict(settings), "errors": errors}


def cards_text(cards: str | list[str]) -> str:
    """A decision's cards as one text (``"QS"``, a pass as ``"QS AH KH"``)."""
    return cards if isinstance(cards, str) else " ".join(cards)


def option_cards(d: dict, option: dict) -> str:
    """An option's cards as text: a pass's cards spaced, a card with the equal cards merged into it joined
    (``KS/AS``).

    >>> option_cards({"equal": [["AS", "KS"]]}, {"cards": ["KS"]}), option_cards({}, {"cards": ["QS", "AH"]})
    ('KS/AS', 'QS AH')
    """
    cards = " ".join(option["cards"])
    for group in d.get("equal") or ():
        if len(option["cards"]) == 1 and option["cards"][0] in group and len(group) > 1:
            cards = "/".join([option["cards"][0]] + [c for c in group if c != option["cards"][0]])
    return cards


def is_played(d: dict, option: dict) -> bool:
    """Whether ``option`` is the one the decision ``d`` made."""
    return option["cards"] == ([d["played"]] if isinstance(d["played"], str) else d["played"])


def option_words(d: dict, option: dict) -> str:
    """One option as the text shows it: its cards (:func:`option_cards`), expected points ± margin, and which
    was played."""
    return (f"{option_cards(d, option)} {option['expected_points']:.1f} ± {option['margin']:.1f}"
            + (" (played)" if is_played(d, option) else ""))


def options_words(d: dict) -> str:
    """Every option of a decision's document, best first (:func:`option_words`)."""
    return ", ".join(option_words(d, o) for o in d.get("options") or ())


def line_words(d: dict, players: Sequence[str]) -> str:
    """The likely line after the better card, each play with its player: ``7S (ann), AS (bob), ...``."""
    return ", ".join(f"{card} ({players[seat] if seat < len(players) else seat})" for seat, card in d.get("line") or ())


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
            "own_model": settings.own_model, "look_ahead": settings.look_ahead, "identify": list(settings.identify),
            "confirm": settings.confirm, "infer": settings.infer, "level": settings.level}


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
    unreviewed: list = field(default_factory=list)
    """Why games of this player had no unforced decision of theirs (once per reason)."""

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
            "mean_cost": round(self.lost / self.unforced, 3) if self.unforced else None,
            "accuracy": accuracy_percent(self.lost, self.stake) if self.unforced else None,
            "note": None if self.unforced else "; ".join(self.unreviewed) or "no decision was reviewed",
        }


SUMMARY_COLUMNS = ["player", "games", "decisions", "unforced", "inaccuracies", "mistakes", "blunders",
                   "mean_cost", "accuracy", "note"]
"""``accuracy`` and ``mean_cost`` are empty (n/a) for a player with no unforced decision, and ``note`` says why."""


def tally(tallies: dict[str, PlayerTally], number: int, review: GameReview,
          seats: Iterable[int] | None = None) -> None:
    """Add game ``number``'s review of ``seats`` to the running totals per player name; a seat with no decision
    reviewed still counts the game, and says why. ``seats`` by default: the seats with a decision, forced or
    not, or every seat where the review has none (every hand skipped)."""
    for decision in review.decisions:
        name = review.players[decision.seat]
        tallies.setdefault(name, PlayerTally(name)).add(number, decision)
    if seats is None:
        seats = sorted({d.seat for d in review.decisions}) if review.decisions else range(len(review.players))
    for seat in seats:
        why = not_reviewed(review, seat)
        if why:
            mine = tallies.setdefault(review.players[seat], PlayerTally(review.players[seat]))
            mine.games.add(number)
            if why not in mine.unreviewed:
                mine.unreviewed.append(why)


def summarise(reviews: Iterable[GameReview]) -> list[dict]:
    """One row per player name over all ``reviews``: counts by class, mean cost, accuracy."""
    tallies: dict[str, PlayerTally] = {}
    for number, review in enumerate(reviews):
        tally(tallies, number, review)
    return [tallies[name].row() for name in sorted(tallies)]
