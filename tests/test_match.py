"""``hearts match``: duplicate seating, the seat's view, outside bots and their faults, the results."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.cards import card_name, parse_card
from hearts_analysis.cli import app
from hearts_analysis.match import MatchConfig, Tally, players_of, rotations, run_match
from hearts_analysis.rules import Rules
from incli import hearts  # in this interpreter: these tests are about what the commands print

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "examples" / "bots"
ALL_CARDS = [card_name(c) for c in range(52)]


def match(*args: str):
    result = CliRunner().invoke(app, ["match", *args])
    return result


def match_json(*args: str) -> dict:
    result = match(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def script(tmp_path: Path, name: str, body: str) -> str:
    """An exe: player running ``body`` (Python) with ``requests`` (each request parsed) in scope."""
    path = tmp_path / f"{name}.py"
    path.write_text("import json, sys, time\n" + textwrap.dedent(body))
    return f"exe:{sys.executable} {path}"


@pytest.mark.parametrize("players,seats", [(2, 4), (2, 3), (3, 5), (5, 4), (2, 7)])
def test_every_player_sits_every_seat_once_a_deal(players, seats):
    table = rotations(players, seats)
    for player in range(players):
        assert sorted(seat for r in table for seat, p in enumerate(r) if p == player) == list(range(seats))


def test_a_deal_is_the_same_cards_in_every_seating_and_the_directions_rotate(tmp_path):
    out = tmp_path / "m.jsonl"
    assert match("random", "heuristic", "--deals", "4", "--seed", "5", "-o", str(out)).exit_code == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(games) == 8
    for first, second in zip(games[::2], games[1::2]):
        assert first["hands"][0]["deal"] == second["hands"][0]["deal"]
        assert first["players"] == ["random", "heuristic"] * 2 and second["players"] == ["heuristic", "random"] * 2
    hands = [g["hands"][0] for g in games[::2]]
    assert len({json.dumps(h["deal"]) for h in hands}) == 4
    assert [h.get("passes") is not None for h in hands] == [True, True, True, False]  # left, right, across, hold


def test_the_corpus_validates_clean_and_stats_reads_it(tmp_path):
    out = tmp_path / "m.parquet"
    assert match("random", "heuristic", "--deals", "5", "--rules", "omnibus", "-o", str(out)).exit_code == 0
    for command in (["validate"], ["stats", "--format", "json"]):
        run = hearts(*command, str(out))
        assert run.returncode == 0, run.stderr
    assert "random" in run.stdout and "heuristic" in run.stdout


def test_the_json_document_and_the_paired_difference(tmp_path):
    doc = match_json("random", "heuristic", "--deals", "40", "--seed", "1")
    assert (doc["deals"], doc["hands"]) == (40, 80)
    random, heuristic = doc["players"]
    assert random["player"] == "random" and random["hands"] == heuristic["hands"] == 160
    pair = doc["pairs"][0]
    assert (pair["a"], pair["b"]) == ("random", "heuristic")
    # every hand's 26 points are shared out (no moons at 26-to-others... so check the means' difference)
    assert pair["difference"] == pytest.approx(random["points_per_hand"] - heuristic["points_per_hand"], abs=0.02)
    assert pair["difference"] > 3 * pair["se"] > 0  # a random player takes far more points
    assert doc["faults"] == []


def test_two_workers_play_the_same_match(tmp_path):
    one = match_json("random", "heuristic", "--deals", "12", "--seed", "9")
    two = match_json("random", "heuristic", "--deals", "12", "--seed", "9", "--workers", "2")
    strip = lambda doc: [{k: v for k, v in p.items() if k != "seconds_per_decision"} for p in doc["players"]]
    assert strip(one) == strip(two) and one["pairs"] == two["pairs"]


def test_rules_fields_and_player_counts():
    doc = match_json("heuristic", "random", "--deals", "3", "--players", "5", "--set", "jack_of_diamonds=-10")
    assert doc["hands"] == 6 and doc["players"][0]["hands"] == 15
    doc = match_json("heuristic", "random", "heuristic", "--deals", "2", "--players", "3")
    assert [p["player"] for p in doc["players"]] == ["heuristic", "random", "heuristic#2"]


class Recorder:
    views: list = []

    def pass_cards(self, view, legal):
        Recorder.views.append(("pass", view, legal))
        return legal[:3]

    def play(self, view, legal):
        Recorder.views.append(("play", view, legal))
        return legal[-1]


def test_a_python_bot_sees_only_its_seat(monkeypatch):
    Recorder.views = []
    monkeypatch.setattr(sys.modules[__name__], "Recorder", Recorder)
    config = MatchConfig(players_of([f"python:{__name__}:Recorder", "heuristic"]), Rules.preset("standard"))
    for _ in run_match(config, 3):
        pass
    assert len(Recorder.views) == 3 * 2 * (2 + 2 * 13)  # deals 1-3 pass left, right, across
    for kind, view, legal in Recorder.views:
        hand = view["hands"][0]
        seen = [i for i, cards in enumerate(hand["deal"]) if cards is not None]
        assert len(seen) == 1
        seat = seen[0]
        known = set(hand["deal"][seat]) | {c for cards in hand["passes"] if cards for c in cards}
        known |= {card for _, card in hand["plays"]}
        assert set(legal) <= known
        mentioned = {c for c in ALL_CARDS if f'"{c}"' in json.dumps(view)}
        assert mentioned <= known, "a hidden card appears in the view"
        if kind == "play" and hand["pass_direction"] != "hold":
            assert sum(cards is not None for cards in hand["passes"]) == 2
            held = (set(hand["deal"][seat]) - set(hand["passes"][seat])) | {
                c for i, cards in enumerate(hand["passes"]) if cards and i != seat for c in cards}
            held -= {card for who, card in hand["plays"] if who == seat}
            assert set(legal) <= held


def test_example_bots_play_whole_matches():
    doc = match_json("heuristic", f"python:{BOTS / 'lowest.py'}:LowestBot", "--deals", "3")
    assert doc["faults"] == [] and doc["players"][1]["decisions"] == 3 * 2 * 2 * 13 + 3 * 2 * 2
    if shutil.which("perl") is None:
        pytest.skip("no perl")
    doc = match_json("heuristic", f"exe:perl {BOTS / 'lowest.pl'}", "--deals", "4", "--workers", "2")
    assert doc["faults"] == [] and doc["players"][1]["decisions"] == 4 * 2 * 2 * 13 + 3 * 2 * 2
    assert doc["players"][1]["fallback_decisions"] == 0


def test_the_protocol_requests_follow_the_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    log = tmp_path / "requests.jsonl"
    bot = script(tmp_path, "record", f"""
        out = open({str(log)!r}, "a")
        for line in sys.stdin:
            out.write(line); out.flush()
            request = json.loads(line)
            print(json.dumps({{"cards": request["legal"][:request["count"]]}}), flush=True)
    """)
    doc = match_json("random", bot, "--deals", "2")
    assert doc["faults"] == []
    schema = json.loads((ROOT / "schemas" / "bot-protocol-1.schema.json").read_text())
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    assert {r["kind"] for r in requests} == {"pass", "play"}
    for request in requests:
        jsonschema.validate(request, {**schema, "$ref": "#/$defs/request"})
    jsonschema.validate({"cards": ["QS"]}, {**schema, "$ref": "#/$defs/answer"})


class Illegal:
    def pass_cards(self, view, legal):
        return [legal[0]] * 3

    def play(self, view, legal):
        return next(card for card in ALL_CARDS if card not in legal) if len(legal) < 13 else legal[0]


class Crashes:
    def pass_cards(self, view, legal):
        raise RuntimeError("no idea")

    def play(self, view, legal):
        return legal[0]


def _faults(doc, kind):
    return [f for f in doc["faults"] if f["kind"] == kind]


def test_an_illegal_python_bot_loses_those_decisions(monkeypatch):
    doc = match_json("heuristic", f"python:{__name__}:Illegal", "--deals", "2")
    bad = doc["players"][1]
    assert bad["illegal"] == len(_faults(doc, "illegal")) > 0 and bad["fallback_decisions"] == bad["illegal"]
    assert {f["decision"] for f in _faults(doc, "illegal")} == {"pass", "play"}
    doc = match_json("heuristic", f"python:{__name__}:Crashes", "--deals", "2")
    assert doc["players"][1]["crash"] == 2 * 2 * 2 and "RuntimeError: no idea" in doc["faults"][0]["detail"]


def test_a_garbled_program_is_played_by_the_fallback(tmp_path):
    bot = script(tmp_path, "garbled", """
        for n, line in enumerate(sys.stdin):
            print("hello" if n % 2 else json.dumps({"card": "QS"}), flush=True)
    """)
    doc = match_json("heuristic", bot, "--deals", "2", "--fallback", "random")
    player = doc["players"][1]
    assert player["garbled"] == player["decisions"] == player["fallback_decisions"] > 0
    assert "not JSON" in _faults(doc, "garbled")[1]["detail"]


def test_a_slow_program_answers_late_and_is_restarted(tmp_path):
    bot = script(tmp_path, "slow", """
        import os
        first = not os.path.exists(sys.argv[0] + ".seen")
        open(sys.argv[0] + ".seen", "w").close()
        for n, line in enumerate(sys.stdin):
            request = json.loads(line)
            if first and n == 5:
                time.sleep(3)
            print(json.dumps({"cards": request["legal"][:request["count"]]}), flush=True)
    """)
    doc = match_json("random", bot, "--deals", "2", "--timeout", "0.5")
    late = _faults(doc, "late")
    assert len(late) == 1 and late[0]["decision"] == "play" and doc["players"][1]["late"] == 1
    assert doc["players"][1]["fallback_decisions"] == 1  # the restarted program plays the rest


def test_a_crashing_program_is_restarted_then_replaced(tmp_path):
    bot = script(tmp_path, "crash", """
        for n, line in enumerate(sys.stdin):
            if n == 3:
                sys.exit(3)
            request = json.loads(line)
            print(json.dumps({"cards": request["legal"][:request["count"]]}), flush=True)
    """)
    doc = match_json("random", bot, "--deals", "3")
    player = doc["players"][1]
    crashes = _faults(doc, "crash")
    assert player["crash"] == len(crashes) == 7  # five restarts, then once replaced
    assert "exited with status 3" in crashes[0]["detail"] and "fallback plays the rest" in crashes[-1]["detail"]
    assert player["fallback_decisions"] > player["crash"] and doc["hands"] == 6


@pytest.mark.parametrize("args,message", [
    (["random"], "at least two players"),
    (["random", "heurstic"], 'did you mean "heuristic"'),
    (["random", "openspiel:ismcts"], "open-spiel"),
    (["random", "python:nowhere.py:Bot"], "no file nowhere.py"),
    (["random", f"python:{__name__}:Missing"], "has no class Missing"),
    (["random", "exe:no-such-program-here --x"], "no program 'no-such-program-here'"),
    (["random", "heuristic", "--players", "3", "--set", "pass_cycle=across"], "bad rules for 3 players"),
    (["random", "heuristic", "-o", "out.csv"], "unknown output format"),
])
def test_bad_players_and_options_are_one_line_and_exit_2(args, message):
    if "openspiel" in args[-1] and importlib.util.find_spec("pyspiel") is not None:
        pytest.skip("open-spiel is installed")
    result = match(*args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_text_and_csv_say_the_same_figures():
    text = match("random", "heuristic", "--deals", "6").stdout
    csv = match("random", "heuristic", "--deals", "6", "--format", "csv").stdout
    doc = match_json("random", "heuristic", "--deals", "6")
    pair = doc["pairs"][0]
    assert f"random - heuristic: {pair['difference']:.2f} \u00b1 {pair['se']:.2f}" in text
    rows = csv.splitlines()
    assert rows[0].startswith("kind,player,points_per_hand,se") and len(rows) == 4
    assert rows[3].startswith("pair,") and f"{pair['difference']}" in rows[3]
