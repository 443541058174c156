"""What a site of a whole corpus shows, gathered in one pass over its games.

The pass keeps what the pages need and never the games themselves: the audit
digest, the player statistics, one small row per game (for the list of games),
each player's result per game (for the cumulative results graph) and review
accuracy, and, per player and statistic, a few hands where the event happened
or could have and did not. Those hands are the evidence a leak links to: the
replay position (hand, 1-based play) where the event shows.

The leak list and the rating history come from the statistics (:func:`find_leaks`,
:func:`rating_history`), or from functions a caller gives in their place.

A filter compares ``played_at`` on the prefix given, so a day keeps all its games:

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> game.played_at
'2026-01-05T19:00:00Z'
>>> SiteFilter(until="2026-01-05").keeps(game), SiteFilter(since="2026-01-06").keeps(game)
(True, False)
>>> SiteFilter(players=frozenset({"ann"}), until="2026-01-05").words()
['games of ann', 'played until 2026-01-05']
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..analysis import GameAnalysis, HandAnalysis
from ..analysis.stats import PASS_RATES, Tally, seat_events
from ..cards import QS
from ..engine.replay import GameResult
from ..records.errors import Item
from ..records.model import GameRecord
from .audit import AuditDigest
from .extras import GameExtras
from .names import page_name
from .players import PlayersDigest

EVIDENCE_HANDS = 6
"""Hands kept per player, statistic and outcome, one per game: enough to see a habit, few enough to read."""


@dataclass(frozen=True)
class SiteFilter:
    """Which games and players a site covers.

    ``since`` / ``until`` compare ISO 8601 ``played_at`` texts on their common prefix, so
    ``--until 2026-11-29`` keeps every game of that day; a game without ``played_at`` is left
    out once either is given. ``rules`` are preset names. ``min_games``: players with fewer
    games get no page and no row in the leaderboard (their games stay listed).
    """

    players: frozenset[str] = frozenset()
    since: str | None = None
    until: str | None = None
    rules: frozenset[str] = frozenset()
    min_games: int = 1

    def keeps(self, game: GameRecord) -> bool:
        if self.players and not self.players.intersection(game.players):
            return False
        if self.rules and game.rules.preset not in self.rules:
            return False
        if self.since is not None or self.until is not None:
            at = game.played_at
            if not at:
                return False
            if self.since is not None and at[:len(self.since)] < self.since:
                return False
            if self.until is not None and at[:len(self.until)] > self.until:
                return False
        return True

    def words(self) -> list[str]:
        """The filters in force, for the pages and the summary line."""
        out = []
        if self.players:
            out.append("games of " + ", ".join(sorted(self.players)))
        if self.since:
            out.append(f"played from {self.since}")
        if self.until:
            out.append(f"played until {self.until}")
        if self.rules:
            out.append("rules " + ", ".join(sorted(self.rules)))
        if self.min_games > 1:
            out.append(f"players with at least {self.min_games} games")
        return out


def _seat_play(plays, n: int, trick: int, seat: int) -> int:
    """The 1-based play of ``seat`` in ``trick`` (the trick's last play when it has none)."""
    first, last = (trick - 1) * n, min(trick * n, len(plays))
    for index in range(first, last):
        if plays[index][0] == seat:
            return index + 1
    return last


def event_play(rate: str, hand: HandAnalysis, seat: int, happened: bool, plays, n: int) -> int:
    """Where a seat's event of one hand shows in the replay: a 1-based play, 0 for the passes."""
    moon = hand.moon
    end = len(plays)
    if rate in PASS_RATES.values() or not happened and rate != "moon_success_pct":
        return 0
    if rate == "qs_taken_pct":
        at = next((i for i, (_, card) in enumerate(plays) if card == QS), None)
        return end if at is None else min(end, (at // n + 1) * n)
    if rate == "moon_attempt_pct" and moon is not None:
        return min(end, moon.start_trick * n)
    if rate == "moon_success_pct" and moon is not None:
        return end if happened or not moon.trick else min(end, moon.trick * n)
    if rate == "missed_stop_pct" and moon is not None:
        missed = next((m for m in moon.missed if m.seat == seat), None)
        return end if missed is None else _seat_play(plays, n, missed.trick, seat)
    if rate == "hearts_broken_pct" and hand.hearts_broken is not None:
        return _seat_play(plays, n, hand.hearts_broken[0], seat)
    if rate == "violation_hand_pct":
        located = next((v for v in hand.result.violations if v.seat == seat and v.trick), None)
        return 0 if located is None else _seat_play(plays, n, located.trick, seat)
    return 0


def newest_first(row: dict[str, Any]) -> tuple[str, int]:
    """The order of the list of games, newest first when reversed: by ``played_at`` (a game without one is the
    oldest), then by input order (a later game is the newer)."""
    return row["played_at"] or "", row["index"]


@dataclass
class SiteDigest:
    """A corpus folded, one game at a time, into what the site's pages show.

    The newest ``max_pages`` games have a page (:func:`newest_first`): a game newer than the oldest holder
    takes its page, and the holder's row, results and evidence lose their link (``evicted`` lists such games,
    for the caller to drop their pages)."""

    filter: SiteFilter = field(default_factory=SiteFilter)
    max_pages: int = 200
    audit: AuditDigest = field(default_factory=AuditDigest)
    players: PlayersDigest = field(default_factory=PlayersDigest)
    games: list[dict[str, Any]] = field(default_factory=list)
    results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """``player -> [{"game", "played_at", "points", "average", "place"}]`` in input order."""
    accuracy: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    evidence: dict[tuple[str, str, bool], list[dict[str, Any]]] = field(default_factory=dict)
    """``(player, statistic, happened) -> [{"game", "page", "hand", "play"}]`` (at most :data:`EVIDENCE_HANDS`)."""
    filtered_out: int = 0
    pages_skipped: int = 0
    other_players: set[str] = field(default_factory=set)
    """The players of the games a player filter left out (for a near name when it keeps none)."""
    evicted: list[int] = field(default_factory=list)
    """Games that held a page and lost it to a newer game since the caller last emptied this list."""
    _taken: set[str] = field(default_factory=set)
    _holders: list[tuple[tuple[str, int], int]] = field(default_factory=list)
    """A heap of ``(newest_first key, index)`` of the games that have a page: the oldest on top."""
    _links: dict[int, list[tuple[list | None, dict[str, Any]]]] = field(default_factory=dict)
    """Per page holder, the entries that link its page (and the evidence list an entry is in)."""

    def skip(self, item: Item) -> bool:
        """Count an unreadable or filtered-out item; ``True`` when the game is to be added."""
        if item.game is None:
            self.audit.add(item, None)
            self.players.tally.add_error(item)
            return False
        if not self.filter.keeps(item.game):
            self.filtered_out += 1
            if self.filter.players:
                self.other_players.update(item.game.players)
            return False
        return True

    def unknown_players(self) -> str | None:
        """Where ``--player`` names only players of no game: a message naming them (and a near name), else
        ``None``."""
        if not self.filter.players or self.games:
            return None
        from ..suggest import did_you_mean
        from ..text import shown
        return "; ".join(f"no game has a player named {shown(name)}{did_you_mean(name, sorted(self.other_players))}"
                         for name in sorted(self.filter.players))

    def add(self, item: Item, report: dict[str, Any], analysis: GameAnalysis,
            extras: GameExtras | None = None) -> dict[str, Any]:
        """Count one kept game; returns its row, whose ``page`` is the file to write (or ``None``)."""
        result = analysis.result
        self.audit.add(item, report)
        self.players.add(analysis)
        index = len(self.games)
        key = (result.record.played_at or "", index)
        page = None
        if self.max_pages > 0 and (len(self._holders) < self.max_pages or key > self._holders[0][0]):
            if len(self._holders) == self.max_pages:
                self._evict(heapq.heappop(self._holders)[1])
            heapq.heappush(self._holders, (key, index))
            page = page_name("game", result.record.game_id or _source_stem(item.source), self._taken)
            self._links[index] = []
        else:
            self.pages_skipped += 1
        row = _game_row(index, item.source, result, analysis, page)
        self.games.append(row)
        self._add_results(row, result)
        if extras is not None:
            for seat, percent in extras.accuracy:
                entry = {"game": row["index"], "game_id": row["game_id"], "played_at": row["played_at"],
                         "accuracy": percent, "page": page}
                self.accuracy.setdefault(row["players"][seat], []).append(entry)
                self._link(row, None, entry)
        if page is not None:
            self._add_evidence(row, analysis)
        return row

    def _link(self, row: dict[str, Any], kept: list | None, entry: dict[str, Any]) -> None:
        if row["page"] is not None:
            self._links[row["index"]].append((kept, entry))

    def _evict(self, index: int) -> None:
        """Game ``index`` gives its page up to a newer game: nothing links it any more."""
        self.games[index]["page"] = None
        for kept, entry in self._links.pop(index):
            entry["page"] = None
            if kept is not None and entry in kept:
                kept.remove(entry)
        self.pages_skipped += 1
        self.evicted.append(index)

    def _add_results(self, row: dict[str, Any], result: GameResult) -> None:
        totals = list(result.totals)
        average = sum(totals) / len(totals) if totals else 0.0
        for seat, name in enumerate(row["players"]):
            entry = {"game": row["index"], "played_at": row["played_at"], "points": totals[seat],
                     "average": average, "place": row["places"][seat], "page": row["page"], "game_id": row["game_id"]}
            self.results.setdefault(name, []).append(entry)
            self._link(row, None, entry)

    def _add_evidence(self, row: dict[str, Any], analysis: GameAnalysis) -> None:
        record = analysis.record
        n = record.seats
        for hand in analysis.hands:
            plays = record.hands[hand.number - 1].plays
            reviews = {review.seat: review for review in hand.passes}
            for seat, name in enumerate(record.players):
                for rate, (possible, happened) in seat_events(hand, seat, reviews.get(seat)).items():
                    if not possible:
                        continue
                    kept = self.evidence.setdefault((name, rate, bool(happened)), [])
                    if not kept or kept[-1]["game"] != row["index"]:   # the latest games' hands, one a game
                        entry = {"game": row["index"], "game_id": row["game_id"], "page": row["page"],
                                 "hand": hand.number, "play": event_play(rate, hand, seat, happened, plays, n)}
                        kept.append(entry)
                        self._link(row, kept, entry)
                        if len(kept) > EVIDENCE_HANDS:
                            del kept[0]

    # -- results ----------------------------------------------------------------
    @property
    def tally(self) -> Tally:
        return self.players.tally

    def kept_players(self) -> list[str]:
        """Players with at least ``min_games`` of the kept games, by name."""
        rows = self.tally.players
        names = [name for name, c in rows.items() if c.get("games", 0) >= self.filter.min_games]
        return sorted(names)

    def hands_for(self, player: str, statistic: str, value: float | None, reference: float | None) -> list[dict]:
        """The hands that show a leak: where the event happened when the player's rate is the higher,
        else where it could have and did not."""
        happened = value is None or reference is None or value >= reference
        return list(self.evidence.get((player, statistic, happened), []))


def _source_stem(source: str) -> str:
    return source.replace("\\", "/").rsplit("/", 1)[-1]


def _game_row(index: int, source: str, result: GameResult, analysis: GameAnalysis, page: str | None) -> dict[str, Any]:
    record = result.record
    return {
        "index": index, "page": page, "source": source, "game_id": record.game_id,
        "played_at": record.played_at, "players": list(record.players), "totals": list(result.totals),
        "places": list(analysis.positions), "winners": [record.players[s] for s in result.winners],
        "complete": result.complete, "hands": len(result.hands), "violations": len(result.violations),
        "preset": record.rules.preset,
    }


# -- what the analysis layer may provide ---------------------------------------------
LeakFinder = Callable[[Tally], Iterable[dict[str, Any]]]
RatingHistory = Callable[[list[dict[str, Any]]], Iterable[dict[str, Any]]]

LEAK_FIELDS = ("player", "statistic", "value", "reference", "sample_size", "ci_low", "ci_high", "cost_per_hand",
               "significant")


def find_leaks(tally: Tally, finder: LeakFinder | None = None) -> list[dict[str, Any]]:
    """Every leak with :data:`LEAK_FIELDS`: from ``finder``, else the statistics' leak finder."""
    rows = tally.leak_rows() if finder is None else finder(tally)
    return [{key: row.get(key) for key in LEAK_FIELDS} for row in rows]


def rating_history(games: list[dict[str, Any]], tally: Tally, history: RatingHistory | None = None
                   ) -> list[dict[str, Any]]:
    """Rows ``game_id, played_at, player, rating, rating_sigma`` per game and player: from ``history``
    (given the game rows of :class:`SiteDigest`), else the statistics' ratings."""
    return [dict(row) for row in (tally.rating_rows() if history is None else history(games))]
