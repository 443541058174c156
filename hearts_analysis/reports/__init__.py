"""HTML reports: a game, an audit of a corpus, the players of a corpus. Offline and self-contained."""

from .game import render_game_report, write_game_report
from .render import BESIDE, INLINE, PlotlyMode

__all__ = ["BESIDE", "INLINE", "PlotlyMode", "render_game_report", "write_game_report"]
