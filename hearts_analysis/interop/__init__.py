"""Other engines' game logs to and from ``hearts-game/1``."""

from . import formats  # registers the log formats with records.sources

__all__ = ["formats"]
