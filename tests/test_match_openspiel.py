"""OpenSpiel's bots as players of ``hearts match``: a clean match, the seat's view only, the rules refused.

Starts no review and no judge (HEARTS_TESTS_PRECOMPILE=0 is enough)."""

from __future__ import annotations

import importlib.util
import json
import random

import pytest
from typer.testing import CliRunner

from hearts_analysis.cards import card_name, mask_of
from hearts_analysis.cli import app
from hearts_analysis.match import PlayerError, check_table, parse_player
from hearts_analysis.match import openspiel_player
from hearts_analysis.match.view import seat_view
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.play import HandPlay


def match(*args: str):
    return CliRunner().invoke(app, ["match", *args])


def test_the_spec_names_the_bot_and_its_simulations():
    assert openspiel_player.parse_bot("ismcts") == ("ismcts", openspiel_player.DEFAULT_SIMULATIONS) == ("ismcts", 2000)
    assert openspiel_player.parse_bot("mcts:40") == ("mcts", 40)
    assert parse_player("openspiel:ismcts:50").target == "ismcts:50"
    for bad, words in [("openspiel:ismct", 'did you mean "ismcts"'), ("openspiel:ismcts:0", "at least 1"),
                       ("openspiel:ismcts:many", "'many'"), ("openspiel:random:5", "no simulation count")]:
        with pytest.raises(PlayerError, match=words):
            parse_player(bad)


def test_a_missing_open_spiel_says_how_to_install_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyspiel" else real(name, *a))
    result = match("openspiel:ismcts", "random")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "pip install 'hearts-analysis[bench]'" in result.stderr and "openspiel:ismcts" in result.stderr


@pytest.mark.parametrize("options,field", [
    (["--rules", "black_queen"], "only_hearts_lead ends_hand"),
    (["--set", "pass_count=4"], "pass_count 4"),
    (["--rules", "trend_hearts"], "charges AH"),
    (["--set", "moon=subtract_from_shooter"], "moon subtract_from_shooter"),
    (["--players", "3"], "for 4 players; the match has 3"),
])
def test_rules_openspiel_cannot_play_are_refused_by_field(options, field):
    result = match("openspiel:random", "random", *options)
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert field in result.stderr and result.stderr.startswith("hearts: openspiel:random: ")


def test_the_library_refuses_the_same_before_a_deal_is_played():
    with pytest.raises(PlayerError, match="openspiel:mcts: .*first_lead left_of_dealer"):
        check_table([parse_player("openspiel:mcts")], Rules.preset("basic"), 4)
    for preset in ("openspiel", "standard", "sturtevant", "omnibus"):
        check_table([parse_player("openspiel:ismcts")], Rules.preset(preset), 4)


pyspiel = pytest.importorskip("pyspiel")


def test_a_tiny_match_against_random_validates_clean(tmp_path):
    out = tmp_path / "m.jsonl"
    result = match("openspiel:ismcts:50", "random", "--deals", "2", "--rules", "openspiel", "-o", str(out),
                   "--format", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    player = doc["players"][0]
    assert player["player"] == "openspiel:ismcts:50" and player["hands"] == 8
    assert player["decisions"] == 8 * 14 and player["fallback_decisions"] == 0 and doc["fault_count"] == 0
    assert player["seconds_per_decision"] > 0
    checked = CliRunner().invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0, checked.stdout
    assert "4 games (4 hands) checked, no violations" in checked.stdout


def _views(seed: int):
    """A hand after its pass and two tricks, and seat 2's view of it."""
    rules = Rules.preset("openspiel")
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    hands = [mask_of(deck[s * 13:(s + 1) * 13]) for s in range(4)]
    play = HandPlay(rules.table(4), list(hands), pass_direction="left")
    rng = random.Random(seed)
    play.exchange([mask_of(sorted(rng.sample([c for c in range(52) if h >> c & 1], 3))) for h in hands], 1)
    play.start()
    while len(play.moves) < 8:
        seat = play.to_play
        legal = play.legal(seat)
        play.push(seat, min(c for c in range(52) if legal >> c & 1))
    return play, rules


def test_the_state_built_holds_only_what_the_seat_knows():
    module = openspiel_player.pyspiel()
    game = module.load_game("hearts")
    differs = 0
    for seed in range(6):
        play, rules = _views(seed)
        seat = 2
        record = seat_view(play.views[seat], rules, ["a", "b", "c", "d"])
        hand, direction = openspiel_player.filled_hand(record)
        state = openspiel_player.state_of(module, game, hand, direction, seat, passing=False)
        # the seat is OpenSpiel's player 0 and holds its own cards, no more, no fewer
        assert openspiel_player.known_hand(state, 0) == play.hands[seat]
        # the others hold the filled cards, which fit what the seat saw but are not the real deal
        real = [play.hands[(seat + p) % 4] for p in range(4)]
        filled = [openspiel_player.known_hand(state, p) for p in range(4)]
        assert sum(m.bit_count() for m in filled) == sum(m.bit_count() for m in real)
        assert filled[1] | filled[2] | filled[3] == real[1] | real[2] | real[3]
        differs += filled[1:] != real[1:]
        # the record the bot was built from has no other seat's cards
        assert [cards is None for cards in record["hands"][0]["deal"]] == [True, True, False, True]
    assert differs == 6


def test_ismcts_draws_its_worlds_from_the_information_state_only():
    """ISMCTS starts each simulation from ``ResampleFromInfostate``: from the filled state and from another
    world with the same information state, the same random numbers draw the same world, so the filled
    cards cannot reach its search. Its answer is one of the legal cards."""
    module = openspiel_player.pyspiel()
    game = module.load_game("hearts")
    play, rules = _views(3)
    seat = play.to_play
    record = seat_view(play.views[seat], rules, ["a", "b", "c", "d"])
    hand, direction = openspiel_player.filled_hand(record)
    state = openspiel_player.state_of(module, game, hand, direction, seat, passing=False)
    other = state.resample_from_infostate(0, random.Random(9).random)
    assert other.history() != state.history()
    assert other.information_state_string(0) == state.information_state_string(0)
    for stream in range(3):
        drawn = [world.resample_from_infostate(0, random.Random(stream).random).history() for world in (state, other)]
        assert drawn[0] == drawn[1]
    ask = openspiel_player.asker("ismcts:50", rules, random.Random(1))
    legal = [card_name(c) for c in range(52) if play.legal(seat) >> c & 1]
    assert ask("play", seat, record, legal, 1)[0] in legal
    # a pass from seat 2 (OpenSpiel's player 2 would crash its ISMCTS: the seat is turned to player 0)
    hands = [mask_of(range(s, 52, 4)) for s in range(4)]
    before = HandPlay(rules.table(4), hands, pass_direction="left")
    own = [card_name(c) for c in range(52) if hands[2] >> c & 1]
    passed = ask("pass", 2, seat_view(before.views[2], rules, "abcd"), own, 3)
    assert len(set(passed)) == 3 and set(passed) <= set(own)
