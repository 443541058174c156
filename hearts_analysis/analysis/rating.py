"""A multiplayer skill rating from game results, with its uncertainty (openskill's Plackett-Luce).

Every finished game is a ranking of its players by final total (lowest first, equal totals
tied). openskill's Plackett-Luce model turns a stream of such rankings into a Bayesian
estimate per player: ``mu`` (the skill) and ``sigma`` (how unsure of it we are; it shrinks as
the player's games add up). Games are rated in ``played_at`` order, games without a time or
with the same time in the order they were read, so a corpus gives the same ratings however it
was split into files.

A leaderboard sorts by the conservative estimate ``mu - 3 sigma`` (openskill's *ordinal*):
a newcomer with two lucky wins does not top players with hundreds of games.

>>> outcomes = [GameOutcome(f"g{i}", None, ("ann", "bob", "cy"), (20, 60, 101), True) for i in range(20)]
>>> ratings = rate_games(outcomes)
>>> [row["player"] for row in ratings.leaderboard()]
['ann', 'bob', 'cy']
>>> len(ratings.history) == 20 * 3
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from operator import itemgetter
from typing import Any, Iterable

from .points import positions


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What the rating needs of one game: who sat and how they finished."""

    game_id: str | None
    played_at: str | None
    """ISO 8601 time as recorded (``None`` when the record has none)."""
    players: tuple[str, ...]
    totals: tuple[int, ...]
    """Final running totals, seat by seat, as recomputed by the replay."""
    complete: bool
    """A total reached the target; only finished games are rated."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the skill the player has with about 99.9 % confidence."""
        return self.mu - 3 * self.sigma


@dataclass
class Ratings:
    """Every player's rating after the last game, and after each game (the history)."""

    current: dict[str, Rating] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    """Rated games per player."""
    updates: list[tuple[str, str, str, int, Rating]] = field(default_factory=list)
    """``(game_id, played_at, player, rated games, rating)`` after each rated game and player, kept as tuples:
    most uses want only the current ratings, and rows of dictionaries cost a quarter of the rating's time."""

    has_history: bool = True
    """``updates`` were kept (see :func:`rate_games`)."""

    @property
    def history(self) -> list[dict[str, Any]]:
        """One row per rated game and player: ``game_id, played_at, player, rated_games, rating, rating_sigma,
        rating_conservative`` (the ``ratings`` table of the catalogue)."""
        if not self.has_history:
            raise ValueError("these ratings were computed without their history (rate_games(..., history=True))")
        return [{"game_id": game_id, "played_at": played_at, "player": player, "rated_games": games,
                 "rating": rating.mu, "rating_sigma": rating.sigma, "rating_conservative": rating.conservative}
                for game_id, played_at, player, games, rating in self.updates]

    def columns(self, player: str) -> dict[str, float]:
        """``rating``, ``rating_sigma``, ``rating_conservative`` of a player (NaN if never rated)."""
        found = self.current.get(player)
        if found is None:
            return {"rating": math.nan, "rating_sigma": math.nan, "rating_conservative": math.nan}
        return {"rating": found.mu, "rating_sigma": found.sigma, "rating_conservative": found.conservative}

    def leaderboard(self) -> list[dict[str, Any]]:
        """Rated players, best conservative estimate first (ties by name)."""
        rows = [{"player": name, "rated_games": self.games[name], **self.columns(name)} for name in self.current]
        return sorted(rows, key=lambda row: (-row["rating_conservative"], row["player"]))


def _moment(played_at: str | None) -> datetime | None:
    """A comparable time: naive times are taken as UTC; an unreadable one is treated as missing."""
    if not played_at:
        return None
    try:
        moment = datetime.fromisoformat(played_at)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def in_played_order(outcomes: Iterable[GameOutcome]) -> list[GameOutcome]:
    """Timed games by ``played_at``, then the untimed ones; where times tie, by game id (then seats
    and totals), so that the order does not depend on the order in which games were counted."""
    timed, untimed = [], []
    for o in outcomes:
        moment = _moment(o.played_at)
        if moment is None:   # kept apart: keys without a time to compare sort twice as fast
            untimed.append(((o.game_id or "", o.players, o.totals), o))
        else:
            timed.append(((moment, o.game_id or "", o.players, o.totals), o))
    timed.sort(key=itemgetter(0))
    untimed.sort(key=itemgetter(0))
    return [outcome for _, outcome in timed + untimed]


class _Teams(list):
    """One game's teams, given to ``rate`` to be used up: it deep-copies its teams so as not to change the
    caller's ratings, which took half the rating's time (a generic copy, and a new random id per player).
    These ratings are replaced by the ones ``rate`` returns and never read again, so the copy may share them."""

    def __deepcopy__(self, memo: dict) -> list:
        return [list(team) for team in self]


def rate_games(outcomes: Iterable[GameOutcome], history: bool = True) -> Ratings:
    """Rate every finished game with openskill's Plackett-Luce model, in ``played_at`` order; ``history``: keep
    each player's rating after each game (a leaderboard wants only the last, and the history costs a fifth
    of the rating's time)."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    state: dict[str, Any] = {}
    ratings = Ratings(has_history=history)
    games = ratings.games
    for outcome in in_played_order(outcomes):
        names = outcome.players
        if not outcome.complete or len(set(names)) != len(names) or len(names) < 2:
            continue
        teams = _Teams([state.get(name) or model.rating(name=name)] for name in names)
        rated = model.rate(teams, ranks=list(positions(outcome.totals)))
        for name, (player,) in zip(names, rated):
            state[name] = player
            games[name] = games.get(name, 0) + 1
        if history:
            game_id, played_at = outcome.game_id or "", outcome.played_at or ""
            ratings.updates += [(game_id, played_at, name, games[name], Rating(player.mu, player.sigma))
                                for name, (player,) in zip(names, rated)]
    ratings.current = {name: Rating(player.mu, player.sigma) for name, player in state.items()}
    return ratings


__all__ = ["GameOutcome", "Rating", "Ratings", "in_played_order", "rate_games"]
