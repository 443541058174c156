"""HTML reports: a game, an audit of a corpus, the players of a corpus. Offline and self-contained."""

from .audit import AuditDigest, digest_paths, render_audit_report, write_audit_report
from .game import render_game_report, write_game_report
from .players import PlayersDigest, digest_players, render_players_report, write_players_report
from .render import BESIDE, INLINE, PlotlyMode

__all__ = ["AuditDigest", "BESIDE", "INLINE", "PlayersDigest", "PlotlyMode", "digest_paths", "digest_players",
           "render_audit_report", "render_game_report", "render_players_report", "write_audit_report",
           "write_game_report", "write_players_report"]
