"""Other engines' game logs to and from ``hearts-game/1``."""
