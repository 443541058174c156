"""Every exporter, fed every preset at 3-7 players and mixed files: exit 0 or 2, never a traceback, every game
the format holds written (read back and counted), every other game named with its id on stderr."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hearts_analysis.interop import formats
from hearts_analysis.records.sources import iter_sources, write_any
from hearts_analysis.rules import PRESETS, Rules
from hearts_analysis.simulate import simulate_game
from incli import hearts  # in this interpreter: these tests are about what the commands print

OWN = {"killer": "killer_hearts", "killer-json": "killer_hearts", "league": "hearts_league", "trend": "trend_hearts",
       "turbo": "turbo_hearts", "sturtevant": "sturtevant", "text": "standard", "openspiel": "openspiel"}
"""A preset each format holds at 4 seats."""
OUTPUT = {"league": "TrickHistory.csv", "killer-json": "KHearts.json"}


def _rules(preset: str, players: int) -> Rules:
    rules = Rules.preset(preset)
    if players % 2 and "across" in rules.table(4).pass_cycle:
        return Rules.preset(preset, pass_cycle=["left", "right", "hold"])
    return rules


def _games() -> list:
    return [simulate_game(_rules(preset, players), [f"p{seat}" for seat in range(players)], seed=f"{preset}-{players}",
                          game_id=f"{preset}-{players}p", max_hands=1 if players != 4 else 1000)
            for preset in PRESETS for players in range(3, 8)]


@pytest.fixture(scope="module")
def every_preset(tmp_path_factory) -> tuple[Path, list]:
    games = _games()
    path = tmp_path_factory.mktemp("presets") / "games.jsonl"
    write_any(games, path)
    return path, games


def _export(name: str, source: Path, out: Path):
    return hearts("export", name, str(source), "-o", str(out))


def _first_plays(games) -> list:
    return sorted(game.hands[0].plays for game in games)


def _check(name: str, source: Path, games: list, out: Path) -> None:
    """Export, and check the contract."""
    run = _export(name, source, out)
    assert run.returncode in (0, 2), run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    left_out = set(re.findall(r": game (\S+): not exported: ", run.stderr))   # a game may be named for several reasons
    assert len(re.findall(r": not exported: ", run.stderr)) >= len(left_out)
    assert run.returncode == (2 if left_out else 0)
    back = [item.game for item in iter_sources([out])] if out.exists() else []
    assert all(game is not None for game in back)
    assert len(back) + len(left_out) == len(games), run.stderr
    own = [game for game in games if game.rules == Rules.preset(OWN[name]) and game.seats == 4]
    assert own and set(_first_plays(own)) <= set(_first_plays(back))   # the games the format surely holds
    for game in games:   # each game left out is named by its id
        assert (f"game {game.game_id}: not exported" in run.stderr) == (game.hands[0].plays not in
                                                                         _first_plays(back)), game.game_id


@pytest.mark.parametrize("name", sorted(OWN))
def test_every_preset_and_player_count_exits_0_or_2_and_writes_every_game_it_holds(name, every_preset, tmp_path):
    source, games = every_preset
    _check(name, source, games, tmp_path / OUTPUT.get(name, "out.txt"))


@pytest.mark.parametrize("name", sorted(set(OWN) - {"text"}))
def test_a_mixed_file_writes_the_games_that_fit_and_names_the_others(name, tmp_path):
    fitting = [simulate_game(Rules.preset(OWN[name]), ["a", "b", "c", "d"], seed=seed, game_id=f"fits-{seed}")
               for seed in (1, 2)]
    unfit = [simulate_game(Rules.preset("standard", target=30), ["a", "b", "c"], seed=seed, game_id=f"three-{seed}")
             for seed in (3, 4)]
    source = tmp_path / "mixed.jsonl"
    write_any([fitting[0], *unfit, fitting[1]], source)
    out = tmp_path / OUTPUT.get(name, "out.txt")
    run = _export(name, source, out)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert [line.split(": ")[1] for line in run.stderr.splitlines() if "not exported" in line] == \
        ["game three-3", "game three-4"]
    assert "3 players" in run.stderr
    back = [item.game for item in iter_sources([out])]
    assert _first_plays(back) == _first_plays(fitting)


def test_sturtevant_says_the_rules_it_cannot_hold_in_words(tmp_path):
    from hearts_analysis.interop import sturtevant
    game = simulate_game(Rules.preset("standard"), ["a", "b", "c", "d"], seed=1, game_id="std")
    reason = sturtevant.unfit(game)
    assert "None" not in reason and "pass_cycle" not in reason   # standard's unset cycle is the program's at 4
    assert "moon shooter_choice, where it plays add_to_others" in reason


def test_every_writable_format_has_an_unfit_check():
    assert [name for name, module in formats.formats().items()
            if hasattr(module, "write") and name != "text" and not hasattr(module, "unfit")] == []
