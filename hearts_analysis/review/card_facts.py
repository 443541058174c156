"""What a seat knows of the cards at a play, said in cards: the facts a reason names.

Every fact here is read from the seat's view of a :class:`~hearts_analysis.engine.state.HandState`:
the cards played (``played``, the trick), the seat's own hand, and the voids the others have shown by
not following suit (``voids``). Nothing is read from another seat's hand, so a card another seat holds
unplayed is "out", never "gone".

The AS and KS have been played; seat 0 holds QS 3S 4D and seat 1 leads 5D:

>>> from hearts_analysis.cards import SPADES, mask_of, names, parse_card
>>> from hearts_analysis.engine.state import HandState
>>> from hearts_analysis.rules import Rules
>>> def state_of(hands, plays, leader):
...     state = HandState(Rules.preset("standard").table(4),
...                       [mask_of(parse_card(c) for c in hand.split()) for hand in hands], leader)
...     state.trick_number = 2
...     for seat, card in plays:
...         state.push(seat, parse_card(card))
...     return state
>>> state = state_of(["QS 3S 4D", "5D AS 2H", "KS 6D 3H", "2D 8D 4H"],
...                  [(1, "AS"), (2, "KS"), (3, "8D"), (0, "3S"), (1, "5D")], 1)
>>> names(gone_above(state, 0, parse_card("QS"))), names(out_above(state, 0, parse_card("QS")))
(['KS', 'AS'], [])
>>> top_left(state, 0, parse_card("QS"))
True
>>> shown_void(state, SPADES, 0)
(3,)
>>> queen_holders(state, 0)
()
"""

from __future__ import annotations

from ..cards import QS, SPADES, SUIT_MASKS, Card, Mask, iter_cards
from ..engine.state import HandState


def out(state: HandState, seat: int) -> Mask:
    """Cards neither played nor in ``seat``'s hand: held by the others, as far as ``seat`` knows."""
    return state.table.deck & ~state.played & ~state.hands[seat]


def gone_above(state: HandState, seat: int, card: Card) -> Mask:
    """The cards of ``card``'s suit above it that have been played (the trick included)."""
    return state.played & SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def out_above(state: HandState, seat: int, card: Card) -> Mask:
    """The cards of ``card``'s suit above it that another seat may still hold."""
    return out(state, seat) & SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def top_left(state: HandState, seat: int, card: Card) -> bool:
    """Whether ``card`` is the highest card of its suit not yet played, and some above it were played.

    ``card`` must be the seat's (held, or being played by it); a higher card in its own hand makes it
    not the top.
    """
    above = SUIT_MASKS[card // 13] & ~((2 << card) - 1) & state.table.deck
    return bool(gone_above(state, seat, card)) and not above & ~state.played


def shown_void(state: HandState, suit: int, seat: int) -> tuple[int, ...]:
    """The seats other than ``seat`` that have shown a void in ``suit``: they did not follow it."""
    return tuple(s for s in range(state.players) if s != seat and state.voids[s] & SUIT_MASKS[suit])


def behind(state: HandState, seat: int) -> tuple[int, ...]:
    """The seats that play after ``seat`` in the current trick (all the others when ``seat`` leads)."""
    leader = state.trick[0][0] if state.trick else seat
    order = [(leader + k) % state.players for k in range(state.players)]
    return tuple(order[order.index(seat) + 1:])


def queen_holders(state: HandState, seat: int) -> tuple[int, ...]:
    """The seats that may hold QS, as ``seat`` sees it: none once it is played or in ``seat``'s hand;
    else every other seat that has not shown a void in spades."""
    if (state.played | state.hands[seat]) >> QS & 1:
        return ()
    void = shown_void(state, SPADES, seat)
    return tuple(s for s in range(state.players) if s != seat and s not in void)


def winning_leads(state: HandState, seat: int, hand: Mask | None = None) -> tuple[int, ...]:
    """The suits of ``hand`` (the seat's by default) in which even its lowest card wins when led: no
    card above it is out, or every other seat has shown a void in the suit."""
    hand = state.hands[seat] if hand is None else hand
    suits = []
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        if not cards:
            continue
        low = next(iter_cards(cards))
        if not out_above(state, seat, low) or len(shown_void(state, suit, seat)) == state.players - 1:
            suits.append(suit)
    return tuple(suits)


def cannot_get_off(state: HandState, seat: int, hand: Mask | None = None) -> tuple[int, ...]:
    """The suits of ``hand`` when every one of them wins when led (:func:`winning_leads`): once on lead
    the seat cannot give the lead away. Empty when some suit can lose the lead, or the hand is empty.

    >>> from hearts_analysis.cards import mask_of, parse_card
    >>> from hearts_analysis.engine.state import HandState
    >>> from hearts_analysis.rules import Rules
    >>> hands = [mask_of(parse_card(c) for c in h.split()) for h in
    ...          ("AS KS AD 2H", "2S 3S 2D 3H", "4S 5S 3D 4H", "6S 7S 4D 5H")]
    >>> state = HandState(Rules.preset("standard").table(4), hands, 0)
    >>> state.trick_number = 2
    >>> cannot_get_off(state, 0, hands[0] & ~(1 << parse_card("2H")))
    (1, 3)
    >>> cannot_get_off(state, 0)
    ()
    """
    hand = state.hands[seat] if hand is None else hand
    if not hand:
        return ()
    suits = winning_leads(state, seat, hand)
    held = tuple(s for s in range(4) if hand & SUIT_MASKS[s])
    return suits if suits == held else ()


__all__ = ["behind", "cannot_get_off", "gone_above", "out", "out_above", "queen_holders", "shown_void",
           "top_left", "winning_leads"]
