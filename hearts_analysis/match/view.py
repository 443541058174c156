"""A seat's view as a ``hearts-game/1`` record: what the seat knows, and nothing else.

The hand's ``deal`` holds the seat's own dealt cards and ``null`` for every other seat;
``passes`` holds the seat's own pass and the pass it received (``null`` for the others, and
for everyone before the pass); ``plays`` the cards played so far. Cards are strings ("QS").

>>> import random
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate.play import HandPlay
>>> rules = Rules.preset("standard")
>>> hands = [sum(1 << c for c in range(s, 52, 4)) for s in range(4)]
>>> play = HandPlay(rules.table(4), hands, pass_direction="left")
>>> play.exchange([hands[s] & -hands[s] | (1 << 48 + s) | (1 << 44 + s) for s in range(4)], 1)
>>> play.start()
>>> view = seat_view(play.views[1], rules, ["a", "b", "a", "b"])
>>> hand = view["hands"][0]
>>> [cards is None for cards in hand["deal"]], hand["passes"][1], hand["passes"][0]
([True, False, True, True], ['3C', '8S', 'QS'], ['2C', '7S', 'JS'])
>>> hand["passes"][2] is None, hand["plays"]
(True, [])
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import card_name, iter_cards
from ..rules import Rules
from ..simulate.knowledge import SeatView

FORMAT = "hearts-game/1"


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in iter_cards(mask)]


def seat_view(view: SeatView, rules: Rules, players: Sequence[str], game_id: str | None = None) -> dict[str, Any]:
    """The record of the game so far as ``view.seat`` knows it (see the module notes)."""
    public, seat = view.public, view.seat
    n = public.players
    own_played = 0
    plays = []
    for who, card in public.plays:
        plays.append([who, card_name(card)])
        if who == seat:
            own_played |= 1 << card
    dealt = (view.hand | own_played | view.passed) & ~view.received
    deal: list[Any] = [None] * n
    deal[seat] = _names(dealt)
    passes: list[Any] = [None] * n
    if view.passed:
        passes[seat] = _names(view.passed)
        passes[rules.table(n).pass_source(seat, public.pass_direction)] = _names(view.received)
    hand = {"dealer": public.dealer, "pass_direction": public.pass_direction, "deal": deal, "passes": passes,
            "plays": plays}
    record: dict[str, Any] = {"format": FORMAT, "rules": rules.to_spec(), "players": list(players), "hands": [hand]}
    if game_id is not None:
        record["game_id"] = game_id
    return record
