"""Playing the deals of a match: each deal once per rotation of the players (:mod:`.seating`).

In the ``one`` seating a deal's result counts the one seat only: each player's points, QS, moon
and decisions there, the other seats' hands being the table it plays against.

:func:`play_deals` plays deals ``start`` to ``stop`` in this process (a worker's task); the
players' programs are started once per process and kept for the next task.
"""

from __future__ import annotations

import atexit
from functools import lru_cache
from dataclasses import dataclass, field

from ..cards import QS
from ..engine.interpreter import trick_taker
from ..engine.scoring import moon_shooter
from ..records.model import GameRecord
from ..rules import Rules, Table
from ..simulate.game import play_hand
from .players import Clock, PlayerSpec, Roster, Where
from .seating import SEATINGS, deal_rules, deal_stream, focus_seat, one_against_rest, rotations, seat_stream


@dataclass(frozen=True)
class MatchConfig:
    players: tuple[PlayerSpec, ...]
    rules: Rules
    seats: int = 4
    seed: int = 0
    timeout: float = 10.0
    fallback: str = "heuristic"
    records: bool = True
    """Keep each game's record (for ``-o``)."""
    seating: str = "alternate"
    """``alternate`` or ``one`` (:data:`.seating.SEATINGS`; two players)."""

    def __post_init__(self):
        if self.seating not in SEATINGS:
            raise ValueError(f"unknown seating {self.seating!r} (known: {', '.join(SEATINGS)})")
        if self.seating == "one" and len(self.players) != 2:
            raise ValueError(f"the seating one is for two players (one against the rest), not {len(self.players)}")


@dataclass
class DealResult:
    """One deal over all its rotations, per player: points, seats sat, QS taken, moons shot."""

    k: int
    points: list[int]
    seats: list[int]
    queens: list[int]
    moons: list[int]
    clocks: list[Clock]
    faults: list[dict] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)


def taken_masks(table: Table, plays) -> list[int]:
    """The cards each seat took, from the plays trick by trick (a match's hands are never claimed)."""
    n = table.players
    taken = [0] * n
    for start in range(0, len(plays) - n + 1, n):
        trick = plays[start:start + n]
        winner = trick_taker(trick)
        for _, card in trick:
            taken[winner] |= 1 << card
    return taken


@lru_cache(maxsize=64)
def _table(rules: Rules, seats: int) -> tuple[Table, dict]:
    return rules.table(seats), rules.to_spec()


_ROSTERS: dict[MatchConfig, Roster] = {}


def roster(config: MatchConfig) -> Roster:
    """This process's players for ``config``, built once."""
    found = _ROSTERS.get(config)
    if found is None:
        found = _ROSTERS[config] = Roster(list(config.players), config.timeout, config.fallback,
                                              config.rules, config.seats)
    return found


def close_rosters() -> None:
    """Stop every program this process started."""
    while _ROSTERS:
        _ROSTERS.popitem()[1].close()


atexit.register(close_rosters)


def play_deal(config: MatchConfig, k: int) -> DealResult:
    """Deal ``k`` (0-based) played once per rotation."""
    players, n, seed = config.players, config.seats, config.seed
    m = len(players)
    team = roster(config)
    rules = deal_rules(config.rules, n, k)
    table, spec = _table(rules, n)
    result = DealResult(k, [0] * m, [0] * m, [0] * m, [0] * m, [Clock() for _ in range(m)])
    zero = (0,) * n
    rest = [Clock() for _ in range(m)]  # the decisions of the seats not counted: only their faults count
    if config.seating == "one":
        cycle = len(config.rules.table(n).pass_cycle)
        seatings, counted = one_against_rest(n, k, cycle, m), focus_seat(k, n, cycle)
    else:
        seatings, counted = rotations(m, n), None
    for r, seating in enumerate(seatings):
        names = tuple(players[i].name for i in seating)
        game_id = f"match-{seed}-{k + 1}-{r + 1}"
        bots = []
        for seat, player in enumerate(seating):
            where = Where(players[player].name, k + 1, r + 1, game_id, rules, names)
            clock = result.clocks[player] if counted in (None, seat) else rest[player]
            bots.append(team.seat_bot(player, seat, seat_stream(seed, k, seat),
                                      f"{seed}:{k}:{seat}:fallback", clock, result.faults, where))
        hand = play_hand(table, 1, bots, deal_stream(seed, k), zero)
        taken = taken_masks(table, hand.plays)
        shooter = moon_shooter(table, taken)
        for seat, player in enumerate(seating):
            if counted in (None, seat):
                result.points[player] += hand.points[seat]
                result.seats[player] += 1
                result.queens[player] += taken[seat] >> QS & 1
        if shooter is not None and counted in (None, shooter):
            result.moons[seating[shooter]] += 1
        if config.records:
            result.games.append(GameRecord(players=names, hands=(hand,), rules=rules, rules_spec=spec,
                                           game_id=game_id))
    for clock, other in zip(result.clocks, rest):
        clock.add(Clock(faults=other.faults, fallback=other.fallback))
    return result


def play_deals(config: MatchConfig, start: int, stop: int) -> list[DealResult]:
    """Deals ``start`` to ``stop - 1``: a worker's task."""
    return [play_deal(config, k) for k in range(start, stop)]
