"""Other engines' game logs to and from ``hearts-game/1``.

Importing the package registers every format, so that any reader of games takes
these logs as it takes JSON, whatever the file is called:

>>> import pathlib, tempfile
>>> from hearts_analysis.records.sources import iter_sources
>>> from hearts_analysis.records import game_to_dict
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.interop.text_notation import game_text
>>> game = simulate_game(Rules.preset("standard", target=30), ["alice", "bob", "carol", "dave"], seed=1)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "club-night.notes"
>>> _ = path.write_text(game_text(game_to_dict(game)), encoding="utf-8")
>>> [item.game.players for item in iter_sources([path])]
[('alice', 'bob', 'carol', 'dave')]
"""

from . import formats  # registers the log formats with records.sources

__all__ = ["formats"]
