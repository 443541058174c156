"""The Parquet codec of ``hearts-game/1``: the ``events/2`` layout (:mod:`.layout`, documented for users in
``schemas/parquet-layout.md``), games to Arrow tables (:mod:`.encode`, with :mod:`.shred`, its fast lane
from a game's JSON object), tables back to games (:mod:`.decode`), and the files (:mod:`.write`,
:mod:`.read`).

>>> from hearts_analysis.simulate import simulate_games
>>> from hearts_analysis.rules import Rules
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "corpus.parquet"
>>> games = list(simulate_games(2, Rules()))
>>> write_parquet(games, path)
2
>>> [item.game for item in read_parquet_items(path)] == games
True
"""

from .read import iter_row_groups, parquet_files, read_parquet_items
from .write import GameWriter, is_folder_target, write_parquet

__all__ = ["GameWriter", "is_folder_target", "iter_row_groups", "parquet_files", "read_parquet_items",
           "write_parquet"]
