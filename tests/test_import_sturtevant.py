"""Sturtevant's Hearts histories (.play): the hand-written fixture, round trips, rules bits, bad input."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from hearts_analysis.cards import parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.interop import formats
from hearts_analysis.interop import sturtevant as st
from hearts_analysis.interop.rebuild import ExportError
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import simulate_games

FIXTURES = Path(__file__).parent / "fixtures" / "sturtevant"


def named(game, players=("ann", "bob", "cy", "dee")):
    return dataclasses.replace(game, players=players)


def read_text(text: str, name: str = "dee.play"):
    return list(st.read(io.StringIO(text), name))


def test_card_codes_follow_the_programs_suits_and_ranks():
    # suits spades 0, diamonds 1, clubs 2, hearts 3; ranks ace 0 .. two 12
    assert st.card_from_sturtevant(0) == parse_card("AS")
    assert st.card_from_sturtevant(16 + 3) == parse_card("JD")
    assert st.card_from_sturtevant(2 * 16 + 12) == parse_card("2C")
    assert st.card_from_sturtevant(3 * 16 + 4) == parse_card("TH")
    assert all(st.card_from_sturtevant(st.sturtevant_card(c)) == c for c in range(52))


def test_hand_written_moon_hand_reads_and_scores_as_logged():
    items = list(st.read((FIXTURES / "suits.play").open(), str(FIXTURES / "suits.play")))
    assert [i.error for i in items] == [None]
    game = items[0].game
    assert game.players == ("ann", "bob", "cy", "suits")
    assert game.rules.pass_count == 0 and game.rules.first_lead == "any_club"
    hand = game.hands[0]
    assert hand.passes is None and hand.pass_direction == "hold"
    assert hand.plays[0] == (2, parse_card("2C")) and hand.plays[1] == (3, parse_card("AH"))
    result = replay_game(game)
    assert result.violations == ()
    assert result.hands[0].moon.seat == 2 and result.hands[0].points == (26, 26, 0, 26)


@pytest.mark.parametrize("seed", [1, 2])
def test_simulated_games_round_trip_with_rebuilt_deal_and_direction(seed):
    games = [named(g) for g in simulate_games(2, Rules.preset("sturtevant"), seed=seed)]
    out = io.StringIO()
    assert st.write(games, out) == 2
    items = read_text(out.getvalue())
    assert [i.error for i in items] == [None, None]
    for original, item in zip(games, items):
        back = item.game
        assert back.players == original.players
        result = replay_game(back)
        assert result.violations == ()
        assert result.totals == replay_game(original).totals
        for before, after in zip(original.hands, back.hands):
            assert [sorted(s) for s in before.deal] == [sorted(s) for s in after.deal]
            assert before.plays == after.plays
            expected = replay_game(original).hands[original.hands.index(before)].pass_direction
            assert after.pass_direction == expected
            if expected != "hold":
                assert [sorted(p) for p in before.passes] == [sorted(p) for p in after.passes]
        # and written again, the text is the same
        again = io.StringIO()
        st.write([back], again)
        first = io.StringIO()
        st.write([original], first)
        assert again.getvalue() == first.getvalue()


def test_generated_fixture_file_stays_readable():
    path = FIXTURES / "simulated.play"
    items = list(st.read(path.open(), str(path)))
    assert items and all(i.error is None for i in items)
    assert all(replay_game(i.game).violations == () for i in items)


def test_sniff_and_registry():
    text = (FIXTURES / "suits.play").read_text()
    assert st.sniff(text)
    assert not st.sniff('{"format": "hearts-game/1"}')
    assert not st.sniff("1,2,3\n4,5,6\n")
    assert formats.formats()["sturtevant"] is st


@pytest.mark.parametrize("bits, field, value", [
    (st.DEFAULT_BITS & ~st.DO_PASS_CARDS, "pass_count", 0),
    (st.DEFAULT_BITS & ~st.LEAD_CLUBS | st.LEAD_2_CLUBS, "first_lead", "lowest_club"),
    (st.DEFAULT_BITS & ~st.LEAD_CLUBS, "first_lead", "left_of_dealer"),
    (st.DEFAULT_BITS & ~(st.NO_HEARTS_FIRST_TRICK | st.NO_QUEEN_FIRST_TRICK), "points_on_first_trick", True),
    (st.DEFAULT_BITS & ~st.QUEEN_BREAKS_HEARTS, "hearts_broken_by", "heart"),
    (st.DEFAULT_BITS & ~st.MUST_BREAK_HEARTS, "hearts_must_be_broken", False),
    (st.DEFAULT_BITS | st.NO_TRICK_BONUS, "no_tricks_bonus", -5),
    (st.DEFAULT_BITS | st.NO_SHOOTING, "moon", "none"),
])
def test_rules_bits_map_to_fields_and_back(bits, field, value):
    rules, unmodelled = st.rules_from_bits(bits)
    assert getattr(rules, field) == value and unmodelled == ()
    assert st.bits_for(rules) == bits


@pytest.mark.parametrize("bit", [st.SHOOTING_NEEDS_JACK, st.HEARTS_ARENT_POINTS, st.END_SCORE_BONUS,
                                 st.JACK_BONUS])
def test_unmodelled_bits_are_named_in_the_audit(bit):
    text = (FIXTURES / "suits.play").read_text().replace(" 3009", f" {3009 | bit}")
    game = read_text(text)[0].game
    notes = replay_game(game).notes
    assert "unmodelled" in [n.code for n in notes] and "unmodelled" not in [v.code for v in replay_game(game).violations]
    message = next(n.message for n in notes if n.code == "unmodelled")
    assert f"rules bitmask {3009 | bit}" in message


def test_without_a_clubs_rule_seat_k_minus_one_leads_hand_k():
    """Seat 0, holding all the spades, leads them from the ace down and takes every trick."""
    def code(suit, rank_from_two):
        return suit * 16 + (12 - rank_from_two)
    plays = [code(s, 12 - t) for t in range(13) for s in (0, 1, 2, 3)]
    bits = 3009 & ~st.LEAD_CLUBS
    lines = ["1", "ann bob cy " + str(bits), "0 26 26 26"]
    for suit in range(4):
        lines += [" ".join("8191" if s == suit else "0" for s in range(4)), "-1 -1 -1"]
    game = read_text("\n".join(lines + [" ".join(map(str, plays))]) + "\n")[0].game
    assert game.rules.first_lead == "left_of_dealer" and game.hands[0].dealer == 3
    assert game.hands[0].plays[:4] == tuple((s, st.card_from_sturtevant(c)) for s, c in enumerate(plays[:4]))
    result = replay_game(game)
    assert result.violations == () and result.hands[0].points == (0, 26, 26, 26)


def test_a_bad_number_names_file_line_and_field_and_the_next_game_is_read():
    games = [named(g) for g in simulate_games(2, Rules.preset("sturtevant"), seed=5)]
    out = io.StringIO()
    st.write(games, out)
    lines = out.getvalue().splitlines()
    lines[4] = lines[4].replace(" ", " x", 1)  # game 1, hand 1, seat 0's suit masks (line 5)
    items = read_text("\n".join(lines) + "\n")
    assert items[0].error is not None and items[1].error is None
    error = items[0].error
    assert error.source == "dee.play:5" and error.field == "hands[0].cards[0][1]"
    assert "expected a whole number" in str(error)


def test_passes_that_fit_no_direction_are_an_error():
    games = [named(next(simulate_games(1, Rules.preset("sturtevant"), seed=6)))]
    out = io.StringIO()
    st.write(games, out)
    lines = out.getvalue().splitlines()
    # seats 0 and 1 both say they passed 2C 3C 4C (lines 6 and 8)
    lines[5] = " ".join(str(st.sturtevant_card(parse_card(c))) for c in ("2C", "3C", "4C"))
    lines[7] = lines[5]
    error = read_text("\n".join(lines) + "\n")[0].error
    assert error is not None and error.field == "hands[0].passes"


def test_a_file_cut_inside_the_plays_imports_an_incomplete_hand():
    games = [named(next(simulate_games(1, Rules.preset("sturtevant"), seed=7)))]
    out = io.StringIO()
    st.write(games, out)
    text = out.getvalue()
    hand_end = text.splitlines()[:13]  # count, hands, names, then hand 1's ten lines
    plays = hand_end[-1].split()[:21]
    items = read_text("\n".join(hand_end[:-1] + [" ".join(plays)]) + "\n")
    assert items[0].error is None
    game = items[0].game
    assert len(game.hands) == 1 and len(game.hands[0].plays) == 21
    assert "hand-incomplete" in [v.code for v in replay_game(game).violations]
    cut_before_plays = read_text("\n".join(hand_end[:-1]) + "\n")[0].game
    assert cut_before_plays.hands[0].plays == ()


def test_writer_refuses_what_the_file_cannot_hold():
    five = next(simulate_games(1, Rules.preset("standard"), players=5, seed=1))
    with pytest.raises(ExportError, match="5 players"):
        st.write([five], io.StringIO())
    omnibus = next(simulate_games(1, Rules.preset("standard", target=50), seed=1))
    with pytest.raises(ExportError, match="target 50"):
        st.write([omnibus], io.StringIO())
