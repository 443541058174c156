"""HTML reports: a game, an audit of a corpus, the players of a corpus, and the site that links them all. Offline."""

from .audit import AuditDigest, digest_paths, render_audit_report, write_audit_report
from .game import render_game_report, write_game_report
from .players import PlayersDigest, digest_players, render_players_report, write_players_report
from .render import BESIDE, INLINE, SITE, PlotlyMode
from .site import SiteResult, build_site
from .sitedata import SiteFilter

__all__ = ["AuditDigest", "BESIDE", "INLINE", "PlayersDigest", "PlotlyMode", "SITE", "SiteFilter", "SiteResult",
           "build_site", "digest_paths", "digest_players", "render_audit_report", "render_game_report",
           "render_players_report", "write_audit_report", "write_game_report", "write_players_report"]
