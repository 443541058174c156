"""Game records: the ``hearts-game/1`` model and its file formats.

Every reader yields one :class:`Item` per game, so an unreadable record is reported
with its file, line and field while the rest of the input is still read:

>>> import pathlib, tempfile
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> games = list(simulate_games(2, Rules.preset("standard", target=30)))
>>> write_games(games, path)
2
>>> with open(path, "ab") as out:
...     _ = out.write(b'{"players": ["a", "b", "c", "d"], "hands": [{"deal": [], "plays": []}]}\\n')
>>> items = list(read_games(path))
>>> [item.game == game for item, game in zip(items, games)]
[True, True]
>>> pathlib.Path(items[2].source).name, items[2].error.text()
('games.jsonl:3', 'hands[0].deal: expected one list of cards per seat (4), got 0')
"""

from .errors import Item, RecordError
from .json import game_from_dict, game_to_dict, write_games
from .model import FORMAT, GameRecord, HandRecord, Play
from .sources import read_games

__all__ = ["FORMAT", "GameRecord", "HandRecord", "Item", "Play", "RecordError", "game_from_dict",
           "game_to_dict", "read_games", "write_games"]
