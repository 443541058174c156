"""Parquet corpora (layout ``events/1``): lossless round trips, the fast encoder, damaged files, read_corpus."""

from __future__ import annotations

import copy
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import hearts_analysis as ha
from faults import UNREADABLE_EDITS, clean_games, write_with_unreadable_games
from hearts_analysis.cards import QS
from hearts_analysis.records.parquet import read as parquet_read
from hearts_analysis.records.convert import convert
from hearts_analysis.records.errors import RecordError
from hearts_analysis.records.json import game_from_dict, game_to_dict
from hearts_analysis.records.model import GAME_KEYS, HAND_KEYS
from hearts_analysis.records.model import FORMAT
from hearts_analysis.records.parquet import GameWriter, iter_row_groups, read_parquet_items, write_parquet
from hearts_analysis.records.parquet.decode import decode_table
from hearts_analysis.records.parquet.encode import EventEncoder
from hearts_analysis.records.parquet.layout import CARD_NAMES, COLUMNS, LAYOUT, PLAY, SCHEMA
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import MOON_CHOICES, PASS_DIRECTIONS, Rules
from hearts_analysis.simulate import simulate_games

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@lru_cache(maxsize=None)
def base_games() -> tuple[dict, ...]:
    """Short simulated games for 3 to 7 players, and one whose record states each pass direction."""
    games = [next(simulate_games(1, Rules.preset("standard", target=30), players=n, seed=n)) for n in range(3, 8)]
    games.append(next(simulate_games(1, Rules.preset("openspiel", target=30), players=4, seed=1)))
    return tuple(game_to_dict(g) for g in games)


def simulated(count: int, players: int = 4, seed: int = 0) -> list:
    return list(simulate_games(count, Rules.preset("standard", target=40), players=players, seed=seed))


# -- hypothesis strategies: records with every oddity the format allows ---------------------------
JSON_LEAVES = (st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 63 - 1)
               | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
GAME_FIELD = st.text(min_size=1, max_size=8).filter(lambda k: k not in GAME_KEYS)
HAND_FIELD = st.text(min_size=1, max_size=8).filter(lambda k: k not in HAND_KEYS)


def odd_name(name: str, style: int) -> str:
    """The same card in another notation ``parse_card`` reads (a name already odd is kept)."""
    if name not in CARD_NAMES:
        return name
    rank, suit = name[0], name[1]
    return [name.lower(), ("10" if rank == "T" else rank) + suit, rank + "♣♦♥♠"["CDHS".index(suit)],
            f" {name} ", rank.lower() + suit][style]


@st.composite
def game_objects(draw) -> dict:
    """A valid ``hearts-game/1`` object: a simulated game with unknown fields, explicit nulls, missing
    optional fields, odd hands and odd card notation drawn in."""
    obj = copy.deepcopy(draw(st.sampled_from(base_games())))
    n = len(obj["players"])
    for key, other in (("game_id", st.text(max_size=6)),
                       ("played_at", st.text(max_size=10)),
                       ("rules", st.sampled_from(["standard", {"preset": "standard", "target": 30}, None])),
                       ("complete", st.booleans())):
        choice = draw(st.sampled_from(["keep", "drop", "null", "other"]))
        if choice == "drop":
            obj.pop(key, None)
        elif choice == "null":
            obj[key] = None
        elif choice == "other":
            obj[key] = draw(other)
    if draw(st.booleans()):
        obj.pop("format")
    for key, value in draw(st.dictionaries(GAME_FIELD, JSON_VALUES, max_size=2)).items():
        obj[key] = value
    obj["hands"] = obj["hands"][:draw(st.integers(0, len(obj["hands"])))]
    for hand in obj["hands"]:
        for change in draw(st.lists(st.sampled_from(HAND_CHANGES), max_size=4)):
            change(draw, hand, n)
    return obj


def _null_field(draw, hand, n):
    hand[draw(st.sampled_from(["dealer", "pass_direction", "passes", "moon", "points", "totals"]))] = None


def _drop_field(draw, hand, n):
    hand.pop(draw(st.sampled_from(["dealer", "pass_direction", "passes", "moon", "points", "totals"])), None)


def _unknown_field(draw, hand, n):
    hand[draw(HAND_FIELD)] = draw(JSON_VALUES)


def _null_pass_entry(draw, hand, n):
    if hand.get("passes"):
        hand["passes"][draw(st.integers(0, n - 1))] = None


def _empty_passes(draw, hand, n):
    hand["passes"] = [[] for _ in range(n)]


def _empty_seat(draw, hand, n):
    hand["deal"][draw(st.integers(0, n - 1))] = []


def _no_cards(draw, hand, n):
    hand["deal"] = [[] for _ in range(n)]
    hand["plays"] = []
    hand.pop("passes", None)


def _cut_plays(draw, hand, n):
    hand["plays"] = hand["plays"][:draw(st.integers(0, len(hand["plays"])))]


def _odd_cards(draw, hand, n):
    style = draw(st.integers(0, 4))
    seat = draw(st.integers(0, n - 1))
    hand["deal"][seat] = [odd_name(c, style) for c in hand["deal"][seat]]
    hand["plays"] = [[s, odd_name(c, style) if draw(st.booleans()) else c] for s, c in hand["plays"]]


def _wide_numbers(draw, hand, n):
    hand[draw(st.sampled_from(["points", "totals"]))] = [draw(st.integers(-2 ** 62, 2 ** 62)) for _ in range(n)]


def _stated(draw, hand, n):
    hand["pass_direction"] = draw(st.sampled_from(PASS_DIRECTIONS))
    hand["moon"] = draw(st.sampled_from(MOON_CHOICES))
    hand["dealer"] = draw(st.integers(0, n - 1))


HAND_CHANGES = [_null_field, _drop_field, _unknown_field, _null_pass_entry, _empty_passes, _empty_seat, _no_cards,
                _cut_plays, _odd_cards, _wide_numbers, _stated]


def canonical(obj: dict) -> dict:
    """What the JSON reader makes of an object: the reference a round trip must give back."""
    return game_to_dict(game_from_dict(obj))


# -- the fast encoder agrees with the record reader -------------------------------------------------
@PROPERTY
@given(game_objects())
def test_the_fast_encoder_writes_exactly_the_rows_of_the_record_reader(obj):
    fast, slow = EventEncoder(), EventEncoder()
    fast.add_json(obj)
    slow.add_record(game_from_dict(obj))
    assert fast.take().equals(slow.take())


BREAKS = {
    "seat out of range": lambda g: g["hands"][0]["plays"][3].__setitem__(0, len(g["players"])),
    "seat true": lambda g: g["hands"][0]["plays"][3].__setitem__(0, True),
    "seat as text": lambda g: g["hands"][0]["plays"][3].__setitem__(0, "1"),
    "three-item play": lambda g: g["hands"][0]["plays"][3].append(1),
    "unknown card": lambda g: g["hands"][0]["deal"][1].__setitem__(2, "ZZ"),
    "card number": lambda g: g["hands"][0]["plays"][0].__setitem__(1, 5),
    "deal short": lambda g: g["hands"][0]["deal"].pop(),
    "deal text": lambda g: g["hands"][0]["deal"].__setitem__(0, "2C3C"),
    "deal object": lambda g: g["hands"][0]["deal"].__setitem__(0, {"2C": 1}),
    "dealer out of range": lambda g: g["hands"][0].__setitem__("dealer", 9),
    "dealer true": lambda g: g["hands"][0].__setitem__("dealer", True),
    "direction": lambda g: g["hands"][0].__setitem__("pass_direction", "sideways"),
    "moon": lambda g: g["hands"][0].__setitem__("moon", "yes"),
    "points short": lambda g: g["hands"][0].__setitem__("points", [1]),
    "points float": lambda g: g["hands"][0].__setitem__("points", [0.5] * len(g["players"])),
    "passes short": lambda g: g["hands"][0].__setitem__("passes", [[]]),
    "no plays": lambda g: g["hands"][0].pop("plays"),
    "hand text": lambda g: g["hands"].__setitem__(0, "hand"),
    "two players": lambda g: g.__setitem__("players", ["a", "b"]),
    "empty name": lambda g: g["players"].__setitem__(0, ""),
    "unknown preset": lambda g: g.__setitem__("rules", "nonsense"),
    "complete text": lambda g: g.__setitem__("complete", "yes"),
    "hands null": lambda g: g.__setitem__("hands", None),
    "format": lambda g: g.__setitem__("format", "hearts-game/2"),
    "game_id number": lambda g: g.__setitem__("game_id", 7),
    "played_at number": lambda g: g.__setitem__("played_at", 2024),
    "players text": lambda g: g.__setitem__("players", "abcd"),
    "player number": lambda g: g["players"].__setitem__(1, 2),
    "rules number": lambda g: g.__setitem__("rules", 4),
    "rules across for three": lambda g: g.update(
        players=g["players"][:3], rules={"preset": "standard", "pass_cycle": ["left", "across"]}),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_an_invalid_object_gets_the_record_readers_error(name):
    obj = copy.deepcopy(base_games()[1])
    BREAKS[name](obj)
    with pytest.raises(RecordError) as expected:
        game_from_dict(obj)
    encoder = EventEncoder()
    with pytest.raises(RecordError) as raised:
        encoder.add_json(obj)
    assert (raised.value.field, raised.value.detail) == (expected.value.field, expected.value.detail)
    assert encoder.games == 0 and encoder.take() is None


def test_a_rule_set_read_for_one_player_count_is_read_again_for_another():
    """The encoder reads each distinct rule set once, per number of players: 'across' needs an even table."""
    rules = {"preset": "standard", "pass_cycle": ["left", "across"]}
    four, three = (copy.deepcopy(base_games()[k]) | {"rules": rules} for k in (1, 0))
    encoder = EventEncoder()
    encoder.add_json(four)
    with pytest.raises(RecordError) as raised:
        encoder.add_json(three)
    assert raised.value.field == "rules.pass_cycle" and "across" in raised.value.detail
    encoder.add_json(four)
    assert encoder.games == 2


# -- lossless: JSONL -> Parquet -> JSONL -------------------------------------------------------------
@PROPERTY
@given(st.lists(game_objects(), min_size=1, max_size=4), st.sampled_from([None, 1, 25]))
def test_jsonl_to_parquet_to_jsonl_gives_back_the_same_records(objs, partition_size):
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "games.jsonl"
        source.write_bytes(b"".join(orjson.dumps(obj) + b"\n" for obj in objs))
        parquet = Path(tmp) / ("corpus" if partition_size else "corpus.parquet")
        done = convert([source], parquet, partition_size=partition_size)
        assert (done.games, done.errors) == (len(objs), 0)
        expected = [canonical(obj) for obj in objs]
        items = list(iter_sources([parquet], keep_duplicates=True))   # a round trip keeps every record
        assert [item.error for item in items] == [None] * len(objs)
        assert [game_to_dict(item.game) for item in items] == expected
        back = Path(tmp) / "back.jsonl"
        convert([parquet], back)
        assert [orjson.loads(line) for line in back.read_bytes().splitlines()] == expected


def test_records_written_directly_read_back_equal():
    games = simulated(6, players=5)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.parquet"
        assert write_parquet(iter(games), path) == 6
        items = list(read_parquet_items(path))
    assert [item.game for item in items] == games
    assert [item.source for item in items] == [f"{path}:#{k}" for k in range(1, 7)]


def test_forced_rules_replace_each_records_own_as_in_the_json_reader(tmp_path):
    path = tmp_path / "corpus.parquet"
    write_parquet(simulated(2), path)
    omnibus = Rules.preset("omnibus")
    for item in read_parquet_items(path, rules=omnibus):
        assert item.game.rules == omnibus and item.game.rules_spec == {"preset": "standard", "target": 40}


# -- the file: schema, metadata, row groups, partitions ------------------------------------------------
def test_the_file_carries_the_schema_descriptions_and_counts(tmp_path):
    games = simulated(5)
    path = tmp_path / "corpus.parquet"
    write_parquet(games, path)
    parquet = pq.ParquetFile(path)
    meta = parquet.metadata.metadata
    assert meta[b"hearts.layout"] == LAYOUT.encode() and meta[b"hearts.format"] == FORMAT.encode()
    assert int(meta[b"hearts.games"]) == 5 and int(meta[b"hearts.hands"]) == sum(len(g.hands) for g in games)
    schema = parquet.schema_arrow
    assert schema.names == list(COLUMNS)
    for field in SCHEMA:
        assert schema.field(field.name).type == field.type
        assert schema.field(field.name).metadata[b"description"]
    table = pq.read_table(path)
    plays = table.filter(pa.compute.equal(table["event"], "play")).to_pandas()
    first = games[0].hands[0]
    head = plays[(plays.game == 0) & (plays.hand == 1)]
    assert list(zip(head.seat, head.card)) == [(s, CARD_NAMES[c]) for s, c in first.plays]
    assert list(head.trick) == [i // 4 + 1 for i in range(len(first.plays))]
    assert table["card"].chunk(0).dictionary.to_pylist() == list(CARD_NAMES)


def test_row_groups_hold_whole_games(tmp_path):
    games = simulated(12)
    path = tmp_path / "corpus.parquet"
    with GameWriter(path, row_group_hands=12) as writer:
        for game in games:
            writer.add(game)
    parquet = pq.ParquetFile(path)
    assert parquet.num_row_groups > 4 and parquet.num_row_groups % 2 == 0
    seen = []
    for number in range(0, parquet.num_row_groups, 2):
        headers = parquet.read_row_group(number, columns=["game", "hand", "event"]).to_pandas()
        cards = parquet.read_row_group(number + 1, columns=["game", "hand", "event"]).to_pandas()
        assert set(headers.event) <= {"game", "hand"} and not set(cards.event) & {"game", "hand"}
        hands = cards[["game", "hand"]].drop_duplicates().groupby("game").size()
        assert all(hands[g] == len(games[g].hands) for g in hands.index)
        assert list(headers[headers.event == "game"].game) == list(hands.index)
        assert len(headers) == len(hands) + sum(len(games[g].hands) for g in hands.index)
        assert not set(hands.index) & set(seen)
        seen.extend(hands.index)
    assert seen == list(range(12))


def test_a_partitioned_corpus_is_a_folder_of_whole_games_read_in_order(tmp_path):
    games = simulated(9)
    folder = tmp_path / "corpus"
    assert write_parquet(games, folder, partition_size=8) == 9
    parts = sorted(folder.iterdir())
    assert [p.name for p in parts] == [f"part-{k:05d}.parquet" for k in range(len(parts))] and len(parts) > 1
    for part in parts:
        table = pq.read_table(part, columns=["game"])
        assert table["game"][0].as_py() == 0
        meta = pq.ParquetFile(part).metadata.metadata
        assert int(meta[b"hearts.hands"]) >= 8 or part == parts[-1]
    assert [item.game for item in iter_sources([folder])] == games
    write_parquet(games[:2], folder)  # a folder of parts is replaced as a whole
    assert [item.game for item in iter_sources([folder])] == games[:2]
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        write_parquet(games, folder)
    assert (folder / "notes.txt").read_text() == "mine"


def test_a_game_split_across_row_groups_by_another_writer_is_joined(tmp_path):
    games = simulated(3)
    encoder = EventEncoder()
    for game in games:
        encoder.add_record(game)
    path = tmp_path / "foreign.parquet"
    pq.write_table(encoder.take(), path, row_group_size=97)
    assert pq.ParquetFile(path).num_row_groups > 3
    assert [item.game for item in read_parquet_items(path)] == games


def test_no_games_still_make_a_readable_file(tmp_path):
    path = tmp_path / "empty.parquet"
    assert write_parquet([], path) == 0
    assert pq.ParquetFile(path).schema_arrow.names == list(COLUMNS)
    assert list(read_parquet_items(path)) == []


# -- atomic output -----------------------------------------------------------------------------------
def failing(games):
    yield from games
    raise RuntimeError("the source broke")


@pytest.mark.parametrize("name, partition", [("corpus.parquet", None), ("corpus", 20)])
def test_a_failure_leaves_no_output(tmp_path, name, partition):
    with pytest.raises(RuntimeError):
        write_parquet(failing(simulated(6)), tmp_path / name, partition_size=partition)
    assert list(tmp_path.iterdir()) == []


def test_a_failure_keeps_the_previous_output(tmp_path):
    path = tmp_path / "corpus.parquet"
    write_parquet(simulated(2), path)
    before = path.read_bytes()
    with pytest.raises(RuntimeError):
        write_parquet(failing(simulated(6)), path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["corpus.parquet"]


# -- damaged and foreign files: clear errors, the rest still read --------------------------------------
def good_file(tmp_path: Path, count: int = 6, row_group_hands: int = 6) -> tuple[Path, list]:
    games = simulated(count)
    path = tmp_path / "corpus.parquet"
    with GameWriter(path, row_group_hands=row_group_hands) as writer:
        for game in games:
            writer.add(game)
    return path, games


def test_a_truncated_file_is_one_clear_error_and_other_files_are_still_read(tmp_path):
    path, _ = good_file(tmp_path)
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    items = list(iter_sources([cut, path]))
    assert items[0].source == str(cut) and "cannot read as Parquet" in items[0].error.text()
    assert [i.error for i in items[1:]] == [None] * 6


def test_a_damaged_row_group_is_reported_and_the_others_are_read(tmp_path):
    path, games = good_file(tmp_path)
    parquet = pq.ParquetFile(path)
    assert parquet.num_row_groups >= 6
    column = parquet.metadata.row_group(3).column(COLUMNS.index("card"))
    data = bytearray(path.read_bytes())
    middle = column.data_page_offset + column.total_compressed_size // 2
    data[middle:middle + 16] = bytes(16)
    path.write_bytes(bytes(data))
    items = list(read_parquet_items(path))
    errors = [i for i in items if i.error]
    assert len(errors) == 1 and errors[0].source == f"{path}:row groups 3-4"
    assert "row groups 3 and 4 of" in errors[0].error.text() and "are lost" in errors[0].error.text()
    good = [i.game for i in items if i.game]
    assert good and all(g in games for g in good) and len(good) < len(games)


def test_a_file_with_another_schema_is_named_with_what_is_wrong(tmp_path):
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"a": [1, 2]}), other)
    [item] = read_parquet_items(other)
    assert item.source == str(other) and 'missing column "game"' in item.error.text()
    typed = tmp_path / "typed.parquet"
    path, _ = good_file(tmp_path)
    table = pq.read_table(path)
    pq.write_table(table.set_column(COLUMNS.index("card"), "card", pa.array(np.zeros(len(table), np.int64))), typed)
    [item] = read_parquet_items(typed)
    assert 'column "card" is int64, expected text' in item.error.text()


def edited(tmp_path: Path, change) -> tuple[list, list]:
    """A file written by another tool with one change: the items read, and the games written."""
    games = simulated(4)
    encoder = EventEncoder()
    for game in games:
        encoder.add_record(game)
    table = encoder.take()
    columns = {name: table.column(name).to_pylist() for name in COLUMNS}
    change(columns)
    path = tmp_path / "edited.parquet"
    pq.write_table(pa.table({name: pa.array(columns[name], SCHEMA.field(name).type if name not in (
        "event", "card", "game_id", "pass_direction", "moon") else pa.string()) for name in COLUMNS}), path)
    return list(read_parquet_items(path)), games


def row_of(columns, game, event, index, seat=None):
    return next(r for r in range(len(columns["game"])) if columns["game"][r] == game and columns["event"][r] == event
                and columns["index"][r] == index and (seat is None or columns["seat"][r] == seat))


def put(column: str, value, event: str | None = None, index: int = 0, seat: int | None = None, game: int = 1):
    """A change setting one cell: of the first row of ``game``, or of its ``event`` row at ``index``."""
    def change(columns):
        row = columns["game"].index(game) if event is None else row_of(columns, game, event, index, seat)
        columns[column][row] = value
    return change


@pytest.mark.parametrize("change, field, words", [
    (put("seat", 7, "play", 5), "hands[0].plays[5][0]", "seat 7 is out of range 0..3"),
    (put("card", "XX", "deal", 2, seat=1), "hands[0].deal[1][2]", "unknown card \"XX\""),
    (put("card", None, "play", 0), "hands[0].plays[0][1]", "missing card"),
    (put("event", "bid", "play", 0), "hands[0]", 'unknown event "bid"'),
    (put("index", 9, "play", 3), "hands[0]", "rows out of layout order"),
    (put("hand", 3), "hands[2]", "hand numbers must run 1, 2, 3"),
    (put("dealer", 6), "hands[0].dealer", "6 is out of range 0..3"),
    (put("pass_direction", "up"), "hands[0].pass_direction", "unknown direction"),
    (put("points", [1, 2]), "hands[0].points", "one number per seat"),
    (put("hand_meta", "{oops"), "hands[0].hand_meta", "bad JSON"),
    (put("hand_meta", '{"dealer": 2}'), "hands[0].hand_meta", "dealer"),
    (put("hand_meta", '{"claim": "south"}'), "hands[0].hand_meta.claim", "expected a whole number"),
    (put("hand_meta", '{"claim": 4}'), "hands[0].hand_meta.claim", "out of range 0..3"),
    (put("hand_meta", '{"charged": ["QS", "XX"]}'), "hands[0].hand_meta.charged[1]", "unknown card"),
    (put("hand_meta", '{"unmodelled": "keeper pass"}'), "hands[0].hand_meta.unmodelled", "expected a list"),
    (put("game_meta", '{"unmodelled": [""]}'), "unmodelled[0]", "non-empty note"),
    (put("game_meta", '{"complete": "yes"}'), "complete", "true or false"),
    (put("players", None), "players", "missing"),
    (put("rules", '{"preset": "nonsense"}'), "rules.preset", "unknown preset"),
])
def test_a_bad_game_in_a_foreign_file_is_named_and_the_others_are_read(tmp_path, change, field, words):
    items, games = edited(tmp_path, change)
    assert [item.game for item in items if item.game] == [games[0], games[2], games[3]]
    [bad] = [item for item in items if item.error]
    assert bad.source.endswith(":#2") and bad.error.field == field and words in bad.error.text(), bad.error.text()


def test_row_errors_name_the_file_row(tmp_path):
    items, _ = edited(tmp_path, put("seat", 9, "deal", 4, seat=2, game=0))
    assert "(file row 31)" in items[0].error.text()


# -- the arrays for vectorised readers ----------------------------------------------------------------
def test_row_groups_give_the_cards_as_codes_and_the_games_they_belong_to(tmp_path):
    path, games = good_file(tmp_path, count=5)
    groups = list(iter_row_groups(path))
    assert all(group.readable.all() for group in groups)
    parquet = pq.ParquetFile(path)
    sizes = [parquet.metadata.row_group(i).num_rows for i in range(parquet.num_row_groups)]
    seen = 0
    for pair, group in enumerate(groups):
        for g, header in enumerate(group.games):
            game = games[seen]
            seen += 1
            assert header.game_id == game.game_id and header.hands == ()
            start, end = group.game_rows[g], group.game_rows[g + 1]
            plays = group.event[start:end] == PLAY
            assert group.card[start:end][plays].tolist() == [c for h in game.hands for _, c in h.plays]
            assert group.seat[start:end][plays].tolist() == [s for h in game.hands for s, _ in h.plays]
        assert group.first_row == sum(sizes[:2 * pair + 1]) and len(group.game) == sizes[2 * pair + 1]
    assert seen == 5


def test_decode_accepts_plain_text_columns_and_wider_integers():
    games = simulated(2)
    encoder = EventEncoder()
    for game in games:
        encoder.add_record(game)
    table = encoder.take()
    plain = pa.table({name: (table[name].cast(pa.string()) if pa.types.is_dictionary(table[name].type)
                             else table[name].cast(pa.int64()) if pa.types.is_integer(table[name].type)
                             else table[name]) for name in COLUMNS})
    assert [item.game for item in decode_table(plain, "plain").items()] == games


# -- read_corpus --------------------------------------------------------------------------------------
def test_read_corpus_gives_typed_tables_with_every_card(tmp_path):
    games = simulated(4, players=5, seed=3)
    path = tmp_path / "corpus.parquet"
    write_parquet(games, path)
    corpus = ha.read_corpus(path)
    assert list(corpus.games.game) == [0, 1, 2, 3] and list(corpus.games.game_id) == [g.game_id for g in games]
    assert list(corpus.games.hands) == [len(g.hands) for g in games]
    assert list(corpus.games.players.iloc[0]) == list(games[0].players)
    assert len(corpus.hands) == sum(len(g.hands) for g in games)
    plays = corpus.plays
    assert plays.card.dtype == pd.CategoricalDtype(list(CARD_NAMES))
    assert plays.seat.dtype.name == "category" and plays.player.dtype.name == "category"
    assert (plays.dtypes[["game", "hand", "index", "trick"]].map(str).tolist()
            == ["int32", "int16", "int16", "int8"])
    expected = [(g, h, s, c) for g, game in enumerate(games) for h, hand in enumerate(game.hands, 1)
                for s, c in hand.plays]
    assert list(zip(plays.game, plays.hand, plays.seat, plays.card.cat.codes)) == expected
    assert (plays.suit.cat.codes == plays.card.cat.codes // 13).all()
    assert (plays.trick == plays["index"] // 5 + 1).all()
    first = games[0].hands[0]
    deals = corpus.deals[(corpus.deals.game == 0) & (corpus.deals.hand == 1)]
    assert [tuple(d.card.cat.codes) for _, d in deals.groupby("seat", observed=True)] == list(first.deal)
    passes = corpus.passes[(corpus.passes.game == 0) & (corpus.passes.hand == 1)]
    assert list(passes.card.cat.codes) == [c for p in (first.passes or ()) for c in (p or ())]
    hands = corpus.hands
    assert list(hands.points.iloc[0]) == list(first.points)
    assert str(hands.dealer.dtype) == "Int8" and hands.pass_direction.dtype.name == "category"
    assert corpus.errors.empty


def test_read_corpus_is_the_same_from_json_lines_a_folder_and_a_file(tmp_path):
    games = simulated(5)
    jsonl = tmp_path / "games.jsonl"
    jsonl.write_bytes(b"".join(orjson.dumps(game_to_dict(g)) + b"\n" for g in games) + b"{oops\n")
    write_parquet(games, tmp_path / "corpus.parquet")
    write_parquet(games, tmp_path / "parts", partition_size=30)
    tables = [ha.read_corpus(p) for p in (jsonl, tmp_path / "corpus.parquet", tmp_path / "parts")]
    for other in tables[1:]:
        for name in ("hands", "plays", "passes", "deals"):
            pd.testing.assert_frame_equal(getattr(tables[0], name), getattr(other, name))
        pd.testing.assert_frame_equal(tables[0].games.drop(columns="source"), other.games.drop(columns="source"))
    assert tables[0].games.source.iloc[0] == f"{jsonl}:1"
    assert tables[0].errors.source.tolist() == [f"{jsonl}:6"]
    assert "bad JSON" in tables[0].errors.message.iloc[0]


def test_importing_the_package_does_not_load_pandas():
    import subprocess
    import sys
    code = "import sys, hearts_analysis; print('pandas' in sys.modules); hearts_analysis.read_corpus; " \
           "print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(Path(ha.__file__).parent.parent)}).stdout.split()
    assert out == ["False", "True"]


# -- events/2 pairs read in slices ------------------------------------------------------------------------
def _item_view(items):
    return [(i.source, i.game, None if i.error is None else i.error.text()) for i in items]


def test_a_large_pair_is_read_in_slices_of_whole_games_with_the_same_items(tmp_path, monkeypatch):
    path = write_with_unreadable_games(clean_games(), tmp_path / "edited.parquet", row_group_games=40, paired=True)
    whole = _item_view(read_parquet_items(path))
    for size in (1, 5, 23):
        monkeypatch.setattr(parquet_read, "DECODE_HANDS", size)
        assert _item_view(read_parquet_items(path)) == whole
    assert sum(error is not None for _, _, error in whole) == len(UNREADABLE_EDITS) - 1
    assert any("file row" in error for _, _, error in whole if error)


def test_header_rows_that_do_not_match_the_card_rows_lose_only_their_game(tmp_path, monkeypatch):
    games = simulated(6)
    encoder = EventEncoder()
    for game in games:
        encoder.add_record(game)
    headers, cards = encoder.take_batch().tables()
    path = tmp_path / "mismatch.parquet"
    hand_rows = np.flatnonzero(headers["event"].to_numpy(zero_copy_only=False) == "hand")
    dropped = headers.take(np.delete(np.arange(headers.num_rows), hand_rows[-1]))   # the last game's last hand row
    with pq.ParquetWriter(path, SCHEMA) as writer:
        writer.write_table(dropped, row_group_size=dropped.num_rows)
        writer.write_table(cards, row_group_size=cards.num_rows)
    monkeypatch.setattr(parquet_read, "DECODE_HANDS", 1)
    items = list(read_parquet_items(path))
    assert [i.game for i in items[:-1]] == games[:-1]
    assert items[-1].game is None and "header rows" in items[-1].error.text()
    assert items[-1].source == f"{path}:#6"


def test_the_layout_document_shows_the_arrow_schema_as_written():
    document = (Path(__file__).parent.parent / "schemas" / "parquet-layout.md").read_text()
    block = document.split("## Arrow schema", 1)[1].split("```", 2)[1].strip().splitlines()
    written = SCHEMA.remove_metadata().to_string(show_field_metadata=False).splitlines()
    assert block == [line for line in written if not line.startswith("  child")]


def test_the_layout_documents_duckdb_queries_run_on_a_written_corpus(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    games = simulated(6)
    write_parquet(games, tmp_path / "corpus.parquet")
    write_parquet(games, tmp_path / "corpus", partition_size=25)
    document = (Path(__file__).parent.parent / "schemas" / "parquet-layout.md").read_text()
    sql = document.split("```sql", 1)[1].split("```", 1)[0]
    queries = [q.strip() for q in sql.split(";") if q.strip()]
    assert len(queries) == 3
    connection = duckdb.connect()
    results = []
    for query in queries:
        query = query.replace("'corpus.parquet'", f"'{tmp_path / 'corpus.parquet'}'")
        results.append(connection.sql(query.replace("'corpus/*.parquet'", f"'{tmp_path}/corpus/*.parquet'")).fetchall())
    queens, points, hands = results
    assert sum(count for _, count in queens) == sum(1 for g in games for h in g.hands for _, c in h.plays if c == QS)
    assert [p for _, _, p, _ in points] == [list(h.points) for g in games for h in g.hands]
    assert sorted(count for _, _, count in hands) == sorted(len(g.hands) for g in games)
