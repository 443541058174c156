"""Small corpora for the report tests: simulated games with hostile player names, one game with
violations at known plays and a wrong recorded score, and unreadable records."""

from __future__ import annotations

import copy
import html.parser
import json
import itertools
import random
from pathlib import Path

import orjson

from hearts_analysis.engine import replay_game
from hearts_analysis.records.json import game_from_dict, game_to_dict
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game

XSS_SCRIPT = "<script>alert(1)</script>"
XSS_BREAKOUT = '"</script><img src=x onerror=alert(1)>'
ODD_NAME = "Tom & Jerry\u2028<!--"
PLAYERS = ["alice", XSS_SCRIPT, XSS_BREAKOUT, ODD_NAME]


def clean_game(seed: int = 1, players=PLAYERS, game_id: str | None = None) -> dict:
    game = simulate_game(Rules.preset("standard"), players, seed, game_id=game_id or f"clean-{seed}")
    return game_to_dict(game)


def flawed_game(seed: int = 2) -> dict:
    """A game with a play-level violation (two plays of one seat swapped) and a wrong recorded score."""
    base = clean_game(seed, game_id=f"flawed-{seed}")
    plays = base["hands"][0]["plays"]
    for i, j in itertools.combinations(range(len(plays)), 2):
        if plays[i][0] != plays[j][0]:
            continue
        edited = copy.deepcopy(base)
        p = edited["hands"][0]["plays"]
        p[i][1], p[j][1] = p[j][1], p[i][1]
        result = replay_game(game_from_dict(edited))
        if any(v.trick is not None and v.card is not None for v in result.violations):
            edited["hands"][1]["points"][0] += 3
            return edited
    raise AssertionError("no swap gives a located violation")


def write_corpus(folder: Path) -> Path:
    """``games.jsonl``: two clean games, a flawed one, and two unreadable records."""
    lines = [orjson.dumps(clean_game(1)), orjson.dumps(flawed_game(2)),
             b'{"format": "hearts-game/1", "players": ["a", "b"]}',
             b"{not json",
             orjson.dumps(clean_game(3, players=["alice", "bob", "carol", "dave"]))]
    path = folder / "games.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def write_game(folder: Path, game: dict, name: str = "game.json") -> Path:
    path = folder / name
    path.write_bytes(orjson.dumps(game))
    return path


def pool_game(index: int, pool: list[str], seed: int = 7, random_players: frozenset[str] = frozenset()) -> dict:
    """Game ``index`` of a club: four of ``pool`` rotate between seats, one game every six hours from
    2026-11-01; players named in ``random_players`` play any legal card."""
    from datetime import datetime, timedelta, timezone

    from hearts_analysis.simulate import HeuristicBot, RandomBot
    rng = random.Random(f"{seed}:{index}")
    names = rng.sample(pool, 4)
    bots = [RandomBot if name in random_players else HeuristicBot for name in names]
    game = game_to_dict(simulate_game(Rules.preset("standard"), names, rng, bots, game_id=f"club-{index + 1}"))
    at = datetime(2026, 11, 1, tzinfo=timezone.utc) + timedelta(hours=6 * index)
    game["played_at"] = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    return game


def write_pool_corpus(folder: Path, games: int, pool: list[str], seed: int = 7,
                      random_players: frozenset[str] = frozenset()) -> Path:
    path = folder / "club.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(pool_game(i, pool, seed, random_players)) for i in range(games)) + b"\n")
    return path


class Page(html.parser.HTMLParser):
    """Every element, attribute and script of a page, as the browser's parser sees them."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.text: list[str] = []
        self._script: dict | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "script":
            self._script = attrs
            self.scripts.append((attrs, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            attrs, body = self.scripts[-1]
            self.scripts[-1] = (attrs, body + data)
        else:
            self.text.append(data)

    def named(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]

    def data(self, element_id: str):
        return json.loads(next(body for attrs, body in self.scripts if attrs.get("id") == element_id))
