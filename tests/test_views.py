"""A seat's view: a record with the unseen seats' deals and passes left null (docs/views.md)."""

from dataclasses import replace

import orjson
import pytest

from hearts_analysis import advise
from hearts_analysis.records import game_from_dict, game_to_dict
from hearts_analysis.records.views import view_of, viewer
from hearts_analysis.review.evaluate import Settings
from hearts_analysis.rules import PRESETS, Rules
from hearts_analysis.simulate import simulate_game
from incli import hearts  # in this interpreter: these tests are about what the commands print

SETTINGS = Settings(samples=10)
JUDGED = [name for name in PRESETS if Rules.preset(name).table(4).models("kernel")]


def positions(game):
    """Positions of the game's first two hands: each seat's pass, and plays from the first lead on."""
    for h, hand in enumerate(game.hands[:2]):
        if hand.passes is not None and any(hand.passes):
            cut = replace(hand, passes=None, plays=(), points=None, totals=None)
            yield replace(game, hands=game.hands[:h] + (cut,), complete=None), (h * 3 + 1) % 4
        for k in (0, 7, 30):
            cut = replace(hand, plays=hand.plays[:k], points=None, totals=None)
            yield replace(game, hands=game.hands[:h] + (cut,), complete=None), hand.plays[k][0]


@pytest.mark.parametrize("preset", JUDGED)
def test_view_gets_the_whole_records_advice(preset):
    game = simulate_game(Rules.preset(preset), ["ann", "bob", "cy", "dee"], seed=7, max_hands=2)
    kinds = set()
    for position, seat in positions(game):
        view = view_of(position, seat)
        assert viewer(view) == seat
        whole = advise(position, seat, settings=SETTINGS)
        assert advise(view, seat=seat, settings=SETTINGS).to_dict() == whole.to_dict()
        assert advise(view, settings=SETTINGS).to_dict() == whole.to_dict()   # the view names its seat
        kinds.add(whole.kind)
    assert kinds == ({"pass", "play"} if Rules.preset(preset).pass_count else {"play"})


def test_view_round_trips_through_json_with_nulls():
    game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=1)
    view = view_of(game, 1)
    obj = game_to_dict(view)
    assert obj["hands"][0]["deal"][0] is None and obj["hands"][0]["deal"][1] is not None
    assert [p is None for p in obj["hands"][0]["passes"]] == [False, False, True, True]   # left: seat 0 gave to 1
    assert game_from_dict(orjson.loads(orjson.dumps(obj))) == view


def test_view_of_another_seat_is_refused():
    game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=2, max_hands=1)
    position = replace(game, hands=(replace(game.hands[0], plays=game.hands[0].plays[:5], points=None,
                                            totals=None),), complete=None)
    mover = game.hands[0].plays[5][0]
    with pytest.raises(ValueError, match=f"seat {mover}'s view"):
        advise(view_of(position, mover), seat=(mover + 1) % 4, settings=SETTINGS)


def test_quick_entry_gives_the_advice_of_the_same_position(tmp_path):
    """`hearts advise --hand --plays --seat` asks for nothing but what the seat knows, and errs clearly."""
    from hearts_analysis.review.board import advise_entry
    hand = "AS KS 3S 9H 6H 3C 5C 8D JD QD 4H 10H 7S"
    run = hearts("advise", "--hand", hand, "--plays", "A:2C B:9C", "--seat", "C", "--format", "json")
    assert run.returncode == 0, run.stderr
    advice = orjson.loads(run.stdout)
    assert advice["seat"] == 2 and advice["kind"] == "play"
    assert advice == advise_entry(hand, "A:2C B:9C", "2").to_dict()
    assert {c for o in advice["options"] for c in o["cards"]} == {"3C", "5C"}   # it must follow clubs
    bad = hearts("advise", "--hand", hand, "--plays", "A:3C", "--seat", "C")
    assert bad.returncode == 2 and "3C is played by seat 0, but seat 2 holds it" in bad.stderr


@pytest.mark.parametrize("hand, words", [
    ("AS", "--hand: 1 different cards; each of 4 players is dealt 13"),       # it waited for ever
    ("AS KS 3S 9H 6H 3C 5C 8D JD QD 4H 10H 7S 2D", "14 different cards"),
    ("AS AS 3S 9H 6H 3C 5C 8D JD QD 4H 10H 7S", "12 different cards"),
])
def test_a_typed_hand_of_the_wrong_size_is_a_clear_error(hand, words):
    for direction in ("hold", "left"):
        bad = hearts("advise", "--hand", hand, "--seat", "C", "--pass", direction)
        assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


@pytest.mark.parametrize("passed, received, words", [
    ("AS KS", "2D 3D 4D", "--passed: 2 different cards; the rules pass 3"),
    ("AS KS 3S", "2D 3D", "--received: 2 different cards; the rules pass 3"),
    ("AS KS 2D", "2H 3H 4S", "--passed: 2D not in --hand"),
    ("AS KS 3S", "9H 2H 4S", "--received: 9H in --hand"),
])
def test_a_typed_pass_that_does_not_fit_the_hand_is_a_clear_error(passed, received, words):
    bad = hearts("advise", "--hand", "AS KS 3S 9H 6H 3C 5C 8D JD QD 4H TH 7S", "--plays", "A:2C B:9C", "--seat", "C",
                 "--pass", "left", "--passed", passed, "--received", received)
    assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_a_position_whose_counts_do_not_fit_is_refused_not_looped_on():
    from hearts_analysis.review.information_set import seat_state
    table = Rules.preset("standard").table(4)
    with pytest.raises(ValueError, match="the other seats hold 39 cards, but 51 are unseen"):
        seat_state(table, 2, 1 << 51, [], 0)


def test_a_view_in_the_hand_entry_notation_comes_back_whole():
    import io
    from hearts_analysis.interop.text_notation import game_text, read
    game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=4, max_hands=2)
    view = view_of(game, 3)
    text = game_text(game_to_dict(view))
    assert "deal:    - / - / - / " in text
    [item] = list(read(io.StringIO(text), "sheet.txt"))
    assert item.error is None and item.game == view


def test_the_root_names_view_of():
    import hearts_analysis
    game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=4, max_hands=1)
    assert hearts_analysis.view_of(game, 0) == view_of(game, 0)
