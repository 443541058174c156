"""The registry of foreign log formats: which module reads (and writes) each, and which one a file is.

Every format is a module of this package with the same small surface:

- ``NAME``: the word users type (``hearts import NAME``);
- ``TITLE``: the program or site that writes it, in words;
- ``sniff(head: str) -> bool``: does this text (the first 64 KiB of a file, decoded) look like it;
- ``read(stream: TextIO, name: str) -> Iterator[Item]``: each game, or the error that made a
  record unreadable, named ``file:line``; the other games of the stream are still read;
- ``write(games: Iterable[GameRecord], out: TextIO) -> int`` (optional): the games written back,
  where the format can hold them; returns the count.

Modules are imported only when used, so that reading JSON never pays for them. Importing this
module registers :func:`reader_for` with :mod:`hearts_analysis.records.sources`, so that every
command reading games (and every folder it is given) recognises these logs by their content.

>>> sorted(formats())
['killer', 'killer-json', 'league', 'openspiel', 'sheet-csv', 'sturtevant', 'text', 'trend', 'turbo']
>>> recognise("game club-7\\nplayer A: alice\\nhand 1\\ndeal: 2C 3C / ...\\n").NAME
'text'
>>> recognise("   spades  hearts  clubs  diamonds   1WL\\nW: 85  AQ8  QJT5  T652\\n").NAME
'killer'
>>> recognise("Ann,Bob,Cy,Dee\\n0,13,8,5\\nTotal,0,13,8,5\\n").NAME
'sheet-csv'
>>> recognise("just some notes") is None
True
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..atomic import register_companions
from ..records.sources import SNIFF_BYTES, ForeignReader, register_recogniser

MODULES: tuple[str, ...] = ("killer", "sturtevant", "league", "killer_json", "trend", "turbo", "openspiel",
                            "text_notation", "score_csv")
"""The format modules of this package, in the order ``sniff`` tries them (most specific first)."""

__all__ = ["MODULES", "SNIFF_BYTES", "companions", "formats", "reader_for", "recognise"]


def formats() -> dict[str, ModuleType]:
    """Every known format by its ``NAME``."""
    loaded = (importlib.import_module(f"{__package__}.{module}") for module in MODULES)
    return {module.NAME: module for module in loaded}


def recognise(head: str) -> ModuleType | None:
    """The format whose ``sniff`` accepts this text, or ``None``."""
    for module in formats().values():
        if module.sniff(head):
            return module
    return None


def reader_for(head: str) -> ForeignReader | None:
    """The ``read`` of the format this text is in, or ``None``."""
    module = recognise(head)
    return None if module is None else module.read


def companions(path):
    """The files a reader of ``path`` reads beside it (a Hearts League trick file's round and game files)."""
    return importlib.import_module(f"{__package__}.league").companions(path)


register_recogniser(reader_for)
register_companions(companions)
