"""The fast path gives exactly the reference engine's reports, and screens clean games itself.

Every comparison is against the reference reader and engine on the same file:
``read_parquet_items`` then ``replay_game`` then ``game_report``.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from faults import (PLANTED_VIOLATIONS, clean_games, damaged, every_violation, set_cell, truncated, write_parquet_file,
                    write_with_unreadable_games)
from hearts_analysis.corpus_audit import error_report, game_report
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.fastpath import Audited, CleanRun, audit_entries, audit_reports
from hearts_analysis.fastpath.decode import Judgements, decode_unit, open_units
from hearts_analysis.fastpath.screen import screen_block
from hearts_analysis.records.parquet import read_parquet_items
from hearts_analysis.records.parquet.encode import EventEncoder
from hearts_analysis.rules import MOON_CHOICES, PASS_DIRECTIONS, Rules
from hearts_analysis.simulate import simulate_games
from test_properties import simulated_games

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def reference(paths, rules=None) -> list:
    out = []
    for path in paths:
        for item in read_parquet_items(path, rules):
            out.append(error_report(item) if item.game is None else game_report(replay_game(item.game), item.source))
    return out


def fast(paths, rules=None, **options) -> list:
    return [error_report(r) if not isinstance(r, dict) else r for r in audit_reports(paths, rules, **options)]


def screened(paths, rules=None) -> tuple[int, int]:
    """``(games in clean runs, games replayed or unreadable)``."""
    entries = list(audit_entries(paths, rules))
    return (sum(e.games for e in entries if isinstance(e, CleanRun)),
            sum(1 for e in entries if isinstance(e, Audited)))


# -- clean games stay on the fast path -----------------------------------------------------------
@pytest.mark.parametrize("preset, players", [
    (preset, n) for preset in ("standard", "omnibus", "classic") for n in range(3, 8)] + [
    ("online", 4), ("online", 6), ("black_queen", 4), ("openspiel", 4), ("basic", 3), ("basic", 4)])
def test_clean_games_of_every_common_table_are_screened_and_scored_like_the_engine(tmp_path, preset, players):
    games = list(simulate_games(3, Rules.preset(preset, target=50), players, seed=players))
    path = write_parquet_file(games, tmp_path / "clean.parquet", row_group_hands=12)
    assert fast([path]) == reference([path])
    assert screened([path]) == (3, 0)


def test_hands_ended_by_a_leader_holding_only_hearts_are_on_the_fast_path(tmp_path):
    games = list(simulate_games(3, Rules.preset("black_queen", target=40), 4, seed=6))
    assert any(len(hand.plays) < 52 for game in games for hand in game.hands)
    path = write_parquet_file(games, tmp_path / "ended.parquet")
    assert fast([path]) == reference([path])
    assert screened([path]) == (3, 0)


def test_rule_options_without_a_preset_are_screened_too(tmp_path):
    tables = [Rules.preset("standard", target=40, no_tricks_bonus=-5, queen_of_clubs_cancels_queen=True,
                           moon="subtract_from_shooter"),
              Rules.preset("standard", target=40, first_lead="any_club", points_on_first_trick=True,
                           hearts_must_be_broken=False),
              Rules.preset("openspiel", target=40, jack_of_diamonds=-10, end_at="exceed"),
              Rules.preset("standard", target=40, pass_count=0, removed_cards=["2D", "3D"], moon="none")]
    games = [game for rules in tables for game in simulate_games(2, rules, 4 if rules.pass_count else 5, seed=3)]
    path = write_parquet_file(games, tmp_path / "options.parquet")
    assert fast([path]) == reference([path])
    assert screened([path]) == (len(games), 0)


# -- violations, unreadable records, damaged files ---------------------------------------------------
def test_every_violation_gives_the_reference_reports(tmp_path):
    games = every_violation()
    path = write_parquet_file(games, tmp_path / "violations.parquet", row_group_hands=60)
    reports = fast([path])
    assert reports == reference([path])
    codes = {v["code"] for r in reports for v in r["violations"]}
    assert codes == PLANTED_VIOLATIONS
    clean, replayed = screened([path])
    noted = sum(1 for r in reports if r["valid"] and r.get("notes"))   # valid, with a note: replayed to word it
    assert clean == sum(1 for r in reports if r["valid"]) - noted
    assert replayed == sum(1 for r in reports if not r["valid"]) + noted


@pytest.mark.parametrize("paired", [True, False], ids=["events/2", "events/1"])
def test_unreadable_games_truncated_files_and_damaged_row_groups_give_the_reference_errors(tmp_path, paired):
    good = write_parquet_file(every_violation()[:60], tmp_path / "good.parquet", row_group_hands=30)
    paths = [write_with_unreadable_games(clean_games(), tmp_path / "edited.parquet", paired=paired),
             truncated(good, tmp_path / "truncated.parquet"),
             damaged(good, tmp_path / "damaged.parquet", row_group=2), good]
    reports = fast(paths)
    assert reports == reference(paths)
    messages = [r["message"] for r in reports if "message" in r]
    assert any("cannot read as Parquet" in m for m in messages)
    assert any("row groups 3 and 4 of" in m for m in messages)
    assert sum("edited.parquet" in r["source"] for r in reports if "message" in r) == 8


def test_forced_rules_replace_each_records_own_as_in_the_reference_reader(tmp_path):
    path = write_parquet_file(clean_games(), tmp_path / "corpus.parquet")
    for rules in (Rules.preset("omnibus"), Rules.preset("standard", target=30, moon="add_to_others")):
        assert fast([path], rules) == reference([path], rules)


def _hand_edits(columns: dict[str, list]) -> None:
    """Explicit nulls, unknown hand fields and null passes (on hold hands), as other tools write them."""
    rows = range(len(columns["hand"]))
    starts = [r for r in rows if r == 0 or columns["hand"][r] != columns["hand"][r - 1]
              or columns["game"][r] != columns["game"][r - 1]]
    for i, row in enumerate(starts):
        if columns["hand"][row] % 4 == 0:
            columns["hand_meta"][row] = ['{"passes": null}', '{"passes": [null, [], null, []]}'][i % 2]
        elif columns["moon"][row] is None:
            columns["hand_meta"][row] = ['{"moon": null, "note": [1, 2]}', '{"pass_direction": null}'][i % 2]


@pytest.mark.parametrize("paired", [True, False], ids=["events/2", "events/1"])
def test_explicit_nulls_and_unknown_fields_keep_games_on_the_fast_path(tmp_path, paired):
    games = list(simulate_games(6, Rules.preset("standard", target=40), 4, seed=2))
    path = write_with_unreadable_games(games, tmp_path / "odd.parquet", edits=[_hand_edits], paired=paired)
    assert fast([path]) == reference([path])
    assert screened([path]) == (6, 0)


@pytest.mark.parametrize("paired", [True, False], ids=["events/2", "events/1"])
def test_null_passes_on_a_passing_hand_are_left_to_the_reference(tmp_path, paired):
    games = list(simulate_games(2, Rules.preset("standard", target=40), 4, seed=2))
    path = write_with_unreadable_games(games, tmp_path / "odd.parquet",
                                       edits=[set_cell("hand_meta", '{"passes": null}', 1)], paired=paired)
    assert fast([path]) == reference([path])
    assert screened([path]) == (1, 1)


def test_a_game_split_across_row_groups_by_another_writer_is_joined_as_the_reader_joins_it(tmp_path):
    encoder = EventEncoder()
    for game in clean_games()[:6]:
        encoder.add_record(game)
    table = encoder.take()
    path = tmp_path / "split.parquet"
    with pq.ParquetWriter(path, table.schema) as writer:
        for start in range(0, table.num_rows, 333):
            writer.write_table(table.slice(start, 333))
    assert pq.ParquetFile(path).num_row_groups > 6
    assert fast([path]) == reference([path])


@pytest.mark.parametrize("paired", [True, False], ids=["events/2", "events/1"])
def test_games_out_of_order_and_broken_hand_numbers_are_left_to_the_reader(tmp_path, paired):
    edits = [set_cell("game", 0, 4), set_cell("hand", 7, 6), set_cell("event", "bid", 8, "play", 2),
             set_cell("trick", 1, 9, "play", 20)]
    path = write_with_unreadable_games(clean_games(), tmp_path / "odd.parquet", edits=edits, paired=paired)
    assert fast([path]) == reference([path])


def test_several_workers_give_the_same_reports_in_order(tmp_path):
    paths = [write_parquet_file(every_violation()[:80], tmp_path / "a.parquet", row_group_hands=20),
             write_with_unreadable_games(clean_games(), tmp_path / "b.parquet")]
    assert fast(paths, workers=2) == reference(paths)


# -- random single changes ------------------------------------------------------------------------
CHANGES = ("swap cards", "swap plays", "other card", "other seat", "deal card", "pass card", "drop play",
           "extra play", "points", "totals", "moon", "direction", "dealer", "no passes", "drop hand")


def change(game, kind: str, rng: random.Random):
    """One random change to one hand of a game (or its last hand dropped)."""
    hands = list(game.hands)
    k = rng.randrange(len(hands))
    hand, n = hands[k], game.seats
    plays = list(hand.plays)
    if len(plays) < 2 and kind in ("swap cards", "swap plays", "other card", "other seat", "drop play", "extra play"):
        kind = "dealer"
    i, j = rng.sample(range(len(plays)), 2) if len(plays) >= 2 else (0, 0)
    if kind == "swap cards":
        plays[i], plays[j] = (plays[i][0], plays[j][1]), (plays[j][0], plays[i][1])
    elif kind == "swap plays":
        plays[i], plays[j] = plays[j], plays[i]
    elif kind == "other card":
        plays[i] = (plays[i][0], rng.randrange(52))
    elif kind == "other seat":
        plays[i] = (rng.randrange(n), plays[i][1])
    elif kind == "drop play":
        plays = plays[:i]
    elif kind == "extra play":
        plays.append(plays[i])
    elif kind == "deal card":
        deal = [list(d) for d in hand.deal]
        deal[i % n][0] = rng.randrange(52)
        hand = dataclasses.replace(hand, deal=tuple(map(tuple, deal)))
    elif kind == "pass card" and hand.passes:
        passes = [list(p) for p in hand.passes]
        passes[i % n][0] = rng.randrange(52)
        hand = dataclasses.replace(hand, passes=tuple(map(tuple, passes)))
    elif kind in ("points", "totals") and getattr(hand, kind):
        values = list(getattr(hand, kind))
        values[i % n] += rng.choice([-13, -1, 1, 26])
        hand = dataclasses.replace(hand, **{kind: tuple(values)})
    elif kind == "moon":
        hand = dataclasses.replace(hand, moon=rng.choice(MOON_CHOICES + (None,)))
    elif kind == "direction":
        hand = dataclasses.replace(hand, pass_direction=rng.choice(PASS_DIRECTIONS + (None,)))
    elif kind == "dealer":
        hand = dataclasses.replace(hand, dealer=rng.randrange(n))
    elif kind == "no passes":
        hand = dataclasses.replace(hand, passes=None)
    elif kind == "drop hand":
        return dataclasses.replace(game, hands=game.hands[:-1])
    hands[k] = dataclasses.replace(hand, plays=tuple(plays))
    return dataclasses.replace(game, hands=tuple(hands))


@PROPERTY
@given(st.lists(st.tuples(st.integers(0, 17), st.sampled_from(CHANGES), st.integers(0, 2 ** 32)),
                min_size=1, max_size=8))
def test_randomly_changed_games_give_the_reference_reports(tmp_path_factory, changes):
    base = clean_games()
    games = []
    for number, (pick, kind, seed) in enumerate(changes):
        games.append(dataclasses.replace(change(base[pick], kind, random.Random(seed)), game_id=f"g{number}"))
        games.append(base[(pick + 1) % len(base)])
    path = write_parquet_file(games, tmp_path_factory.mktemp("random") / "changed.parquet", row_group_hands=25)
    assert fast([path]) == reference([path])


def test_the_screen_reads_cards_through_any_dictionary(tmp_path):
    """A foreign file whose card dictionary is in another order (and has a spare entry)."""
    encoder = EventEncoder()
    for game in clean_games()[:4]:
        encoder.add_record(game)
    table = encoder.take()
    names = table["card"].to_pylist()
    shuffled = sorted(set(n for n in names if n)) + ["XX"]
    card = pa.DictionaryArray.from_arrays(pa.array([None if n is None else shuffled.index(n) for n in names],
                                                   pa.int8()), pa.array(shuffled))
    path = tmp_path / "dictionary.parquet"
    pq.write_table(table.set_column(table.column_names.index("card"), "card", card), path)
    assert fast([path]) == reference([path])
    assert screened([path]) == (4, 0)


def test_a_folder_of_parts_is_read_in_the_reference_order(tmp_path):
    from hearts_analysis.records.parquet import write_parquet
    folder = tmp_path / "corpus"
    write_parquet(every_violation()[:50], folder, partition_size=40)
    assert len(list(Path(folder).glob("part-*.parquet"))) > 2
    assert fast([folder]) == reference([folder])


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(simulated_games(max_hands=4), st.sampled_from((None,) + CHANGES), st.integers(0, 2 ** 32)),
                min_size=1, max_size=4))
def test_random_rule_sets_and_small_decks_are_screened_like_the_engine(tmp_path_factory, drawn):
    """Every rule field (random presets and overrides, decks down to a few cards): valid games are
    screened on the fast path, and every report is the engine's."""
    games = [game if kind is None else change(game, kind, random.Random(seed)) for game, kind, seed in drawn]
    games = [dataclasses.replace(game, game_id=f"g{i}") for i, game in enumerate(games) if game.hands]
    if not games:
        return
    path = write_parquet_file(games, tmp_path_factory.mktemp("rules") / "rules.parquet")
    reports = fast([path])
    assert reports == reference([path])
    # games under rules the screen leaves to the reference engine (charges, TC, claims, fixed deals) are replayed
    assert screened([path])[0] == sum(1 for game, report in zip(games, reports)
                                      if report["valid"] and game.rules.table(game.seats).models("screen"))


ODD_CELLS = {
    "game": [0, 2, -1], "hand": [0, 2, 9], "event": ["deal", "play", "none", "bid"], "seat": [None, 1, 6, -1],
    "card": [None, "QS", "XX", "qs"], "index": [0, 2, -1], "trick": [None, 5],
    "players": [None, ["a", "b", "c"], ["a", "", "c", "d"]],
    "rules": [None, '"standard"', '{"preset": "x"}', "{oops", '{"target": 10}'],
    "game_meta": [None, '{"complete": true}', '{"complete": "yes"}', '{"x": 1}', '{"format": "other"}',
                  '{"game_id": null}', "[1]"],
    "game_id": [None, "other"], "dealer": [None, 1, 4, -1], "pass_direction": [None, "left", "hold", "up"],
    "moon": [None, "add_to_others", "oops"], "points": [None, [26, 0, 0, 0], [1, 2]], "totals": [None, [1, 2]],
    "hand_meta": [None, "{}", '{"moon": null}', '{"passes": null}', '{"points": [1, 2, 3, 4]}', '{"dealer": 2}',
                  "{oops", '{"deal": []}'],
}


@PROPERTY
@given(st.lists(st.tuples(st.sampled_from(sorted(ODD_CELLS)), st.integers(0, 10 ** 6), st.integers(0, 10)),
                min_size=1, max_size=4), st.sampled_from([1, 3, 10]), st.booleans())
def test_odd_cells_written_by_other_tools_give_the_reference_readers_items(tmp_path_factory, cells, group, paired):
    def edit(columns):
        for name, row, value in cells:
            choices = ODD_CELLS[name]
            columns[name][row % len(columns["game"])] = choices[value % len(choices)]
    path = tmp_path_factory.mktemp("cells") / "odd.parquet"
    try:
        write_with_unreadable_games(clean_games()[:6], path, edits=[edit], row_group_games=group, paired=paired)
    except (pa.ArrowException, ValueError, TypeError, OverflowError):
        return  # a value the layout's schema cannot hold
    assert fast([path]) == reference([path])


def test_events_1_files_of_the_earlier_writer_stay_on_the_fast_path(tmp_path):
    """That writer gave the event and card dictionaries int8 indices and kept game and hand values on
    the first card rows; such files are read as before, and their clean games are screened."""
    encoder = EventEncoder()
    for game in clean_games()[:8]:
        encoder.add_record(game)
    table = encoder.take()
    narrow = pa.dictionary(pa.int8(), pa.string())
    for name in ("event", "card"):
        table = table.set_column(table.column_names.index(name), table.schema.field(name).with_type(narrow),
                                 table[name].cast(narrow))
    path = tmp_path / "events1.parquet"
    pq.write_table(table, path, row_group_size=500)
    assert pq.ParquetFile(path).schema_arrow.field("card").type == narrow
    assert fast([path]) == reference([path])
    assert screened([path]) == (8, 0)


@pytest.mark.parametrize("preset, players, overrides", [
    ("standard", 4, {}), ("classic", 3, {}), ("omnibus", 5, {}), ("classic", 7, {}),
    ("black_queen", 6, {})])   # black_queen: a hand ended early by ends_hand
def test_the_screen_keeps_each_clean_hands_held_cards_and_trick_winners_as_the_engine_replays_them(
        tmp_path, preset, players, overrides):
    games = list(simulate_games(4, Rules.preset(preset, target=50, **overrides), players, seed=players))
    path = write_parquet_file(games, tmp_path / "clean.parquet", row_group_hands=1000)
    [unit] = open_units(path)
    block = decode_unit(unit, Judgements(None))
    verdict = screen_block(block)
    assert verdict.clean.all()
    hands = [hand for game in games for hand in replay_game(game).hands]
    assert verdict.held[:, :players].tolist() == [list(hand.held) for hand in hands]
    assert [row[row >= 0].tolist() for row in verdict.trick_winners] == [list(hand.trick_winners) for hand in hands]
