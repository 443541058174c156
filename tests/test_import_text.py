"""The hand-entry notation: a typed sheet, lossless round trips, typing errors by line and column."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.cards import parse_card
from hearts_analysis.cli import app
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.interop import formats, killer, text_notation as tn
from hearts_analysis.records.json import game_from_dict, game_to_dict
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import simulate_games

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
CLUB = Path(__file__).parent / "fixtures" / "text" / "club-night.txt"


def read(text: str, name: str = "club.txt"):
    return list(tn.read(io.StringIO(text), name))


def round_trip(game):
    out = io.StringIO()
    tn.write([game], out)
    items = read(out.getvalue())
    assert [i.error for i in items] == [None]
    return items[0].game


def example_games():
    return [item.game for item in iter_sources([EXAMPLES])]


# -- lossless -----------------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(len(example_games())))
def test_every_example_round_trips_exactly(index):
    game = example_games()[index]
    assert game_to_dict(round_trip(game)) == game_to_dict(game)


@pytest.mark.parametrize("preset, players", [("standard", 4), ("omnibus", 5), ("black_queen", 4), ("basic", 3),
                                             ("classic", 7), ("openspiel", 4), ("killer_hearts", 4)])
def test_simulated_games_round_trip_exactly(preset, players):
    for game in simulate_games(2, Rules.preset(preset), players=players, seed=11):
        assert game_to_dict(round_trip(game)) == game_to_dict(game)


def test_fields_the_notation_has_no_line_for_are_kept():
    base = game_to_dict(example_games()[0])
    odd = {**base, "game_id": "table #7; late", "played_at": None, "rules": "standard", "venue": {"room": 2},
           "players": [" padded", '"quoted"', "semi;colon", "{brace"],
           "hands": [{**base["hands"][0], "moon": None, "note": "spilled coffee", "passes": [None, [], *base["hands"][0]["passes"][2:]]}]}
    game = game_from_dict(odd)
    again = round_trip(game)
    assert game_to_dict(again) == game_to_dict(game)
    assert again.extra["venue"] == {"room": 2} and "played_at" in again.nulls
    assert again.hands[0].extra == {"note": "spilled coffee"} and again.hands[0].passes[:2] == (None, ())


def test_rule_overrides_are_words():
    game = dataclasses.replace(example_games()[0], rules_spec={"preset": "omnibus", "pass_cycle": ["left", "hold"],
                                                              "moon": "add_to_others", "target": 50})
    out = io.StringIO()
    tn.write([game], out)
    assert 'rules: omnibus pass_cycle=["left","hold"] moon=add_to_others target=50' in out.getvalue()
    assert round_trip(game).rules == Rules.preset("omnibus", pass_cycle=["left", "hold"], moon="add_to_others",
                                                  target=50)


# -- a typed sheet ------------------------------------------------------------------------------
def test_a_typed_sheet_reads_with_comments_lowercase_and_tens():
    (item,) = list(iter_sources([CLUB]))
    game = item.game
    assert item.source == f"{CLUB}:4" and game.game_id == "club-2026-11-29-t7"
    assert game.players == ("Mary Ann", "Joe", "Priya", "Li") and game.rules == Rules.preset("omnibus")
    first, second = game.hands
    assert first.plays[4 * 6 + 3] == (1, parse_card("TD")) and first.points == (0, 1, 15, 0)
    assert second.deal[0][0] == parse_card("JC") and second.points is None and len(second.plays) == 36
    result = replay_game(game)
    assert [(v.code, v.hand) for v in result.violations] == [("hand-incomplete", 2)]


def test_sniffing_tells_the_notation_from_killer_logs():
    text = CLUB.read_text()
    assert formats.recognise(text) is tn
    out = io.StringIO()
    killer.write([example_games()[0]], out)
    assert formats.recognise(out.getvalue()) is killer
    assert not tn.sniff(out.getvalue()) and not killer.sniff(text)
    assert not tn.sniff('{"format": "hearts-game/1"}')


# -- typing errors ------------------------------------------------------------------------------
def sheet(**changes: str) -> str:
    """The club sheet with whole lines replaced: ``changes`` maps a line's start to its new text."""
    lines = CLUB.read_text().splitlines()
    for start, new in changes.items():
        index = next(i for i, line in enumerate(lines) if line.startswith(start.replace("_", " ")))
        lines[index] = new
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("start, new, column, field, expected", [
    ("trick__3", "trick  3: A:4D B:KX C:QD D:9D", 18, "trick 3", "expected a card such as QS"),
    ("trick__3", "trick  3: A:4D E:KD C:QD D:9D", 16, "trick 3", "expected a seat letter A-D"),
    ("trick__3", "trick  3: A:4D B:? C:QD D:9D", 18, "trick 3", "the notation does not guess cards"),
    ("trick__3", "trick  4: A:4D B:KD C:QD D:9D", 8, "trick 4", "expected trick 3"),
    ("trick__3", "trick  3: A:4D B:KD C:QD", 25, "trick 3", "expected 4 plays (trick 3 has 3)"),
    ("trick__3", "trick  3: A:4D BKD C:QD D:9D", 16, "trick 3", "expected seat:card"),
    ("pass", "pass: JC QC TD / 9C QH KH / 8C 9H AH KC AC KS", 46, "pass", "expected 4 seats separated by '/'"),
    ("points", "points: 0 1 fifteen 0", 13, "points", "expected a whole number"),
    ("player_C", "player D: Priya", 8, "player", "expected player C next"),
    ("hand_2", "hand 3  dealer B", 6, "hand", "expected hand 2"),
    ("hand_2", "hand 2  dealer Q", 16, "dealer", "expected a seat letter A-D"),
    ("points", "pints: 0 1 15 0", 1, "hand", "unknown line \"pints\""),
])
def test_typing_errors_name_line_column_and_what_was_expected(start, new, column, field, expected):
    text = sheet(**{start: new})
    number = text.splitlines().index(new) + 1
    (item,) = read(text)
    assert item.game is None
    assert item.source == f"club.txt:{number}:{column}"
    assert item.error.field == field and expected in item.error.detail


def test_an_error_spoils_its_game_only():
    good = CLUB.read_text()
    bad = sheet(trick__5="trick  5: A:7C B:JC C:5C D:AX")
    items = read(bad + "\n" + good)
    assert items[0].error is not None and items[1].error is None
    assert items[1].source == f"club.txt:{len(bad.splitlines()) + 1 + 4}"


def test_a_hand_without_a_deal_and_text_before_a_game_are_errors():
    (item,) = read("game g1\nplayer A: a\nplayer B: b\nplayer C: c\nhand 1\ntrick 1: A:2C\n")
    assert item.error.field == "hand 1" and "expected a 'deal:' line" in item.error.detail
    items = read("players: a b c\n")
    assert items[0].source == "club.txt:1:1" and "expected 'game'" in items[0].error.detail


# -- the commands -------------------------------------------------------------------------------
def test_import_and_export_text(tmp_path):
    runner = CliRunner()
    games = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["import", "text", str(CLUB), "-o", str(games)])
    assert result.exit_code == 0, result.output
    sheet_out = tmp_path / "again.txt"
    result = runner.invoke(app, ["export", "text", str(games), "-o", str(sheet_out)])
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.jsonl"
    assert runner.invoke(app, ["import", str(sheet_out), "-o", str(again)]).exit_code == 0
    assert again.read_bytes() == games.read_bytes()
    bad = tmp_path / "bad.txt"
    bad.write_text(sheet(trick__3="trick  3: A:4D B:KX C:QD D:9D"))
    result = runner.invoke(app, ["validate", str(bad)])
    assert result.exit_code == 2 and f"{bad}:17:18" in result.output and "trick 3" in result.output
