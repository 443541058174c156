"""Textbook positions put to ``hearts advise``, as a strong player would: the queen of spades, the first
trick and the pass. Each answer is the one Hearts books teach. The judge must name it, or at least hold
it as good as its own choice within the noise (``equal``): it must never give a clearly wrong answer.

Seats are letters (A leads the 2C); every position is at 0-0-0-0 and the hand does not pass unless it
asks for a pass. The moon-defence positions are in ``tests/test_moon_defence.py``.
"""

from __future__ import annotations

import pytest

from hearts_analysis.review.board import advise_entry

TRICK_1 = "A:2C B:9C C:4C D:KC"
"""D wins the first trick and leads the second."""
SPADES = "QS 7S 3S 4C 6C 8C 2D 5D 9D 3H 5H 8H JH"

PLAYS = [
    # (what the book says, the hand, the plays, the cards it names)
    ("on the first trick, play the highest club: no points can fall", "AC 3C 5D 8D JD 2S 6S 9S KH 4H 7H TH QD",
     "A:2C B:9C", {"AC"}),
    ("dump the QS on the AS", SPADES, f"{TRICK_1} D:5S A:AS B:4S", {"QS"}),
    ("dump the QS on the KS", SPADES, f"{TRICK_1} D:5S A:KS B:4S", {"QS"}),
    ("holding the QS under an unseen AS and KS, follow low", SPADES, f"{TRICK_1} D:5S A:8S B:4S", {"7S", "3S"}),
    ("a QS with one low spade drops on the AS led", "QS 6S 4C 6C 8C 2D 5D 9D 3H 5H 8H JH KD",
     f"{TRICK_1} D:AS A:5S B:4S", {"QS"}),
]

EQUAL = [
    # a book answer the judge may rank second, but never clearly worse than its own
    ("void in the suit led, dump the QS on another seat's trick", "QS 7S 3S 2S 4C 6C 8C 3H 5H 8H JH 9C TC",
     "A:2C B:3C C:4C D:KC D:AD A:5D B:3D", "QS"),
]

PASSES = [
    # (what the book says, the hand, cards the pass must hold, cards it must not)
    ("pass the QS from two spades", "QS 4S AH KH 2C 5C 9C JC 3D 7D TD KD 6H", {"QS"}, set()),
    ("pass the AS and KS without the QS or four spades", "AS KS 2C 4C 8C 9C 3D 5D 7D JD 2H 5H 8H", {"AS", "KS"},
     set()),
    ("keep the QS behind five spades", "QS JS 9S 5S 3S 2C 8C KC 4D 9D 2H 6H 9H", set(), {"QS"}),
]


@pytest.mark.parametrize("book, hand, plays, named", PLAYS, ids=[p[0] for p in PLAYS])
def test_the_judge_plays_the_book_card(book, hand, plays, named):
    advice = advise_entry(hand, plays, "C", direction="hold")
    assert set(advice.best) <= named, (book, advice.to_dict())


@pytest.mark.parametrize("book, hand, plays, card", EQUAL, ids=[p[0] for p in EQUAL])
def test_the_book_card_is_never_clearly_worse_than_the_judges(book, hand, plays, card):
    advice = advise_entry(hand, plays, "C", direction="hold")
    (shown,) = [o for o in advice.to_dict()["options"] if o["cards"] == [card]]
    assert advice.best == (card,) or shown["equal"], (book, advice.to_dict())


@pytest.mark.parametrize("book, hand, holds, lacks", PASSES, ids=[p[0] for p in PASSES])
def test_the_judge_passes_as_the_book_does(book, hand, holds, lacks):
    advice = advise_entry(hand, "", "C", direction="left")
    passed = set(advice.best)
    assert holds <= passed and not lacks & passed, (book, advice.to_dict())
