"""Every violation code of the catalogue, triggered by a crafted record at an exact location.

Each case is ``(game, expected)`` where ``expected`` lists every violation the
engine must report, in order, as ``(code, hand, trick, seat, card)``.
"""

import dataclasses
from pathlib import Path

import pytest

from hearts_analysis.records.json import game_from_dict

from hearts_analysis.engine import replay_game
from hearts_analysis.rules import Rules
from hearts_analysis.violations import CATALOGUE, CODES, Code, Violation, explain, render_markdown

from conftest import cards, full_deal, game, hand, located, tiny_rules

# The clean tiny hand of test_engine_rules (points 0 1 0 16): T1 AC wins, T2 KD wins,
# T3 seat 2 leads 3S and KS wins (8H discarded), T4 4H led and 6H wins with QS on it.
DEAL = ["2C 5D QS 9S", "3C JD 4H KS", "QC KD 5H 3S", "AC 7D 6H 8H"]
PLAY = "0:2C 1:3C 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD  2:3S 3:8H 0:9S 1:KS  1:4H 2:5H 3:6H 0:QS"
RULES = tiny_rules(DEAL)
POINTS = (0, 1, 0, 16)
PASS_RULES = tiny_rules(DEAL, pass_count=1, pass_cycle=["left", "hold"])
# Passing left, each seat gives its first card: 2C->1, 3C->2, QC->3, AC->0. After the pass:
# seat 0 AC 5D QS 9S, seat 1 2C JD 4H KS, seat 2 3C KD 5H 3S, seat 3 QC 7D 6H 8H.
PASSES = ["2C", "3C", "QC", "AC"]
PASS_PLAY = "1:2C 2:3C 3:QC 0:AC  0:5D 1:JD 2:KD 3:7D  2:3S 3:8H 0:9S 1:KS  1:4H 2:5H 3:6H 0:QS"
MOON_RULES = Rules.preset("standard", pass_count=0)
MOON_PLAY = " ".join(f"0:{r}C 1:{r}D 2:{r}H 3:{r}S" for r in "23456789TJQKA")  # seat 0 takes all


def with_play(play: str, deal=DEAL, rules=RULES, **fields):
    return game(deal, play, rules=rules, **fields)


def swapped(text: str, a: str, b: str) -> str:
    return text.replace(a, "\0").replace(b, a).replace("\0", b)


PF_DEAL = ["2C 5D QS 9S", "3D JD 4H KS", "QC KD 5H 3S", "AC 7D 6H 8H"]  # seat 1 void in clubs
PF_PLAY = "0:2C 1:4H 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD  2:3S 3:8H 0:9S 1:KS  1:3D 2:5H 3:6H 0:QS"
PF_CLEAN = "0:2C 1:3D 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD  2:3S 3:8H 0:9S 1:KS  1:4H 2:5H 3:6H 0:QS"
# Seat 0 passes 5D to seat 1 (the others pass a club): clean, and a record where seat 0 plays 5D anyway.
PASSED_AWAY = ["5D", "3C", "QC", "AC"]
PASSED_AWAY_PLAY = "0:2C 1:KS 2:3C 3:QC  3:7D 0:9S 1:5D 2:KD  2:3S 3:8H 0:QS 1:JD  0:AC 1:4H 2:5H 3:6H"
PASSED_AWAY_BAD = "0:2C 1:KS 2:3C 3:QC  3:7D 0:5D 1:JD 2:KD  2:3S 3:8H 0:QS 1:5D  0:AC 1:4H 2:5H 3:6H"
# Three players, directions from the record ('any'): a stated 'left' is fine, 'across' does not exist.
ODD_DEAL = ["2C 5D QS", "3C JD 4H", "QC KD 5H"]
ODD_RULES = tiny_rules(ODD_DEAL, pass_count=1, pass_cycle=["any"])
ODD_PASSES = ["5D", "JD", "KD"]
ODD_PLAY = "0:2C 1:3C 2:QC  2:JD 0:KD 1:5D  0:QS 1:4H 2:5H"
FEW = "0:2C 1:3C 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD  2:3S 3:8H"
TARGET_RULES = tiny_rules(DEAL, target=40)  # seat 3 takes 16 a hand: the game ends after hand 3


def hands(count: int, **fields_by_hand):
    return [hand(DEAL, PLAY, **{k: v[i] for k, v in fields_by_hand.items()}) for i in range(count)]


V = tuple  # (code, hand, trick, seat, card)

CASES = {
    "deal-invalid": [
        pytest.param(with_play(PLAY, deal=["2C 5D QS", "3C JD 4H KS", "QC KD 5H 3S 9S", "AC 7D 6H 8H"]),
                     [V(("deal-invalid", 1, None, 0, None)), V(("deal-invalid", 1, None, 2, None)),
                      V(("card-not-held", 1, 3, 0, "9S"))], id="wrong-count"),
        pytest.param(with_play(PLAY, deal=["2C 5D QS 9S", "3C JD 4H KS", "QC KD 5H 3S", "AC 7D 6H 4H"]),
                     [V(("deal-invalid", 1, None, 3, "4H")), V(("deal-invalid", 1, None, None, None)),
                      V(("card-not-held", 1, 3, 3, "8H"))], id="dealt-to-two-seats-and-missing"),
        pytest.param(with_play(PLAY, deal=["2C 5D QS 9S", "3C JD 4H KS", "QC KD 5H 3S", "AC 7D 6H 6H"]),
                     [V(("deal-invalid", 1, None, 3, "6H")), V(("deal-invalid", 1, None, None, None)),
                      V(("card-not-held", 1, 3, 3, "8H")), V(("hand-incomplete", 1, 4, 0, "QS"))],
                     id="dealt-twice-to-one-seat"),
        pytest.param(with_play(PLAY, deal=["2C 5D QS 9S", "3C JD 4H KS", "QC KD 5H 3S", "AC 7D 6H 2D"]),
                     [V(("deal-invalid", 1, None, 3, "2D")), V(("deal-invalid", 1, None, None, None)),
                      V(("card-not-held", 1, 3, 3, "8H"))], id="removed-card"),
    ],
    "pass-invalid": [
        pytest.param(game(DEAL, PASS_PLAY, rules=PASS_RULES, passes=["2C", "3C 4H", "QC", "AC"]),
                     [V(("pass-invalid", 1, None, 1, None)), V(("card-not-held", 1, 4, 1, "4H"))],
                     id="wrong-number"),
        pytest.param(game(DEAL, PASS_PLAY, rules=PASS_RULES, passes=["2C", "3C", "QC", "KS"]),
                     [V(("pass-invalid", 1, None, 3, "KS")), V(("card-not-held", 1, 1, 0, "AC"))],
                     id="card-not-dealt"),
        pytest.param(game(DEAL, PASS_PLAY, rules=PASS_RULES, passes=["2C", None, "QC", "AC"]),
                     [V(("pass-invalid", 1, None, 1, None)), V(("card-not-held", 1, 1, 2, "3C"))],
                     id="missing-pass"),
        pytest.param(game(hands=[hand(DEAL, PASS_PLAY, passes=PASSES),
                                 hand(DEAL, PLAY, passes=[None, None, "5H", None])], rules=PASS_RULES),
                     [V(("pass-invalid", 2, None, 2, None))], id="pass-on-a-hold-hand"),
        pytest.param(game(DEAL, PLAY, rules=PASS_RULES, passes=[None] * 4, pass_direction="hold"),
                     [V(("pass-invalid", 1, None, None, None))], id="stated-direction-differs"),
        pytest.param(game(ODD_DEAL, ODD_PLAY, rules=ODD_RULES, passes=ODD_PASSES, pass_direction="across"),
                     [V(("pass-invalid", 1, None, None, None))], id="across-at-an-odd-table"),
    ],
    "wrong-first-lead": [
        pytest.param(with_play("0:5D 1:JD 2:KD 3:7D"),
                     [V(("wrong-first-lead", 1, 1, 0, "5D")), V(("hand-incomplete", 1, 2, None, None))],
                     id="holder-leads-another-card"),
        pytest.param(with_play("3:AC 0:2C 1:3C 2:QC"),
                     [V(("wrong-first-lead", 1, 1, 3, "AC")), V(("out-of-turn", 1, 1, 0, "2C")),
                      V(("out-of-turn", 1, 1, 1, "3C")), V(("out-of-turn", 1, 1, 2, "QC")),
                      V(("hand-incomplete", 1, 2, None, None))], id="wrong-seat-leads"),
    ],
    "out-of-turn": [
        # after a play out of turn the turn still runs from the trick's leader, so the seat whose
        # turn it was is out of turn too: a swap of two plays gives two violations
        pytest.param(with_play(PLAY.replace("3:7D 0:5D", "0:5D 3:7D")),
                     [V(("out-of-turn", 1, 2, 0, "5D")), V(("out-of-turn", 1, 2, 3, "7D"))],
                     id="two-plays-swapped"),
    ],
    "card-not-held": [
        pytest.param(with_play(PLAY.replace("0:9S 1:KS", "0:KS 1:9S")),
                     [V(("card-not-held", 1, 3, 0, "KS")), V(("card-not-held", 1, 3, 1, "9S")),
                      V(("out-of-turn", 1, 4, 1, "4H")), V(("out-of-turn", 1, 4, 2, "5H")),
                      V(("out-of-turn", 1, 4, 3, "6H")), V(("out-of-turn", 1, 4, 0, "QS"))],
                     id="another-seats-card"),
        pytest.param(with_play(PLAY[:-2] + "9S"), [V(("card-not-held", 1, 4, 0, "9S"))], id="played-twice"),
        pytest.param(game(DEAL, PASSED_AWAY_BAD, rules=PASS_RULES, passes=PASSED_AWAY),
                     [V(("card-not-held", 1, 2, 0, "5D"))], id="card-passed-away"),
    ],
    "revoke": [
        pytest.param(with_play(swapped(PLAY, "0:5D", "0:9S")),
                     [V(("revoke", 1, 2, 0, "9S")), V(("revoke", 1, 3, 0, "5D"))], id="discard-while-holding-suit"),
    ],
    "points-on-first-trick": [
        pytest.param(game(PF_DEAL, PF_PLAY, rules=tiny_rules(PF_DEAL)),
                     [V(("points-on-first-trick", 1, 1, 1, "4H"))], id="heart-dumped-on-trick-1"),
    ],
    "hearts-not-broken": [
        pytest.param(with_play("0:2C 1:3C 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD  2:5H 3:6H 0:QS 1:4H  3:8H 0:9S 1:KS 2:3S"),
                     [V(("hearts-not-broken", 1, 3, 2, "5H"))], id="heart-led-early"),
    ],
    "hand-incomplete": [
        pytest.param(with_play(FEW), [V(("hand-incomplete", 1, 3, None, None))], id="too-few-plays"),
        pytest.param(with_play(PLAY + " 1:4H"), [V(("hand-incomplete", 1, 5, 1, "4H"))], id="too-many-plays"),
    ],
    "points-mismatch": [
        pytest.param(with_play(PLAY, points=(0, 0, 1, 16)),
                     [V(("points-mismatch", 1, None, 1, None)), V(("points-mismatch", 1, None, 2, None))],
                     id="recorded-points-differ"),
        pytest.param(game(full_deal(), MOON_PLAY, rules=MOON_RULES, moon="subtract_from_shooter",
                          points=(0, 26, 26, 26)),
                     [V(("points-mismatch", 1, None, s, None)) for s in range(4)], id="moon-scored-against-choice"),
    ],
    "totals-mismatch": [
        pytest.param(game(hands=hands(3, totals=[(0, 1, 0, 16), (0, 3, 0, 32), (0, 4, 0, 48)]), rules=TARGET_RULES),
                     [V(("totals-mismatch", 2, None, 1, None))], id="carried-error-reported-once"),
        pytest.param(game(hands=hands(2, totals=[(0, 1, 0, 16), (0, 2, 0, 33)]), rules=TARGET_RULES),
                     [V(("totals-mismatch", 2, None, 3, None))], id="wrong-sum"),
    ],
    "game-over-early": [
        pytest.param(game(hands=hands(2), rules=TARGET_RULES, complete=True),
                     [V(("game-over-early", None, None, None, None))], id="complete-below-target"),
    ],
    "game-continued": [
        # reported once, on the first hand after the end (hands 4 and 5 here)
        pytest.param(game(hands=hands(5), rules=TARGET_RULES, complete=True),
                     [V(("game-continued", 4, None, None, None))], id="hands-after-the-end"),
    ],
    "moon-choice-invalid": [
        pytest.param(with_play(PLAY, moon="add_to_others"),
                     [V(("moon-choice-invalid", 1, None, None, None))], id="no-moon-shot"),
        pytest.param(game(full_deal(), MOON_PLAY, rules=MOON_RULES.replace(moon="add_to_others"),
                          moon="subtract_from_shooter"),
                     [V(("moon-choice-invalid", 1, None, 0, None))], id="choice-the-rules-fix-otherwise"),
        pytest.param(game(full_deal(), MOON_PLAY, rules=MOON_RULES.replace(moon="none"), moon="add_to_others"),
                     [V(("moon-choice-invalid", 1, None, None, None))], id="rules-without-moons"),
    ],
    "charge-invalid": [
        pytest.param(with_play(PLAY, points=POINTS, charged=cards("QS")),
                     [V(("charge-invalid", 1, None, 0, "QS"))], id="rules-without-charges"),
        # QS charged: seat 0 may not play it to the first spade trick while it holds 9S
        pytest.param(with_play(swapped(swapped(PLAY, "0:9S", "0:QS"), "0:QS 1:KS", "0:QS 1:KS"),
                               rules=tiny_rules(DEAL, charges=["QS"]), charged=cards("QS")),
                     [V(("charge-invalid", 1, 3, 0, "QS"))], id="charged-card-to-first-trick-of-its-suit"),
    ],
    "points-impossible": [
        # a score sheet (points, no cards): 27 points in a hand of 26
        pytest.param(game_from_dict({"players": ["a", "b", "c", "d"], "hands": [{"points": [1, 13, 8, 5]}]}),
                     [V(("points-impossible", 1, None, None, None))], id="score-sheet-sum"),
    ],
    "winner-mismatch": [
        pytest.param(game_from_dict({"players": ["a", "b", "c", "d"], "rules": {"preset": "standard", "target": 20},
                                     "winners": ["b"], "hands": [{"points": [0, 13, 8, 5]},
                                                                 {"points": [20, 0, 6, 0]}]}),
                     [V(("winner-mismatch", 2, None, None, None))], id="score-sheet-winner"),
    ],
}


def test_the_base_records_are_clean():
    assert located(replay_game(with_play(PLAY, points=POINTS))) == []
    assert located(replay_game(game(DEAL, PASS_PLAY, rules=PASS_RULES, passes=PASSES, points=POINTS))) == []
    assert located(replay_game(game(PF_DEAL, PF_CLEAN, rules=tiny_rules(PF_DEAL)))) == []
    assert located(replay_game(game(ODD_DEAL, ODD_PLAY, rules=ODD_RULES, passes=ODD_PASSES,
                                    pass_direction="left"))) == []
    assert located(replay_game(game(DEAL, PASSED_AWAY_PLAY, rules=PASS_RULES, passes=PASSED_AWAY))) == []
    assert located(replay_game(game(full_deal(), MOON_PLAY, rules=MOON_RULES, points=(-26, 0, 0, 0)))) == []
    assert located(replay_game(game(hands=hands(3, totals=[(0, 1, 0, 16), (0, 2, 0, 32), (0, 3, 0, 48)]),
                                    rules=TARGET_RULES, complete=True))) == []


@pytest.mark.parametrize("code, record, expected",
                         [pytest.param(code, *case.values, id=f"{code}:{case.id}")
                          for code, cases in CASES.items() for case in cases])
def test_every_code_is_triggered_at_its_exact_location(code, record, expected):
    result = replay_game(record)
    assert located(result) == expected
    assert code in {v.code for v in result.violations}
    assert not result.valid


def test_the_engine_reports_typed_codes_written_as_their_text():
    """Every code the replay reports is a member of ``Code`` (so a comparison with a mistyped member fails
    loudly), and every document still shows it as the plain string."""
    seen = set()
    for cases in CASES.values():
        for case in cases:
            for violation in replay_game(case.values[0]).violations:
                assert type(violation.code) is Code, violation
                seen.add(violation.code)
                assert type(violation.to_dict()["code"]) is str and violation.to_dict()["code"] == violation.code
                assert repr(violation.code) == repr(violation.code.value)
    from hearts_analysis.records.views import view_of
    viewed = replay_game(view_of(with_play(PLAY, points=POINTS), 0))   # notes: what a view leaves unchecked
    assert viewed.valid and all(type(note.code) is Code for note in viewed.notes)
    seen.update(note.code for note in viewed.notes)
    noted = replay_game(with_play(PLAY, points=POINTS, unmodelled=("keeper pass",)))
    seen.update(note.code for note in noted.notes)
    assert seen == set(Code)
    assert [rule.code for rule in CATALOGUE.values()] == list(Code)
    with pytest.raises(AttributeError):
        Code.REVOKES  # noqa: B018


def test_every_catalogue_entry_has_a_triggering_case():
    notes = {"view-unchecked", "unmodelled"}   # notes leave the game valid: tested below and in test_view_validation.py
    assert set(CASES) | notes == set(CATALOGUE) == set(CODES)
    assert all(CASES[code] for code in CODES if code not in notes)


def test_an_importers_unmodelled_note_is_a_note_that_leaves_the_game_valid():
    """A keeper pass on a hand, a scoring quirk on the game: notes, game first; the hand's checks still run."""
    clean = replay_game(with_play(PLAY, points=POINTS, unmodelled=("keeper pass",)))
    assert clean.valid and clean.violations == ()
    assert [(n.code, n.hand) for n in clean.notes] == [("unmodelled", 1)] and "keeper pass" in clean.notes[0].message
    both = replay_game(dataclasses.replace(with_play(FEW, unmodelled=("keeper pass",)), unmodelled=("a quirk",)))
    assert [(n.code, n.hand) for n in both.notes] == [("unmodelled", None), ("unmodelled", 1)]
    assert located(both) == [V(("hand-incomplete", 1, 3, None, None))] and not both.valid


def test_independent_violations_in_later_hands_are_still_found():
    bad_first = hand(DEAL, swapped(PLAY, "0:5D", "0:9S"))
    bad_third = hand(DEAL, PLAY.replace("3:7D 0:5D", "0:5D 3:7D"))
    result = replay_game(game(hands=[bad_first, hand(DEAL, PLAY), bad_third], rules=TARGET_RULES))
    assert [(v.code, v.hand) for v in result.violations] == [("revoke", 1), ("revoke", 1),
                                                           ("out-of-turn", 3), ("out-of-turn", 3)]
    assert [len(h.violations) for h in result.hands] == [2, 0, 2]


def test_messages_say_what_the_rule_is_and_what_was_legal():
    result = replay_game(with_play(swapped(PLAY, "0:5D", "0:9S")))
    assert result.violations[0].message == ("seat 0 (p0) played 9S: a diamond was led and a seat holding "
                                            "diamonds must follow suit; legal instead: 5D")
    result = replay_game(game(PF_DEAL, PF_PLAY, rules=tiny_rules(PF_DEAL)))
    assert "legal instead: 3D, JD, KS" in result.violations[0].message
    result = replay_game(with_play("0:5D 1:JD 2:KD 3:7D"))
    assert "the holder of 2C must lead it to the first trick; legal instead: 2C" in result.violations[0].message
    result = replay_game(game(DEAL, PASSED_AWAY_BAD, rules=PASS_RULES, passes=PASSED_AWAY))
    assert result.violations[0].message == "seat 0 (p0) played 5D, which it does not hold (seat 1 holds it)"
    for v in replay_game(with_play(PLAY + " 1:4H", points=(1, 1, 1, 1))).violations:
        assert v.message and not v.message[0].isupper() and "None" not in v.message


def test_violation_records_are_checked_and_serialisable():
    with pytest.raises(ValueError, match="unknown violation code"):
        Violation("no-such-code", 1, 1, 0, "QS", "x")
    v = Violation("revoke", 2, 5, 1, "QS", "m")
    assert v.to_dict() == {"code": "revoke", "hand": 2, "trick": 5, "seat": 1, "card": "QS", "message": "m"}
    assert v.location() == "hand 2 trick 5 seat 1"
    assert Violation("game-over-early", None, None, None, None, "m").location() == "game"


@pytest.mark.parametrize("code", CODES)
def test_catalogue_entries_are_complete(code):
    rule = CATALOGUE[code]
    assert rule.code == code and rule.title and rule.what and rule.why and rule.example
    assert explain(code).startswith(f"{code}: {rule.title}")


def test_docs_are_generated_from_the_catalogue():
    """docs/violations.md is ``python -m hearts_analysis.violations`` output: regenerate it when this fails."""
    docs = Path(__file__).resolve().parent.parent / "docs" / "violations.md"
    assert docs.read_text(encoding="utf-8") == render_markdown()
    for code in CODES:
        assert f"## {code}" in render_markdown()


# -- unreadable records are errors, not violations ----------------------------------------------
import copy  # noqa: E402
import io  # noqa: E402

import orjson  # noqa: E402

from hearts_analysis.records.errors import RecordError  # noqa: E402
from hearts_analysis.records.json import (game_from_dict, game_to_dict, iter_json_text, iter_jsonl,  # noqa: E402
                                          read_json_path)

GOOD = game_to_dict(game(hands=[hand(DEAL, PASS_PLAY, passes=PASSES, points=POINTS), hand(DEAL, PLAY)],
                         rules=PASS_RULES))
GOOD["rules"] = PASS_RULES.to_spec()


def _set(path, value):
    def edit(d):
        *parents, last = path
        for key in parents:
            d = d[key]
        if value is KeyError:
            del d[last]
        elif isinstance(d, list) and last == len(d):
            d.append(value)
        else:
            d[last] = value
    return edit


@pytest.mark.parametrize("edit, field, message", [
    (_set(["players"], "abcd"), "players", "expected a list, got \"abcd\""),
    (_set(["players"], ["a", "b"]), "players", "2 players; Hearts is played by 3 to 7"),
    (_set(["players"], list("abcdefgh")), "players", "8 players; Hearts is played by 3 to 7"),
    (_set(["players", 1], 5), "players[1]", "expected a non-empty name, got 5"),
    (_set(["format"], "hearts-game/2"), "format", "expected \"hearts-game/1\""),
    (_set(["hands"], {}), "hands", "expected a list, got {}"),
    (_set(["hands", 1], []), "hands[1]", "expected a hand object"),
    (_set(["complete"], "yes"), "complete", "expected true or false, got \"yes\""),
    (_set(["game_id"], [1]), "game_id", "expected a string"),
    (_set(["hands", 0, "deal"], [["2C"]] * 3), "hands[0].deal", "expected one list of cards per seat (4), got 3"),
    (_set(["hands", 0, "deal"], KeyError), "hands[0].deal", "missing"),
    (_set(["hands", 0, "deal", 2, 1], "1X"), "hands[0].deal[2][1]", "unknown card \"1X\""),
    (_set(["hands", 0, "deal", 3], "AC"), "hands[0].deal[3]", "expected a list"),
    (_set(["hands", 0, "passes"], [["2C"]] * 5), "hands[0].passes", "expected one entry per seat (4), got 5"),
    (_set(["hands", 0, "passes", 1, 0], "QQ"), "hands[0].passes[1][0]", "unknown card \"QQ\""),
    (_set(["hands", 1, "plays"], KeyError), "hands[1].plays", "missing"),
    (_set(["hands", 1, "plays", 7, 1], "ZZ"), "hands[1].plays[7][1]", "unknown card \"ZZ\""),
    (_set(["hands", 1, "plays", 7, 0], 4), "hands[1].plays[7][0]", "expected a seat 0..3, got 4"),
    (_set(["hands", 1, "plays", 7, 0], "1"), "hands[1].plays[7][0]", "expected a seat 0..3, got \"1\""),
    (_set(["hands", 1, "plays", 3, 2], 1), "hands[1].plays[3]", "expected [seat, card]"),
    (_set(["hands", 0, "points"], [0, 1, 0]), "hands[0].points", "expected one number per seat (4), got 3"),
    (_set(["hands", 0, "points", 2], "13"), "hands[0].points[2]", "expected a whole number, got \"13\""),
    (_set(["hands", 0, "totals"], [0, 1, 0, 1.5]), "hands[0].totals[3]", "expected a whole number, got 1.5"),
    (_set(["hands", 0, "dealer"], True), "hands[0].dealer", "expected a whole number, got true"),
    (_set(["hands", 0, "dealer"], 4), "hands[0].dealer", "4 is out of range 0..3"),
    (_set(["hands", 0, "moon"], "double"), "hands[0].moon", "unknown moon choice \"double\""),
    (_set(["hands", 0, "pass_direction"], "up"), "hands[0].pass_direction", "unknown direction \"up\""),
    (_set(["rules"], {"preset": "standard", "jack_of_diamonds": "x"}), "rules.jack_of_diamonds",
     "expected a whole number, got \"x\""),
    (_set(["rules"], "nope"), "rules.preset", "unknown preset \"nope\""),
    (_set(["rules"], 5), "rules", "expected a preset name or an object of rule fields"),
    (_set(["rules"], {"pass_cycle": ["left", "across"]}), None, None),  # fine for 4 players...
])
def test_unreadable_records_raise_record_error_naming_the_field(edit, field, message):
    obj = copy.deepcopy(GOOD)
    edit(obj)
    if field is None:
        game_from_dict(obj)
        obj["players"] = ["a", "b", "c"]  # ...but not for 3
        field, message = "rules.pass_cycle", "no 'across' with an odd number of players (3)"
    with pytest.raises(RecordError) as caught:
        game_from_dict(obj)
    assert caught.value.field == field
    assert message in caught.value.detail
    assert str(caught.value) == f"{field}: {caught.value.detail}"


def test_the_good_record_reads_and_replays_clean():
    record = game_from_dict(copy.deepcopy(GOOD))
    assert located(replay_game(record)) == []
    assert game_to_dict(record) == GOOD


def test_bad_json_is_reported_by_line_and_the_rest_is_read(tmp_path):
    good = orjson.dumps(GOOD)
    wrong_card = copy.deepcopy(GOOD)
    wrong_card["hands"][0]["deal"][1][2] = "11H"
    path = tmp_path / "games.jsonl"
    path.write_bytes(good + b"\n{not json\n\n" + orjson.dumps(wrong_card) + b"\n" + good + b"\n")
    items = list(read_json_path(path))
    assert [item.source for item in items] == [f"{path}:1", f"{path}:2", f"{path}:4", f"{path}:5"]
    assert [item.game is not None for item in items] == [True, False, False, True]
    assert "bad JSON" in items[1].error.text() and items[1].error.source == f"{path}:2"
    assert items[2].error.field == "hands[0].deal[1][2]" and "unknown card \"11H\"" in items[2].error.text()
    assert items[2].error.source == f"{path}:4"


def test_bad_json_in_an_indented_game_file_is_one_error_naming_its_line():
    lines = orjson.dumps(GOOD, option=orjson.OPT_INDENT_2).splitlines()
    broken = next(i for i, line in enumerate(lines) if line.strip() == b'"3C",')
    lines[broken] = lines[broken].rstrip(b",")
    (item,) = iter_json_text(b"\n".join(lines), "game.json")
    assert item.game is None and item.source == f"game.json:{broken + 2}"
    assert item.error.text().startswith("bad JSON:") and f"line {broken + 2}" in item.error.text()


def test_json_lines_in_a_json_file_are_read_one_per_line():
    one = orjson.dumps(GOOD)
    items = list(iter_json_text(b"{oops\n" + one + b"\n" + one + b"\n", "games.json"))
    assert [(i.source, i.game is not None) for i in items] == [("games.json:1", False), ("games.json:2", True),
                                                               ("games.json:3", True)]
    (item,) = iter_jsonl(io.BytesIO(b"[1, 2]\n"), "x.jsonl")
    assert item.error.field == "" and "expected a game object" in item.error.text()
