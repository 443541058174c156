"""Game records: the ``hearts-game/1`` model and its file formats."""

from .errors import Item, RecordError
from .json import game_from_dict, game_to_dict, write_games
from .model import FORMAT, GameRecord, HandRecord, Play
from .sources import read_games

__all__ = ["FORMAT", "GameRecord", "HandRecord", "Item", "Play", "RecordError", "game_from_dict",
           "game_to_dict", "read_games", "write_games"]
