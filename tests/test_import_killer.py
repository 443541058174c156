"""Killer Hearts logs (text and JSON): the layout, many games, round trips, bad input."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from hearts_analysis.cards import parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.interop import formats, killer, killer_json
from hearts_analysis.records.json import game_to_dict
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from killer_logs import ABANDONED, GAMES, ROTATED, UNMARKED, killer_games, killer_log

FIXTURES = Path(__file__).parent / "fixtures" / "killer"


@pytest.fixture(scope="module")
def games():
    return killer_games()


@pytest.fixture(scope="module")
def log(games):
    return killer_log(games)


def card_sets(hand):
    return [frozenset(cards) for cards in hand.deal]


def read_text(text: str, name: str = "KHearts.log"):
    return list(killer.read(io.StringIO(text), name))


# -- the layout ---------------------------------------------------------------------------
def test_written_deal_has_the_logs_columns(games):
    out = io.StringIO()
    killer.write([games[0]], out)
    lines = out.getvalue().splitlines()
    header, west = lines[0], lines[1]

    def starts(text):
        return [i for i in range(1, len(text)) if text[i] != " " and text[i - 1] == " "]

    assert header.startswith("   spades        hearts        clubs         diamonds   1WL 0 0 0 0")
    assert starts(header)[:5] == [3, 17, 31, 45, 56]
    assert west.startswith("W: ") and len(west) == 58
    assert [line[:3] for line in lines[1:5]] == ["W: ", "N: ", "E: ", "S: "]
    assert lines[5].startswith("left auto passes: W->") and lines[6] == ""
    trick = next(line for line in lines if line.startswith("trick  1: "))
    assert len(trick.split(": ", 1)[1].split("  ")) == 4
    score = next(line for line in lines if line.startswith("W = "))
    assert score.endswith(" ") and [t for t in score.split() if t in "WNES"] == list("WNES")


def test_short_fixture_reads_as_logged():
    items = list(iter_sources([FIXTURES / "short.log"]))
    assert [i.error for i in items] == [None]
    game = items[0].game
    assert game.players == ("West", "North", "East", "South") and game.rules.preset == "killer_hearts"
    first, second, third = game.hands
    assert first.dealer == 0 and first.pass_direction == "left" and second.pass_direction == "right"
    assert [parse_card(c) for c in ("QC", "QH", "AH")] == list(first.passes[0])
    assert first.plays[:2] == ((3, parse_card("2C")), (0, parse_card("JC")))
    assert first.moon == "add_to_others" and first.points == (0, 26, 26, 26) == first.totals
    assert first.extra == {"deal_number": 1, "killer_header": "0 0 0 0"}
    assert len(third.plays) == 20 and third.points is None and third.totals is None
    result = replay_game(game)
    assert [v.code for v in result.violations] == ["hand-incomplete"] and result.violations[0].hand == 3


def test_seats_and_pass_directions_match_the_programs():
    """W N E S clockwise are seats 0-3: a left pass goes from West to North, as hearts-game/1's seat + 1."""
    text = (FIXTURES / "short.log").read_text()
    game = read_text(text)[0].game
    hand = game.hands[0]
    after = killer.after_pass(hand.deal, hand.passes, "left")
    assert set(hand.passes[0]) <= after[1] and not set(hand.passes[0]) & after[0]
    assert replay_game(game).hands[0].held[1] == sum(1 << c for c in after[1])


def test_sniffed_and_other_formats_not(log):
    assert formats.recognise(log[:1 << 16]) is killer
    assert not killer.sniff('{"format": "hearts-game/1", "players": []}')
    assert not killer.sniff("spades hearts clubs diamonds are the four suits\n")


# -- a log of many games -------------------------------------------------------------------------
def test_many_games_reproduce_every_deal_pass_and_play_and_validate_clean(games, log):
    items = read_text(log)
    assert [i.error for i in items] == [None] * GAMES
    assert len(items) == GAMES >= 35
    for original, item in zip(games, items):
        game = item.game
        assert len(game.hands) == len(original.hands), item.source
        for want, got in zip(original.hands, game.hands):
            assert card_sets(got) == card_sets(want)
            assert got.passes == want.passes and got.plays == want.plays
            assert got.points == want.points and got.totals == want.totals
        result = replay_game(game)
        assert result.valid, (item.source, result.violations[:3])
        assert all(h.points is not None and h.totals is not None for h in game.hands)
    assert sum(1 for item in items for h in item.game.hands if h.moon) > 0


def test_games_end_at_the_end_line_or_where_the_score_restarts(games, log):
    items = read_text(log)
    assert items[ABANDONED].game.complete is None and not replay_game(items[ABANDONED].game).complete
    assert items[UNMARKED].game.complete is None and replay_game(items[UNMARKED].game).complete
    assert all(items[k].game.complete for k in range(GAMES) if k not in (ABANDONED, UNMARKED))
    assert items[ROTATED].game.rules.pass_cycle == ("across", "hold", "left", "right")
    assert items[0].game.rules == Rules.preset("killer_hearts")


def test_a_log_round_trips_to_the_same_text(log):
    games = [item.game for item in read_text(log)]
    out = io.StringIO()
    killer.write(games, out)
    again = [item.game for item in read_text(out.getvalue())]
    assert [game_to_dict(g) for g in again] == [game_to_dict(g) for g in games]
    out2 = io.StringIO()
    killer.write(again, out2)
    assert out2.getvalue() == out.getvalue()


def test_windows_line_endings_and_a_folder(tmp_path, log):
    (tmp_path / "KHearts.log").write_bytes(log.replace("\n", "\r\n").encode())
    (tmp_path / "notes.txt").write_text("not a game\n")
    items = list(iter_sources([tmp_path]))
    assert len(items) == GAMES and all(i.error is None for i in items)
    assert items[0].source == f"{tmp_path / 'KHearts.log'}:3"


# -- bad input ----------------------------------------------------------------------------------
def test_a_bad_deal_spoils_its_game_only(log):
    lines = log.splitlines()
    bad = next(i for i, line in enumerate(lines) if line.startswith("trick  3: "))
    lines[bad] = lines[bad].replace(":", ":X", 2).replace("X", "", 1)  # the second play's card is garbled
    items = read_text("\n".join(lines) + "\n")
    assert items[0].error is not None and items[0].game is None
    error = items[0].error
    assert error.source == f"KHearts.log:{bad + 1}" and error.field == "deal 1, trick 3"
    assert "expected a play such as W:TS" in error.detail
    assert [i.error for i in items[1:]] == [None] * (GAMES - 1)


def test_a_wrong_hand_after_the_pass_is_reported(games):
    out = io.StringIO()
    killer.write([games[0]], out)
    lines = out.getvalue().splitlines()
    lines[8] = lines[8][:3] + "-" + lines[8][4:] if lines[8][3] != "-" else lines[8]
    items = read_text("\n".join(lines) + "\n")
    assert items[0].error.field.startswith("deal 1, W hand")
    assert items[0].error.source == "KHearts.log:9"


def test_a_missing_score_line_is_an_incomplete_record_not_a_guess(games):
    out = io.StringIO()
    killer.write([games[1]], out)
    text = out.getvalue()
    cut = text[:text.rindex("trick  9:")]
    game = read_text(cut)[0].game
    assert len(game.hands) == len(games[1].hands)
    assert len(game.hands[-1].plays) == 32 and game.hands[-1].totals is None
    assert "hand-incomplete" in {v.code for v in replay_game(game).violations}


# -- the JSON form ------------------------------------------------------------------------------
def test_json_form_round_trips(games):
    out = io.StringIO()
    killer_json.write(games[:5], out)
    text = out.getvalue()
    assert formats.recognise(text) is killer_json
    items = list(killer_json.read(io.StringIO(text), "KHearts.json"))
    assert [i.error for i in items] == [None] * 5
    for original, item in zip(games, items):
        for want, got in zip(original.hands, item.game.hands):
            assert card_sets(got) == card_sets(want) and got.passes == want.passes and got.plays == want.plays
        assert [h.totals for h in item.game.hands[:-1]] == [h.totals for h in original.hands[:-1]]
        assert item.game.hands[-1].totals is None  # the form keeps the score before each deal only
        assert replay_game(item.game).valid


def test_json_form_early_layout_and_errors():
    entry = {"DealNumber": 7, "Score": {"W": 0, "N": 0, "E": 0, "S": 0},
             "Hands": [{"W": {"C": "AKQJT98765432"}}, {"N": {"D": "AKQJT98765432"}},
                       {"E": {"H": "AKQJT98765432"}}, {"S": {"S": "AKQJT98765432"}}],
             "PassDirection": "Hold", "Tricks": [{"Leader": "W", "Cards": ["2C", "2D", "2H", "2S"]}]}
    deal, before = killer_json.deal_from_entry(entry, 0)
    assert deal.dealer is None and before == (0, 0, 0, 0)
    assert deal.plays == [(0, parse_card("2C")), (1, parse_card("2D")), (2, parse_card("2H")), (3, parse_card("2S"))]
    bad = dict(entry, Tricks=[{"Leader": "W", "Cards": ["2C", "ZZ"]}])
    import orjson
    items = list(killer_json.read(io.StringIO(orjson.dumps([entry, bad]).decode()), "k.json"))
    assert items[0].error.field == "[1].Tricks[0].Cards[1]" and items[0].source == "k.json:#2"


def test_a_game_played_on_past_the_target_stays_one_game(games):
    """A deal whose score fits only as a continuation stays in its game; the audit names what happened."""
    import dataclasses
    first, other = games[0], games[1]
    extra = next(h for k, h in enumerate(other.hands) if k % 4 == len(first.hands) % 4)
    extra = dataclasses.replace(extra, totals=tuple(a + b for a, b in zip(first.hands[-1].totals, extra.points)))
    longer = dataclasses.replace(first, hands=first.hands + (extra,), complete=None)
    out = io.StringIO()
    killer.write([longer, other], out)
    items = read_text(out.getvalue())
    assert [len(i.game.hands) for i in items] == [len(first.hands) + 1, len(other.hands)]
    assert "game-continued" in {v.code for v in replay_game(items[0].game).violations}


def test_end_line_after_the_score_and_other_shoot_wordings_are_understood(games):
    out = io.StringIO()
    killer.write(games[1:3], out)
    text = out.getvalue()
    moved = re.sub(r"(End of game: [^\n]*\n)((?:[^\n]*Shoots the moon\n)?)(W = [^\n]*\n)", r"\2\3\1", text)
    moved = re.sub(r"(West|North|East|South) Shoots the moon", lambda m: f"{m.group(1)[0]} shot the moon!", moved)
    assert moved.count("shot the moon!") and re.search(r"W = [^\n]*\nEnd of game", moved)
    items = read_text(moved)
    assert [i.error for i in items] == [None, None]
    assert [i.game.complete for i in items] == [True, True]
    assert [len(i.game.hands) for i in items] == [len(g.hands) for g in games[1:3]]
    assert all(replay_game(i.game).valid for i in items)
