"""Analysis of replayed games: points taken, moon attempts, pass choices, player statistics."""

from .game import GameAnalysis, HandAnalysis, analyze_game, analyze_items, analyze_paths, game_to_dict

__all__ = ["GameAnalysis", "HandAnalysis", "analyze_game", "analyze_items", "analyze_paths", "game_to_dict"]
