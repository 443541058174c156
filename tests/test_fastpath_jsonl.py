"""The fast path on JSON Lines prints exactly what the reference engine prints, line numbers and all."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from faults import PLANTED_VIOLATIONS, clean_games, every_violation
from hearts_analysis.fastpath import CleanRun, audit_entries, jsonl, jsonl_text
from hearts_analysis.fastpath.jsonl_text import LineEncoder
from hearts_analysis.records.json import dumps_game, game_to_dict
from hearts_analysis.records.model import HAND_KEYS
from hearts_analysis.records.parquet.encode import EventEncoder
from hearts_analysis.records.parquet.shred import Declined

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


@pytest.mark.long
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
    assert set(document["summary"]["by_code"]) == PLANTED_VIOLATIONS   # unmodelled is a note
    assert document["summary"]["notes"] > 0
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


# -- the text lane: compact lines read from their text (fastpath/jsonl_text.py) ----------------------------------
def _games_for_lines() -> list[dict]:
    """Games of 3, 4 and 7 seats, with and without passes, as JSON objects."""
    games = clean_games()
    by_size = {len(game.players): game for game in reversed(games)}
    return [game_to_dict(by_size[n]) for n in (3, 4, 7)]


def _hand_change(game: dict, change, hand: int = 0, in_order: bool = True) -> dict:
    """The game with one hand changed; its known fields kept in record order unless ``in_order`` is false."""
    hands = [dict(h) for h in game["hands"]]
    change(hands[hand])
    if in_order:
        hands[hand] = {key: hands[hand][key] for key in HAND_KEYS if key in hands[hand]} | hands[hand]
    return {**game, "hands": hands}


def _set(**values):
    return lambda hand: hand.update(values)


def _drop(key):
    return lambda hand: hand.pop(key, None)


def _lines_of(game: dict) -> list[tuple[bytes, bool]]:
    """Lines of one game and variants of it, each with whether the text lane must read it (``False``: it may
    not, or it is invalid); every one must encode as the JSON encoder encodes it."""
    line = orjson.dumps(game)
    n = len(game["players"])
    first = game["hands"][0]
    passes_at = next(i for i, h in enumerate(game["hands"]) if h.get("passes"))
    uneven = [list(cards) for cards in first["deal"]]
    uneven[1].append(uneven[0].pop())
    nested = {"meta": {"hands": [first]}, **game}
    taken = [
        line,
        orjson.dumps({**game, "rules": "standard"}),
        orjson.dumps({**game, "rules": {"preset": "omnibus", "target": 30}}),
        orjson.dumps({**game, "meta": {"site": "club", "round": [1, 2]}, "played_at": "2026-01-01T10:00:00Z",
                      "complete": False}),
        orjson.dumps(_hand_change(game, _set(moon="add_to_others", pass_direction="right"))),
        orjson.dumps(_hand_change(game, _drop("dealer"))),
        orjson.dumps(_hand_change(game, _drop("points"))),
        orjson.dumps(_hand_change(game, _set(points=[-5] + [0] * (n - 1), totals=[999_999_999] * n))),
        orjson.dumps(_hand_change(game, _set(deal=uneven))),
        orjson.dumps(_hand_change(game, _set(plays=first["plays"][:-3]))),
        orjson.dumps(_hand_change(game, _set(dealer=n - 1))),
        json.dumps(game).encode(),  # a space after every comma and colon
        json.dumps(_hand_change(game, _set(points=[-5] + [0] * (n - 1)))).encode(),
        line + b"  \r\n",
    ]
    others = [
        orjson.dumps(_hand_change(game, _set(dealer=n))),
        orjson.dumps(_hand_change(game, _set(dealer=None))),
        orjson.dumps(_hand_change(game, _set(dealer=0.0))),
        orjson.dumps(_hand_change(game, _set(dealer="0"))),
        orjson.dumps(_hand_change(game, _set(moon="bogus"))),
        orjson.dumps(_hand_change(game, _set(pass_direction="sideways"))),
        orjson.dumps(_hand_change(game, _set(note="}],{"))),
        orjson.dumps(_hand_change(game, _set(passes=None), passes_at)),
        orjson.dumps(_hand_change(game, _set(passes=[[]] * n), passes_at)),
        orjson.dumps(_hand_change(game, _set(passes=[[]] + game["hands"][passes_at]["passes"][1:]), passes_at)),
        orjson.dumps(_hand_change(game, _set(deal=first["deal"][:-1]))),
        orjson.dumps(_hand_change(game, _set(plays=[]))),
        orjson.dumps(_hand_change(game, _set(points=[2 ** 40] + [0] * (n - 1)))),
        orjson.dumps(_hand_change(game, _set(points=[1_000_000_000] * n))),
        orjson.dumps(_hand_change(game, _set(points=[1.5] * n))),
        orjson.dumps(_hand_change(game, _set(totals=[0] * (n + 1)))),
        orjson.dumps(_hand_change(game, lambda hand: hand.update(deal=hand.pop("deal")), in_order=False)),
        orjson.dumps({**game, "game_id": "caf\u00e9 \"quoted\""}),
        orjson.dumps(nested),
        orjson.dumps({**game, "hands": []}),
        orjson.dumps({**game, "players": game["players"][:2]}),
        orjson.dumps({**game, "format": "hearts-game/9"}),
        orjson.dumps({**game, "rules": "no-such-preset"}),
        line.replace(b'"QS"', b'"qs"', 1), line.replace(b'"TH"', b'"10H"', 1), line.replace(b'"QS"', b'"QX"', 1),
        line.replace(b'"TH"', b'"1H"', 1), line.replace(b'"TH"', b'"0H"', 1), line.replace(b'"TH"', b'"TT"', 1),
        line.replace(b'"QS"', b'"Q"', 1), line.replace(b'[0,"', b'[9,"', 1), line.replace(b'[0,"', b'["0","', 1),
        line.replace(b'[0,"', b'[-1,"', 1), line.replace(b'"points":[', b'"points":[0', 1),
        line.replace(b'"points":[', b'"points":[-0,', 1), line.replace(b'"dealer":', b'"dealer": ', 1),
        line.replace(b'"deal":[[', b'"deal":[ [', 1), line.replace(b'"hands":[', b'"hands":[],"hands":[', 1),
        line.replace(b'{"format"', b'{"hands":[],"format"', 1), line.replace(b"]]", b"]],", 1),
        line.replace(b'}],"', b'}]],"', 1), line.replace(b'"plays":[[', b'"plays":[[0,"2C",1],[', 1),
        json.dumps(_hand_change(game, _set(note="a, b: c"))).encode(), json.dumps(game, indent=1).encode(),
        json.dumps(game).encode().replace(b'"QS"', b'"QS" ', 1), json.dumps(game).encode().replace(b", ", b",  ", 3),
        line[:len(line) // 2], line + b"x", b"\xef\xbb\xbf" + line, line.replace(b'"players"', b'"pl\\u0061yers"'),
    ]
    return [(text, True) for text in taken] + [(text, False) for text in others]


def _encode(line: bytes, text_lane: bool):
    """The ``events/2`` tables of a line, or the exception raised, and whether the text lane read it."""
    encoder = LineEncoder(7) if text_lane else EventEncoder(7)
    try:
        took = encoder.add_line(line) if text_lane else encoder.add_json(orjson.loads(line)) is None
    except Exception as error:  # the same error must come from both
        return (type(error).__name__, str(error)), False
    return encoder.take_batch().tables(), took


@pytest.mark.parametrize("game", _games_for_lines(), ids=lambda game: f"{len(game['players'])} seats")
def test_the_text_lane_encodes_each_line_as_the_json_encoder_does(game):
    for line, must_take in _lines_of(game):
        expected, _ = _encode(line, False)
        found, took = _encode(line, True)
        assert took or not must_take, line[:200]
        if isinstance(expected, tuple) and isinstance(expected[0], str):
            assert found == expected, line[:200]
        else:
            assert all(a.equals(b) for a, b in zip(found, expected)), line[:200]


def test_the_text_lane_reads_the_compact_lines_of_every_violation(pool):
    encoder, reference = LineEncoder(), EventEncoder()
    taken = 0
    for line in pool:
        if line.strip():
            try:
                taken += encoder.add_line(line)
            except Exception:  # unreadable lines: compared through the command above
                continue
            reference.add_json(orjson.loads(line))
    assert taken >= 0.8 * len(pool)
    assert all(a.equals(b) for a, b in zip(encoder.take_batch().tables(), reference.take_batch().tables()))


def test_odd_lines_give_the_reference_results_line_for_line(tmp_path, monkeypatch):
    lines = [line for game in _games_for_lines() for line, _ in _lines_of(game)]
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b"\n".join(lines[i] + (b"\n" if i % 7 == 3 else b"") for i in range(len(lines))) + b"\n")
    expected = validate(path, "--format", "json", "--engine", "reference")
    assert expected[0] == 2
    assert validate(path, "--format", "json", "--engine", "fast") == expected
    monkeypatch.setattr(jsonl, "CHUNK_BYTES", 20000)
    assert validate(path, "--format", "json") == expected


@pytest.mark.parametrize("texts", [
    (b"[1,2,3]", b"[4,5,6]"), (b"[1,2,3]", None, b"[-0,0,999999999]"), (b"[-999999999,0,0]",), (),
])
def test_points_texts_read_together_are_each_one_list(texts):
    given = [text for text in texts if text is not None]
    expected = iter(orjson.loads(b"[" + b",".join(given) + b"]"))
    assert jsonl_text._numbers(texts, 3) == [None if text is None else next(expected) for text in texts]


@pytest.mark.parametrize("texts", [
    (b"[1,2,3],[4,5", b"6]"),          # two texts that join into two lists: each must be one
    (b"[1,2,3]", b"[1,2]"), (b"[1,,2,3]", b"[1,2,3]"), (b"[01,2,3]", b"[1,2,3]"), (b"[1,2,3]", b"[1000000000,0,0]"),
    (b"[1,2,3]|[4,5,6]", b"[1,2,3]"), (b"[1.5,2,3]",), (b"[1,2,3] ",), (b"[[1,2,3]]",), (b"1,2,3",), (b"[-,2,3]",),
])
def test_points_texts_that_are_not_lists_of_whole_numbers_are_declined(texts):
    with pytest.raises(Declined):
        jsonl_text._numbers(texts, 3)


def test_the_block_of_lines_is_the_block_the_parquet_decoder_reads_from_the_same_games(pool):
    import dataclasses
    import numpy as np
    import pyarrow.compute as pc
    from hearts_analysis.fastpath.decode import TEXT_COLUMNS, Judgements, Unit, decode_unit

    encoder = LineEncoder()
    for number, line in enumerate(pool, 1):
        try:
            encoder.next_game = number - 1
            encoder.add_line(line)
        except Exception:
            continue
    batch = encoder.take_batch()
    direct = jsonl.line_block(batch, Judgements(None), "pool.jsonl")
    headers, cards = batch.tables()
    for name in TEXT_COLUMNS:  # as a file gives them
        headers = headers.set_column(headers.column_names.index(name), name, pc.dictionary_encode(headers[name]))
    decoded = decode_unit(Unit(cards, "pool.jsonl", 0, 0, headers), Judgements(None))
    assert direct.games > 100 and direct.game_doubt.sum() < direct.games
    for field in dataclasses.fields(decoded):
        if field.name in ("players_column", "game_id_column", "header_rows", "tables", "path"):
            continue
        mine, theirs = getattr(direct, field.name), getattr(decoded, field.name)
        if field.name == "game_meta":
            assert [mine[1][k] for k in mine[0]] == [theirs[1][k] for k in theirs[0]]
        else:
            assert np.array_equal(mine, theirs), field.name
    assert direct.players() == decoded.players() and direct.game_ids() == decoded.game_ids()
    assert direct.tables == decoded.tables


def test_json_lines_of_several_chunks_use_a_process_per_cpu_by_default(tmp_path, monkeypatch, pool):
    import hearts_analysis.fastpath as fastpath
    from hearts_analysis.records.errors import Item

    def seen(entries) -> list:
        return [(entry.source, entry.error.text()) if isinstance(entry, Item) else entry for entry in entries]

    path = tmp_path / "pool.jsonl"
    path.write_bytes(b"".join(line if line.endswith(b"\n") else line + b"\n" for line in pool))
    started, process_pool = [], fastpath.process_pool

    def counted_pool(workers):
        started.append(workers)
        return process_pool(workers)

    monkeypatch.setattr(jsonl, "CHUNK_BYTES", 20000)
    monkeypatch.setattr(fastpath.parallel, "cpu_count", lambda: 2)
    monkeypatch.setattr(fastpath, "process_pool", counted_pool)
    one = seen(fastpath.audit_reports([path], workers=1))
    auto = seen(entry for run in fastpath.audit_entries([path], workers=fastpath.AUTO, render=True)
                for entry in (run.reports() if isinstance(run, CleanRun)
                              else [run.item if run.report is None else run.report]))
    assert started == [2] and len(one) > 100
    assert auto == one
    small = tmp_path / "small.jsonl"
    small.write_bytes(pool[0] if pool[0].endswith(b"\n") else pool[0] + b"\n")
    list(fastpath.audit_entries([small], workers=fastpath.AUTO))
    assert started == [2]  # one chunk: one process
