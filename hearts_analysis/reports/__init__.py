"""HTML reports: a game, an audit of a corpus, the players of a corpus, and the site that links them all. Offline.

A log is untrusted text: a player named with markup is shown as text, never run,
and the page loads nothing from the network.

>>> import dataclasses
>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> game = dataclasses.replace(game, players=("<img src=x onerror=alert(1)>", "bob", "cy", "dee"))
>>> html = render_game_report(replay_game(game), "games.jsonl:1", plotly=BESIDE)
>>> "<img" in html, "&lt;img src=x" in html, "://" in html, "connect-src &#39;none&#39;" in html
(False, True, False, True)
"""

from .audit import AuditDigest, digest_paths, render_audit_report, write_audit_report
from .game import render_game_report, write_game_report
from .players import PlayersDigest, digest_players, render_players_report, write_players_report
from .render import BESIDE, INLINE, SITE, PlotlyMode
from .site import SiteResult, build_site
from .sitedata import SiteFilter

__all__ = ["AuditDigest", "BESIDE", "INLINE", "PlayersDigest", "PlotlyMode", "SITE", "SiteFilter", "SiteResult",
           "build_site", "digest_paths", "digest_players", "render_audit_report", "render_game_report",
           "render_players_report", "write_audit_report", "write_game_report", "write_players_report"]
