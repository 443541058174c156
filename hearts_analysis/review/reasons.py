"""A reason in plain words for every flagged decision.

The cost of a choice splits into the points that make it, cause by cause
(:func:`point_parts`): QS (13), the hearts (1 each), JD (the rules' bonus,
-10 under Omnibus), QC cancelling QS, the no-trick bonus, the moon (another
seat shooting it, or the seat itself), and TC and charged cards, whatever the
review models of them. The parts add up to the expected points, so the
differences between two alternatives add up to the cost. The largest
difference names the reason, the position adds the story (QS still out, a
duck available, a void, a seat with every point so far), and a part that goes
the other way is said as such. A part that does not differ is never named.

>>> from types import SimpleNamespace
>>> from hearts_analysis.cards import parse_card
>>> def option(cards, expected, queen, hearts=2.0, parts=()):
...     return SimpleNamespace(cards=tuple(parse_card(c) for c in cards.split()), expected=expected,
...                            queen=queen, hearts=hearts, moon_against=0.0, parts=parts)
>>> explain(None, 0, "pass", option("KD AD AH", 8.4, 0.5), option("5C 9C AH", 1.4, 0.1))
'passing 5C 9C AH instead of KD AD AH, you take QS in 10% of the deals rather than 50%'

Where JD's -10 is the cause, the reason names it, and says what it costs in hearts:

>>> jd = (("jack", -10.0, 1.0), ("hearts", 5.0, 5.0))
>>> none = (("jack", 0.0, 0.0), ("hearts", 4.0, 4.0))
>>> explain(None, 0, "pass", option("3D 4D 5D", 4.0, 0.0, 4.0, none), option("AD KD QD", -5.0, 0.0, 5.0, jd))
'passing AD KD QD instead of 3D 4D 5D, you take JD (-10) in 100% of the deals rather than 0%, though you take 1.0 more heart'

With no part standing out, the parts that differ are given, each in its direction:

>>> a = (("queen", 1.56, 0.12), ("hearts", 2.6, 2.6))
>>> b = (("queen", 1.3, 0.1), ("hearts", 2.4, 2.4))
>>> text = explain(None, 0, "pass", option("KD AD AH", 4.16, 0.12, 2.6, a), option("5C 9C AH", 3.7, 0.1, 2.4, b))
>>> text[text.index("from"):]
'from no single cause (QS in 10% of the deals rather than 12%; 0.2 fewer hearts)'
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..cards import HEARTS, HEARTS_MASK, JD, POINT_CARDS_MASK, QC, QS, SPADES, SUIT_MASKS, Card, card_name, names
from ..engine.interpreter import winning_card
from ..engine.state import HandState
from ..rule_arrays import point_parts as score_parts, shot
from ..rules import QUEEN_POINTS, Table
from . import card_facts



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
    @property
    def parts(self) -> tuple[tuple[str, float, float], ...]: ...

_SUITS = ("clubs", "diamonds", "hearts", "spades")
CLEAR = 0.5
"""Points a part must carry to be named as the reason."""
DIFFERS = 0.05
"""Points a part must differ by to be named at all."""
CAUSES = ("queen", "hearts", "jack", "clubs", "bonus", "moon", "shoot", "multiplier")
"""The parts of a seat's hand points, in the order they are named."""


def point_parts(table: Table, taken: np.ndarray, points: np.ndarray, seat: int) -> tuple[tuple[str, float, float], ...]:
    """``(cause, expected points, rate)`` of each cause that can score under the rules, for ``seat`` over sampled
    deals: ``taken`` ``(samples, seats)`` masks of the cards each seat took, ``points`` ``(samples,)`` its hand
    points. The rate is the chance of the event (the mean number of hearts for ``hearts``). The expected points
    add up to the mean of ``points``: the moon's part is what a shot changes, and ``multiplier`` what is left
    (TC and charged cards, where the points count them)."""
    return point_parts_all(table, taken[None], np.asarray(points)[None], seat)[0]


def point_parts_all(table: Table, taken: np.ndarray, points: np.ndarray, seat: int
                    ) -> list[tuple[tuple[str, float, float], ...]]:
    """:func:`point_parts` of every alternative at once: ``taken`` ``(alternatives, samples, seats)``,
    ``points`` ``(alternatives, samples)``. One reduction for all the parts of all the alternatives (a
    mean per part and alternative was a fifth of a reviewed hand's time); every part is a whole number
    of points or events per deal, so its sum is exact in any order and the means are those of one
    alternative at a time."""
    rules = table.rules
    mine = taken[..., seat]
    bit = lambda card: ((mine >> np.uint64(card)) & np.uint64(1)).astype(np.int64)  # noqa: E731
    hearts = np.bitwise_count(mine & np.uint64(HEARTS_MASK)).astype(np.int64)
    queen, clubs, jack = bit(QS), bit(QC), bit(JD)
    none = (mine == 0).astype(np.int64)  # a seat that won a trick took its cards
    parts = score_parts(rules, hearts, queen, clubs, jack, none)
    rates = {"queen": queen, "hearts": hearts, "jack": jack, "clubs": queen * clubs, "bonus": none}
    rows = [(cause, value, rates[cause]) for cause, value in parts.items()]
    base = sum(parts.values())
    rest = np.asarray(points, dtype=np.float64) - base
    if table.moon_cards:
        shots = shot(taken, table.moon_cards)
        own, other = shots[..., seat], shots.any(axis=-1) & ~shots[..., seat]
        rows.append(("moon", np.where(other, rest, 0.0), other))
        rows.append(("shoot", np.where(own, rest, 0.0), own))
        rest = np.where(own | other, 0.0, rest)
    rows.append(("multiplier", rest, rest != 0))
    samples = mine.shape[-1]
    values = np.stack([np.asarray(value, np.float64) for _, value, _ in rows]).sum(axis=-1) / samples
    rates = np.stack([np.asarray(rate, np.float64) for _, _, rate in rows]).sum(axis=-1) / samples
    causes = [cause for cause, _, _ in rows]
    return [tuple((cause, float(values[k, a]), float(rates[k, a])) for k, cause in enumerate(causes))
            for a in range(mine.shape[0])]


def _parts(option: Option) -> dict[str, tuple[float, float]]:
    """``cause: (points, rate)``; from the summary fields where the option carries no parts."""
    parts = getattr(option, "parts", ())
    if parts:
        return {cause: (value, rate) for cause, value, rate in parts}
    return {"queen": (QUEEN_POINTS * option.queen, option.queen), "hearts": (option.hearts, option.hearts),
            "moon": (26 * option.moon_against, option.moon_against)}


def differences(played: Option, best: Option) -> dict[str, float]:
    """Points ``played`` costs more than ``best``, cause by cause (negative: the cause favours ``played``)."""
    a, b = _parts(played), _parts(best)
    return {cause: a.get(cause, (0.0, 0.0))[0] - b.get(cause, (0.0, 0.0))[0]
            for cause in CAUSES if cause in a or cause in b}


def _rates(option: Option, cause: str) -> float:
    return _parts(option).get(cause, (0.0, 0.0))[1]


def explain(state: HandState | None, seat: int, kind: str, played: Option, best: Option,
            players: tuple[str, ...] = ()) -> str | None:
    diffs = differences(played, best)
    main = max(diffs, key=diffs.get)
    if diffs[main] < CLEAR:
        return _no_single_cause(kind, played, best, diffs)
    if kind == "pass":
        text = _pass_reason(main, played, best)
    else:
        text = _play_reason(main, state, seat, played, best, players)
    against = [_against(cause, played, best) for cause, diff in diffs.items()
               if diff <= -CLEAR and _shown_apart(cause, played, best)]
    return text + (f", though {' and '.join(against)}" if against else "")


def _shown_apart(cause: str, played: Option, best: Option) -> bool:
    """Whether the figures a clause on ``cause`` would show differ (no "0% rather than 0%").

    >>> from types import SimpleNamespace
    >>> a = SimpleNamespace(parts=(("moon", 0.05, 0.002),)); b = SimpleNamespace(parts=(("moon", 0.0, 0.0),))
    >>> _shown_apart("moon", a, b), _shown_apart("moon", SimpleNamespace(parts=(("moon", 2.6, 0.1),)), b)
    (False, True)
    """
    if cause == "hearts":
        return f"{_rates(played, cause):.1f}" != f"{_rates(best, cause):.1f}"
    return _chance(cause, played) != _chance(cause, best)


def _chance(cause: str, option: Option) -> str:
    return f"{_rates(option, cause):.0%}"


def _event(cause: str, best: Option, played: Option) -> str:
    """What ``cause`` is about, with its chance under ``best`` then under ``played``."""
    if cause == "hearts":
        return f"{_rates(best, cause):.1f} hearts in the hand on average rather than {_rates(played, cause):.1f}"
    what = {"queen": "QS", "jack": "JD", "clubs": "QC with QS (QC cancels it)", "bonus": "no trick",
            "multiplier": "TC or a charged card"}[cause]
    if cause == "jack":
        what = f"JD ({_jack(best, played):+d})"
    return f"{what} in {_chance(cause, best)} of the deals rather than {_chance(cause, played)}"


def _jack(best: Option, played: Option) -> int:
    for option in (best, played):
        value, rate = _parts(option).get("jack", (0.0, 0.0))
        if rate:
            return round(value / rate)
    return -10


def _moon_words(cause: str, best: Option, played: Option) -> str:
    if cause == "shoot":
        return f"you shoot the moon in {_chance(cause, best)} of the deals rather than {_chance(cause, played)}"
    return f"another seat shoots the moon in {_chance(cause, best)} of the deals rather than {_chance(cause, played)}"


def _against(cause: str, played: Option, best: Option) -> str:
    """A part that favours the choice made: what it gave up for the better one."""
    if cause == "hearts":
        more = _rates(best, cause) - _rates(played, cause)
        return f"you take {more:.1f} more heart{'' if round(more, 1) == 1 else 's'}"
    if cause in ("moon", "shoot"):
        return _moon_words(cause, best, played)
    return f"you take {_event(cause, best, played)}"


def _no_single_cause(kind: str, played: Option, best: Option, diffs: dict[str, float]) -> str:
    verb = "passing" if kind == "pass" else "playing"
    said = []
    for cause, diff in sorted(diffs.items(), key=lambda item: -abs(item[1])):
        if abs(diff) < DIFFERS or not _shown_apart(cause, played, best):
            continue
        if cause == "hearts":
            change = _rates(played, cause) - _rates(best, cause)
            said.append(f"{abs(change):.1f} {'fewer' if change > 0 else 'more'} hearts")
        elif cause in ("moon", "shoot"):
            said.append(_moon_words(cause, best, played))
        else:
            said.append(f"{_event(cause, best, played).replace(' in the hand on average', '')}")
    detail = f" ({'; '.join(said)})" if said else ""
    return (f"{verb} {' '.join(names(best.cards))} instead of {' '.join(names(played.cards))}, you take "
            f"{played.expected - best.expected:.1f} points less on average, from no single cause{detail}")


def _pass_reason(main: str, played: Option, best: Option) -> str:
    instead = f"passing {' '.join(names(best.cards))} instead of {' '.join(names(played.cards))}"
    if main in ("moon", "shoot"):
        return f"{instead}, {_moon_words(main, best, played)}"
    return f"{instead}, you take {_event(main, best, played)}"


def _play_reason(main: str, state: HandState, seat: int, played: Option, best: Option,
                 players: tuple[str, ...]) -> str:
    cards = _card_clauses(main, state, seat, played.cards[0], best.cards[0], players) if state is not None else []
    figures = _play_figures(main, state, seat, played, best, players, any("QS is still out" in c for c in cards))
    return f"{'; '.join(cards)}: {figures}" if cards else figures


def _play_figures(main: str, state: HandState, seat: int, played: Option, best: Option,
                  players: tuple[str, ...], queen_said: bool = False) -> str:
    mine, better = card_name(played.cards[0]), card_name(best.cards[0])
    if main == "queen":
        return _queen_reason(state, seat, played, best, mine, better, queen_said)
    if main == "moon":
        shooter = _moon_candidate(state, seat)
        who = ""
        if shooter is not None:
            who = f"{seat_name(shooter, players)} had taken every point so far: "
        return (f"{who}the {better} stops the moon (another seat shoots it in {_chance(main, best)} of "
                f"the deals, against {_chance(main, played)} after the {mine})")
    if main == "shoot":
        return (f"with the {better} you shoot the moon in {_chance(main, best)} of the deals; "
                f"with the {mine}, in {_chance(main, played)}")
    if main == "hearts":
        return (f"with the {better} you take {_rates(best, main):.1f} hearts in the hand on average; "
                f"with the {mine}, {_rates(played, main):.1f}")
    event = _event(main, best, played)
    what, _, _ = event.partition(" in ")
    return (f"with the {better} you take {what} in {_chance(main, best)} of the deals; "
            f"with the {mine}, in {_chance(main, played)}")


def seat_name(seat: int, players: tuple[str, ...]) -> str:
    """A seat by its player's name, else by its letter (``seat B``)."""
    return players[seat] if seat < len(players) and players[seat] else f"seat {'ABCDEFGH'[seat]}"


def _together(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _suit_name(suit: int) -> str:
    return _SUITS[suit]


def _takes_lead(state: HandState, card: Card) -> bool:
    """Whether ``card`` would win the trick so far: led, or above the top card of the suit led."""
    if not state.trick:
        return True
    led = state.trick[0][1] // 13
    return winning_card(state.trick_cards | 1 << card, SUIT_MASKS[led]) == card


def _card_clauses(main: str, state: HandState, seat: int, bad: Card, good: Card,
                  players: tuple[str, ...]) -> list[str]:
    """At most two facts in cards that say why ``good`` beats ``bad`` for ``main``, each read from what
    the seat sees (:mod:`.card_facts`): the top cards gone, who may hold QS behind the seat, who has
    shown a void, a hand that cannot get off lead. A fact is given only where it tells the two apart."""
    clauses: list[str] = []
    if good == QS:      # dumping the queen: the figures say it (and a void that allows it)
        return clauses
    hand = state.hands[seat]
    wins, good_wins = _takes_lead(state, bad), _takes_lead(state, good)
    led = state.trick[0][1] // 13 if state.trick else bad // 13
    if main in ("queen", "moon") and bad // 13 == SPADES and bad >= QS and wins \
            and card_facts.top_left(state, seat, bad) and (bad == QS or card_facts.queen_holders(state, seat)):
        gone = card_facts.gone_above(state, seat, bad)
        verb = "is" if gone.bit_count() == 1 else "are"
        clauses.append(f"{_together(names(gone)[::-1])} {verb} gone, so your {card_name(bad)} is the top spade")
    if main in ("queen", "moon") and wins and not good_wins and bad != QS:
        behind = card_facts.behind(state, seat)
        holders = [s for s in behind if s in card_facts.queen_holders(state, seat)    # in the order they play
                   and (led == SPADES or s in card_facts.shown_void(state, led, seat))]
        if holders:
            who = _together([seat_name(s, players) for s in holders])
            clauses.append(f"the QS is still out and {who}, behind you, can drop it on your {card_name(bad)}")
    if main == "hearts" and wins and not good_wins:
        behind = card_facts.behind(state, seat)
        void = [s for s in behind if s in card_facts.shown_void(state, led, seat)]
        if void and led != HEARTS:
            who = _together([seat_name(s, players) for s in void])
            clauses.append(f"{who}, behind you, {'has' if len(void) == 1 else 'have'} shown no {_suit_name(led)}")
    after = hand & ~(1 << bad)
    if main in ("hearts", "queen", "moon") and after.bit_count() >= 2:
        stuck = card_facts.cannot_get_off(state, seat, after)
        if stuck and (wins and not good_wins or not card_facts.cannot_get_off(state, seat, hand & ~(1 << good))):
            clauses.append(f"after the {card_name(bad)} you hold only the last "
                           f"{_together([_suit_name(s) for s in stuck])}, so once on lead you cannot get off")
    return clauses[:2]


def _queen_reason(state: HandState, seat: int, played: Option, best: Option, mine: str, better: str,
                  queen_said: bool = False) -> str:
    odds = f"you take QS in {best.queen:.0%} of the deals; with the {mine}, in {played.queen:.0%}"
    good, bad = best.cards[0], played.cards[0]
    if good == QS:
        led = state.trick[0][1] // 13 if state.trick else None
        void = f"you were void in {_SUITS[led]}: " if led is not None and not state.hands[seat] & SUIT_MASKS[led] else ""
        return (f"{void}dumping QS now, you take it in {best.queen:.0%} of the deals; keeping it, "
                f"in {played.queen:.0%}")
    if state.trick:
        led = state.trick[0][1] // 13
        top = winning_card(state.trick_cards, SUIT_MASKS[led])
        if good // 13 == led == bad // 13 and good < top < bad:
            queen_out = not (state.played >> QS & 1) and not (state.hands[seat] >> QS & 1)
            if queen_said and not state.trick_cards >> QS & 1:   # the card clause said where QS is
                return f"ducking with the {better}, {odds}"
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
