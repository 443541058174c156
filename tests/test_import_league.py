"""Hearts League CSV histories: the hand-written record set, round trips, siblings, bad rows."""

from __future__ import annotations

import dataclasses
import io
import shutil
from pathlib import Path

import pytest

from hearts_analysis.cards import parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.interop import formats
from hearts_analysis.interop import league as lg
from hearts_analysis.interop.rebuild import ExportError
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import simulate_games

FIXTURES = Path(__file__).parent / "fixtures" / "league"


def read_path(path: Path):
    with path.open(newline="", encoding="utf-8") as stream:
        return list(lg.read(stream, str(path)))


def league_games(count: int, seed: int):
    return [dataclasses.replace(g, players=("ann", "bob", "cy", "dee"))
            for g in simulate_games(count, Rules.preset("hearts_league"), seed=seed)]


def test_card_codes_follow_the_programs_suits():
    # suits clubs 0, diamonds 1, spades 2, hearts 3; ranks two 0 .. ace 12
    assert lg.card_from_league(0) == parse_card("2C")
    assert lg.card_from_league(36) == parse_card("QS")
    assert lg.card_from_league(39) == parse_card("2H")
    assert lg.card_from_league(51) == parse_card("AH")
    assert all(lg.card_from_league(lg.league_card(c)) == c for c in range(52))


@pytest.mark.parametrize("given", ["TrickHistory.csv", "RoundHistory.csv"])
def test_hand_written_record_set_reads_from_either_file(given):
    items = read_path(FIXTURES / "moon" / given)
    assert [i.error for i in items] == [None]
    game = items[0].game
    assert game.players == ("Ann Bot", "Bob Bot", "Cy Bot", "Dee Bot")
    assert game.game_id == "Test Season-1"
    hand = game.hands[0]
    assert hand.pass_direction == "left"
    assert hand.passes[3] == tuple(parse_card(c) for c in ("2C", "3C", "4C"))
    # seat 0 was dealt the clubs from 5C up and the diamonds it passed
    assert sorted(hand.deal[0]) == sorted(parse_card(c) for c in "5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D".split())
    assert hand.points == (0, 26, 26, 26)
    result = replay_game(game)
    assert result.violations == ()
    assert result.hands[0].moon.seat == 0 and result.hands[0].points == (0, 26, 26, 26)


def test_trick_file_alone_reads_without_points_and_names(tmp_path):
    shutil.copy(FIXTURES / "moon" / "TrickHistory.csv", tmp_path / "TrickHistory.csv")
    game = read_path(tmp_path / "TrickHistory.csv")[0].game
    assert game.players == ("P1", "P2", "P3", "P4") and game.hands[0].points is None
    assert replay_game(game).violations == ()


def test_round_file_alone_is_an_error_naming_the_missing_file(tmp_path):
    shutil.copy(FIXTURES / "moon" / "RoundHistory.csv", tmp_path / "s1-RoundHistory.csv")
    items = read_path(tmp_path / "s1-RoundHistory.csv")
    assert len(items) == 1 and "s1-TrickHistory.csv" in str(items[0].error)
    assert items[0].error.source.endswith("s1-RoundHistory.csv:1")


def test_sniff_recognises_the_trick_file_and_the_round_file():
    assert lg.sniff((FIXTURES / "moon" / "TrickHistory.csv").read_text())
    assert lg.sniff((FIXTURES / "simulated" / "RoundHistory.csv").read_text())
    assert not lg.sniff((FIXTURES / "simulated" / "GameHistory.csv").read_text())
    assert not lg.sniff("Test Season,1,1,0,16,8,2,7\nTest Season,1,2,14,8,4,0,0\n")  # no seat 7 took QS
    assert not lg.sniff((Path(__file__).parent / "fixtures" / "sturtevant" / "suits.play").read_text())
    assert formats.formats()["league"] is lg
    assert formats.recognise((FIXTURES / "simulated" / "TrickHistory.csv").read_text()) is lg


def test_simulated_games_round_trip(tmp_path):
    games = league_games(3, seed=3)
    assert lg.write_files(games, tmp_path) == 3
    items = read_path(tmp_path / "TrickHistory.csv")
    assert [i.error for i in items] == [None] * 3
    for original, item in zip(games, items):
        back = item.game
        assert back.players == original.players
        assert replay_game(back).violations == ()
        assert replay_game(back).totals == replay_game(original).totals
        for before, after in zip(original.hands, back.hands):
            assert [sorted(s) for s in before.deal] == [sorted(s) for s in after.deal]
            assert before.plays == after.plays and before.passes == after.passes
            assert after.points == before.points
    again = tmp_path / "again"
    again.mkdir()
    lg.write_files([i.game for i in items], again)
    for name in ("TrickHistory.csv", "RoundHistory.csv", "GameHistory.csv"):
        assert (again / name).read_text().replace("hearts-analysis", "") == \
            (tmp_path / name).read_text().replace("hearts-analysis", "")
    out = io.StringIO()
    assert lg.write(games, out) == 3
    assert out.getvalue() == (tmp_path / "TrickHistory.csv").read_text()


def test_generated_fixture_stays_readable():
    items = read_path(FIXTURES / "simulated" / "TrickHistory.csv")
    assert len(items) == 2 and all(i.error is None and replay_game(i.game).violations == () for i in items)


def test_a_bad_cell_names_file_line_and_column_and_other_games_still_read(tmp_path):
    lg.write_files(league_games(2, seed=4), tmp_path)
    path = tmp_path / "TrickHistory.csv"
    lines = path.read_text().splitlines()
    cells = lines[5].split(",")
    cells[5] = "X"  # game 1, line 6, P2 Card
    lines[5] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")
    items = read_path(path)
    assert items[0].error is not None and items[1].error is None
    assert items[0].error.source == f"{path}:6" and items[0].error.field == "P2 Card"
    assert replay_game(items[1].game).violations == ()


def test_a_bad_round_row_names_the_round_file(tmp_path):
    lg.write_files(league_games(1, seed=4), tmp_path)
    rounds = tmp_path / "RoundHistory.csv"
    lines = rounds.read_text().splitlines()
    lines[1] = lines[1].replace(",1,2,", ",1,0,", 1)
    rounds.write_text("\n".join(lines) + "\n")
    error = read_path(tmp_path / "TrickHistory.csv")[0].error
    assert error.source == f"{rounds}:2" and error.field == "Round"


@pytest.mark.parametrize("kept, what", [(16 + 3 + 5, "5 of 13 tricks"), (16 + 2, "2 of the pass's 3 rows")])
def test_a_cut_round_costs_only_itself(tmp_path, kept, what):
    lg.write_files(league_games(1, seed=6), tmp_path)
    path = tmp_path / "TrickHistory.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:kept]) + "\n")  # round 1, then part of round 2
    items = read_path(path)
    assert [i.game is None for i in items] == [True, False]
    assert items[0].error.field == "round 2" and what in items[0].error.text()
    game = items[1].game
    assert len(game.hands) == 1  # the unplayed cards are not guessed: round 2 is named and left out
    assert replay_game(game).violations == ()
    path.write_text("\n".join(lines[:5]) + "\n")  # a game with no complete round is left out, named
    assert [i.error.field for i in read_path(path)] == ["round 1"]


def test_a_row_given_twice_is_reported_not_overwritten(tmp_path):
    lg.write_files(league_games(1, seed=6), tmp_path)
    path = tmp_path / "TrickHistory.csv"
    lines = path.read_text().splitlines()
    changed = lines[5].split(",")
    changed[4:8] = changed[5], changed[4], changed[7], changed[6]
    path.write_text("\n".join(lines[:6] + [",".join(changed)] + lines[6:]) + "\n")
    items = read_path(path)
    assert len(items) == 1 and items[0].error is not None
    assert items[0].error.source.endswith("TrickHistory.csv:7") and items[0].error.field == "Trick"
    assert "given twice (first at line 6)" in items[0].error.text()
    rounds = tmp_path / "RoundHistory.csv"
    round_lines = rounds.read_text().splitlines()
    rounds.write_text("\n".join(round_lines[:1] + round_lines[:1] + round_lines[1:]) + "\n")
    path.write_text("\n".join(lines) + "\n")
    items = read_path(path)
    assert items[0].error.source.endswith("RoundHistory.csv:2") and "given twice" in items[0].error.text()


def test_passes_that_no_seat_played_are_an_error(tmp_path):
    path = tmp_path / "TrickHistory.csv"
    text = (FIXTURES / "moon" / "TrickHistory.csv").read_text()
    # P1 says it passed 5H, which only P4 played: no direction gives every passed card to its receiver
    path.write_text(text.replace("Test Season,1,1,-3,13,26,39,0", "Test Season,1,1,-3,42,26,39,0", 1))
    error = read_path(path)[0].error
    assert error is not None and error.field == "round 1"


def test_writer_refuses_other_rules_and_unfinished_hands():
    standard = next(simulate_games(1, Rules.preset("standard"), seed=1))
    with pytest.raises(ExportError, match="hearts_league"):
        lg.write([standard], io.StringIO())
    game = league_games(1, seed=2)[0]
    cut = dataclasses.replace(game, hands=(dataclasses.replace(game.hands[0], plays=game.hands[0].plays[:-1]),))
    with pytest.raises(ExportError, match="finished hands"):
        lg.write([cut], io.StringIO())


@pytest.mark.parametrize("file", ["TrickHistory.csv", "RoundHistory.csv"])
def test_a_cell_of_20_mb_is_an_error_naming_file_and_line_and_the_rest_reads(tmp_path, file):
    lg.write_files(league_games(2, seed=4), tmp_path)
    path = tmp_path / file
    lines = path.read_text().splitlines()
    cells = lines[-1].split(",")
    cells[3] = "9" * (20 << 20)
    lines[-1] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")
    items = read_path(tmp_path / "TrickHistory.csv")
    bad = [item for item in items if item.error is not None and item.error.source == f"{path}:{len(lines)}"]
    assert bad and "cell longer than" in bad[0].error.text(), [i.error and i.error.text()[:200] for i in items]
    read = [item.game for item in items if item.game is not None]
    assert read and replay_game(read[0]).violations == ()  # the first game, before the bad row, still reads
