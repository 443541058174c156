"""The fast path against the reference engine on corpora with every kind of fault the dirty-corpus benchmark
plants (benchmarks/bench_dirty.py), written as another program's wrong record carries them."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import orjson
import pytest

from faults import clean_games, write_parquet_file
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.records.json import dumps_game
from hearts_analysis.records.json.decode import game_from_dict
from test_validate_engines import validate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_dirty import FAULTS  # noqa: E402


def planted(kind: str, copies: int = 3) -> list:
    """Each clean game (every preset family, 3 to 7 players) a few times with a fault of ``kind``, between clean
    games; the planted code is checked to be found by the reference engine in most of them."""
    games, found = [], 0
    for number, game in enumerate(clean_games() * copies):
        games.append(game)
        line = orjson.loads(dumps_game(game))
        if FAULTS[kind](line, random.Random(number)):
            spoilt = game_from_dict(line)
            games.append(spoilt)
            found += kind in {v.code for v in replay_game(spoilt).violations}
    assert found >= len(clean_games()), (kind, found)
    return games


@pytest.mark.parametrize("kind", list(FAULTS))
def test_fast_path_reports_each_planted_fault_as_the_reference_engine_does(tmp_path, kind):
    path = write_parquet_file(planted(kind), tmp_path / f"{kind}.parquet", row_group_hands=60)
    expected = validate(path, "--format", "json", "--engine", "reference")
    assert expected[0] == 1 and kind.encode() in expected[1]
    assert validate(path, "--format", "json") == expected
