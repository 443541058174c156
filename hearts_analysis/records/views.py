"""A seat's view: a ``hearts-game/1`` record that leaves unknown what one seat cannot see.

A view's hands hold ``null`` in ``deal`` for every seat but the asker's, and in ``passes`` for every
seat but the asker and the seat that passed to it (its pass is exactly the cards the asker
received). Everything else is as in a whole record: the players, the rules, every play, the
recorded points and totals. :func:`view_of` makes one from a whole record; :func:`viewer` names the
asker of a view; the advice (:func:`hearts_analysis.advise`) reads a view as it reads a whole record.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=1)
>>> view = view_of(game, 2)
>>> first = view.hands[0]                      # hand 1 passes left: seat 1 passed to seat 2
>>> [cards is not None for cards in first.deal], [cards is not None for cards in first.passes]
([False, False, True, False], [False, True, True, False])
>>> first.plays == game.hands[0].plays, first.totals == game.hands[0].totals, viewer(view)
(True, True, 2)
>>> viewer(game) is None, view_of(view, 2) == view
(True, True)
"""

from __future__ import annotations

from dataclasses import replace

from .model import GameRecord, HandRecord


def _giver(game: GameRecord, number: int, hand: HandRecord, seat: int) -> int | None:
    """The seat that passed to ``seat`` in hand ``number`` (1-based), or ``None`` on a hand that holds."""
    table = game.rules.table(game.seats)
    direction = hand.pass_direction or table.pass_direction(number)
    return table.pass_source(seat, direction) if direction in ("left", "right", "across") else None


def view_of(game: GameRecord, seat: int) -> GameRecord:
    """What ``seat`` sees of ``game``: every hand's deal and passes with ``None`` for what it cannot see.

    Raises ``ValueError`` for a seat that is not at the table.
    """
    if not 0 <= seat < game.seats:
        raise ValueError(f"seat {seat} is not at the table (seats 0-{game.seats - 1})")
    hands = []
    for number, hand in enumerate(game.hands, 1):
        deal = tuple(cards if s == seat else None for s, cards in enumerate(hand.deal))
        passes = hand.passes
        if passes is not None:
            giver = _giver(game, number, hand, seat)
            passes = tuple(cards if s in (seat, giver) else None for s, cards in enumerate(passes))
        hands.append(replace(hand, deal=deal, passes=passes))
    return replace(game, hands=tuple(hands))


def viewer(game: GameRecord) -> int | None:
    """The asker of a view (the one seat whose deal its last hand shows); ``None`` for a whole record.

    Raises ``ValueError`` naming the hand when a view shows no seat's deal, or more than one but not all,
    or when its hands show different seats.
    """
    if not game.hands or all(None not in hand.deal for hand in game.hands):
        return None
    seen = set()
    for number, hand in enumerate(game.hands, 1):
        known = [s for s, cards in enumerate(hand.deal) if cards is not None]
        if len(known) == game.seats:
            continue                                  # a hand shown whole (e.g. one the table showed after play)
        if len(known) != 1:
            raise ValueError(f"hands[{number - 1}].deal: a view shows exactly one seat's deal; this hand shows "
                             f"{len(known)}")
        seen.add(known[0])
    if len(seen) != 1:
        raise ValueError("hands: a view is one seat's; its hands show the deals of seats "
                         + ", ".join(map(str, sorted(seen))))
    return seen.pop()


def is_view(game: GameRecord) -> bool:
    """Whether some hand of ``game`` leaves a seat's deal unknown."""
    return any(None in hand.deal for hand in game.hands)


__all__ = ["is_view", "view_of", "viewer"]
