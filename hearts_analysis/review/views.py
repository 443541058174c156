"""A seat's view made whole: the unseen cards placed as the seat's knowledge allows.

The judge reads only what the asking seat knows (:mod:`.information_set`), so any deal of the unseen
cards that fits that knowledge gives the same advice as the real one. :func:`stand_in` makes one: in
each hand that leaves seats unknown, every card a seat played is its own, the cards the asker passed
stay with the receiver until played, the rest fall where the plays allow (a seat that showed a void
gets none of that suit; :func:`~.sampling.sample_hands` with a fixed stream), and each unknown pass is
cards its receiver holds. A view the rules cannot have produced (a seat plays a card it had shown it
lacks) still gets a stand-in, and the replay of it names the fault; one no deal fits raises
:class:`ViewError`.

>>> from hearts_analysis.engine import replay_game
>>> from hearts_analysis.records.views import view_of
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> whole = stand_in(view_of(game, 2), 2)
>>> whole.hands[0].deal[2] == game.hands[0].deal[2], None in whole.hands[0].deal
(True, False)
>>> [hand.totals for hand in replay_game(whole).hands] == [hand.totals for hand in replay_game(game).hands]
True
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..cards import Mask, iter_cards, mask_of
from ..records.model import GameRecord, HandRecord
from ..rules import Table
from .information_set import at_play, seat_state
from .sampling import InconsistentKnowledge, sample_hands


class ViewError(ValueError):
    """No deal of the unseen cards fits a view (the message names the hand)."""


def _lowest(cards: Mask, count: int) -> Mask:
    out = 0
    for _ in range(count):
        low = cards & -cards
        out |= low
        cards &= ~low
    return out


def _whole_hand(table: Table, number: int, hand: HandRecord, seat: int) -> HandRecord:
    n = table.players
    direction = hand.pass_direction or table.pass_direction(number)
    offset = table.pass_offset(direction) if direction in ("left", "right", "across") else 0
    dealt = mask_of(hand.deal[seat])
    passes = hand.passes
    gave = got = 0
    giver = receiver = None
    if offset and passes is not None:
        giver, receiver = table.pass_source(seat, direction), table.pass_target(seat, direction)
        gave, got = mask_of(passes[seat] or ()), mask_of(passes[giver] or ())
    own = dealt & ~gave | got
    plays = tuple(hand.plays)
    played_by = [0] * n
    for who, card in plays:
        if 0 <= who < n:
            played_by[who] |= 1 << card
    first_leader = plays[0][0] if plays else seat
    try:
        state, shown = seat_state(table, seat, own & ~played_by[seat], plays, first_leader, gave, receiver)
        rest = sample_hands(at_play(state, seat, shown, gave, receiver), 1, np.random.default_rng(0))[0]
    except (InconsistentKnowledge, ValueError, IndexError) as error:
        raise ViewError(f"hands[{number - 1}]: no deal of the cards seat {seat} cannot see fits its view "
                        f"({error})") from None
    held = [played_by[s] | int(rest[s]) for s in range(n)]
    held[seat] = own
    if offset and passes is not None:
        count = len(passes[seat] or ())
        to, source = ([f(s, direction) for s in range(n)] for f in (table.pass_target, table.pass_source))
        given = [mask_of(cards) if cards is not None else _lowest(held[to[s]] & ~gave, count)
                 for s, cards in enumerate(passes)]
        deal = tuple(tuple(iter_cards(held[s] & ~given[source[s]] | given[s])) if cards is None else cards
                     for s, cards in enumerate(hand.deal))
        passes = tuple(tuple(iter_cards(given[s])) if cards is None else cards for s, cards in enumerate(passes))
    else:
        deal = tuple(tuple(iter_cards(held[s])) if cards is None else cards for s, cards in enumerate(hand.deal))
    return replace(hand, deal=deal, passes=passes)


def stand_in(game: GameRecord, seat: int) -> GameRecord:
    """``game``, a view of ``seat``'s, with every unknown deal and pass filled as ``seat``'s knowledge
    allows; a whole record is returned as it is. Raises :class:`ViewError` naming the hand no deal fits."""
    if all(None not in hand.deal for hand in game.hands):
        return game
    table = game.rules.table(game.seats)
    hands = tuple(hand if None not in hand.deal else _whole_hand(table, number, hand, seat)
                  for number, hand in enumerate(game.hands, 1))
    return replace(game, hands=hands)


__all__ = ["ViewError", "stand_in"]
