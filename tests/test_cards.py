"""Cards as ints: notation in and out, masks and their helpers."""

import pytest
from hypothesis import given, settings, strategies as st

from hearts_analysis.cards import (CLUBS_MASK, DECK, HEARTS_MASK, JD, POINT_CARDS_MASK, QC, QS, SUIT_MASKS,
                                   TWO_CLUBS, CardError, card_name, describe, highest, iter_cards, lowest,
                                   mask_of, names, parse_card, popcount, rank_of, suit_of)


@pytest.mark.parametrize("text, name", [
    ("QS", "QS"), ("qs", "QS"), ("Qs", "QS"), ("qS", "QS"), ("TH", "TH"), ("10H", "TH"), ("10h", "TH"),
    ("T♥", "TH"), ("10♥", "TH"), ("2♣", "2C"), ("a♠", "AS"), ("J♦", "JD"), ("K♡", "KH"), (" 2C ", "2C"),
    ("9d", "9D"), ("ac", "AC"),
])
def test_parse_accepts_every_notation_of_the_format(text, name):
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["", "1C", "11H", "QX", "QSS", "S Q", "Q", None, 12, "♥T", "1 0H"])
def test_parse_rejects_unknown_cards_with_a_clear_error(text):
    with pytest.raises(CardError, match="unknown card"):
        parse_card(text)


def test_card_layout_is_suit_times_13_plus_rank():
    assert (TWO_CLUBS, QC, JD, QS) == (0, 10, 22, 49)
    assert [card_name(c) for c in (0, 12, 13, 26, 38, 39, 51)] == ["2C", "AC", "2D", "2H", "AH", "2S", "AS"]
    assert all(parse_card(card_name(c)) == c for c in range(52))
    assert (suit_of(QS), rank_of(QS)) == (3, 10)


def test_suit_masks_partition_the_deck():
    assert sum(popcount(m) for m in SUIT_MASKS) == 52
    assert SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3] == DECK
    assert SUIT_MASKS[0] == CLUBS_MASK and SUIT_MASKS[2] == HEARTS_MASK
    assert names(POINT_CARDS_MASK) == names(HEARTS_MASK) + ["QS"]


def test_mask_helpers_on_a_known_set():
    mask = mask_of(parse_card(c) for c in ["QS", "2C", "TH"])
    assert names(mask) == ["2C", "TH", "QS"]
    assert names([QS, TWO_CLUBS]) == ["QS", "2C"]
    assert lowest(mask) == TWO_CLUBS and highest(mask) == QS
    assert describe(mask) == "2C, TH, QS" and describe(0) == "nothing"


@settings(max_examples=60, derandomize=True)
@given(st.sets(st.integers(0, 51)))
def test_masks_round_trip_sets(cards):
    mask = mask_of(cards)
    assert list(iter_cards(mask)) == sorted(cards)
    assert popcount(mask) == len(cards)
    if cards:
        assert lowest(mask) == min(cards) and highest(mask) == max(cards)
