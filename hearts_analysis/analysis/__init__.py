"""Analysis of replayed games: points taken, moon attempts, pass choices, player statistics.

>>> from hearts_analysis.analysis import analyze_paths, points_frame, tally_paths  # doctest: +SKIP
>>> games = [analysis for _, analysis in analyze_paths(["games.jsonl"]) if analysis]  # doctest: +SKIP
>>> points_frame(games)                    # one row per hand and seat  # doctest: +SKIP
>>> tally_paths(["corpus/"]).players_frame()   # one row per player, streamed  # doctest: +SKIP
>>> tally_paths(["corpus/"]).ratings_frame()   # each player's rating after each game  # doctest: +SKIP
"""

from .game import GameAnalysis, HandAnalysis, analyze_game, analyze_items, analyze_paths, analysis_to_dict
from .leaks import ReviewCosts, find_leaks, read_review_costs
from .moons import MoonAttempt, MoonChoice, MissedStop
from .passes import PassReview, PassVerdict
from .points import PointCard, SeatPoints
from .rating import GameOutcome, Ratings, rate_games
from .stats import Tally, player_leaks, player_stats, tally_games, tally_items, tally_paths
from .tables import (missed_stops_frame, moons_frame, passes_frame, point_cards_frame, points_frame,
                     standings_frame, table)

__all__ = ["GameAnalysis", "GameOutcome", "HandAnalysis", "MissedStop", "MoonAttempt", "MoonChoice", "PassReview",
           "PointCard", "Ratings", "ReviewCosts", "SeatPoints", "Tally", "PassVerdict", "analyze_game", "analyze_items",
           "analyze_paths", "find_leaks", "analysis_to_dict", "missed_stops_frame", "moons_frame", "passes_frame",
           "player_leaks", "player_stats", "point_cards_frame", "points_frame", "rate_games", "read_review_costs",
           "standings_frame", "table", "tally_games", "tally_items", "tally_paths"]
