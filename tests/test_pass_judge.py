"""The independent judge of the review's passes (benchmarks/pass_judge.py): a hand played again from its true
deal by ClassicBot scores as recorded, an identical pass gains nothing, and two passes are judged the same
way round whichever is called the played one."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import pass_judge as pj  # noqa: E402
from outside_bots import ClassicBot  # noqa: E402

from hearts_analysis.cards import card_name, iter_cards, mask_of, parse_card  # noqa: E402
from hearts_analysis.records import write_games  # noqa: E402
from hearts_analysis.simulate.play import HandPlay  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "pass_judge.py"


def names(mask: int) -> list[str]:
    return [card_name(c) for c in iter_cards(mask)]


def classic_game():
    game = pj.simulated(1, "classic", 11)[0]
    assert game.hands[0].passes is not None
    return game


def test_a_replayed_hand_scores_as_recorded_and_the_same_pass_gains_nothing():
    game = classic_game()
    hand = pj.hands_of(game)[1]
    for seat in range(4):
        # ClassicBot made the game: playing it again from the true deal with the recorded passes repeats it
        assert pj.seat_points(hand, seat, hand.passed[seat], ClassicBot, "any") == game.hands[0].points[seat]
        same = names(hand.passed[seat])
        flag = pj.judge_pass(hand, {"kind": "pass", "seat": seat, "played": same, "best": same, "cost": 2.0,
                                    "other_cost": None, "class": "inaccuracy"}, pj.TieClassic, 3, 0)
        assert flag.gain == 0.0 and flag.win == 0.5


def bare_queen_hand():
    """Seat 0 holds QS as its only spade; the others pass what ClassicBot passes."""
    game = classic_game()
    table = game.rules.table(4)
    mine = mask_of(parse_card(c) for c in "QS 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D".split())
    rest = [c for c in range(52) if not mine >> c & 1]
    random.Random(3).shuffle(rest)
    dealt = (mine,) + tuple(mask_of(rest[13 * i:13 * i + 13]) for i in range(3))
    play = HandPlay(table, dealt, 1, 0, (0,) * 4, "left")
    keep = mask_of(parse_card(c) for c in ("6C", "7C", "7D"))
    passed = (keep,) + tuple(ClassicBot(None).choose_pass(play.views[s], 3) for s in (1, 2, 3))
    return pj.Hand(game, 1, dealt, passed, 0, "left", (0,) * 4)


def test_keeping_or_passing_a_bare_queen_is_judged_the_same_either_way_round():
    hand = bare_queen_hand()
    for r in range(4):
        points = [pj.seat_points(hand, s, hand.passed[s], pj.TieClassic, f"t:{r}") for s in range(4)]
        assert sum(points) in (26, 78)  # every point card taken once, or a moon added to the others
    keep, give = ["6C", "7C", "7D"], ["QS", "7C", "7D"]
    d = {"kind": "pass", "seat": 0, "played": keep, "best": give, "cost": 5.0, "other_cost": 4.0, "class": "mistake"}
    forward = pj.judge_pass(hand, d, pj.TieClassic, 6, 0)
    backward = pj.judge_pass(hand, {**d, "played": give, "best": keep}, pj.TieClassic, 6, 0)
    assert forward.played_points == backward.best_points and forward.best_points == backward.played_points
    assert forward.gain == -backward.gain and forward.win + backward.win == 1.0
    assert forward.gain != 0  # the queen changes hands: the seat's points differ
    summary = pj.summary([forward])
    assert summary["calibration"] == forward.gain / 5.0 and summary["calibration_min"] == forward.gain / 4.0


def test_which_passes_are_judged():
    base = {"kind": "pass", "played": ["2C", "3C", "4C"], "best": ["4C", "2C", "5C"], "class": "mistake",
            "unclear": False}
    assert pj.judged(base)
    assert not pj.judged({**base, "unclear": True}) and not pj.judged({**base, "class": None})
    assert not pj.judged({**base, "kind": "play"})
    assert pj.judged({**base, "class": None}, every=True)
    assert not pj.judged({**base, "best": ["4C", "3C", "2C"]}, every=True)


def test_the_script_reads_a_review(tmp_path):
    game = classic_game()
    records = tmp_path / "games.jsonl"
    write_games([game], records)
    hand = pj.hands_of(game)[1]
    played = names(hand.passed[2])
    other = names(hand.dealt[2] & ~hand.passed[2])[:3]
    review = tmp_path / "review.json"
    decisions = [{"kind": "pass", "hand": 1, "seat": 2, "played": played, "best": other, "cost": 3.0,
                  "other_cost": 1.5, "class": "mistake", "unclear": False},
                 {"kind": "pass", "hand": 1, "seat": 3, "played": names(hand.passed[3]), "best": ["XX", "2C", "3C"],
                  "cost": 3.0, "other_cost": 1.5, "class": "mistake", "unclear": False},
                 {"kind": "pass", "hand": 1, "seat": 1, "played": played, "best": other, "cost": 3.0,
                  "other_cost": None, "class": "mistake", "unclear": True}]
    review.write_text(json.dumps({"games": [{"game_id": game.game_id, "decisions": decisions}]}))
    out = subprocess.run([sys.executable, str(SCRIPT), str(records), "--review", str(review), "--json",
                          "--repeats", "2"], capture_output=True, text=True, check=True)
    document = json.loads(out.stdout)
    assert "seat 3 in hand 1: best: not a list of card names" in out.stderr  # skipped, the rest judged
    assert document["flags"] == 1 and len(document["passes"]) == 1
    flag = pj.judge_pass(hand, decisions[0], pj.TieClassic, 2, 0)
    assert document["gain"] == flag.gain and document["passes"][0]["played_points"] == flag.played_points
    bad = subprocess.run([sys.executable, str(SCRIPT), str(records), "--review", str(records)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "not a review's JSON" in bad.stderr


def test_sampled_deals_keep_the_seats_cards_and_deal_the_rest_once():
    hand = pj.hands_of(classic_game())[1]
    for seat in range(4):
        deals = pj.sampled_deals(hand, seat, 20, 5)
        assert len(set(deals)) == 20  # different deals
        for dealt in deals:
            assert dealt[seat] == hand.dealt[seat]
            assert all(cards.bit_count() == 13 for cards in dealt)
            union = 0
            for cards in dealt:
                assert not union & cards  # no card dealt twice
                union |= cards
            assert union == (1 << 52) - 1
        assert pj.sampled_deals(hand, seat, 20, 5) == deals and pj.sampled_deals(hand, seat, 20, 6) != deals
        # the others pass what ClassicBot passes on the sampled deal: three of their own cards
        sampled = pj.replace(hand, dealt=deals[0])
        passes = pj.others_passes(sampled, seat, pj.TieClassic, "s")
        assert passes[seat] == hand.passed[seat]
        table = hand.game.rules.table(4)
        play = HandPlay(table, deals[0], 1, hand.dealer, hand.totals, hand.direction)
        for s in range(4):
            if s != seat:
                assert passes[s] == ClassicBot(None).choose_pass(play.views[s], 3)
                assert passes[s].bit_count() == 3 and not passes[s] & ~deals[0][s]


def test_judged_on_sampled_deals_an_identical_pass_gains_nothing_and_a_seed_repeats():
    hand = pj.hands_of(classic_game())[1]
    seat = 1
    same = names(hand.passed[seat])
    d = {"kind": "pass", "seat": seat, "played": same, "best": same, "cost": 2.0, "other_cost": None,
         "class": "inaccuracy"}
    flag = pj.judge_pass_deals(hand, d, pj.TieClassic, 12, 1, 0)
    assert len(flag.played_points) == 12 and flag.played_points == flag.best_points
    assert flag.gain == 0.0 and flag.win == 0.5
    assert len(set(flag.played_points)) > 1  # the deals differ: not the true deal twelve times
    other = names(hand.dealt[seat] & ~hand.passed[seat])[-3:]
    moved = {**d, "best": other}
    first = pj.judge_pass_deals(hand, moved, pj.TieClassic, 12, 2, 7)
    assert len(first.played_points) == 24
    assert pj.judge_pass_deals(hand, moved, pj.TieClassic, 12, 2, 7) == first
    assert first.played_points != first.best_points  # the passes differ on some deal
    assert pj.judge_pass_deals(hand, moved, pj.TieClassic, 12, 2, 8).played_points != first.played_points


def test_the_script_judges_on_sampled_deals_repeatably(tmp_path):
    game = classic_game()
    records = tmp_path / "games.jsonl"
    write_games([game], records)
    hand = pj.hands_of(game)[1]
    review = tmp_path / "review.json"
    decisions = [{"kind": "pass", "hand": 1, "seat": 2, "played": names(hand.passed[2]),
                  "best": names(hand.dealt[2] & ~hand.passed[2])[:3], "cost": 3.0, "other_cost": 1.5,
                  "class": "mistake", "unclear": False}]
    review.write_text(json.dumps({"games": [{"game_id": game.game_id, "decisions": decisions}]}))
    runs = [json.loads(subprocess.run([sys.executable, str(SCRIPT), str(records), "--review", str(review), "--json",
                                       "--deals", "6", "--seed", "3"],
                                      capture_output=True, text=True, check=True).stdout) for _ in range(2)]
    assert runs[0]["deals"] == 6 and runs[0]["repeats"] == 1 and len(runs[0]["passes"][0]["played_points"]) == 6
    assert {k: v for k, v in runs[0].items() if k != "seconds"} == {k: v for k, v in runs[1].items() if k != "seconds"}
    flag = pj.judge_pass_deals(hand, decisions[0], pj.TieClassic, 6, 1, 3)
    assert runs[0]["gain"] == flag.gain and runs[0]["passes"][0]["best_points"] == flag.best_points
