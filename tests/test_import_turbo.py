"""Turbo Hearts event streams: the hand-written charged and claimed deal, round trips, the keeper pass."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest

from faults import write_parquet_file
from hearts_analysis.cards import parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.interop import formats
from hearts_analysis.interop import turbo as tu
from hearts_analysis.interop.rebuild import ExportError
from hearts_analysis.records.json import write_games
from hearts_analysis.records.parquet import read_parquet_items
from hearts_analysis.records.sources import read_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import simulate_games

FIXTURES = Path(__file__).parent / "fixtures" / "turbo"
NAMES = ("nora", "eddie", "sam", "wes")


def read_text(text: str, name: str = "game.jsonl"):
    return list(tu.read(io.StringIO(text), name))


def turbo_games(count: int, seed: int):
    return [dataclasses.replace(g, players=NAMES) for g in simulate_games(count, Rules.preset("turbo_hearts"),
                                                                          seed=seed)]


def test_hand_written_charged_and_claimed_moon():
    items = list(tu.read((FIXTURES / "claim.jsonl").open(), "claim.jsonl"))
    assert [i.error for i in items] == [None]
    game = items[0].game
    assert game.players == NAMES and game.extra == {"turbo_charging": "classic"}
    hand = game.hands[0]
    assert hand.charged == (parse_card("QS"), parse_card("AH")) and hand.claim == 0 and hand.extra == {}
    assert hand.pass_direction == "left" and len(hand.plays) == 12
    assert hand.passes[0] == tuple(parse_card(c) for c in ("2D", "3D", "4D"))
    result = replay_game(game)
    # north took every heart (doubled) and QS (doubled) by its claim: -(26 + 26), JD -10, all doubled by TC
    assert result.violations == () and result.hands[0].points == (-124, 0, 0, 0)


def test_the_charges_change_the_logged_score():
    text = (FIXTURES / "claim.jsonl").read_text().replace('"cards":["QS"]', '"cards":[]')
    result = replay_game(read_text(text)[0].game)
    assert [(v.code, v.seat) for v in result.violations] == [("points-mismatch", 0)]


def test_a_claim_not_accepted_by_all_leaves_the_hand_incomplete():
    lines = [line for line in (FIXTURES / "claim.jsonl").read_text().splitlines()
             if '"acceptor":"west"' not in line]
    result = replay_game(read_text("\n".join(lines))[0].game)
    assert {v.code for v in result.violations} == {"hand-incomplete", "points-mismatch"}


def test_simulated_games_round_trip():
    games = turbo_games(2, seed=2)
    out = io.StringIO()
    assert tu.write(games, out) == 2
    items = read_text(out.getvalue())
    assert [i.error for i in items] == [None, None]
    for original, item in zip(games, items):
        back = item.game
        assert back.players == NAMES and back.complete is True and len(back.hands) == 4
        for before, after in zip(original.hands, back.hands):
            assert (before.deal, before.plays, before.passes) == (after.deal, after.plays, after.passes)
        result = replay_game(back)
        assert result.violations == () and result.totals == replay_game(original).totals
    again = io.StringIO()
    tu.write([i.game for i in items], again)
    assert again.getvalue() == out.getvalue()


def test_a_keeper_pass_is_imported_and_named_in_the_audit(tmp_path):
    game = turbo_games(1, seed=3)[0]
    out = io.StringIO()
    tu.write([game], out)
    lines = out.getvalue().splitlines()
    deal_at = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "deal"][3]
    deal = json.loads(lines[deal_at])
    # each seat sends its first three cards to the pile and gets back its own: the hands do not change
    sent = [{"type": "send_pass", "from": seat, "cards": deal[seat][:3]} for seat in tu.SEATS]
    received = [{"type": "recv_pass", "to": seat, "cards": deal[seat][:3]} for seat in tu.SEATS]
    lines[deal_at + 1:deal_at + 1] = [json.dumps(e) for e in sent + received]
    back = read_text("\n".join(lines))[0].game
    hand = back.hands[3]
    assert hand.deal == game.hands[3].deal and hand.passes is None
    assert hand.extra["turbo_keeper"]["sent"][0] == deal["north"][:3]
    result = replay_game(back)   # a note of what is not checked: the game stays valid
    assert result.valid and result.violations == ()
    assert [(n.code, n.hand) for n in result.notes] == [("unmodelled", 4)]
    assert "keeper pass" in result.notes[0].message
    with pytest.raises(ExportError, match="keeper pass"):
        tu.write([back], io.StringIO())
    # hearts validate: exit 0, the note counted and shown in the game's audit
    from typer.testing import CliRunner
    from hearts_analysis.cli import app
    from hearts_analysis.records.json import dumps_game
    path = tmp_path / "keeper.jsonl"
    path.write_bytes(dumps_game(back) + b"\n")
    done = CliRunner().invoke(app, ["validate", str(path)])
    assert done.exit_code == 0, done.output
    assert "no violations" in done.output and "1 note " in done.output
    doc = json.loads(CliRunner().invoke(app, ["validate", str(path), "--format", "json"]).output)
    (report,) = doc["games"]
    assert report["valid"] and [n["code"] for n in report["notes"]] == ["unmodelled"]


def test_sniff_and_registry():
    text = (FIXTURES / "claim.jsonl").read_text()
    assert tu.sniff(text) and formats.recognise(text) is tu
    assert not tu.sniff('{"eventName": "new_deal"}')
    assert formats.formats()["turbo"] is tu


def test_a_bad_event_names_file_line_and_field_and_the_next_game_is_read():
    out = io.StringIO()
    tu.write(turbo_games(2, seed=4), out)
    lines = out.getvalue().splitlines()
    index = next(i for i, line in enumerate(lines) if '"play"' in line)
    event = json.loads(lines[index])
    event["seat"] = "middle"
    lines[index] = json.dumps(event)
    items = read_text("\n".join(lines))
    assert len(items) == 2 and items[0].error is not None and items[1].error is None
    assert items[0].error.source == f"game.jsonl:{index + 1}" and items[0].error.field == "play.seat"


def test_a_stream_cut_mid_deal_imports_an_incomplete_hand():
    lines = (FIXTURES / "claim.jsonl").read_text().splitlines()[:25]
    game = read_text("\n".join(lines))[0].game
    assert len(game.hands[0].plays) == 6
    assert [v.code for v in replay_game(game).violations] == ["hand-incomplete"]


def test_writer_refuses_other_rules():
    with pytest.raises(ExportError, match="turbo_hearts"):
        tu.write(simulate_games(1, Rules.preset("standard"), seed=1), io.StringIO())


def test_charges_claims_and_notes_survive_json_and_parquet(tmp_path):
    game = list(tu.read((FIXTURES / "claim.jsonl").open(), "claim.jsonl"))[0].game
    noted = dataclasses.replace(game, unmodelled=("keeper pass",))
    write_games([noted], tmp_path / "g.jsonl")
    from_json = [item.game for item in read_games(tmp_path / "g.jsonl")]
    write_parquet_file(from_json, tmp_path / "g.parquet")
    from_parquet = [item.game for item in read_parquet_items(tmp_path / "g.parquet")]
    for back in (from_json[0], from_parquet[0]):
        assert (back.hands[0].charged, back.hands[0].claim) == ((parse_card("QS"), parse_card("AH")), 0)
        assert back.extra == noted.extra and back.unmodelled == ("keeper pass",)
        assert replay_game(back).violations == replay_game(noted).violations
        assert replay_game(back).hands[0].points == (-124, 0, 0, 0)
