"""The random streams of a decision: one per decision and purpose, so that a decision's review does not
depend on which others are reviewed, nor a verdict on how many deals chose the best."""

from __future__ import annotations

import zlib

import numpy as np

from .settings import Settings

CHOOSE, JUDGE = 0, 1
"""The two streams of deals of a decision: those that choose the best alternative, and the fresh
ones that judge it. Apart, so that more samples to choose with never change the deals a verdict
rests on, and a larger budget only adds deals after them: a class settled within the default
budget is settled the same way with any larger one."""


def rng_for(settings: Settings, game_key: int, hand: int, index: int, seat: int,
            stream: int = CHOOSE) -> np.random.Generator:
    """One independent stream per decision (``index`` 0 is the pass, ``k`` the k-th play of the hand),
    so a decision's review does not depend on which others are reviewed."""
    key = [settings.seed, game_key, hand, index, seat]
    return np.random.default_rng(key + [stream] if stream != CHOOSE else key)


def game_key(game_id: str | None) -> int:
    return zlib.crc32((game_id or "").encode())
