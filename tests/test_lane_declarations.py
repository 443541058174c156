"""Every fast lane declares the rule values it models, and a rule outside its declaration goes to the
reference engine (or is refused): a made-up lead rule, added to the rule-field table and to the legality
cascade for one test, is reported by the reference replay and by ``hearts validate`` through every engine,
and each fast lane leaves it to the reference engine, skips it with its reason, or plays it in Python.

The made-up rule: ``no_diamond_lead_before_broken`` — while hearts are unbroken, a diamond may not lead a
trick when the leader may lead something else. No lane declares it, as a new field would be added.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis import rules as rules_module
from hearts_analysis.cards import DIAMONDS, SUIT_MASKS
from hearts_analysis.engine import interpreter
from hearts_analysis.engine.quick import replay_clean
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.engine.state import HandState
from hearts_analysis.fastpath import Audited, CleanRun, audit_entries
from hearts_analysis.records.json import write_games
from hearts_analysis.review.game import hand_starts
from hearts_analysis.rules import LANES, RULE_TABLE, RuleField, Rules
from hearts_analysis.simulate import HeuristicBot, game as sim_game, simulate_games
from hearts_analysis.violations import CATALOGUE, Code, Rule

from faults import write_parquet_file

FIELD = "no_diamond_lead_before_broken"
CODE = "diamond-led-unbroken"
DIAMOND_MASK = SUIT_MASKS[DIAMONDS]
runner = CliRunner()


@dataclass(frozen=True)
class DiamondRules(Rules):
    """Rules with the made-up field (a record's ``rules`` builds these while the rule is in the table)."""

    no_diamond_lead_before_broken: bool = False


@pytest.fixture
def diamond_rule(monkeypatch):
    """The made-up rule in the rule table (no lane declaration), the catalogue and the cascade's seam."""
    monkeypatch.setattr(Rules, FIELD, False, raising=False)       # every other rule set: the default
    monkeypatch.setitem(RULE_TABLE, FIELD, RuleField(FIELD, rules_module._BOOL, "May a diamond lead while hearts "
                                                     "are unbroken.", "true, false"))
    monkeypatch.setattr(rules_module, "RULE_FIELDS", rules_module.RULE_FIELDS + (FIELD,))
    original = Rules.__dict__["from_spec"].__func__
    monkeypatch.setattr(Rules, "from_spec", classmethod(lambda cls, spec: original(DiamondRules, spec)))
    code = str.__new__(Code, CODE)                               # a catalogue code, as a new rule adds one
    code._name_, code._value_ = "DIAMOND_LED_UNBROKEN", CODE
    monkeypatch.setitem(Code._value2member_map_, CODE, code)
    monkeypatch.setitem(CATALOGUE, CODE, Rule(CODE, "A diamond led while hearts are unbroken", "A made-up rule.",
                                              "A test of the lanes.", "-"))
    rule = interpreter.LeadRule(CODE, "a diamond may not lead while hearts are unbroken",
                                lambda table, broken: 0 if broken or not getattr(table.rules, FIELD)
                                else DIAMOND_MASK)
    interpreter.LEAD_RULES.append(rule)
    yield
    interpreter.LEAD_RULES.remove(rule)


def standard_games(count: int = 6):
    return list(simulate_games(count, Rules.preset("standard", target=60), seed=5))


def under_rule(game, on: bool = True):
    """The game as recorded, judged under the made-up rule (on or off)."""
    spec = {"preset": "standard", "target": 60, FIELD: on}
    return dataclasses.replace(game, rules=Rules.from_spec(spec), rules_spec=spec)


def diamond_leads(game) -> list[tuple[int, int, int]]:
    """``(hand, trick, seat)`` of each diamond led while hearts were unbroken by a seat that held a card the
    standard rules let it lead instead: the violations the made-up rule makes, found without the engine."""
    table = Rules.preset("standard", target=60).table(game.seats)
    found = []
    for hand, result in zip(game.hands, replay_game(dataclasses.replace(game, rules=table.rules)).hands):
        state = HandState(table, list(result.held), hand.plays[0][0])
        for seat, card in hand.plays:
            if not state.trick and not state.broken and card // 13 == DIAMONDS \
                    and state.legal_cards(seat) & ~DIAMOND_MASK:
                found.append((result.number, state.trick_number, seat))
            state.push(seat, card)
    return found


def violations(result) -> list[tuple[int, int, int]]:
    return [(v.hand, v.trick, v.seat) for v in result.violations if v.code == CODE]


def test_no_lane_declares_the_new_rule_and_each_asks_the_table(diamond_rule):
    on = Rules.from_spec({"preset": "standard", FIELD: True}).table(4)
    off = Rules.from_spec({"preset": "standard", FIELD: False}).table(4)
    assert all(on.unmodelled(lane) == (FIELD,) for lane in LANES) and on.needs_reference
    assert all(off.models(lane) for lane in LANES) and not off.needs_reference
    bots = [HeuristicBot(random.Random(seat)) for seat in range(4)]
    assert sim_game.on_kernel(bots, off) and not sim_game.on_kernel(bots, on)
    assert sim_game.kernel_run(sim_game.KERNEL_GAMES, off) and not sim_game.kernel_run(sim_game.KERNEL_GAMES, on)


def test_the_reference_replay_reports_every_diamond_lead(diamond_rule):
    games = standard_games()
    expected = [diamond_leads(game) for game in games]
    assert sum(map(len, expected)) >= 3 and any(trick > 1 for found in expected for _, trick, _ in found)
    for game, found in zip(games, expected):
        result = replay_game(under_rule(game))
        assert violations(result) == found
        assert {v.code for v in result.violations} <= {CODE}
        assert all("a diamond may not lead while hearts are unbroken; legal instead:" in v.message
                   for v in result.violations)
        assert not replay_game(under_rule(game, on=False)).violations


def test_the_clean_hand_lane_refuses_a_hand_under_the_rule(diamond_rule):
    shortcut = 0
    for game in standard_games():
        off, on = (under_rule(game, flag).rules.table(4) for flag in (False, True))
        for hand, result in zip(game.hands, replay_game(game).hands):
            held, leader = list(result.held), hand.plays[0][0]
            assert replay_clean(off, held, leader, hand.plays) is not None
            assert replay_clean(on, held, leader, hand.plays) is None
            # the explaining replay's shortcut: a diamond led after trick 1 while unbroken, with another
            # card to lead, is not "clearly legal" under the rule, and the exclusion names the rule
            state = HandState(on, held, leader)
            for seat, card in hand.plays:
                if state.trick_number > 1 and not state.trick and not state.broken and card // 13 == DIAMONDS \
                        and state.legal_cards(seat) & ~DIAMOND_MASK:
                    assert not state.clearly_legal(seat, card)
                    assert state.exclusion(seat, card).code == CODE
                    shortcut += 1
                state.push(seat, card)
    assert shortcut


def test_the_screen_leaves_every_game_under_the_rule_to_the_reference_engine(diamond_rule, tmp_path):
    games = standard_games()
    jsonl = tmp_path / "games.jsonl"
    parquet = write_parquet_file([under_rule(game) for game in games], tmp_path / "games.parquet")
    write_games([under_rule(game) for game in games], jsonl)
    off = write_parquet_file([under_rule(game, False) for game in games], tmp_path / "off.parquet")
    assert sum(e.games for e in audit_entries([off]) if isinstance(e, CleanRun)) == len(games)
    for path in (jsonl, parquet):
        entries = list(audit_entries([path]))
        assert not [e for e in entries if isinstance(e, CleanRun)]
        audited = [e for e in entries if isinstance(e, Audited)]
        assert len(audited) == len(games)


def validate(*args):
    from hearts_analysis.cli import app
    result = runner.invoke(app, ["validate", *map(str, args)])
    return result.exit_code, result.stdout_bytes


def test_hearts_validate_reports_a_diamond_lead_through_every_engine(diamond_rule, tmp_path):
    games = standard_games()
    expected = sum(len(diamond_leads(game)) for game in games)
    write_games([under_rule(game) for game in games], tmp_path / "games.jsonl")
    write_games([under_rule(game) for game in games[:1]], tmp_path / "one.json")
    write_parquet_file([under_rule(game) for game in games], tmp_path / "games.parquet")
    for name in ("games.jsonl", "games.parquet"):
        path = tmp_path / name
        outputs = {}
        for options in (["--engine", "reference"], ["--engine", "fast"], [], ["--workers", "1"]):
            code, out = validate(path, "--format", "json", *options)
            assert code == 1, (name, options, out[:300])
            document = orjson.loads(out)
            assert document["summary"]["by_code"] == {CODE: expected}, (name, options)
            outputs[tuple(options)] = document["games"] if "games" in document else document
        assert len({orjson.dumps(o) for o in outputs.values()}) == 1, name
    code, out = validate(tmp_path / "one.json", "--format", "json")
    assert code == 1 and orjson.loads(out)["summary"]["by_code"] == {CODE: len(diamond_leads(games[0]))}


def test_the_review_skips_a_hand_under_the_rule_with_its_reason(diamond_rule):
    game = standard_games(1)[0]
    off = [start.skip for start in hand_starts(under_rule(game, False))]
    assert off.count(None) >= 1
    flagged = {hand for hand, _, _ in diamond_leads(game)}
    skips = [s.skip for s in hand_starts(under_rule(game))]
    for number, skip in enumerate(skips, 1):
        if number in flagged:
            assert skip == f"rule violations ({CODE})"
        else:
            assert skip == f"the review does not model these rules ({FIELD})"


def test_the_simulator_plays_the_rule_in_python_whatever_the_run(diamond_rule, monkeypatch):
    def refuse(play, bots):
        raise AssertionError("the kernel played a table outside its declaration")

    monkeypatch.setattr("hearts_analysis.simulate.kernel_play.play_out", refuse)
    monkeypatch.setattr(sim_game, "KERNEL_GAMES", 2)          # a "long" run asks for the kernel
    rules = Rules.from_spec({"preset": "standard", "target": 40, FIELD: True})
    games = list(simulate_games(3, rules, seed=2))
    monkeypatch.setattr(sim_game, "KERNEL", True)             # forced on: still refused
    games += list(simulate_games(1, rules, seed=3))
    for game in games:
        assert not replay_game(game).violations   # the Python simulator plays the cascade, the new rule included
    led = [card for game in games for hand in game.hands
           for k, (_, card) in enumerate(hand.plays) if k % 4 == 0]
    assert any(card // 13 == DIAMONDS for card in led)
