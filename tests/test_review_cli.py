"""``hearts review``: the JSON contract, the text for one player, the corpus summary, bad input."""

from __future__ import annotations

import csv
import io

import jsonschema
import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.records.json import write_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game

runner = CliRunner()

CARD = {"type": "string", "pattern": "^[2-9TJQKA][CDHS]$"}
CONTRACT = {
    "type": "object", "required": ["games"],
    "properties": {"games": {"type": "array", "items": {
        "type": "object", "required": ["game_id", "decisions", "accuracy"],
        "properties": {
            "decisions": {"type": "array", "items": {
                "type": "object",
                "required": ["hand", "trick", "seat", "kind", "played", "best", "cost", "class"],
                "properties": {
                    "hand": {"type": "integer", "minimum": 1},
                    "trick": {"type": ["integer", "null"], "minimum": 1},
                    "seat": {"type": "integer", "minimum": 0},
                    "kind": {"enum": ["play", "pass"]},
                    "played": {"oneOf": [CARD, {"type": "array", "items": CARD}]},
                    "best": {"oneOf": [CARD, {"type": "array", "items": CARD}]},
                    "cost": {"type": "number", "minimum": 0},
                    "class": {"enum": [None, "inaccuracy", "mistake", "blunder"]}}}},
            "accuracy": {"type": "object", "patternProperties": {"^[0-9]+$": {
                "type": "number", "minimum": 0, "maximum": 100}}, "additionalProperties": False}}}}},
}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("review")
    one = simulate_game(Rules.preset("standard"), ["alice", "bob", "cy", "dee"], 3, game_id="g1", max_hands=2)
    two = simulate_game(Rules.preset("standard"), ["alice", "eve", "cy", "dee"], 4, game_id="g2", max_hands=1)
    write_games([one], folder / "one.json")
    write_games([one, two], folder / "two.jsonl")
    return folder


def run(*args: str):
    return runner.invoke(app, list(args))


def test_json_follows_the_contract(games):
    done = run("review", str(games / "one.json"), "--format", "json", "--samples", "20", "--hand", "1")
    assert done.exit_code == 0, done.output
    report = orjson.loads(done.stdout)
    jsonschema.validate(report, CONTRACT)
    game = report["games"][0]
    assert game["game_id"] == "g1" and set(game["accuracy"]) == {"0", "1", "2", "3"}
    kinds = [(d["kind"], d["seat"]) for d in game["decisions"]]
    assert kinds.count(("pass", 0)) == 1 and sum(k == "play" for k, _ in kinds) == 52
    for decision in game["decisions"]:
        assert (decision["trick"] is None) == (decision["kind"] == "pass")
        if decision["kind"] == "pass":
            assert len(decision["played"]) == len(decision["best"]) == 3
        if decision["class"] is not None:
            assert decision["cost"] >= 1 and decision["played"] != decision["best"]
        if decision["cost"] == 0:
            assert decision["class"] is None


def test_one_players_decisions_worst_first(games):
    done = run("review", str(games / "one.json"), "--player", "alice", "--samples", "20", "--hand", "1", "--all")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[1].startswith("alice: accuracy")
    assert not any(" bob " in line or line.startswith("bob") for line in lines)
    costs = [float(line.split("(cost ")[1].split(" ")[0]) for line in lines if "(cost " in line]
    assert costs and costs == sorted(costs, reverse=True)


def test_the_same_seed_gives_the_same_json(games):
    args = ["review", str(games / "one.json"), "--format", "json", "--samples", "15", "--hand", "2", "--seed", "3"]
    assert run(*args).stdout == run(*args).stdout


def test_summary_of_a_corpus_to_csv(games, tmp_path):
    out = tmp_path / "review.csv"
    done = run("review", str(games / "two.jsonl"), "--summary", "-o", str(out), "--samples", "15", "--hand", "1")
    assert done.exit_code == 0, done.output
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [r["player"] for r in rows] == ["alice", "bob", "cy", "dee", "eve"]
    alice = rows[0]
    assert alice["games"] == "2" and 0 <= float(alice["accuracy"]) <= 100
    assert int(alice["unforced"]) <= int(alice["decisions"])


def test_unreadable_input_is_reported_and_the_rest_reviewed(games, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "hearts-game/1", "players": ["a"]}\n')
    done = run("review", str(bad), str(games / "one.json"), "--format", "json", "--samples", "10", "--hand", "1")
    assert done.exit_code == 2
    assert "bad.jsonl" in done.stderr and "Traceback" not in done.output
    report = orjson.loads(done.stdout)
    assert len(report["games"]) == 1 and report["errors"][0]["source"].startswith(str(bad))


@pytest.mark.parametrize("args,message", [
    (["--player", "zed"], 'no game has a player named "zed"'),
    (["--samples", "3"], "--samples"),
])
def test_bad_invocations_exit_2(games, args, message):
    done = run("review", str(games / "one.json"), *args)
    assert done.exit_code == 2 and message in done.output


def test_a_missing_file_exits_2():
    done = run("review", "no/such/file.json")
    assert done.exit_code == 2 and "no such file" in done.stderr


def test_help_has_an_example():
    done = run("review", "--help")
    assert done.exit_code == 0 and "Example: hearts review" in done.stdout


def test_workers_give_the_same_review_as_one_process(games, tmp_path):
    args = ["review", str(games / "two.jsonl"), "--format", "json", "--samples", "20", "--no-cache"]
    one = run(*args)
    two = run(*args, "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert orjson.loads(one.stdout) == orjson.loads(two.stdout)
    assert len(orjson.loads(one.stdout)["games"]) == 2


def test_a_cached_review_is_served_again_and_equals_a_fresh_one(games, tmp_path):
    args = ["review", str(games / "one.json"), "--format", "json", "--samples", "20", "--hand", "2"]
    first = run(*args, "--cache", str(tmp_path / "cache"))
    entries = list((tmp_path / "cache").rglob("*.json"))
    assert first.exit_code == 0 and len(entries) == 1, first.output
    for entry in entries:  # a cached entry is what the second run serves: mark it to see it come back
        data = orjson.loads(entry.read_bytes())
        data["decisions"][0]["reason"] = "from the cache"
        entry.write_bytes(orjson.dumps(data))
    second = run(*args, "--cache", str(tmp_path / "cache"))
    assert orjson.loads(second.stdout)["games"][0]["decisions"][0]["reason"] == "from the cache"
    fresh = run(*args, "--no-cache")
    original = orjson.loads(first.stdout)
    assert orjson.loads(fresh.stdout) == original


def test_other_settings_are_not_served_from_the_cache(games, tmp_path):
    args = ["review", str(games / "one.json"), "--format", "json", "--hand", "2", "--cache", str(tmp_path)]
    run(*args, "--samples", "20")
    run(*args, "--samples", "20", "--seed", "1")
    assert len(list(tmp_path.rglob("*.json"))) == 2


def test_a_pass_reads_passed_and_a_play_played(games):
    done = run("review", str(games / "one.json"), "--hand", "1", "--samples", "10", "--all", "--no-cache")
    assert done.exit_code == 0, done.output
    passes = [line for line in done.output.splitlines() if " pass: " in line]
    plays = [line for line in done.output.splitlines() if " trick " in line]
    assert passes and plays
    assert all(" passed " in line and " played " not in line for line in passes)
    assert all(" played " in line for line in plays)


def test_the_chance_of_winning_is_told_only_where_the_decision_changes_it(games):
    from hearts_analysis.cli.review import decision_line
    data = orjson.loads(run("review", str(games / "one.json"), "--hand", "1", "--samples", "10",
                            "--format", "json", "--no-cache").output)
    decision = data["games"][0]["decisions"][0]
    for same in (0.0, 1.0, 0.4):   # a decided hand: the same chance either way says nothing
        assert "chance of winning" not in decision_line({**decision, "win_chance": {"played": same, "best": same}})
    line = decision_line({**decision, "win_chance": {"played": 0.22, "best": 0.33}})
    assert "; chance of winning 22% against 33%" in line


def test_worst_first_lists_the_flagged_decisions_before_the_unclear_ones():
    """An unclear decision's cost is not settled: a larger estimate must not lead the list of flagged ones."""
    from hearts_analysis.cli.review import render_text

    def decision(trick, cost, name, unclear=False):
        return {"hand": 1, "trick": trick, "seat": 0, "player": "ann", "kind": "play", "played": "3D",
                "best": "AD", "cost": cost, "margin": 1.0, "class": name, "unclear": unclear, "forced": False,
                "win_chance": None, "reason": None}
    report = {"game_id": "g", "source": "g.json", "players": ["ann", "bob", "cy", "dee"], "accuracy": {"0": 50.0},
              "skipped_hands": [],
              "decisions": [decision(1, 20.5, None, True), decision(2, 9.0, "blunder"), decision(3, 11.3, None, True),
                            decision(4, 1.5, "inaccuracy"), decision(5, 4.0, "mistake")]}
    lines = [line for line in render_text(report, [0], False).splitlines() if line.startswith("  hand")]
    assert [line.split(":")[0].split()[-1] for line in lines] == ["2", "5", "4", "1", "3"]


def test_review_progress_moves_a_hand_at_a_time(monkeypatch):
    """Reviewed here, a game's hands report as each is done, not all at once when the game is returned."""
    from hearts_analysis.records.errors import Item
    from hearts_analysis.review import Settings, batch
    events = []
    real = batch.review_hand_task

    def task(*args):
        events.append("hand")
        return real(*args)
    monkeypatch.setattr(batch, "review_hand_task", task)
    game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=3)
    done = list(batch.review_items([Item("g.json:1", game)], Settings(samples=10, budget=0), hands=[1, 2, 3],
                                   progress=lambda k: events.append(f"+{k}")))
    assert len(done) == 1
    assert events == ["hand", "+1", "hand", "+1", "hand", "+1"]


def test_the_rules_in_force_are_part_of_the_cache_key(games, tmp_path):
    args = ["review", str(games / "one.json"), "--format", "json", "--samples", "20", "--hand", "2",
            "--cache", str(tmp_path)]
    standard = run(*args)
    omnibus = run(*args, "--set", "jack_of_diamonds=-10")
    preset = run(*args, "--rules", "omnibus")
    assert standard.exit_code == omnibus.exit_code == preset.exit_code == 0, standard.output + omnibus.output
    # one entry per rule set in force, none served for another (the omnibus preset is that same --set)
    assert len(list(tmp_path.rglob("*.json"))) == 2
    fresh = run(*args[:-2], "--set", "jack_of_diamonds=-10", "--no-cache")
    assert orjson.loads(omnibus.stdout) == orjson.loads(fresh.stdout) == orjson.loads(preset.stdout)


@pytest.mark.parametrize("damage", ["no decisions", "cost not a number", "played not an option",
                                    "another card played", "not an object"])
def test_a_cache_entry_that_is_not_the_review_of_its_hand_is_reviewed_again(games, tmp_path, damage):
    args = ["review", str(games / "one.json"), "--format", "json", "--samples", "20", "--hand", "2",
            "--cache", str(tmp_path)]
    first = run(*args)
    [entry] = tmp_path.rglob("*.json")
    good = entry.read_bytes()
    data = orjson.loads(good)
    decision = next(d for d in data["decisions"] if len(d["options"]) > 1)
    if damage == "no decisions":
        data["decisions"] = []
    elif damage == "cost not a number":
        decision["cost"] = "abc"
    elif damage == "played not an option":
        decision["options"] = [o for o in decision["options"] if o["cards"] != decision["played"]]
    elif damage == "another card played":
        decision["played"] = decision["options"][0]["cards"] if decision["played"] != decision["options"][0][
            "cards"] else decision["options"][1]["cards"]
    else:
        data = [data]
    entry.write_bytes(orjson.dumps(data))
    second = run(*args)
    assert second.exit_code == 0, second.output
    assert orjson.loads(second.stdout) == orjson.loads(first.stdout)
    assert entry.read_bytes() == good       # rewritten with the hand's review


def test_the_library_builds_the_documents_the_command_prints(games, tmp_path):
    """The summary, the review document and the puzzles come from ``review.collect``; the command lays them out."""
    from hearts_analysis.records.sources import iter_sources
    from hearts_analysis.review.batch import review_items
    from hearts_analysis.review.collect import ReviewRun
    from hearts_analysis.review.levels import level_for, settings_at

    source = str(games / "two.jsonl")
    settings = settings_at(level_for([source]), samples=15)   # a JSON Lines corpus: the corpus level
    for summary in (False, True):
        puzzles = tmp_path / f"puzzles-{summary}.json"
        args = ["review", source, "--format", "json", "--samples", "15", "--hand", "1", "--no-cache",
                "--puzzles", str(puzzles)] + (["--summary"] if summary else [])
        done = run(*args)
        assert done.exit_code == 0, done.output
        collected = ReviewRun(settings, summary=summary, puzzles=True)
        for reviewed in review_items(iter_sources([source]), settings, hands=[1]):
            assert collected.add(reviewed)
        built = collected.summary_document() if summary else collected.document()
        assert orjson.loads(done.stdout) == orjson.loads(orjson.dumps(built))
        assert orjson.loads(puzzles.read_bytes()) == orjson.loads(orjson.dumps(collected.puzzles_document()))


def test_own_model_is_the_reviewed_seats_later_plays_and_basic_is_the_seat_played_as_the_others(games):
    """``--own-model basic`` under ``--model basic`` is the review of the seat played as the others
    (``Settings(own_model=None)``), cost for cost; the default (strong) judges with other outcomes."""
    from hearts_analysis.records import read_games
    from hearts_analysis.review import Settings, review_game

    args = ["review", str(games / "one.json"), "--format", "json", "--samples", "20", "--hand", "1", "--no-cache"]
    basic = orjson.loads(run(*args, "--own-model", "basic").stdout)
    default = orjson.loads(run(*args).stdout)
    assert (basic["settings"]["own_model"], default["settings"]["own_model"]) == ("basic", "strong")
    game = next(iter(read_games(games / "one.json"))).game
    alike = review_game(game, Settings(samples=20, own_model=None), hands=[1])
    assert [d["cost"] for d in basic["games"][0]["decisions"]] == [round(d.cost, 2) for d in alike.decisions]
    assert [d["cost"] for d in default["games"][0]["decisions"]] != [d["cost"] for d in basic["games"][0]["decisions"]]
