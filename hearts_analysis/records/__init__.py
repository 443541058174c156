"""Game records: the ``hearts-game/1`` model and its file formats."""

from .model import FORMAT, GameRecord, HandRecord, Play
from .jsonio import RecordError, game_from_dict, game_to_dict, read_games, write_games

__all__ = ["FORMAT", "GameRecord", "HandRecord", "Play", "RecordError", "game_from_dict",
           "game_to_dict", "read_games", "write_games"]
