"""Builders for crafted games: readable card strings in, ``GameRecord`` out.

A crafted hand is written as one string of cards per seat and a string of
``seat:card`` plays::

    game(["2C 5D QS", "3C 6D 4H", "4C KD 5H", "AC 7D 6H"],
         "0:2C 1:3C 2:4C 3:AC  3:7D 0:5D 1:6D 2:KD  2:5H 3:6H 0:QS 1:4H",
         rules=tiny_rules(...))

``tiny_rules`` removes every card not dealt, so a hand of three tricks is a
complete, legal hand; ``full_deal`` gives each seat a whole suit for full-deck
cases.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

import pytest

from hearts_analysis.cards import card_name, parse_card
from hearts_analysis.records.model import GameRecord, HandRecord
from hearts_analysis.rules import Rules

# Every test run, and every command it starts, keeps its cached reviews in a folder of its own.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="hearts-test-cache-")
# No command a test starts compiles the kernel in the background (docs/first-run.md): the fixture below does.
os.environ["HEARTS_NO_WARMUP"] = "1"



@pytest.fixture(scope="session", autouse=True)
def compiled_kernel():
    """Compile the review's kernel and the simulator's once, in the interpreter the tests' commands
    run in (the installed package, as a command started from a test's folder imports it), before any
    test starts a command with a time limit: the first compile after install takes about two
    minutes on an idle machine, once, and a time limit guards a command's own work, not the compile (README)."""
    if os.environ.get("HEARTS_TESTS_PRECOMPILE") == "0":  # a developer running tests that start no review
        return
    example = Path(__file__).resolve().parents[1] / "examples" / "clean-4p-standard.json"
    simulate = ("from hearts_analysis.rules import Rules; from hearts_analysis.simulate import game; "
                "game.simulate_game(Rules.preset('standard', target=30), 'abcd', 1, kernel=True)")
    jobs = [("review", ["-m", "hearts_analysis", "review", "--samples", "10", "--hand", "1", str(example)]),
            ("simulate", ["-c", simulate])]
    # Parallel test workers (pytest-xdist) share the two compiles: each compile has a lock, and a worker
    # starts with the one its number points to, so two workers compile the two kernels at once, and no
    # kernel is compiled twice. The first worker of this run to take a lock compiles and leaves a stamp of
    # the run (pytest-xdist's PYTEST_XDIST_TESTRUNUID): the others, once it is done, skip that compile.
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").lstrip("gw") or 0)
    key = hashlib.sha1(str(example).encode()).hexdigest()[:12]
    for name, arguments in jobs[worker % len(jobs):] + jobs[:worker % len(jobs)]:
        lock = Path(tempfile.gettempdir()) / f"hearts-tests-compile-{key}-{name}.lock"
        done = lock.with_name(f"{lock.name}.{run}.done") if run else None
        with open(lock, "w") as held, tempfile.TemporaryDirectory() as folder:
            fcntl.flock(held, fcntl.LOCK_EX)
            if done is not None and done.exists():
                continue
            subprocess.run([sys.executable, *arguments], cwd=folder, capture_output=True, timeout=1800, check=True)
            if done is not None:
                done.touch()


def pytest_configure(config):
    config.addinivalue_line("markers", "long: a check that takes a quarter of a minute or more (-m 'not long' leaves it out)")


ALL_CARDS = [card_name(c) for c in range(52)]
SUIT_OF_SEAT = ["C", "D", "H", "S"]


def cards(text: str | Sequence[str] | None) -> tuple[int, ...] | None:
    """``"2C 5D QS"`` -> card ints in the given order."""
    if text is None:
        return None
    items = text.split() if isinstance(text, str) else text
    return tuple(parse_card(c) for c in items)


def plays(text: str) -> tuple[tuple[int, int], ...]:
    """``"0:2C 1:3C"`` -> ``((0, 0), (1, 1))``."""
    out = []
    for token in text.split():
        seat, _, card = token.partition(":")
        out.append((int(seat), parse_card(card)))
    return tuple(out)


def hand(deal: Sequence[str], play: str, passes: Sequence[str | None] | None = None,
         **fields: Any) -> HandRecord:
    """One hand; ``fields`` are the other ``HandRecord`` fields (dealer, moon, points, totals...)."""
    return HandRecord(deal=tuple(cards(d) for d in deal), plays=plays(play),
                      passes=None if passes is None else tuple(cards(p) for p in passes),
                      **fields)


def game(deal: Sequence[str] | None = None, play: str = "", *, rules: Rules | None = None,
         hands: Sequence[HandRecord] | None = None, complete: bool | None = None,
         seats: int = 4, **fields: Any) -> GameRecord:
    """A game of one crafted hand (``deal``/``play``/``fields``) or of the given ``hands``."""
    if hands is None:
        hands = [hand(deal, play, **fields)]
    seats = len(hands[0].deal) if hands else seats
    return GameRecord(players=tuple(f"p{i}" for i in range(seats)), hands=tuple(hands),
                      rules=rules or Rules(), complete=complete)


def tiny_rules(deal: Sequence[str], preset: str = "standard", **overrides: Any) -> Rules:
    """A rule set whose deck is exactly the cards of ``deal`` (no passing unless overridden)."""
    dealt = {card_name(c) for seat in deal for c in cards(seat)}
    overrides.setdefault("pass_count", 0)
    return Rules.preset(preset, removed_cards=[c for c in ALL_CARDS if c not in dealt], **overrides)


def full_deal(order: Sequence[str] = SUIT_OF_SEAT) -> list[str]:
    """Seat ``i`` holds the whole suit ``order[i]`` (four players)."""
    return [" ".join(r + s for r in "23456789TJQKA") for s in order]


def codes(result) -> list[str]:
    return [v.code for v in result.violations]


def located(result) -> list[tuple]:
    """Violations as ``(code, hand, trick, seat, card)``."""
    return [(v.code, v.hand, v.trick, v.seat, v.card) for v in result.violations]


@pytest.fixture
def games_file(tmp_path) -> Path:
    """Two short simulated games as a JSON Lines file, for the command-line tests of inputs and outputs."""
    from hearts_analysis.records.json import dumps_game
    from hearts_analysis.simulate import simulate_games
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"".join(dumps_game(g) + b"\n"
                              for g in simulate_games(2, Rules.preset("standard", target=30), seed=3)))
    return path
