"""The JSON codec of ``hearts-game/1``: objects to records and back (:mod:`.decode`, :mod:`.encode`),
and ``.json`` / ``.jsonl`` files (:mod:`.files`).

>>> from hearts_analysis.records.json import game_from_dict, game_to_dict
>>> obj = {"format": "hearts-game/1", "players": ["a", "b", "c"], "hands": []}
>>> game_to_dict(game_from_dict(obj)) == obj
True
"""

from .decode import MAX_NESTING, game_from_dict
from .encode import dumps_game, game_to_dict, hand_to_dict
from .files import (MAX_DOCUMENT_BYTES, MAX_LINE_BYTES, bad_json, bounded_lines, iter_json_text, iter_jsonl,
                    jsonl_item, long_line_item, read_document, read_json_path, read_stdin, write_games)

__all__ = ["MAX_NESTING", "bad_json", "dumps_game", "game_from_dict", "game_to_dict", "hand_to_dict",
           "iter_json_text", "iter_jsonl", "jsonl_item", "read_json_path", "read_stdin", "write_games",
           "MAX_DOCUMENT_BYTES", "MAX_LINE_BYTES", "bounded_lines", "long_line_item", "read_document"]
