"""The binning of the judge's moon claims against what happened (``benchmarks/moon_calibration.py``)."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("moon_calibration", ROOT / "benchmarks" / "moon_calibration.py")
moon_calibration = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("moon_calibration", moon_calibration)
_spec.loader.exec_module(moon_calibration)
reliability, table, BINS = moon_calibration.reliability, moon_calibration.table, moon_calibration.BINS


def _made_up(seed: int, hands: int = 300) -> list[tuple[int, float, bool]]:
    """Hands of 1 to 12 decisions whose claims are drawn at random and whose moon comes with the chance
    ``truth(claim)`` of the hand's first claim (one outcome a hand, as in a real hand)."""
    rng = random.Random(seed)
    records = []
    for hand in range(hands):
        claims = [rng.random() ** 3 for _ in range(rng.randint(1, 12))]
        happened = rng.random() < claims[0] / 2
        records += [(hand, c, happened) for c in claims]
    return records


def test_every_record_in_one_bin_and_bins_in_order():
    records = _made_up(1)
    rows = reliability(records)
    assert sum(r.decisions for r in rows) == len(records)
    assert [r.low for r in rows] == sorted(r.low for r in rows)
    for r in rows:
        inside = [c for _, c, _ in records if r.low <= c < r.high or (r.high == BINS[-1] and c == r.high)]
        assert r.decisions == len(inside)
        assert r.low <= r.claimed <= r.high
        assert r.claimed == pytest.approx(sum(inside) / len(inside))
        assert r.hands == len({h for h, c, _ in records if c in inside})
        assert r.hands <= r.decisions


def test_observed_rate_counts_decisions_and_the_edges():
    records = [("x", 0.0, True), ("y", 0.02, False), ("y", 0.0199, False), ("z", 1.0, True), ("w", 0.6, False)]
    rows = {r.low: r for r in reliability(records)}
    assert rows[0.0].decisions == 2 and rows[0.0].observed == 0.5      # 0.0 and 0.0199; 0.02 is the next bin's
    assert rows[0.02].decisions == 1 and rows[0.02].observed == 0.0
    assert rows[0.6].decisions == 2 and rows[0.6].observed == 0.5      # 1.0 belongs to the last bin
    assert set(rows) == {0.0, 0.02, 0.6}                               # empty bins are left out


def test_standard_error_is_taken_over_hands():
    # the same outcomes, once as 20 hands of one decision each and once as 2 hands of ten: the rate is the same,
    # and the clustered error is wider, since ten decisions of a hand are one outcome
    apart = [(i, 0.5, i % 2 == 0) for i in range(20)]
    together = [(i // 10, 0.5, i < 10) for i in range(20)]
    (a,), (t,) = reliability(apart), reliability(together)
    assert a.observed == t.observed == 0.5
    assert a.hands == 20 and t.hands == 2
    assert t.se > a.se
    # with one decision a hand it is the usual error of a share (up to n / (n - 1))
    assert a.se == pytest.approx(math.sqrt(0.25 / 20) * math.sqrt(20 / 19))
    assert math.isnan(reliability([("only", 0.3, True), ("only", 0.4, True)])[0].se)


def test_a_true_claim_is_found_true_and_an_inflated_one_too_high():
    # hands of a few decisions with one claim each; the moon comes with half the claim
    rng = random.Random(2)
    hands = [(h, rng.random() ** 2, rng.randint(1, 8)) for h in range(4000)]
    outcome = {h: rng.random() < c / 2 for h, c, _ in hands}
    inflated = [(h, c, outcome[h]) for h, c, n in hands for _ in range(n)]
    honest = [(h, c / 2, outcome[h]) for h, c, n in hands for _ in range(n)]
    top = reliability(inflated, (0.0, 0.3, 1.0))[-1]
    assert top.observed < top.claimed - 3 * top.se
    for r in reliability(honest, (0.0, 0.15, 0.5)):
        assert abs(r.observed - r.claimed) < 4 * r.se


def test_a_claim_that_is_not_a_chance_names_its_record():
    with pytest.raises(ValueError, match="record 1: claimed -0.1"):
        reliability([("a", 0.1, False), ("a", -0.1, False)])


def test_table_has_a_row_per_bin_and_one_for_all():
    records = _made_up(3, hands=50)
    text = table(records, "another seat shoots")
    lines = text.splitlines()
    assert lines[0].startswith("| claimed chance another seat shoots |")
    assert len(lines) == 2 + len(reliability(records)) + 1
    assert lines[-1].startswith(f"| all | {len(records)} | 50 |")


def test_the_benchmark_records_a_claim_per_unforced_play_of_the_judge(tmp_path):
    """``judge_strength.py --moons``: each hand's row holds one pair of chances per unforced play of the judge in
    that hand (the game's CPU clock counts the same plays), and the report bins them."""
    import json
    import os
    import subprocess

    dump = tmp_path / "moons.jsonl"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "judge_strength.py"), "--hands", "2",
                           "--game-hands", "2", "--baselines", "random", "--no-calibration", "--moons",
                           "--dump", str(dump)], env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    assert [(r["k"], r["hand"]) for r in rows] == [(0, 1), (0, 2), (1, 1), (1, 2)]
    for k in (0, 1):
        game = [r for r in rows if r["k"] == k]
        assert sum(len(r["moons"]) for r in game) == len(game[0]["plays"]) > 0
        assert all(len(r["moons"]) <= 13 for r in game)
    claims = [c for r in rows for pair in r["moons"] for c in pair]
    assert all(0.0 <= c <= 1.0 for c in claims)
    total = sum(len(r["moons"]) for r in rows)
    assert f"| all | {total} | 4 |" in done.stdout
    assert "claimed chance another seat shoots" in done.stdout and "claimed chance the judge shoots" in done.stdout
