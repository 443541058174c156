"""Reviewing many games: hand by hand on several processes or a Dask cluster, cached, in input order.

A hand is the unit of work: its review depends only on the game record (the
random stream of each decision is keyed by game, hand and seat), so hands can
run anywhere, in any order, and be cached one by one, and the result is the
same as :func:`~hearts_analysis.review.review_game` on the whole game. Each
game is replayed once, here; a worker gets its hand's replayed start
(:class:`~hearts_analysis.review.game.HandStart`), not the record. Only a
bounded number of hands are in flight ahead of the game being returned, so
memory stays flat on a corpus of any size.

>>> from hearts_analysis.records.errors import Item
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.review import Settings, review_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=2)
>>> settings = Settings(samples=20)
>>> [done] = review_items([Item("g.json:1", game)], settings, hands=[2])
>>> done.review == review_game(game, settings, hands=[2])
True
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping

from ..executor import Task, open_executor, ordered  # noqa: F401  (open_executor: importable from here too)
from ..records.errors import Item
from ..records.model import GameRecord, is_score_sheet
from .cache import ReviewCache
from .settings import Settings
from .game import GameReview, HandStart, hand_starts, review_start, sheet_review


@dataclass(frozen=True)
class ReviewedGame:
    """One input item and its review (``None`` where the item is an unreadable record)."""

    item: Item
    review: GameReview | None
    seats: tuple[int, ...] | None
    """The seats reviewed; ``None`` for all."""
    starts: Mapping[int, HandStart] = field(default_factory=dict)
    """The replayed start of each hand that was reviewed rather than found in the cache (for the puzzles)."""


def review_hand_task(start: HandStart, seats: tuple[int, ...] | None, settings: Settings) -> GameReview:
    """The review of one hand from its replayed start (what a worker runs: it replays nothing)."""
    return review_start(start, seats, settings)


def seats_of(game: GameRecord, player: str | None) -> tuple[int, ...] | None:
    """The seats ``player`` holds in ``game`` (``None``: every seat, when no player is named)."""
    if player is None:
        return None
    return tuple(seat for seat, name in enumerate(game.players) if name == player)


def review_one(game: GameRecord | dict, player: str | None = None, *, hands: Iterable[int] | None = None,
               settings: Settings | None = None) -> GameReview:
    """The review of one game (a record, or a ``hearts-game/1`` dict): each decision of ``player`` (default:
    every seat) in ``hands`` (1-based; default: all); :func:`hearts_analysis.review` (the façade's)."""
    from ..records.json import game_from_dict
    from .game import review_game
    record = game_from_dict(game) if isinstance(game, dict) else game
    if player is not None and player not in record.players:
        raise ValueError(f"{player!r} did not play this game (its players: {', '.join(record.players)})")
    return review_game(record, settings or Settings(), seats_of(record, player), hands)


def hand_numbers(game: GameRecord, hands: Iterable[int] | None) -> list[int]:
    """The hands of ``game`` to review: ``hands`` (1-based) where the game has them, else all."""
    count = len(game.hands)
    if hands is None:
        return list(range(1, count + 1))
    return sorted({h for h in hands if 1 <= h <= count})


def hands_to_review(items: Iterable[Item], player: str | None = None, hands: Iterable[int] | None = None) -> int:
    """How many hands :func:`review_items` will review (for a progress total)."""
    wanted = None if hands is None else list(hands)
    total = 0
    for item in items:
        if item.game is not None and seats_of(item.game, player) != ():
            total += len(hand_numbers(item.game, wanted))
    return total


def review_items(items: Iterable[Item], settings: Settings = Settings(), player: str | None = None,
                 hands: Iterable[int] | None = None, executor=None, cache: ReviewCache | None = None,
                 progress: Callable[[int], None] | None = None, ahead: int = 8) -> Iterator[ReviewedGame]:
    """Every item, reviewed, in input order; games without ``player`` are left out.

    ``executor``: anything with ``submit(fn, *args)`` returning a future (a process pool, a Dask
    client wrapper); ``None`` reviews here. The hands run through :func:`~hearts_analysis.executor.ordered`, so
    ``ahead`` bounds the hands in flight beyond the one being returned, and a cached hand waits in its place.
    ``progress(k)`` is called as ``k`` more hands are done (reviewed, or found in the cache), in input order.
    """
    wanted = None if hands is None else list(hands)
    games: deque[_Game] = deque()   # the games whose hands are being taken, in input order

    def tasks() -> Iterator[Task]:
        for item in items:
            if item.game is None:   # an unreadable record keeps its place by a result of its own
                games.append(_Game(item, None, [], {}))
                yield Task(_same, (None,), now=True)
                continue
            seats = seats_of(item.game, player)
            if seats == ():
                continue
            numbers = hand_numbers(item.game, wanted)
            if is_score_sheet(item.game):   # nothing to review, and nothing to keep in the cache
                games.append(_Game(item, seats, [None] * len(numbers), {}))
                for number in numbers:
                    yield Task(_same, (sheet_review(item.game, [number]),), now=True)
                continue
            keys = [cache.key(item.game, number, seats, settings) if cache is not None else "" for number in numbers]
            known = [cache.get(key, item.game, number, seats) if cache is not None else None
                     for number, key in zip(numbers, keys)]
            missing = [number for number, review in zip(numbers, known) if review is None]
            starts = {start.number: start for start in hand_starts(item.game, missing)} if missing else {}
            games.append(_Game(item, seats, [key if review is None else None for key, review in zip(keys, known)],
                               starts))
            for number, review in zip(numbers, known):
                yield (Task(_same, (review,), now=True) if review is not None
                       else Task(review_hand_task, (starts[number], seats, settings)))

    for review in ordered(tasks(), executor, ahead):
        while games[0].done:   # a game with no hand to review
            yield games.popleft().reviewed()
        game = games[0]
        if game.item.game is not None:
            key = game.keys[len(game.reviews)]
            if cache is not None and key is not None:
                cache.put(key, review)
            if progress:
                progress(1)
        game.reviews.append(review)
        while games and games[0].done:
            yield games.popleft().reviewed()
    while games:
        yield games.popleft().reviewed()


@dataclass
class _Game:
    """A game whose hands are in flight: the cache key of each hand to review (``None`` for one found in the
    cache), the replayed starts, and the reviews back so far."""

    item: Item
    seats: tuple[int, ...] | None
    keys: list[str | None]
    starts: dict
    reviews: list = field(default_factory=list)

    @property
    def done(self) -> bool:
        """Every result is back (an unreadable record has one, its place holder)."""
        return len(self.reviews) == (len(self.keys) if self.item.game is not None else 1)

    def reviewed(self) -> ReviewedGame:
        game = self.item.game
        if game is None:
            return ReviewedGame(self.item, None, None)
        decisions = tuple(d for r in self.reviews for d in r.decisions)
        skipped = tuple(s for r in self.reviews for s in r.skipped)
        return ReviewedGame(self.item, GameReview(game.game_id, game.players, decisions, skipped), self.seats,
                            self.starts)


def _same(value):
    return value


@dataclass(frozen=True)
class ReviewPlan:
    """How a caller that reviews games as it goes (a report) gets its reviews: the settings, where the hands
    run (an executor from :func:`open_executor`), the cache, and a progress callback per hand reviewed."""

    settings: Settings = Settings()
    executor: Any = None
    cache: ReviewCache | None = None
    progress: Callable[[int], None] | None = None

    @classmethod
    def of(cls, review: "Settings | ReviewPlan | None") -> "ReviewPlan | None":
        """A plan from settings alone (reviewed here, uncached), a plan, or ``None`` for no review."""
        return cls(review) if isinstance(review, Settings) else review

    def review(self, items: Iterable[Item], player: str | None = None,
               hands: Iterable[int] | None = None) -> Iterator[ReviewedGame]:
        """:func:`review_items` under this plan."""
        return review_items(items, self.settings, player, hands, self.executor, self.cache, self.progress)

    def review_game(self, source: str, game: GameRecord) -> GameReview:
        """One game, its hands reviewed in parallel where the plan has workers."""
        [done] = self.review([Item(source, game)])
        assert done.review is not None
        return done.review
