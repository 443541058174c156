"""A reviewed game for the review page's tests: two careless seats (random play), hostile names, and a real
review of its first two hands at tiny budgets (a few seconds)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hearts_analysis.engine import replay_game
from hearts_analysis.engine.replay import GameResult
from hearts_analysis.reports.extras import GameExtras, game_extras
from hearts_analysis.reports.game import write_game_report
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game
from hearts_analysis.simulate.bots import HeuristicBot, RandomBot

from reportdata import PLAYERS

TINY = dict(samples=16, budget=64, batch=32, pass_screen_samples=8, pass_finalists=2)
"""Review settings that settle a hand in about a second."""
HOSTILE_ID = 'rev-</script><b>x</b>'


@lru_cache(maxsize=1)
def reviewed_game() -> tuple[GameResult, dict]:
    """The game replayed and its review document (hands 1 and 2)."""
    from hearts_analysis.review import Settings, game_dict, review_game
    game = simulate_game(Rules.preset("standard"), PLAYERS, 3, bot=[RandomBot, HeuristicBot, RandomBot, HeuristicBot],
                         game_id=HOSTILE_ID)
    result = replay_game(game)
    return result, game_dict(review_game(game, Settings(**TINY), hands=[1, 2], result=result), "g.json")


def reviewed_extras() -> GameExtras:
    result, document = reviewed_game()
    return GameExtras(game_extras(result, "g.json").analysis, document)


def reviewed_game_page(target: Path) -> Path:
    result, _ = reviewed_game()
    return write_game_report(result, "g.json", target, extras=reviewed_extras())
