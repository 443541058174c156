"""Trend Hearts contest logs: the hand-written deal, round trips with an exposed AH, bad events, cut logs."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest

from hearts_analysis.cards import parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.interop import formats
from hearts_analysis.interop import trend as tr
from hearts_analysis.interop.rebuild import ExportError
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import simulate_games

FIXTURES = Path(__file__).parent / "fixtures" / "trend"
NAMES = ("north", "east", "south", "west")


def read_text(text: str, name: str = "log.jsonl"):
    return list(tr.read(io.StringIO(text), name))


def trend_games(count: int, seed: int, expose: bool = True):
    games = [dataclasses.replace(g, players=NAMES) for g in simulate_games(count, Rules.preset("trend_hearts"),
                                                                            seed=seed)]
    if expose:  # expose AH on every deal and record the points it gives
        exposed = []
        for game in games:
            hands = tuple(dataclasses.replace(h, charged=(parse_card("AH"),), points=None, totals=None)
                          for h in game.hands)
            exposed.append(dataclasses.replace(game, hands=hands))
        games = exposed
    return games


def test_hand_written_moon_deal_with_an_exposed_ace():
    items = list(tr.read((FIXTURES / "moon.jsonl").open(), "moon.jsonl"))
    assert [i.error for i in items] == [None]
    game = items[0].game
    assert game.players == NAMES and game.complete is None
    hand = game.hands[0]
    assert hand.pass_direction == "left" and hand.charged == (parse_card("AH"),) and hand.extra == {}
    assert hand.passes[3] == tuple(parse_card(c) for c in ("2C", "3C", "4C"))
    assert hand.points == (-312, 0, 0, 0)  # the server's +312: 4 x (13 hearts doubled + QS) x 2 for TC
    result = replay_game(game)
    assert result.violations == ()  # one deal of four: not complete, and not claimed to be
    assert result.hands[0].moon.seat == 0 and result.hands[0].points == (-312, 0, 0, 0)


def test_without_the_exposure_the_logged_scores_do_not_fit():
    text = (FIXTURES / "moon.jsonl").read_text().replace('"exposedCards": ["AH"]', '"exposedCards": []')
    result = replay_game(read_text(text)[0].game)
    assert {v.code for v in result.violations} == {"points-mismatch", "totals-mismatch"}


def test_simulated_games_round_trip_with_exposures():
    games = trend_games(2, seed=5)
    out = io.StringIO()
    assert tr.write(games, out) == 2
    items = read_text(out.getvalue())
    assert [i.error for i in items] == [None, None]
    for original, item in zip(games, items):
        back = item.game
        assert back.players == NAMES and back.complete is True
        assert len(back.hands) == 4 and back.hands[3].passes is None
        for before, after in zip(original.hands, back.hands):
            assert (before.deal, before.plays, before.passes) == (after.deal, after.plays, after.passes)
            assert after.charged == (parse_card("AH"),) and after.extra == {}
        result = replay_game(back)
        assert result.violations == () and result.complete
        assert result.totals == replay_game(original).totals
        # the logged scores are the doubled ones: without the exposure they would not fit
        plain = dataclasses.replace(back, hands=tuple(dataclasses.replace(h, charged=None) for h in back.hands))
        assert replay_game(plain).totals != result.totals
        assert {v.code for v in replay_game(plain).violations} >= {"points-mismatch"}
    again = io.StringIO()
    tr.write([i.game for i in items], again)
    assert again.getvalue() == out.getvalue()


def test_sniff_and_registry():
    assert tr.sniff((FIXTURES / "moon.jsonl").read_text())
    assert not tr.sniff('{"type": "deal", "north": []}')
    assert formats.formats()["trend"] is tr


def test_a_bad_event_names_file_line_and_field_and_the_next_game_is_read():
    out = io.StringIO()
    tr.write(trend_games(2, seed=6, expose=False), out)
    lines = out.getvalue().splitlines()
    index = next(i for i, line in enumerate(lines) if '"turn_end"' in line)
    event = json.loads(lines[index])
    event["data"]["turnCard"] = "1X"
    lines[index] = json.dumps(event)
    lines.insert(index + 1, "{not json")
    items = read_text("\n".join(lines) + "\n")
    assert len(items) == 2 and items[0].error is not None and items[1].error is None
    assert items[0].error.source == f"log.jsonl:{index + 1}" and items[0].error.field == "turn_end.turnCard"
    assert replay_game(items[1].game).violations == ()


def test_an_unknown_player_is_named():
    text = (FIXTURES / "moon.jsonl").read_text().replace('"turnPlayer": "east"', '"turnPlayer": "nobody"', 1)
    error = read_text(text)[0].error
    assert error.field == "turn_end.turnPlayer" and '"nobody"' in str(error)


def test_a_log_cut_mid_deal_imports_an_incomplete_hand():
    lines = (FIXTURES / "moon.jsonl").read_text().splitlines()
    cut = [line for line in lines if '"deal_end"' not in line][:40]
    items = read_text("\n".join(cut) + "\n")
    assert items[0].error is None
    hand = items[0].game.hands[0]
    assert 0 < len(hand.plays) < 52 and hand.points is None
    assert [v.code for v in replay_game(items[0].game).violations] == ["hand-incomplete"]


def test_writer_refuses_other_rules():
    with pytest.raises(ExportError, match="trend_hearts"):
        tr.write(simulate_games(1, Rules.preset("standard"), seed=1), io.StringIO())


def bot_view(events: list[dict], seat_name: str) -> list[dict]:
    """The events as the sample bot receives them: its own dealt cards only in ``new_deal``."""
    out = []
    for event in events:
        event = json.loads(json.dumps(event))
        if event["eventName"] == "new_deal":
            for player in event["data"]["players"]:
                if player["playerName"] != seat_name:
                    player["cards"] = []
        out.append(event)
    return out


def test_a_cut_off_deal_costs_only_itself():
    (game,) = trend_games(1, seed=8, expose=False)
    events = bot_view(tr.game_events(game), "west")
    last_deal = max(i for i, e in enumerate(events) if e["eventName"] == "new_deal")
    cut = events[:last_deal + 30]  # deal 4 stops after some plays, before its deal_end
    items = read_text("\n".join(json.dumps(e) for e in cut) + "\n")
    assert [i.game is None for i in items] == [True, False]
    skipped = items[0].error
    assert skipped.field == "deal 4" and skipped.source == f"log.jsonl:{last_deal + 1}"
    assert "shows the dealt cards of west only" in skipped.text() and "the 3 before it are kept" in skipped.text()
    kept = items[1].game
    assert len(kept.hands) == 3 and [h.plays for h in kept.hands] == [h.plays for h in game.hands[:3]]
    assert replay_game(kept).violations == ()
    # a game cut in its first deal has nothing to keep: named, and the next game is still read
    (other,) = trend_games(1, seed=9, expose=False)
    first_cut = bot_view(tr.game_events(game), "west")[:12]
    items = read_text("\n".join(json.dumps(e) for e in first_cut + tr.game_events(other)) + "\n")
    assert [i.game is None for i in items] == [True, False]
    assert "the game has no other deal" in items[0].error.text()
    # where the log shows every dealt hand, the cut deal is imported as far as it goes
    items = read_text("\n".join(json.dumps(e) for e in tr.game_events(game)[:last_deal + 30]) + "\n")
    assert [i.error for i in items] == [None] and len(items[0].game.hands) == 4
    assert [v.code for v in replay_game(items[0].game).violations] == ["hand-incomplete"]


def test_python_log_data_is_bounded_and_only_json_kinds_are_kept():
    from hearts_analysis.interop import pylog
    head = "2018-09-10 21:37:59,683 INFO new_deal\n2018-09-10 21:37:59,740 INFO "
    for data, expected in [("{u'a': " + "1" * 5000 + "}", "not a Python dict literal"),
                           ("{u'a': " + "[" * 50 + "]" * 50 + "}", "dict of JSON values (nested too deeply)"),
                           ("{u'a': " + "[" * 400 + "]" * 400 + "}", "too many nested parentheses"),
                           ("{u'a': {1, 2}}", "dict of JSON values (set)"),
                           ("{u'a': " + "'x' * 9" + "}", "a call, a name or an operator"),
                           ("{u'a': '" + "x" * (pylog.MAX_DATA_CHARS + 1) + "'}", "at most 1,048,576 are read")]:
        ((line, error),) = list(pylog.events(head + data))
        assert line == 2 and isinstance(error, tr.RecordError) and expected in error.text(), error.text()
    assert not tr.sniff("2018-09-10 21:37:59,683 INFO hello\n2018-09-10 21:37:59,740 INFO {u'a': 1}")
