"""A club of named players who rotate between tables and seats, each always played by one bot.

A corpus where every seat is the same bot and the names never change cannot test a rating,
a leaderboard or a leak finder: they need players of known, different strengths who meet
in varied company. Here the games are played in rounds, as at a club evening: each round
the pool is shuffled (from the seed and the round number) and seated at as many full tables
as it fills; whoever is left over sits the round out. So game ``i`` depends only on the
seed and ``i``, and a longer corpus starts with the games of a shorter one.

Each game records which bot sat in each seat in its ``bots`` field (a field the record
format does not know, so it is kept through every conversion and ignored by the audit).

>>> from hearts_analysis.rules import Rules
>>> pool = make_pool(6, parse_mix("heuristic=4,random=2"), seed=1)
>>> games = list(simulate_pool(3, Rules.preset("standard", target=20), pool, players=3, seed=1))
>>> [(game.played_at, len(set(game.players))) for game in games]
[('2026-01-05T19:00:00Z', 3), ('2026-01-05T19:00:01Z', 3), ('2026-01-05T19:30:00Z', 3)]
>>> pool_bots(games) == {p.name: p.bot for p in pool}
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Iterator, Mapping, Sequence

from ..records.model import GameRecord
from ..rules import Rules
from .bots import BotFactory, HeuristicBot, RandomBot, mixed_bot
from .game import kernel_run, played_at, simulate_game

BOT_KINDS: dict[str, BotFactory] = {"heuristic": HeuristicBot, "random": RandomBot, "mixed": mixed_bot}
"""The simulator's own bots, by the name ``--bots`` uses (the command adds the review's judge)."""

BOTS_FIELD = "bots"
"""The game record field naming each seat's bot, seat by seat."""

@dataclass(frozen=True)
class PoolPlayer:
    name: str
    bot: str
    """A key of the bot kinds the pool plays (:data:`BOT_KINDS` by default)."""


def parse_mix(text: str, kinds: Mapping[str, BotFactory] = BOT_KINDS) -> dict[str, int]:
    """``"heuristic=10,random=2"`` -> ``{"heuristic": 10, "random": 2}``; a bare name counts one, and every name
    is one of ``kinds``.

    >>> parse_mix("heuristic=3, random")
    {'heuristic': 3, 'random': 1}
    """
    mix: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, count = part.partition("=")
        name = name.strip()
        if name not in kinds:
            raise ValueError(f"unknown bot {name!r} in {text!r} (bots: {', '.join(kinds)})")
        try:
            number = int(count) if count else 1
        except ValueError:
            raise ValueError(f"bad count {count!r} for {name} in {text!r} (want e.g. {name}=3)") from None
        if number < 0:
            raise ValueError(f"bad count {number} for {name} in {text!r}")
        mix[name] = mix.get(name, 0) + number
    if not sum(mix.values()):
        raise ValueError(f"no players in the bot mix {text!r}")
    return mix


def make_pool(size: int, mix: dict[str, int], seed: int = 0) -> list[PoolPlayer]:
    """``size`` players named ``p01``, ``p02``...; the bots of ``mix`` dealt out to them by the seed.

    The names say nothing of the bots (a leak finder or a rating that guessed from the name
    would be cheating); :func:`pool_bots` or the records' ``bots`` field tell them.

    >>> [p.bot for p in make_pool(3, {"random": 3})]
    ['random', 'random', 'random']
    """
    if sum(mix.values()) != size:
        raise ValueError(f"the bot mix names {sum(mix.values())} players for a pool of {size}")
    kinds = [kind for kind, count in mix.items() for _ in range(count)]
    random.Random(f"{seed}:pool").shuffle(kinds)
    width = max(2, len(str(size)))
    return [PoolPlayer(f"p{number:0{width}d}", kind) for number, kind in enumerate(kinds, 1)]


def seatings(pool: Sequence[PoolPlayer], players: int, seed: int, index: int) -> tuple[int, int, list[PoolPlayer]]:
    """``(round, table, seated players in seat order)`` of game ``index``."""
    tables = len(pool) // players
    if tables < 1:
        raise ValueError(f"a pool of {len(pool)} cannot fill a table of {players}")
    round_number, table = divmod(index, tables)
    order = list(pool)
    random.Random(f"{seed}:round:{round_number}").shuffle(order)
    return round_number, table, order[table * players:(table + 1) * players]


def simulate_pool(count: int, rules: Rules, pool: Sequence[PoolPlayer], players: int = 4,
                  seed: int = 0, kinds: Mapping[str, BotFactory] = BOT_KINDS) -> Iterator[GameRecord]:
    """``count`` games of the pool, in rounds (see the module notes); each seat played by its player's bot
    (its factory in ``kinds``; its tables of HeuristicBots on the compiled kernel in a long run: :func:`~.game.kernel_run`)."""
    kernel = kernel_run(count, rules.table(players))
    for index in range(count):
        round_number, table, seated = seatings(pool, players, seed, index)
        game = simulate_game(rules, [p.name for p in seated], random.Random(f"{seed}:{index}"),
                             [kinds[p.bot] for p in seated], game_id=f"sim-{seed}-{index + 1}", kernel=kernel)
        yield replace(game, played_at=played_at(round_number, table), extra={BOTS_FIELD: [p.bot for p in seated]})


def pool_bots(games: Sequence[GameRecord]) -> dict[str, str]:
    """``{player: bot}`` as the games' ``bots`` fields record it."""
    return {name: bot for game in games for name, bot in zip(game.players, game.extra.get(BOTS_FIELD, ()))}
