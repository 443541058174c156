"""OpenSpiel hearts histories: conventions, round trips, and OpenSpiel itself where installed."""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from hearts_analysis.cards import QS, card_name, iter_cards, parse_card
from hearts_analysis.cli import app
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.interop import openspiel as osp
from hearts_analysis.records.errors import RecordError
from hearts_analysis.records.json import dumps_game, read_json_path
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.bots import RandomBot
from hearts_analysis.simulate.game import simulate_game, simulate_games

ROOT = Path(__file__).resolve().parents[1]
RANKS = "23456789TJQKA"
ALL_PARAMETER_SETS = [dict(zip(osp.PARAMETER_DEFAULTS, values))
                      for values in itertools.product([False, True], repeat=len(osp.PARAMETER_DEFAULTS))]


def history(direction: int, deal_order: list[str], passes: list[str] = (), plays: list[str] = ()) -> str:
    """A history line from card names, in OpenSpiel's action order."""
    cards = [osp.openspiel_card(parse_card(c)) for c in [*deal_order, *passes, *plays]]
    return " ".join(map(str, [direction, *cards]))


def suit_deal() -> list[str]:
    """OpenSpiel's own moon test deal: aces first, dealt round the table, so seat s gets suit s."""
    return [r + s for r in reversed(RANKS) for s in "CDHS"]


# -- conventions ---------------------------------------------------------------------
def test_card_encoding_is_rank_times_four_plus_suit():
    assert [osp.openspiel_card(parse_card(c)) for c in ("2C", "2D", "2H", "2S", "3C", "JD", "QS", "AS")] \
        == [0, 1, 2, 3, 4, 37, 43, 51]
    assert sorted(osp.card_from_openspiel(a) for a in range(52)) == list(range(52))
    assert all(osp.openspiel_card(osp.card_from_openspiel(a)) == a for a in range(52))


def test_deal_action_i_goes_to_player_i_mod_4():
    hand = osp.hand_from_history(history(0, suit_deal()), Rules.preset("openspiel"))
    for seat, suit in enumerate("CDHS"):
        assert [card_name(c) for c in hand.deal[seat]] == [r + suit for r in reversed(RANKS)]
    assert hand.passes is None and hand.pass_direction == "hold"


@pytest.mark.parametrize("action, direction", [(1, "left"), (2, "across"), (3, "right")])
def test_pass_direction_numbering_and_pass_order(action, direction):
    # player 0 (clubs) passes AC KC QC first, then player 1 AD KD QD, player 2, player 3
    passes = [r + s for s in "CDHS" for r in "AKQ"]
    hand = osp.hand_from_history(history(action, suit_deal(), passes), Rules.preset("openspiel"))
    assert hand.pass_direction == direction
    assert [[card_name(c) for c in p] for p in hand.passes] == \
        [["AC", "KC", "QC"], ["AD", "KD", "QD"], ["AH", "KH", "QH"], ["AS", "KS", "QS"]]


def test_passed_cards_are_played_by_the_receiver():
    rng = random.Random(11)
    for direction in (1, 2, 3):
        rules = Rules.preset("openspiel")
        game = simulate_game(rules.replace(pass_cycle=[osp.DIRECTIONS[direction]]), osp.PLAYER_NAMES, rng,
                             bot=RandomBot)
        hand = game.hands[0]
        line = osp.history_of_hand(hand, osp.DIRECTIONS[direction])
        imported = osp.hand_from_history(line, rules).plays
        played_by = {card: seat for seat, card in imported}
        for passer, cards in enumerate(hand.passes):
            assert {played_by[c] for c in cards} == {(passer + direction) % 4}


def test_openspiel_moon_test_hand_scores_as_openspiel_says():
    # OpenSpiel's own moon test (ShootTheMoonTest): no pass, seat s holds suit s; 2C AD AH AS, then seat 0 wins everything
    deal = suit_deal()
    plays = ["2C", "AD", "AH", "AS", "AC", "2D", "2H", "2S"]
    plays += [rank + suit for rank in "KQJT9876543" for suit in "CDHS"]
    assert len(plays) == 52
    game = osp.game_from_history(history(0, deal, plays=plays), Rules.preset("openspiel"))
    result = replay_game(game)
    assert result.valid, result.violations
    assert [seat for seat, _ in game.hands[0].plays[:8]] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert result.hands[0].moon.seat == 0
    # OpenSpiel's returns are 26 - points: [26, 0, 0, 0]
    assert list(result.hands[0].points) == [0, 26, 26, 26]


# -- parameters ------------------------------------------------------------------------
def test_game_string_parsing_follows_openspiel_syntax():
    assert osp.parse_game_string("hearts") == osp.PARAMETER_DEFAULTS
    assert osp.parse_game_string("hearts()") == osp.PARAMETER_DEFAULTS
    params = osp.parse_game_string("hearts(jd_bonus=true,pass_cards=False,qs_breaks_hearts=True)")
    assert params["jd_bonus"] and not params["pass_cards"] and params["qs_breaks_hearts"]
    for bad, needle in [("hearts(jd_bonus=1)", "true or false"), ("hearts(jdbonus=true)", "unknown"),
                        ("bridge", "hearts"), ("hearts(jd_bonus=true", '")"'), ("hearts(jd_bonus)", "name=value")]:
        with pytest.raises(osp.OpenSpielError, match=re.escape(needle)):
            osp.parse_game_string(bad)


def test_openspiel_defaults_are_the_openspiel_preset():
    assert osp.rules_from_parameters(osp.PARAMETER_DEFAULTS) == Rules.preset("openspiel")
    assert osp.game_string(Rules.preset("openspiel")) == "hearts"


@pytest.mark.parametrize("params", ALL_PARAMETER_SETS[::7] + ALL_PARAMETER_SETS[-1:])
def test_parameters_map_to_rules_and_back(params):
    rules = osp.rules_from_parameters(params)
    fit = osp.parameters_for(rules)
    assert fit.parameters == params and not fit.unplayable and not fit.rescored
    assert osp.parse_game_string(osp.game_string(rules)) == params


def test_each_parameter_maps_to_its_rule_field():
    expected = {
        "pass_cards": ("pass_count", 0), "no_pts_on_first_trick": ("points_on_first_trick", True),
        "can_lead_any_club": ("first_lead", "any_club"), "jd_bonus": ("jack_of_diamonds", -10),
        "avoid_all_tricks_bonus": ("no_tricks_bonus", -5), "must_break_hearts": ("hearts_must_be_broken", False),
        "qs_breaks_hearts": ("hearts_broken_by", "heart"),
        "can_lead_hearts_instead_of_qs": ("only_hearts_lead", "allowed"),
    }
    base = Rules.preset("openspiel")
    for name, (field, value) in expected.items():
        flipped = osp.rules_from_parameters({name: not osp.PARAMETER_DEFAULTS[name]})
        assert getattr(flipped, field) == value
        assert flipped == base.replace(**{field: value})


def test_rules_without_an_openspiel_equivalent_are_named():
    fit = osp.parameters_for(Rules.preset("basic"))
    assert any("first_lead left_of_dealer" in u for u in fit.unplayable)
    fit = osp.parameters_for(Rules.preset("black_queen"))
    assert any("ends_hand" in u for u in fit.unplayable)
    assert any("moon" in r for r in fit.rescored) is False  # black_queen adds 26 to the others, as OpenSpiel
    fit = osp.parameters_for(Rules.preset("standard"))
    assert fit.parameters["can_lead_hearts_instead_of_qs"] and not fit.unplayable
    assert [r.split(":")[0] for r in fit.rescored] == ["moon shooter_choice"]


# -- reading errors ------------------------------------------------------------------------
@pytest.mark.parametrize("line, field, needle", [
    ("1 2 x", "action 2", "integer"),
    ("0 52", "action 1", "out of range"),
    ("4 " + " ".join(map(str, range(52))), "action 0", "pass direction"),
    ("0 " + " ".join(map(str, range(30))), "action 31", "deal stops"),
    ("1 " + " ".join(map(str, range(52))) + " 0 4 8", "action 56", "pass stops"),
    ("0 " + " ".join(map(str, range(52))) + " 0" * 53, "action 105", "53 plays"),
])
def test_bad_histories_name_the_action(line, field, needle):
    with pytest.raises(RecordError) as caught:
        osp.hand_from_history(line, Rules.preset("openspiel"))
    assert caught.value.field == field and needle in str(caught.value)


def test_no_pass_games_reject_a_pass_direction():
    rules = osp.rules_from_parameters({"pass_cards": False})
    with pytest.raises(RecordError, match="pass_cards=false"):
        osp.hand_from_history("1 " + " ".join(map(str, range(52))), rules)


def test_a_bad_line_does_not_stop_the_rest():
    good = history(0, suit_deal())
    items = list(osp.read_histories([good + "\n", "\n", "9 9\n", good + "\n"], "h.txt", Rules.preset("openspiel")))
    assert [i.source for i in items] == ["h.txt:1", "h.txt:3", "h.txt:4"]
    assert items[1].error is not None and items[1].error.source == "h.txt:3"
    assert items[0].game.game_id == "h-1" and items[2].game.players == osp.PLAYER_NAMES


# -- round trips ------------------------------------------------------------------------------
def _same_hand(a, b) -> None:
    assert a.deal == b.deal and a.plays == b.plays
    assert (a.passes or None) == (b.passes or None)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), params=st.sampled_from(ALL_PARAMETER_SETS))
def test_round_trip_records_to_histories_and_back(seed, params):
    rules = osp.rules_from_parameters(params)
    game = simulate_game(rules, osp.PLAYER_NAMES, seed, bot=RandomBot)
    game = dataclasses.replace(game, hands=game.hands[:3])
    exported = osp.export_game(game)
    assert not exported.problems and exported.parameters == params and len(exported.histories) == len(game.hands)
    for line, original, replayed in zip(exported.histories, game.hands, replay_game(game).hands):
        back = osp.hand_from_history(line, rules)
        _same_hand(back, original)
        assert back.pass_direction == replayed.pass_direction
        assert osp.history_of_hand(back, back.pass_direction) == line


def test_standard_games_export_under_their_closest_parameters():
    # OpenSpiel always adds 26 to the others; a shooter's choice to subtract would end games at other hands
    for game in simulate_games(3, Rules.preset("standard", moon="add_to_others"), seed=4):
        exported = osp.export_game(game)
        assert not exported.problems and len(exported.histories) == len(game.hands)
        assert exported.parameters["can_lead_hearts_instead_of_qs"]
        rules = osp.rules_from_parameters(exported.parameters)
        replayed = replay_game(dataclasses.replace(
            game, rules=rules, hands=tuple(osp.hand_from_history(h, rules) for h in exported.histories)))
        assert replayed.valid, replayed.violations[:3]
        _same_hand(replayed.record.hands[0], game.hands[0])


def test_games_openspiel_cannot_replay_are_refused():
    three = next(simulate_games(1, Rules.preset("standard"), players=3))
    assert "3 players" in osp.export_game(three).problems[0]
    basic = next(simulate_games(1, Rules.preset("basic"), players=4))
    assert "left_of_dealer" in osp.export_game(basic).problems[0]
    game = next(simulate_games(1, Rules.preset("openspiel"), players=4))
    hand = game.hands[1]
    plays = list(hand.plays)
    plays[5], plays[6] = plays[6], plays[5]  # two seats swap their cards: out of turn
    broken = dataclasses.replace(game, hands=(game.hands[0], dataclasses.replace(hand, plays=tuple(plays))))
    problems = osp.export_game(broken).problems
    assert len(problems) == 1 and problems[0].startswith("hand 2 trick 2")


def test_forced_parameters_are_checked_hand_by_hand():
    game = next(simulate_games(1, Rules.preset("openspiel", pass_cycle=["left"]), seed=2))
    assert not osp.export_game(game).problems
    refused = osp.export_game(game, {"pass_cards": False})
    assert refused.problems and "pass-invalid" in refused.problems[0]


# -- command line ------------------------------------------------------------------------------
def test_cli_import_then_export_gives_back_the_histories(tmp_path):
    rules = osp.rules_from_parameters({"jd_bonus": True})
    game = simulate_game(rules, osp.PLAYER_NAMES, 9, bot=RandomBot)
    lines = list(osp.export_game(game).histories)
    source = tmp_path / "h.txt"
    source.write_text("\n".join(lines) + "\nnot a history\n")
    runner = CliRunner()
    done = runner.invoke(app, ["import", "openspiel", str(source), "--game", "hearts(jd_bonus=true)",
                               "-o", str(tmp_path / "g.jsonl")])
    assert done.exit_code == 2 and f"h.txt:{len(lines) + 1}: error: action 0" in done.output
    games = [i.game for i in read_json_path(tmp_path / "g.jsonl")]
    assert len(games) == len(lines) and all(replay_game(g).valid for g in games)
    assert games[0].rules.jack_of_diamonds == -10
    done = runner.invoke(app, ["export", "openspiel", str(tmp_path / "g.jsonl"), "-o", str(tmp_path / "back.txt")])
    assert done.exit_code == 0, done.output
    back = (tmp_path / "back.txt").read_text().splitlines()
    assert [line for line in back if not line.startswith("#")] == lines
    assert back[0] == "# game_string: hearts(jd_bonus=true)"
    assert "hearts(jd_bonus=true)" in done.output


def _export_then_import(tmp_path, *sources, export_args=(), import_args=()):
    runner = CliRunner()
    histories, back = tmp_path / "histories.txt", tmp_path / "back.jsonl"
    done = runner.invoke(app, ["export", "openspiel", *map(str, sources), "-o", str(histories), *export_args])
    assert done.exit_code == 0, done.output
    done = runner.invoke(app, ["import", "openspiel", str(histories), "-o", str(back), *import_args])
    return done, histories, [item.game for item in read_json_path(back)]


def test_export_then_import_gives_the_games_back_whole_with_names_and_no_violation(tmp_path):
    # standard rules export as hearts(can_lead_hearts_instead_of_qs=true): the importer must read that back
    originals = list(simulate_games(2, Rules.preset("standard"), seed=3, players=4))
    originals = [dataclasses.replace(g, players=("ann", "bob", "cy", "di"), game_id=f"club-{k}")
                 for k, g in enumerate(originals)]
    source = tmp_path / "games.jsonl"
    source.write_bytes(b"".join(dumps_game(g) + b"\n" for g in originals))
    done, histories, games = _export_then_import(tmp_path, source)
    assert done.exit_code == 0, done.output
    assert histories.read_text().startswith("# game_string: hearts(can_lead_hearts_instead_of_qs=true)\n")
    assert len(games) == 2
    for game, original in zip(games, originals):
        assert (game.game_id, game.players, game.rules) == (original.game_id, original.players, original.rules)
        assert len(game.hands) == len(original.hands)
        for hand, before in zip(game.hands, original.hands):
            _same_hand(hand, before)
            assert (hand.moon, hand.points, hand.totals) == (before.moon, before.points, before.totals)
        result, expected = replay_game(game), replay_game(original)
        assert result.valid and result.totals == expected.totals and game.complete == original.complete


def test_a_file_imported_and_exported_again_is_the_same_file(tmp_path):
    done, histories, _ = _export_then_import(tmp_path, ROOT / "examples" / "omnibus.json")
    assert done.exit_code == 0, done.output
    again = tmp_path / "again.txt"
    done = CliRunner().invoke(app, ["export", "openspiel", str(tmp_path / "back.jsonl"), "-o", str(again)])
    assert done.exit_code == 0, done.output
    assert again.read_text() == histories.read_text()


def test_plain_export_is_bare_histories_and_imports_as_one_hand_games(tmp_path):
    done, histories, games = _export_then_import(
        tmp_path, ROOT / "examples" / "omnibus.json", export_args=["--plain"],
        import_args=["--game", "hearts(jd_bonus=true,can_lead_hearts_instead_of_qs=true)"])
    lines = histories.read_text().splitlines()
    assert not any(line.startswith("#") for line in lines)
    assert done.exit_code == 0 and len(games) == len(lines) and all(len(g.hands) == 1 for g in games)
    assert games[0].players == osp.PLAYER_NAMES and all(replay_game(g).valid for g in games)


def test_a_bad_record_line_is_reported_and_the_other_games_still_read():
    good = history(0, suit_deal())
    lines = ["# game_string: hearts", '# record: {"game_id": "a", "players": ["w", "x", "y", "z"]}', good,
             "# record: {not json", good, good,
             '# record: {"game_id": "c", "players": ["w", "x", "y", "z"], "hands": [{}, {}]}', good,
             '# record: {"game_id": "d", "players": ["n", "e", "s", "w"]}', good, good]
    items = list(osp.read_histories([line + "\n" for line in lines], "h.txt"))
    assert [(i.source, i.game is not None) for i in items] == \
        [("h.txt:2", True), ("h.txt:4", False), ("h.txt:7", False), ("h.txt:9", True)]
    assert items[0].game.players == ("w", "x", "y", "z") and items[0].game.game_id == "a"
    assert "record" in items[1].error.text() and "2 hands and 1 history" in items[2].error.text()
    assert len(items[3].game.hands) == 2 and items[3].game.rules == Rules.preset("openspiel")
    deep = "# record: " + "[" * 100_000 + "]" * 100_000
    items = list(osp.read_histories([deep + "\n", good + "\n", lines[1] + "\n", good + "\n"], "h.txt"))
    assert [(i.source, i.game is not None) for i in items] == [("h.txt:1", False), ("h.txt:3", True)]
    assert "nested too deeply" in items[0].error.text()


def test_cli_rejects_a_bad_game_string(tmp_path):
    (tmp_path / "h.txt").write_text("")
    done = CliRunner().invoke(app, ["import", "openspiel", str(tmp_path / "h.txt"), "--game", "hearts(x=1)"])
    assert done.exit_code == 2 and 'unknown hearts parameter "x"' in done.output


# -- OpenSpiel itself, where installed ---------------------------------------------------------
def _pyspiel():
    return pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open_spiel) is not installed")


@pytest.mark.parametrize("params", ALL_PARAMETER_SETS[::5] + ALL_PARAMETER_SETS[-1:])
def test_openspiel_games_replay_clean_with_the_same_legal_cards_and_scores(params):
    pyspiel = _pyspiel()
    rng = random.Random(str(params))
    game = pyspiel.load_game("hearts", params)
    rules = osp.rules_from_parameters(params)
    for _ in range(4):
        state = game.new_initial_state()
        state.apply_action(rng.choice(state.legal_actions()))
        passes = 12 if state.history()[0] else 0
        while len(state.history()) < 1 + 52 + passes:  # deal and pass at random
            state.apply_action(rng.choice(state.legal_actions()))
        partial = osp.hand_from_history(" ".join(map(str, state.history())), rules)
        ours = osp.opening_state(partial, rules)
        while not state.is_terminal():
            legal = sorted(osp.card_from_openspiel(a) for a in state.legal_actions())
            assert ours.to_play == state.current_player()
            assert legal == list(iter_cards(ours.legal_cards()))
            action = rng.choice(state.legal_actions())
            ours.push(ours.to_play, osp.card_from_openspiel(action))
            state.apply_action(action)
        imported = osp.game_from_history(" ".join(map(str, state.history())), rules)
        result = replay_game(imported)
        assert result.valid, result.violations[:3]
        assert [26 - r for r in state.returns()] == list(result.hands[0].points)


@pytest.mark.parametrize("params", [{}, {"jd_bonus": True, "avoid_all_tricks_bonus": True},
                                    {"pass_cards": False, "can_lead_any_club": True}])
def test_openspiel_accepts_exported_histories_and_agrees_on_scores(params):
    pyspiel = _pyspiel()
    game = pyspiel.load_game("hearts", params)
    rules = osp.rules_from_parameters(params)
    for record in simulate_games(2, rules, seed=7):
        exported = osp.export_game(record)
        assert not exported.problems
        for line, hand in zip(exported.histories, replay_game(record).hands):
            state = game.new_initial_state()
            for action in map(int, line.split()):
                assert action in state.legal_actions()
                state.apply_action(action)
            assert state.is_terminal()
            assert [26 - r for r in state.returns()] == list(hand.points)


def test_queen_of_spades_constant_matches_openspiel():
    assert osp.openspiel_card(QS) == 10 * 4 + 3


# -- export: one game string per game, OpenSpiel's own rule named, values as JSON --------------------
def test_each_exported_game_keeps_its_own_game_string(tmp_path):
    """An Omnibus game beside a standard one keeps jd_bonus: each game has its own '# game_string:'."""
    done, histories, games = _export_then_import(tmp_path, ROOT / "examples" / "clean-4p-standard.json",
                                                 ROOT / "examples" / "omnibus.json")
    assert done.exit_code == 0, done.output
    strings = [line for line in histories.read_text().splitlines() if line.startswith("# game_string:")]
    assert strings == ["# game_string: hearts(can_lead_hearts_instead_of_qs=true)",
                       "# game_string: hearts(jd_bonus=true,can_lead_hearts_instead_of_qs=true)"]
    assert [g.rules.jack_of_diamonds for g in games] == [0, -10]
    assert all(replay_game(g).valid for g in games)


def test_a_hand_openspiel_cannot_play_is_refused_with_openspiels_rule_and_json_values(tmp_path):
    runner = CliRunner()
    source = ROOT / "examples" / "left-of-dealer-hearts-break.json"
    done = runner.invoke(app, ["export", "openspiel", str(source), "--game", "hearts", "-o", str(tmp_path / "h.txt")])
    assert done.exit_code == 2
    assert "OpenSpiel always has the holder of 2C lead the first trick, with 2C, and this hand is played " \
           "otherwise (wrong-first-lead" in done.output
    done = runner.invoke(app, ["export", "openspiel", str(ROOT / "examples" / "omnibus.json"), "--game", "hearts",
                               "-o", str(tmp_path / "o.txt")])
    notes = [line for line in done.output.splitlines() if "are closest to" in line]
    assert notes and '{"preset": "omnibus"}' in notes[0] and "{'preset'" not in done.output
