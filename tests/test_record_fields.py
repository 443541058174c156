"""Every record field survives every reader and writer, and the field list is the one ``schemas/`` documents.

The games here set every field of :data:`~hearts_analysis.records.model.GAME_FIELDS` and
:data:`~hearts_analysis.records.model.HAND_FIELDS` (and what rides in the Parquet meta columns:
unknown fields, explicit nulls, a pass list with a null entry, numbers beyond int32), so a codec that
drops or alters one fails here; a field added to the model and not to these games fails the
coverage checks below.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import orjson
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.corpus import read_corpus
from hearts_analysis.fastpath.decode import Judgements, decode_unit, open_units
from hearts_analysis.records.json import game_from_dict, game_to_dict, write_games
from hearts_analysis.records.model import (CARD_ROWS, COLUMN, DIRECTION_CODES, GAME_FIELDS, GAME_KEYS, HAND_FIELDS,
                                           HAND_KEYS, META, MOON_CODES, attribute_of)
from hearts_analysis.records.parquet import GameWriter, read_parquet_items, write_parquet
from hearts_analysis.records.parquet.layout import DEAL, GAME_COLUMNS, HAND_COLUMNS, PASS, PLAY, SCHEMA
from hearts_analysis.records.sources import read_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def full_games() -> list:
    """Two games: the first sets every field of every hand; the second holds what only the meta columns
    keep (explicit nulls, a null pass entry, numbers beyond int32, unknown fields)."""
    first, second = simulate_games(2, Rules.preset("standard", target=60), seed=5)
    obj = game_to_dict(first)
    obj["hands"] = obj["hands"][:2]
    obj.update(game_id="club-7", played_at="2026-11-29T20:14:00Z", complete=False, rules={"preset": "standard"},
               venue={"table": 7, "notes": [None, 1.5]}, unmodelled=["a scoring quirk"], winners=[obj["players"][1]])
    for k, hand in enumerate(obj["hands"]):
        hand.update(dealer=(k + 1) % 4, pass_direction=["left", "right"][k], moon="subtract_from_shooter",
                    points=[26, 0, 0, 0], totals=[26 * (k + 1), 0, 0, 0], note=f"hand {k}",
                    charged=["AH", "QS"][:k + 1], claim=k + 1, unmodelled=[f"note {k}"])
    other = game_to_dict(second)
    other["hands"] = other["hands"][:2]
    other.update(game_id=None, rules=None, complete=True, seen_by=["ann"])
    other["hands"][0].update(moon=None, dealer=None, points=[2 ** 40, 0, 0, 0], totals=None)
    other["hands"][0]["passes"][2] = None
    other["hands"][1]["passes"] = [[], [], [], []]
    return [game_from_dict(obj), game_from_dict(other)]


def test_the_full_game_sets_every_field_of_the_model():
    full = full_games()[0]
    for key in GAME_KEYS:
        if key != "format":
            assert getattr(full, attribute_of(key)) not in (None, ()), key
    for hand in full.hands:
        for key in HAND_KEYS:
            assert getattr(hand, attribute_of(key)) not in (None, ()), key
        assert hand.extra
    assert full.extra
    other = full_games()[1]
    assert other.nulls and other.hands[0].nulls and None in other.hands[0].passes


def test_json_and_json_lines_keep_every_field(tmp_path):
    games = full_games()
    write_games(games[:1], tmp_path / "one.json")
    write_games(games, tmp_path / "all.jsonl")
    assert [item.game for item in read_games(tmp_path / "one.json")] == games[:1]
    assert [item.game for item in read_games(tmp_path / "all.jsonl")] == games


def test_parquet_keeps_every_field_from_records_and_from_json(tmp_path):
    games = full_games()
    write_parquet(games, tmp_path / "records.parquet")
    with GameWriter(tmp_path / "json.parquet") as writer:   # the encoder's fast lane, from the JSON objects
        for game in games:
            writer.add_json(orjson.loads(orjson.dumps(game_to_dict(game))))
    for name in ("records.parquet", "json.parquet"):
        items = list(read_parquet_items(tmp_path / name))
        assert [item.error for item in items] == [None, None]
        assert [item.game for item in items] == games


def test_hearts_convert_keeps_every_field_both_ways(tmp_path):
    games = full_games()
    write_games(games, tmp_path / "games.jsonl")
    runner = CliRunner()
    for source, target in (("games.jsonl", "corpus.parquet"), ("corpus.parquet", "back.jsonl")):
        done = runner.invoke(app, ["convert", str(tmp_path / source), str(tmp_path / target)])
        assert done.exit_code == 0, done.output
    assert (tmp_path / "back.jsonl").read_bytes() == (tmp_path / "games.jsonl").read_bytes()
    assert [item.game for item in read_games(tmp_path / "back.jsonl")] == games


def test_the_fast_path_decoder_reads_every_field_it_has_a_column_for(tmp_path):
    game = full_games()[0]
    write_parquet([game], tmp_path / "corpus.parquet")
    units = list(open_units(tmp_path / "corpus.parquet"))
    assert len(units) == 1
    block = decode_unit(units[0], Judgements(None))
    assert block.players() == [list(game.players)] and block.game_ids() == [game.game_id]
    assert block.played_at() == [game.played_at] and block.complete.tolist() == [bool(game.complete)]
    hands = game.hands
    assert block.hand_number.tolist() == list(range(1, len(hands) + 1))
    assert block.dealer.tolist() == [h.dealer for h in hands]
    assert block.direction.tolist() == [DIRECTION_CODES[h.pass_direction] for h in hands]
    assert block.moon.tolist() == [MOON_CODES[h.moon] for h in hands]
    assert block.points[:, :4].tolist() == [list(h.points) for h in hands] and block.has_points.all()
    assert block.totals[:, :4].tolist() == [list(h.totals) for h in hands] and block.has_totals.all()
    for k, hand in enumerate(hands):
        rows = slice(block.hand_rows[k], block.hand_rows[k + 1])
        event, seat, card = block.event[rows], block.seat[rows], block.card[rows]
        for kind, lists in ((DEAL, hand.deal), (PASS, hand.passes)):
            assert [card[(event == kind) & (seat == s)].tolist() for s in range(4)] == [list(c) for c in lists]
        assert list(zip(seat[event == PLAY].tolist(), card[event == PLAY].tolist())) == list(hand.plays)


def test_the_corpus_tables_hold_every_field_with_a_column(tmp_path):
    game = full_games()[0]
    write_parquet([game], tmp_path / "corpus.parquet")
    corpus = read_corpus(tmp_path / "corpus.parquet")
    games, hands = corpus.games.iloc[0], corpus.hands
    assert (games["game_id"], games["played_at"], games["complete"]) == (game.game_id, game.played_at, game.complete)
    assert (list(games["players"]), orjson.loads(games["rules"])) == (list(game.players), game.rules_spec)
    for key in ("dealer", "pass_direction", "moon"):
        assert hands[key].tolist() == [getattr(hand, key) for hand in game.hands]
    for key in ("points", "totals"):
        assert [list(values) for values in hands[key]] == [list(getattr(hand, key)) for hand in game.hands]
    # the fields only the reference replay reads (charges, claims, importers' notes) are no statistics column
    kept = {f.key for f in GAME_FIELDS + HAND_FIELDS if f.parquet in (COLUMN, META) and not f.reference_only}
    assert kept <= set(corpus.games.columns) | set(hands.columns)


# -- the field list and the documents of schemas/ ------------------------------------------------
def test_the_json_schema_names_the_fields_of_the_model():
    schema = json.loads((SCHEMAS / "hearts-game-1.schema.json").read_text())
    hand = schema["$defs"]["hand"]
    assert tuple(schema["properties"]) == GAME_KEYS
    assert tuple(hand["properties"]) == HAND_KEYS
    assert set(schema["required"]) == {f.key for f in GAME_FIELDS if f.required}
    played, sheet = hand["anyOf"]    # a played hand, or a score sheet's: points and no cards
    assert set(played["required"]) == {f.key for f in HAND_FIELDS if f.required}
    assert set(sheet["required"]) == {"points"} and {"deal", "passes", "plays"} == {
        forbidden for rule in sheet["not"]["anyOf"] for forbidden in rule["required"]}


def test_the_parquet_layout_document_shows_the_schema_and_where_each_field_is_kept():
    text = (SCHEMAS / "parquet-layout.md").read_text()
    shown = re.search(r"## Arrow schema\n\n```\n(.*?)```", text, re.S).group(1)
    assert shown.splitlines() == [f"{f.name}: {f.type}{'' if f.nullable else ' not null'}" for f in SCHEMA]
    tables = {name: re.search(rf"On \*\*`{name}` rows\*\*.*?\n\n(\|.*?)\n\n", text, re.S).group(1)
              for name in ("game", "hand")}
    for name, fields, columns in (("game", GAME_FIELDS, GAME_COLUMNS), ("hand", HAND_FIELDS, HAND_COLUMNS)):
        documented = re.findall(r"^\| `(\w+)` \|", tables[name], re.M)
        assert documented == list(columns)
        assert {f.key for f in fields if f.parquet == COLUMN} == {c for c in columns if not c.endswith("_meta")}
    game_meta = next(line for line in tables["game"].splitlines() if line.startswith("| `game_meta`"))
    assert all(f"`{f.key}`" in game_meta for f in GAME_FIELDS if f.parquet == META)
    card_rows = text[text.index("## Rows"):text.index("## Arrow schema")]
    assert all(f.key.rstrip("s") in card_rows for f in HAND_FIELDS if f.parquet == CARD_ROWS)


def test_the_code_tables_are_the_orders_of_the_names():
    schema = json.loads((SCHEMAS / "hearts-game-1.schema.json").read_text())
    hand = schema["$defs"]["hand"]["properties"]
    for key, codes in (("pass_direction", DIRECTION_CODES), ("moon", MOON_CODES)):
        assert list(codes) == [name for name in hand[key]["enum"] if name is not None]
        assert list(codes.values()) == list(range(len(codes)))


# -- the fields only the reference replay reads: charged, claim, unmodelled --------------------------
def test_a_record_with_each_reference_field_is_valid_under_the_json_schema_and_a_bad_one_is_not():
    import jsonschema
    schema = json.loads((SCHEMAS / "hearts-game-1.schema.json").read_text())
    obj = game_to_dict(full_games()[0])
    assert obj["unmodelled"] and all(key in obj["hands"][0] for key in ("charged", "claim", "unmodelled"))
    jsonschema.validate(obj, schema)
    for where, key, bad in ((obj["hands"][0], "charged", ["XX"]), (obj["hands"][0], "claim", "north"),
                            (obj["hands"][1], "unmodelled", [""]), (obj, "unmodelled", "a note")):
        wrong = orjson.loads(orjson.dumps(obj))
        target = wrong if where is obj else wrong["hands"][obj["hands"].index(where)]
        target[key] = bad
        try:
            jsonschema.validate(wrong, schema)
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"the schema takes {key}={bad!r}")


def test_a_bad_reference_field_names_the_file_the_record_and_the_field_and_the_rest_is_read(tmp_path):
    good = game_to_dict(full_games()[0])
    cases = [("charged", ["QS", "XX"], "hands[1].charged[1]"), ("claim", 4, "hands[1].claim"),
             ("claim", True, "hands[1].claim"), ("unmodelled", "keeper pass", "hands[1].unmodelled")]
    for key, bad, field in cases:
        wrong = orjson.loads(orjson.dumps(good))
        wrong["hands"][1][key] = bad
        path = tmp_path / "games.jsonl"
        path.write_bytes(orjson.dumps(good) + b"\n" + orjson.dumps(wrong) + b"\n" + orjson.dumps(good) + b"\n")
        items = list(read_games(path, keep_duplicates=True))  # the good game twice, on purpose
        assert [item.error is None for item in items] == [True, False, True], key
        error = items[1].error
        assert error.source.endswith("games.jsonl:2") and error.field == field, (error.source, error.text())
    wrong = orjson.loads(orjson.dumps(good))
    wrong["unmodelled"] = [3]
    path.write_bytes(orjson.dumps(wrong) + b"\n")
    assert "unmodelled[0]" in str(next(iter(read_games(path))).error)

