"""The fast path on JSON Lines prints exactly what the reference engine prints, line numbers and all."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from faults import clean_games, every_violation
from hearts_analysis.fastpath import CleanRun, audit_entries, jsonl
from hearts_analysis.records.json import dumps_game, game_to_dict

runner = CliRunner()


def validate(*args) -> tuple[int, bytes]:
    result = runner.invoke(__import__("hearts_analysis.cli", fromlist=["app"]).app, ["validate", *map(str, args)])
    return result.exit_code, result.stdout_bytes


def _odd_lines() -> list[bytes]:
    """Lines the encoder does not take as they are: each must be read and reported as the JSON reader does."""
    game = game_to_dict(clean_games()[0])
    ten = orjson.loads(orjson.dumps(game).replace(b'"TH"', b'"10h"'))  # a notation the reader accepts
    no_players = {k: v for k, v in game.items() if k != "players"}
    bad_card = orjson.loads(orjson.dumps(game).replace(b'"QS"', b'"QX"', 1))
    return [b'{"players": ["a", "b"', b"not json at all", b"[1, 2, 3]", b'"a string"', b"{}",
            orjson.dumps(ten), orjson.dumps(no_players), orjson.dumps(bad_card),
            orjson.dumps({**game, "hands": []}), orjson.dumps({**game, "extra_field": {"x": [1, None]}}),
            b"   \t  ", b""]


@pytest.fixture(scope="module")
def pool() -> list[bytes]:
    """Clean games, games with every violation code, and odd or unreadable lines."""
    return [dumps_game(game) for game in every_violation()] + _odd_lines()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, pool) -> str:
    path = tmp_path_factory.mktemp("jsonl") / "games.jsonl"
    games = pool[:-len(_odd_lines())]
    lines = []
    for i, line in enumerate(pool[len(games):]):  # odd lines spread among the games, blank lines too
        lines.extend(games[i * 8:(i + 1) * 8] + [line])
    lines.extend(games[len(_odd_lines()) * 8:])
    path.write_bytes(b"\n".join(lines) + b"\n" + b'{"truncated": ')  # the last line has no newline
    return str(path)


@pytest.mark.parametrize("format", ["json", "text"])
def test_fast_prints_what_the_reference_engine_prints(corpus, format, monkeypatch):
    expected = validate(corpus, "--format", format, "--engine", "reference")
    assert expected[0] == 2
    assert validate(corpus, "--format", format, "--engine", "fast") == expected
    monkeypatch.setattr(jsonl, "CHUNK_BYTES", 5000)  # many tasks, games on both sides of every cut
    for options in ([], ["--engine", "fast"], ["--engine", "fast", "--workers", "2"], ["--workers", "2"]):
        assert validate(corpus, "--format", format, *options) == expected, options


def test_the_report_covers_every_code_names_lines_and_uses_the_screen(corpus):
    code, out = validate(corpus, "--format", "json", "--engine", "fast")
    document = orjson.loads(out)
    assert len(document["summary"]["by_code"]) == 16
    assert all(":" in g["source"] and "#" not in g["source"] for g in document["games"])
    errors = {e["source"].rsplit(":", 1)[1]: e for e in document["errors"]}
    assert any("bad JSON" in e["message"] for e in errors.values())
    lines = open(corpus, "rb").read().split(b"\n")
    odd = {line.strip() for line in _odd_lines()} | {b'{"truncated":'}
    for number in errors:  # each error names the line it came from
        assert lines[int(number) - 1].strip() in odd
    screened = [e for e in audit_entries([corpus], engine="fast") if isinstance(e, CleanRun)]
    assert sum(run.games for run in screened) >= len(clean_games())


def test_forced_rules_give_the_reference_results(corpus):
    for options in (["--rules", "omnibus"], ["--set", "target=30"]):
        expected = validate(corpus, "--format", "json", "--engine", "reference", *options)
        assert validate(corpus, "--format", "json", "--engine", "fast", *options) == expected, options


def test_a_missing_file_is_reported_alike(tmp_path):
    args = [tmp_path / "missing.jsonl", "--format", "json"]
    assert validate(*args, "--engine", "fast") == validate(*args, "--engine", "reference")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_mix_of_lines_and_chunk_size_gives_the_reference_results(tmp_path_factory, pool, data):
    picks = data.draw(st.lists(st.sampled_from(range(len(pool))), min_size=1, max_size=30))
    chunk = data.draw(st.integers(1, 20000))
    ending = data.draw(st.sampled_from([b"", b"\n", b"\r\n"]))
    path = tmp_path_factory.mktemp("mix") / "mix.ndjson"
    path.write_bytes(ending.join(pool[i] for i in picks) + ending)
    expected = validate(path, "--format", "json", "--engine", "reference")
    original = jsonl.CHUNK_BYTES
    jsonl.CHUNK_BYTES = chunk
    try:
        assert validate(path, "--format", "json", "--engine", "fast") == expected
    finally:
        jsonl.CHUNK_BYTES = original
