"""Every printed count agrees with its noun: "1 game (1 hand)", never "1 game (1 hands)"."""

from __future__ import annotations

from hearts_analysis.text import counted
from incli import hearts  # in this interpreter: these tests are about what the commands print


def test_counted_agrees():
    assert [counted(n, "hand") for n in (0, 1, 2, 1000)] == ["0 hands", "1 hand", "2 hands", "1,000 hands"]
    assert counted(1, "reply") == "1 reply" and counted(3, "reply") == "3 replies" and counted(2, "day") == "2 days"


def test_one_game_of_one_hand_is_said_in_the_singular(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one = tmp_path / "one.jsonl"
    wrote = hearts("simulate", "--games", "1", "--set", "deals_per_game=1", "--seed", "1", "-o", str(one))
    assert "wrote 1 game (1 hand) to" in wrote.stderr, wrote.stderr
    checked = hearts("validate", str(one))
    assert checked.stdout.startswith("1 game (1 hand) checked"), checked.stdout
    converted = hearts("convert", str(one), str(tmp_path / "one.parquet"))
    assert "converted 1 game (1 hand) into" in converted.stderr, converted.stderr
    for output in (wrote.stderr, checked.stdout, converted.stderr):
        assert "1 hands" not in output and "1 games" not in output
