"""Dealer rotation, "who receives the pass" and "lowest total wins" each have one owner.

The owners: :func:`hearts_analysis.rules.dealer_of` (and ``Table.dealer``), ``Table.pass_target`` /
``pass_source`` / ``direction_of_offset``, :func:`hearts_analysis.rules.winners` (and ``Table.winners``);
the engine's ``exchange`` applies a pass by its offset. The compiled kernel keeps its twins. A scan of
the rest of the package finds every line that spells one of these facts again; the list must equal
:data:`ALLOWED`, where each entry says why it stays. A new copy fails the test: call the owner.
"""

from __future__ import annotations

import itertools
import pathlib
import re

import pytest

from hearts_analysis.rules import MAX_PLAYERS, MIN_PLAYERS, PASS_DIRECTIONS, Rules, dealer_of, winners

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "hearts_analysis"
OWNERS = ("rules.py", "engine/interpreter.py")
"""The owner modules, left out of the scan (with ``kernel/``, the compiled twins)."""

PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "dealer": (
        re.compile(r"\(\s*(?:number|hand_number|k)\s*[-+]\s*\d\s*\)\s*%\s*(?:n|\w*players|PLAYERS|\d)\b"),  # (number - 1) % n
        re.compile(r"\bdealers?\s*=[^=].*%"),  # dealer = ... % n
    ),
    "pass target": (
        re.compile(r"\(\s*\w+\s*[-+][^%]*offset\b[^%]*\)\s*%"),  # (seat + offset) % n
        re.compile(r"[\"']left[\"']\s*:\s*1\b"),  # {"left": 1, ...}
        re.compile(r"\b[0-3]\s*:\s*[\"'](?:left|across|right)[\"']"),  # {1: "left", ...}
    ),
    "winners": (
        re.compile(r"[=!]=\s*(?:min\(|fold\(np\.minimum|\w+\.min\(|low\b)"),  # total == min(totals)
        re.compile(r"\bmin\(\s*\w*totals\b"),
    ),
}

ALLOWED: dict[tuple[str, str, str], str] = {
    ("fastpath/screen.py", "dealer",
     "dealer = np.where(recorded_dealer < 0, (number - 1) % n, recorded_dealer)"):
        "vectorised screen: the dealer of every hand of a block at once, as an array",
    ("fastpath/screen.py", "winners",
     "out.winners[games, :n] = complete[:, None] & (final == fold(np.minimum, final.T)[:, None])"):
        "vectorised screen: the winners of every game of a block at once, as a (games, seats) array",
    ("review/context.py", "winners", "lowest = totals == low[..., None]"):
        "vectorised: the share of the win over thousands of sampled futures at once",
    ("analysis/moons.py", "winners", "alone = (after == low[:, None]).sum(axis=1) == 1"):
        "vectorised: the better moon choice over every moon of a corpus at once",
    ("analysis/moons.py", "winners",
     "return np.where(~over, 1, np.where(after[rows, shooter] != low, 0, np.where(alone, 3, 2)))"):
        "vectorised: the better moon choice over every moon of a corpus at once",
    ("analysis/moons.py", "winners", "leads = add_after[rows, shooter] == add_after.min(axis=1)"):
        "vectorised: the better moon choice over every moon of a corpus at once",
    ("review/board.py", "pass target", "receiver = (seat + offset) % table.players if offset else None"):
        "advise_play's public signature takes the pass as an offset (the simulator's views carry it so)",
    ("simulate/play.py", "pass target", "views[(seat + offset) % n].received = cards"):
        "HandPlay.exchange mirrors HandState.exchange, whose argument is the offset (match/ and tests call it so)",
}


def scan() -> dict[tuple[str, str, str], int]:
    """Every line outside the owners that matches a fact's pattern: (module, fact, line) -> line number."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module in OWNERS or module.startswith("kernel/"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0].strip()
            for fact, patterns in PATTERNS.items():
                if any(p.search(code) for p in patterns):
                    found[(module, fact, code)] = number
    return found


def test_every_copy_is_allowed_with_a_reason():
    found = scan()
    new = {f"{module}:{number} ({fact}): {code}" for (module, fact, code), number in found.items()
           if (module, fact, code) not in ALLOWED}
    assert not new, "rules spelled outside their owner; call rules.dealer_of / Table.pass_target / winners:\n" \
        + "\n".join(sorted(new))
    gone = set(ALLOWED) - set(found)
    assert not gone, f"allowed copies no longer there; remove them from ALLOWED: {sorted(gone)}"
    assert all(reason.strip() for reason in ALLOWED.values())


@pytest.mark.parametrize(("fact", "copy"), [
    ("dealer", "    dealer = record.dealer if record.dealer is not None else (number - 1) % n"),
    ("dealer", "dealer = (number - 1) % table.players"),
    ("pass target", "receiver = (seat + offset) % n"),
    ("pass target", "sender = (seat - view.pass_offset) % PLAYERS"),
    ("pass target", "receiver = (seat + table.pass_offset(trace.direction)) % table.players"),
    ("pass target", 'offset = {"left": 1, "right": 3, "across": 2}[direction]'),
    ("pass target", 'DIRECTIONS = {1: "left", 2: "across", 3: "right"}'),
    ("winners", "winners = [s for s in range(4) if totals[s] == min(totals)]"),
    ("winners", "low = min(totals)"),
])
def test_the_scan_sees_a_copy(fact, copy):
    """The patterns catch the copies this test replaced (so re-adding one fails the test above)."""
    assert any(p.search(copy.strip()) for p in PATTERNS[fact])


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_pass_target_and_source(players):
    table = Rules().table(players)
    for direction in PASS_DIRECTIONS:
        if direction == "across" and players % 2:
            continue
        offset = table.pass_offset(direction)
        targets = [table.pass_target(seat, direction) for seat in range(players)]
        if direction == "hold":
            assert targets == [None] * players and table.pass_source(0, direction) is None
            continue
        assert sorted(targets) == list(range(players)) and all(t != s for s, t in enumerate(targets))
        assert all(table.pass_source(t, direction) == s for s, t in enumerate(targets))
        assert table.direction_of_offset(offset) == direction
    assert table.pass_target(0, "left") == 1 and table.pass_target(1, "right") == 0
    if players % 2 == 0:
        assert table.pass_target(0, "across") == players // 2


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_dealer_rotation(players):
    table = Rules().table(players)
    for first in range(players):
        dealers = [dealer_of(k, first, players) for k in range(1, 2 * players + 1)]
        assert dealers[0] == first
        assert all(b == (a + 1) % players for a, b in itertools.pairwise(dealers))
    assert [table.dealer(k) for k in range(1, players + 2)] == [*range(players), 0]
    assert table.dealer(2, recorded=players - 1) == players - 1


def test_winners_are_the_lowest_totals():
    for totals in itertools.product((0, 26, 99, 100), repeat=4):
        won = winners(totals)
        assert won and all(totals[s] == min(totals) for s in won)
        assert all(totals[s] > totals[won[0]] for s in range(4) if s not in won)
        assert Rules().table(4).winners(totals) == won
