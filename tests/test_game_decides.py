"""Near the end of a game the judge weighs the game's result: where the hand can end the game and a choice
leads the points' best clearly in the chance of winning, the game decides, and the review and the advice
say so (``decided_by``). Early in the game the same position is decided by points.

The position: the last two tricks of a hand. C (seat 2, us) leads the game with 40; A has 95 and takes
trick 12 with AD. C, void in diamonds, holds QS and AH. QS on A ends the game while C leads (A reaches
108): C wins, though AH then often wins the last trick and takes 2-3 hearts. AH on A keeps C's hand clean,
but where A leads 2H to the last trick, QS goes to another seat and the game goes on.
"""

from __future__ import annotations

import json
from dataclasses import asdict

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cards import mask_of, parse_card
from hearts_analysis.cli.app import app
from hearts_analysis.review.board import advise_entry
from hearts_analysis.review.entry import _decision as decision_from_entry
from hearts_analysis.review.evaluate import (
    GAME,
    POINTS,
    Position,
    Settings,
    review_play,
)
from hearts_analysis.review.information_set import at_play, seat_state
from hearts_analysis.review.report import decision_dict
from hearts_analysis.rules import Rules

HAND = "4C 7C 4S 7S 9S QS 4H 6H 7H 8H QH KH AH"
PLAYS = ("A:2C B:3C C:4C D:AC  D:KC A:5C B:6C C:7C  D:QC A:8C B:9C C:4H  D:AS A:2S B:3S C:4S  "
         "D:KS A:5S B:6S C:7S  D:KD A:5D B:6D C:6H  D:TS A:JH B:JS C:9S  B:7D C:8H D:JD A:TD  "
         "D:QD A:9D B:8D C:KH  D:JC A:9H B:TH C:QH  D:TC A:3H B:8S C:7H  D:2D A:AD B:3D")
LATE = (95, 44, 40, 55)
"""A one hand from the target, C in the lead: QS on A ends the game while C leads."""
EARLY = (0, 0, 0, 0)
PLAYERS = ("ann", "bob", "cy", "dee")


def _advice(scores):
    return advise_entry(HAND, PLAYS, "C", scores=list(scores))


def test_near_the_end_the_advice_dumps_the_queen_on_the_seat_it_ends_the_game_with():
    late = _advice(LATE)
    assert late.decided_by == GAME and late.best == ("QS",), late.to_dict()
    queen, heart = late.options
    # the hand's points favour AH (QS leaves C to take the last trick's hearts) ...
    assert heart.expected + 1.0 < queen.expected
    # ... the game favours QS: it wins the game on every deal
    assert queen.option.win_chance == pytest.approx(1.0) and heart.option.win_chance < 0.97
    assert queen.reason.startswith("to win the game") and "AH" in queen.reason


def test_early_in_the_game_the_same_position_is_decided_by_points():
    early = _advice(EARLY)
    assert early.decided_by == POINTS and early.best == ("AH",), early.to_dict()
    assert all(o.option.win_chance is None for o in early.options)
    # with the game context off, the late position is decided by points too
    off = advise_entry(HAND, PLAYS, "C", scores=list(LATE), settings=Settings(game_context=False))
    assert off.decided_by == POINTS and off.best == ("AH",)


def test_hearts_advise_json_says_which_measure_decided():
    runner = CliRunner()
    base = ["advise", "--hand", HAND, "--plays", PLAYS, "--seat", "C", "--format", "json"]
    late = runner.invoke(app, base + ["--scores", ",".join(map(str, LATE))])
    assert late.exit_code == 0, late.output
    data = json.loads(late.stdout)
    assert data["decided_by"] == "game" and data["best"] == ["QS"]
    assert data["options"][0]["win_chance"] > data["options"][1]["win_chance"]
    assert [o["cards"] for o in data["options"]] == [["QS"], ["AH"]]
    early = json.loads(runner.invoke(app, base + ["--scores", "0,0,0,0"]).stdout)
    assert early["decided_by"] == "points" and early["best"] == ["AH"]
    assert all(o["win_chance"] is None for o in early["options"])
    text = runner.invoke(app, base[:-2] + ["--scores", ",".join(map(str, LATE))]).stdout
    assert "chance of winning the game, which decides here" in text


def _review(card: str, totals, settings: Settings | None = None, players=PLAYERS):
    table = Rules.preset("standard").table(4)
    plays = [("ABCD".index(p[0]), parse_card(p[2:])) for p in PLAYS.split()]
    state, shown = seat_state(table, 2, mask_of(parse_card(c) for c in HAND.split()), plays, 0)
    position = Position(table, 3, totals, 0, players)
    return review_play(position, state, 2, parse_card(card), at_play(state, 2, shown), len(plays) + 1,
                       settings or Settings())


def test_the_review_flags_the_card_that_saves_hand_points_but_loses_the_game():
    decision = _review("AH", LATE)
    assert decision.decided_by == GAME and decision.best == (parse_card("QS"),)
    assert decision.category in ("inaccuracy", "mistake", "blunder") and not decision.unclear
    assert decision.win_cost >= 0.03 and decision.cost == 0.0          # AH takes no more hand points than QS
    played, best = decision.win_chance
    assert best > played
    assert decision.reason.startswith("to win the game: your chance of winning is")
    assert "after AH" in decision.reason and "after QS (QS to ann in 100%)" in decision.reason
    assert "you lead the game with 40" in decision.reason
    shown = decision_dict(decision, PLAYERS)
    assert shown["decided_by"] == "game" and shown["best"] == "QS" and shown["class"] == decision.category
    assert shown["win_cost"] == round(decision.win_cost, 3) and shown["cost"] == 0.0
    # the review as the cache keeps it reads back, and an entry from before the game could decide reads as points
    data = orjson.loads(orjson.dumps(asdict(decision)))
    assert decision_from_entry(data, "d") == decision
    old = {k: v for k, v in data.items() if k not in ("decided_by", "win_cost", "win_margin")}
    assert decision_from_entry(old, "d").decided_by == POINTS
    with pytest.raises(ValueError, match="decided_by"):
        decision_from_entry({**data, "decided_by": "luck"}, "d")


def test_an_unnamed_seat_is_named_by_its_letter_as_in_the_card_reasons():
    decision = _review("AH", LATE, players=("", "", "", ""))
    assert "after QS (QS to seat A in 100%)" in decision.reason, decision.reason


def test_the_card_that_wins_the_game_is_not_flagged_and_early_points_decide():
    won = _review("QS", LATE)
    assert won.decided_by == GAME and won.best == won.played and won.category is None
    early = _review("QS", EARLY)
    assert early.decided_by == POINTS and early.best == (parse_card("AH"),) and early.category is not None
    assert early.win_chance is None and decision_dict(early, PLAYERS)["decided_by"] == "points"
    assert _review("AH", EARLY).category is None


def test_the_review_is_the_same_for_the_same_seed():
    settings = Settings(samples=100)
    first = _review("AH", LATE, settings)
    assert first == _review("AH", LATE, settings) and first.decided_by == GAME
