"""Killer Hearts logs of many games, built from simulated games, with the irregularities real logs have.

The games are the truth a reader must reproduce: deals, passes, plays and scores.
The log holds 36 games:

- most end with ``End of game:``;
- one is abandoned after four deals (no end line: the next game's score restarts);
- one reaches 100 without an end line (the next deal starts from zero);
- one starts its pass cycle across instead of left;
- text the program writes between deals, and one deal logged twice.
"""

from __future__ import annotations

import dataclasses
import io
import random

from hearts_analysis.interop import killer
from hearts_analysis.records.model import GameRecord
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import simulate_game, simulate_games

GAMES = 36
ABANDONED, UNMARKED, ROTATED, REPEATED = 4, 9, 15, 22
"""Indices of the games with an irregularity (see the module docstring)."""


def killer_games(count: int = GAMES, seed: int = 12) -> list[GameRecord]:
    rules = Rules.preset("killer_hearts")
    games = list(simulate_games(count, rules, seed=seed))
    games[ABANDONED] = dataclasses.replace(games[ABANDONED], hands=games[ABANDONED].hands[:4], complete=None)
    games[UNMARKED] = dataclasses.replace(games[UNMARKED], complete=False)
    rotated = Rules.preset("killer_hearts", pass_cycle=["across", "hold", "left", "right"])
    games[ROTATED] = simulate_game(rotated, [f"bot{i}" for i in range(1, 5)], random.Random(f"{seed}:rotated"))
    return games


def killer_log(games: list[GameRecord]) -> str:
    """The games as one log, with chatter between deals and one deal written twice."""
    parts = []
    for index, game in enumerate(games):
        out = io.StringIO()
        killer.write([game], out)
        text = out.getvalue()
        if index == REPEATED:
            first_deal = text[:text.index("\n\n", text.index(" = ")) + 2]
            text = first_deal + text
        parts.append(f"Killer Hearts: game {index + 1} begins\n\n" + text)
    return "".join(parts)
