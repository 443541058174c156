"""Replay, legality and scoring."""

from .replay import GameResult, HandResult, replay_game
from .scoring import Moon, score_hand
from .state import Exclusion, HandState

__all__ = ["Exclusion", "GameResult", "HandResult", "HandState", "Moon", "replay_game", "score_hand"]
