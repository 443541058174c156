"""A reason in plain words for every flagged decision.

The cost of a choice splits into what it changes: the chance of taking QS
(13 points), the chance another seat shoots the moon (26), the hearts taken
(1 each). The largest part names the reason; the position adds the story
(QS still out, a duck available, a void, a seat with every point so far).
Where no part stands out, the reason says so and gives the parts.

>>> from types import SimpleNamespace
>>> from hearts_analysis.cards import parse_card
>>> def option(cards, expected, queen):
...     return SimpleNamespace(cards=tuple(parse_card(c) for c in cards.split()), expected=expected,
...                            queen=queen, hearts=2.0, moon_against=0.0)
>>> explain(None, 0, "pass", option("KD AD AH", 8.4, 0.5), option("5C 9C AH", 1.4, 0.1))
'passing 5C 9C AH instead of KD AD AH, you take QS in 10% of the deals rather than 50%'
>>> text = explain(None, 0, "pass", option("KD AD AH", 2.4, 0.12), option("5C 9C AH", 2.0, 0.1))
>>> text[text.index("from"):]
'from no single cause (QS in 10% of the deals rather than 12%, 2.0 hearts rather than 2.0)'
"""

from __future__ import annotations

from typing import Protocol

from ..cards import POINT_CARDS_MASK, QS, SUIT_MASKS, Card, card_name, highest, names
from ..engine.state import HandState


class Option(Protocol):
    """What a reason reads of an alternative (the review's ``Option``; a protocol here, so that
    the reasons need nothing from the module that judges)."""

    @property
    def cards(self) -> tuple[Card, ...]: ...
    @property
    def expected(self) -> float: ...
    @property
    def queen(self) -> float: ...
    @property
    def hearts(self) -> float: ...
    @property
    def moon_against(self) -> float: ...

_SUITS = ("clubs", "diamonds", "hearts", "spades")
CLEAR = 0.5
"""Points a part must carry to be named as the reason."""


def explain(state: HandState | None, seat: int, kind: str, played: Option, best: Option,
            players: tuple[str, ...] = ()) -> str | None:
    parts = {"queen": 13 * (played.queen - best.queen),
             "moon": 26 * (played.moon_against - best.moon_against),
             "hearts": played.hearts - best.hearts}
    main = max(parts, key=parts.get)
    if parts[main] < CLEAR:
        return _no_single_cause(kind, played, best)
    if kind == "pass":
        return _pass_reason(main, played, best)
    return _play_reason(main, state, seat, played, best, players)


def _no_single_cause(kind: str, played: Option, best: Option) -> str:
    verb = "passing" if kind == "pass" else "playing"
    return (f"{verb} {' '.join(names(best.cards))} instead of {' '.join(names(played.cards))}, you take "
            f"{played.expected - best.expected:.1f} points less on average, from no single cause "
            f"(QS in {best.queen:.0%} of the deals rather than {played.queen:.0%}, "
            f"{best.hearts:.1f} hearts rather than {played.hearts:.1f})")


def _pass_reason(main: str, played: Option, best: Option) -> str:
    instead = f"passing {' '.join(names(best.cards))} instead of {' '.join(names(played.cards))}"
    if main == "queen":
        return f"{instead}, you take QS in {best.queen:.0%} of the deals rather than {played.queen:.0%}"
    if main == "moon":
        return (f"{instead}, another seat shoots the moon in {best.moon_against:.0%} of the deals "
                f"rather than {played.moon_against:.0%}")
    return f"{instead}, you take {best.hearts:.1f} hearts in the hand on average rather than {played.hearts:.1f}"


def _play_reason(main: str, state: HandState, seat: int, played: Option, best: Option,
                 players: tuple[str, ...]) -> str:
    mine, better = card_name(played.cards[0]), card_name(best.cards[0])
    if main == "queen":
        return _queen_reason(state, seat, played, best, mine, better)
    if main == "moon":
        shooter = _moon_candidate(state, seat)
        who = ""
        if shooter is not None:
            name = players[shooter] if shooter < len(players) else f"seat {shooter}"
            who = f"{name} had taken every point so far: "
        return (f"{who}the {better} stops the moon (another seat shoots it in {best.moon_against:.0%} of "
                f"the deals, against {played.moon_against:.0%} after the {mine})")
    return (f"with the {better} you take {best.hearts:.1f} hearts in the hand on average; "
            f"with the {mine}, {played.hearts:.1f}")


def _queen_reason(state: HandState, seat: int, played: Option, best: Option, mine: str, better: str) -> str:
    odds = f"you take QS in {best.queen:.0%} of the deals; with the {mine}, in {played.queen:.0%}"
    good, bad = best.cards[0], played.cards[0]
    if good == QS:
        led = state.trick[0][1] // 13 if state.trick else None
        void = f"you were void in {_SUITS[led]}: " if led is not None and not state.hands[seat] & SUIT_MASKS[led] else ""
        return (f"{void}dumping QS now, you take it in {best.queen:.0%} of the deals; keeping it, "
                f"in {played.queen:.0%}")
    if state.trick:
        led = state.trick[0][1] // 13
        top = highest(state.trick_cards & SUIT_MASKS[led])
        if good // 13 == led == bad // 13 and good < top < bad:
            queen_out = not (state.played >> QS & 1) and not (state.hands[seat] >> QS & 1)
            where = ("QS was in the trick and " if state.trick_cards >> QS & 1
                     else "QS was still out and " if queen_out else "")
            return f"{where}you held the {better}: ducking with the {better}, {odds}"
    return f"with the {better} {odds}"


def _moon_candidate(state: HandState, seat: int) -> int | None:
    """The other seat holding every point card taken so far, if any were taken."""
    holders = [s for s, cards in enumerate(state.taken) if cards & POINT_CARDS_MASK]
    if len(holders) == 1 and holders[0] != seat:
        return holders[0]
    return None
