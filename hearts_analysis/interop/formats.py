"""The registry of foreign log formats: which module reads (and writes) each, and which one a file is.

Every format is a module of this package with the same small surface:

- ``NAME``: the word users type (``hearts import NAME``);
- ``TITLE``: the program or site that writes it, in words;
- ``sniff(head: str) -> bool``: does this text (the first 64 KiB of a file, decoded) look like it;
- ``read(stream: TextIO, name: str) -> Iterator[Item]``: each game, or the error that made a
  record unreadable, named ``file:line``; the other games of the stream are still read;
- ``write(games: Iterable[GameRecord], out: TextIO) -> int`` (optional): the games written back,
  where the format can hold them; returns the count.

Modules are imported only when used, so that reading JSON never pays for them.
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES: tuple[str, ...] = ("sturtevant", "league", "trend", "turbo")
"""The format modules of this package, in the order ``sniff`` tries them (most specific first)."""

SNIFF_BYTES = 1 << 16


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
