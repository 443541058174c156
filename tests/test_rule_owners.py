"""Dealer rotation, "who receives the pass", "lowest total wins", the points of a trick, the no-trick bonus,
the moon's scores and the game's end each have one owner.

The owners: :func:`hearts_analysis.rules.dealer_of` (and ``Table.dealer``), ``Table.pass_target`` /
``pass_source`` / ``direction_of_offset``, :func:`hearts_analysis.rules.winners` (and ``Table.winners``);
the engine's ``exchange`` applies a pass by its offset. Points: :func:`hearts_analysis.rules.heart_points`,
:func:`~hearts_analysis.rules.jack_points` and ``engine/scoring.py`` (a whole hand, moons included); the end:
``Table.game_over``. Their array twins are :mod:`hearts_analysis.rule_arrays` (``heart_points``, ``point_parts``,
``raw_points``, ``moon_scores``, ``shot``, ``game_over``, ``lowest`` for the winners, ``dealers``). Play: the trick's
winner is ``engine.interpreter.winning_card`` (``trick_taker`` by seat; twin ``rule_arrays.winning_card``), hearts
break by ``breaks_hearts`` (twin ``rule_arrays.breaks_hearts``), "no points on trick 1" is ``Table.first_trick_barred``
and trick 1's leader ``HandState.first_leader_for``. The compiled kernel keeps its twins. A scan of
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
OWNERS = ("rules.py", "rule_arrays.py", "engine/interpreter.py", "engine/scoring.py")
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
    "trick points": (
        re.compile(r"\b13 if\b.*\bQS"),  # hearts + (13 if cards & QS_MASK else 0)
        re.compile(r"\b13\s*\*.*\bQS"),  # 13 * (cards >> QS & 1)
        re.compile(r"QUEEN_POINTS\s*\*"),
        re.compile(r"QUEEN_POINTS\s*=\s*\d"),  # a second QUEEN_POINTS
        re.compile(r"jack_of_diamonds\s*\*"),  # p.jack_of_diamonds * took_jd
    ),
    "no-trick bonus": (
        re.compile(r"no_tricks_bonus\s*\*"),
        re.compile(r"\+=?\s*[\w.]*no_tricks_bonus\b"),
    ),
    "moon": (
        re.compile(r"point_total\s*\*"),  # jack + point_total * ~is_shooter
        re.compile(r"&\s*needed\)?\s*==\s*needed"),  # (taken & needed) == needed
    ),
    "game over": (
        re.compile(r"\btarget\b.*\bif\b.*\bexceed"),  # top > target if exceed else top >= target
        re.compile(r"\btop\s*>=?\s*[\w.]*target\b"),
    ),
    "trick winner": (
        re.compile(r"max\(\(.*\bseat\)\s*for\b.*==\s*(?:suit|led)\b"),  # max((card, seat) for ... == suit)
        re.compile(r"highest\(\s*(?:[\w.]*trick[\w.]*(?:\[[^\]]*\])?|so_far)\s*&\s*(?:suit|SUIT_MASKS\[\w+\])"),
    ),
    "hearts broken": (
        re.compile(r"&\s*[\w.]*breakers\)?\s*!=\s*0"),  # (h.trick_cards & breakers) != 0
        re.compile(r"\bbreakers\s*=\s*U64\("),
        re.compile(r"breaker\(\s*[\w.]*breakers\s*\)"),  # trace.breaker(table.breakers)
        re.compile(r"\bcards\s*&\s*(?:breaks|[\w.]*breakers)\b"),  # if trick.cards & breaks:
    ),
    "first leader": (
        re.compile(r"\b(?:leader|first_\w+)\s*=\s*next\(\(.*\benumerate\("),  # leader = next((s for ... if h & bit), leader)
        re.compile(r"TWO_CLUBS\s*&\s*1"),
    ),
    "first-trick rules": (
        re.compile(r"(?:\b\w+\s*=|,|\()\s*not\s+[\w.]*points_on_first_trick\b\s*(?:\)|$)"),  # free = not ...
    ),
}

ALLOWED: dict[tuple[str, str, str], str] = {
    ("review/reasons.py", "trick points",
     'return {"queen": (QUEEN_POINTS * option.queen, option.queen), "hearts": (option.hearts, option.hearts),'):
        "an option without parts: its expected QS points from the share of deals it takes QS in (a rate, not cards)",
    ("review/board.py", "pass target", "receiver = (seat + offset) % table.players if offset else None"):
        "advise_play's public signature takes the pass as an offset (the simulator's views carry it so)",
    ("simulate/play.py", "pass target", "views[(seat + offset) % n].received = cards"):
        "HandPlay.exchange mirrors HandState.exchange, whose argument is the offset (match/ and tests call it so)",
    ("engine/quick.py", "hearts broken", "if cards & breakers:"):
        "the clean-hand fast lane keeps its own loop for speed; it declares the rules it models (rules.LANES, quick)",
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
    assert not new, "rules spelled outside their owner; call rules.dealer_of / Table.pass_target / winners / " \
        "heart_points / jack_points / Table.game_over, engine.scoring, winning_card / breaks_hearts / " \
        "Table.first_trick_barred / HandState.first_leader_for, or their twins in rule_arrays:\n" \
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
    ("trick points", "return (taken & HEARTS_MASK).bit_count() + (13 if taken & QS_MASK else 0)"),
    ("trick points", "points = (cards & HEARTS_MASK).bit_count() + 13 * (cards >> QS & 1)"),
    ("trick points", "QUEEN_POINTS = 13"),
    ("trick points", "raw = raw + rules.jack_of_diamonds * (((taken >> U64(JD)) & ONE) != 0)"),
    ("no-trick bonus", "raw = raw + rules.no_tricks_bonus * ((h.tricks_won == 0) & (moon_seat < 0)[:, None])"),
    ("no-trick bonus", "points += p.no_tricks_bonus * (play.tricks_won == 0)"),
    ("moon", "added = jack + p.point_total * ~is_shooter"),
    ("moon", "shot = (outcomes.taken & needed) == needed"),
    ("game over", "over = top > p.target if p.exceed else top >= p.target"),
    ("game over", 'return top > table.rules.target if table.rules.end_at == "exceed" else top >= table.rules.target'),
    ("trick winner", "winner = max((card, seat) for seat, card in trick if card // 13 == suit)[1]"),
    ("trick winner", "winner = max((rank_of(card), seat) for seat, card in trick if suit_of(card) == led)[1]"),
    ("trick winner", "return card // 13 == led and card > highest(state.trick_cards & SUIT_MASKS[led])"),
    ("trick winner", "top = highest(so_far & suit).clip(0)"),
    ("trick winner", "if play.held & suit & ~((2 << highest(trick.cards & suit)) - 1):"),
    ("trick winner", "top = highest(h.trick_cards[hands, tricks] & suit)"),
    ("hearts broken", "broken = (h.trick_cards & breakers) != 0"),
    ("hearts broken", "at = np.argmax((bits(h.cards[hand, trick]) & breakers) != 0, axis=1)"),
    ("hearts broken", "breakers = U64(p.breakers)"),
    ("hearts broken", "hearts_broken=trace.breaker(table.breakers), totals_before=totals_before)"),
    ("hearts broken", "if trick.cards & breaks:"),
    ("first leader", "holder = next((s for s, h in enumerate(hands) if h >> TWO_CLUBS & 1), 0)"),
    ("first leader", "leader = next((s for bit in (1, 2) for s, h in enumerate(held) if h & bit), leader)"),
    ("first-trick rules", "free_first = not table.rules.points_on_first_trick"),
    ("first-trick rules", "self._first_trick_safe = not rules.points_on_first_trick"),
    ("first-trick rules", "control, let_go, on_points = holder_plays(h, some, holder[some], not p.points_on_first_trick)"),
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


def test_the_array_twins_agree_with_the_scalar_owners():
    """rule_arrays scores and ends games as rules.py and engine.scoring do, over random hands."""
    import numpy as np

    from hearts_analysis import rule_arrays
    from hearts_analysis.engine.scoring import raw_points
    from hearts_analysis.rules import heart_points

    rng = np.random.default_rng(7)
    masks = rng.integers(0, 1 << 52, 400, dtype=np.uint64) & rng.integers(0, 1 << 52, 400, dtype=np.uint64)
    masks[::7] = 0
    assert rule_arrays.heart_points(masks).tolist() == [heart_points(int(m)) for m in masks]
    for rules in (Rules(), Rules.preset("omnibus", queen_of_clubs_cancels_queen=True, no_tricks_bonus=-5)):
        table = rules.table(4)
        got = rule_arrays.raw_points(rules, masks, masks == 0).tolist()
        assert got == [raw_points(table, int(m), int(m != 0)) for m in masks]
        totals = rng.integers(60, 130, (50, 4))
        assert rule_arrays.game_over(table, totals).tolist() == [table.game_over(tuple(t)) for t in totals]
    totals = rng.integers(0, 4, (200, 4)) * 25
    assert [tuple(np.flatnonzero(row)) for row in rule_arrays.lowest(totals)] == [winners(t) for t in totals.tolist()]
    numbers, recorded = rng.integers(1, 30, 100), rng.integers(-1, 4, 100)
    table = Rules().table(4)
    assert rule_arrays.dealers(numbers, recorded, 4).tolist() == [
        table.dealer(int(k), None if r < 0 else int(r)) for k, r in zip(numbers, recorded)]


def test_the_play_twins_agree_with_the_interpreter():
    """rule_arrays.winning_card and breaks_hearts answer as engine.interpreter does, over random tricks."""
    import numpy as np

    from hearts_analysis import rule_arrays
    from hearts_analysis.cards import SUIT_MASKS
    from hearts_analysis.engine.interpreter import breaks_hearts, winning_card

    rng = np.random.default_rng(11)
    masks = rng.integers(0, 1 << 52, 300, dtype=np.uint64) & rng.integers(0, 1 << 52, 300, dtype=np.uint64)
    for suit in range(4):
        led = SUIT_MASKS[suit]
        got = rule_arrays.winning_card(masks, np.uint64(led)).tolist()
        assert got == [winning_card(int(m), led) for m in masks]
    for rules in (Rules(), Rules(hearts_broken_by="heart"), Rules(hearts_broken_by="heart_or_queen")):
        table = rules.table(4)
        assert rule_arrays.breaks_hearts(table, masks).tolist() == [breaks_hearts(table, int(m)) for m in masks]
