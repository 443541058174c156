"""Cards as small ints, hands as 64-bit masks.

A card is ``suit * 13 + rank`` with suits in the order clubs, diamonds, hearts,
spades and ranks from 2 (0) to ace (12), so each suit is a contiguous 13-bit
block of a mask: "can follow suit" is ``hand & SUIT_MASKS[suit]`` and the
winner of a trick is the top bit of ``trick & SUIT_MASKS[led_suit]``.

>>> parse_card("qs") == QS
True
>>> card_name(parse_card("10♥"))
'TH'
>>> [card_name(c) for c in iter_cards(mask_of([QS, TWO_CLUBS]))]
['2C', 'QS']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .text import shown

Card = int
"""A card, 0-51: ``suit * 13 + rank``."""

Mask = int
"""A set of cards: bit ``c`` is set when card ``c`` is in the set."""

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS = "CDHS"
RANK_LETTERS = "23456789TJQKA"

DECK: Mask = (1 << 52) - 1
SUIT_MASKS: tuple[Mask, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in SUITS)
HEARTS_MASK: Mask = SUIT_MASKS[HEARTS]
CLUBS_MASK: Mask = SUIT_MASKS[CLUBS]


def make_card(suit: int, rank: int) -> Card:
    return suit * 13 + rank


TWO_CLUBS: Card = make_card(CLUBS, 0)
QC: Card = make_card(CLUBS, 10)
JD: Card = make_card(DIAMONDS, 9)
QS: Card = make_card(SPADES, 10)
QS_MASK: Mask = 1 << QS
POINT_CARDS_MASK: Mask = HEARTS_MASK | QS_MASK
"""Hearts and the queen of spades: the cards a moon shooter must take."""


class CardError(ValueError):
    """A card written in a notation this toolkit cannot read."""


_SUIT_ALIASES = {"C": CLUBS, "D": DIAMONDS, "H": HEARTS, "S": SPADES,
                 "♣": CLUBS, "♦": DIAMONDS, "♥": HEARTS, "♠": SPADES,
                 "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES}
_RANK_ALIASES = {letter: rank for rank, letter in enumerate(RANK_LETTERS)}
_RANK_ALIASES["10"] = 8

_NAMES: tuple[str, ...] = tuple(RANK_LETTERS[c % 13] + SUIT_LETTERS[c // 13] for c in range(52))
CARD_CODES: dict[str, Card] = {}
"""Every accepted spelling of every card (canonical, lower case, suit symbols, 10 for T)."""
for _rank_text, _rank in _RANK_ALIASES.items():
    for _suit_text, _suit in _SUIT_ALIASES.items():
        for _r in {_rank_text, _rank_text.lower()}:
            for _s in {_suit_text, _suit_text.lower()}:
                CARD_CODES[_r + _s] = make_card(_suit, _rank)


def parse_card(text: str) -> Card:
    """Read a card such as ``QS``, ``10h``, ``T♥``; raise :class:`CardError` otherwise."""
    try:
        return CARD_CODES[text]
    except (KeyError, TypeError):
        pass
    if isinstance(text, str):
        stripped = text.strip()
        if stripped in CARD_CODES:
            return CARD_CODES[stripped]
    raise CardError(f"unknown card {shown(text)} (expected rank 2-9 T J Q K A and suit C D H S, e.g. \"QS\")")


def card_name(card: Card) -> str:
    """Canonical notation: ``QS``, ``TH``, ``2C``."""
    return _NAMES[card]


def suit_of(card: Card) -> int:
    return card // 13


def rank_of(card: Card) -> int:
    return card % 13


def mask_of(cards: Iterable[Card]) -> Mask:
    mask = 0
    for card in cards:
        mask |= _BITS[card]
    return mask


_BITS: tuple[Mask, ...] = tuple(1 << card for card in range(52))


def iter_cards(mask: Mask) -> Iterator[Card]:
    """The cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: Mask) -> int:
    return mask.bit_count()


def lowest(mask: Mask) -> Card:
    return (mask & -mask).bit_length() - 1


def highest(mask: Mask) -> Card:
    return mask.bit_length() - 1


def names(mask_or_cards: Mask | Iterable[Card]) -> list[str]:
    """Canonical names of a mask (lowest first) or of a sequence of cards (in order)."""
    cards = iter_cards(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return [card_name(c) for c in cards]


def describe(mask: Mask) -> str:
    """``"4C, 9C"`` for messages; ``"nothing"`` for an empty set."""
    return ", ".join(names(mask)) or "nothing"
