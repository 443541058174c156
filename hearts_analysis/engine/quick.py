"""The replay's fast lane: a legal hand checked with a few bit operations per card.

Most recorded hands are legal. :func:`replay_clean` checks one in a tight loop
and returns what each seat took; at the first doubt it returns ``None`` and
the caller replays the hand with :class:`~hearts_analysis.engine.state.HandState`,
which names and explains every violation. Both ask the one cascade of
:func:`hearts_analysis.engine.interpreter.legal_cards`; this lane asks it only
where a shortcut cannot settle a play (trick 1, a heart led while unbroken).
Those shortcuts read the rules as the lane declares in the rule-field table
(the lane ``quick`` of :data:`~hearts_analysis.rules.LANES`): a rule set
outside that declaration (``only_hearts_lead ends_hand``, charges, a lead rule
no lane declares, ...) is left to the explaining replay whole.

The first hand of a simulated game is settled here; with two cards of the
first trick swapped it is not, and goes to the explaining replay:

>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> held, plays = replay_game(game).hands[0].held, list(game.hands[0].plays)
>>> table = game.rules.table(4)
>>> taken, won, winners = replay_clean(table, held, plays[0][0], plays)
>>> won, winners[:5]
([6, 2, 4, 1], [0, 3, 2, 1, 0])
>>> plays[1], plays[2] = plays[2], plays[1]
>>> replay_clean(table, held, plays[0][0], plays) is None
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ..cards import HEARTS_MASK, SUIT_MASKS, Card, Mask
from ..rules import Table
from .interpreter import legal_cards


def replay_clean(table: Table, hands: Sequence[Mask], leader: int,
                 plays: Sequence[tuple[int, Card]]) -> tuple[list[Mask], list[int], list[int]] | None:
    """``(taken, tricks won, trick winners)`` if every play is legal and in turn, else ``None``."""
    n = table.players
    expected = sum(map(int.bit_count, hands))
    if not table.models("quick") or len(plays) != expected or expected % n:
        return None
    hands = list(hands)
    taken, won, winners = [0] * n, [0] * n, []
    followers = _followers(n)
    breakers = table.breakers
    broken = False
    first = True
    stream = iter(plays)
    for seat, card in stream:
        bit = 1 << card
        hand = hands[seat]
        if seat != leader or not hand & bit:
            return None
        if (first or bit & HEARTS_MASK and not broken) \
                and not legal_cards(table, hand, 0, first, broken) & bit:
            return None
        hands[seat] = hand ^ bit
        led = _SUIT_MASK_OF[card]
        top, winner, cards = card, seat, bit
        for expected_seat in followers[leader]:
            seat, card = next(stream)
            bit = 1 << card
            hand = hands[seat]
            if seat != expected_seat or not hand & bit:
                return None
            if bit & led:
                if card > top:  # the highest card of the suit led takes the trick (winning_card)
                    top, winner = card, seat
            elif hand & led:
                return None  # a revoke
            if first and not legal_cards(table, hand, led, True, broken) & bit:
                return None
            hands[seat] = hand ^ bit
            cards |= bit
        taken[winner] |= cards
        won[winner] += 1
        winners.append(winner)
        if cards & breakers:
            broken = True
        leader = winner
        first = False
    return taken, won, winners


_SUIT_MASK_OF: tuple[Mask, ...] = tuple(SUIT_MASKS[card // 13] for card in range(52))


@lru_cache(maxsize=8)
def _followers(players: int) -> tuple[tuple[int, ...], ...]:
    """For each leader, the seats that follow it in a trick, in order."""
    return tuple(tuple((leader + k) % players for k in range(1, players)) for leader in range(players))
