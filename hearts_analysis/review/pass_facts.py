"""What tells a played pass from a better one, said in cards: the facts a flagged pass's reason opens with.

Every fact is read from the dealt hand and the two passes only, as the passer knew them, and is given only
where the two passes differ in it, in the better pass's favour: the principles of passing it keeps and the
played pass breaks. A suit the better pass voids (or leaves with one card), the low spades it keeps under the
queen, the AS, KS or QS it passes from a short spade suit (or the QS it keeps well guarded), the exit it keeps
where the played pass gives away a suit's every low card, and the high hearts it keeps (against a moon) or
passes (against heart tricks).

Dealt QS KS 8S 2C 3C 8C 4H KH QH 9H 6D 9D AD; passing 6D 9D AD instead of 4H 2C 3C:

>>> from hearts_analysis.cards import mask_of, parse_card
>>> def cards(text): return mask_of(parse_card(c) for c in text.split())
>>> dealt = cards("QS KS 8S 2C 3C 8C 4H KH QH 9H 6D 9D AD")
>>> for fact in pass_facts(dealt, cards("4H 2C 3C"), cards("6D 9D AD")):
...     print(f"{fact.topic}: {fact.text}")
void: passing AD 9D 6D voids your diamonds
exit: you pass 3C 2C, your low clubs, exits the better pass keeps
exit: you pass the 4H, your only low heart, an exit the better pass keeps

The reason names at most two, the ones nearest the cause of the cost, leaving out what the passing advice
already says (the 2s and 3s are its exits):

>>> for clause in lead_clauses(dealt, cards("4H 2C 3C"), cards("6D 9D AD"), "hearts", ("passed-low-card",)):
...     print(clause)
you pass the 4H, your only low heart, an exit the better pass keeps
passing AD 9D 6D voids your diamonds
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import HEARTS, QS, SPADES, SUIT_MASKS, Mask, make_card, names
from ..simulate.bits import HIGH_SPADES, LOW_RANKS, LOW_SPADES

_SUITS = ("clubs", "diamonds", "hearts", "spades")
_SUIT = ("club", "diamond", "heart", "spade")
LOW_RANK = 5
"""The highest rank index of a low card, an exit: 2 to 7."""
HIGH_HEARTS: Mask = sum(1 << make_card(HEARTS, rank) for rank in range(9, 13))
"""JH QH KH AH: the hearts that win heart tricks, and stop or make a moon."""
GUARDED = 4
"""Spades that guard the high ones: with fewer, the QS cannot be kept safe (the passing advice's four)."""

ORDER: dict[str, tuple[str, ...]] = {
    "queen": ("high-spades", "low-spades", "void", "exit"),
    "hearts": ("exit", "void", "hearts-passed", "low-spades"),
    "moon": ("hearts-kept", "exit", "void"),
    "shoot": ("hearts-kept", "void", "exit"),
}
"""The facts a cost's cause (:data:`.reasons.CAUSES`) is nearest, nearest first."""
OTHER_ORDER = ("void", "exit", "low-spades", "high-spades")
"""The order for any other cause."""

SAID_BY: dict[str, tuple[str, ...]] = {
    "high-spades": ("kept-queen-short", "kept-high-spade-short"),
    "low-spades": ("passed-low-spade",),
    "hearts-kept": ("passed-top-hearts", "broke-long-hearts", "passed-singleton-ace-of-hearts"),
}
"""The passing advice (:data:`~hearts_analysis.analysis.passes.ADVICE`) that already says a fact; an exit
fact is said by ``passed-low-card`` when its cards are all 2s and 3s."""


@dataclass(frozen=True, slots=True)
class PassFact:
    """One fact that tells the two passes apart."""

    topic: str
    """``void``, ``low-spades``, ``high-spades``, ``exit``, ``hearts-kept`` or ``hearts-passed``."""
    text: str
    """The clause, in cards."""
    cards: Mask
    """The cards it is about."""


def _cards(mask: Mask) -> str:
    """``AS KS``: highest first, as the passing advice names them."""
    return " ".join(names(mask)[::-1])


def _the(mask: Mask) -> str:
    """``the AH`` for one card, ``AH KH`` for more."""
    return f"the {_cards(mask)}" if mask.bit_count() == 1 else _cards(mask)


def _spades(count: int) -> str:
    return f"only {['no', 'one', 'two', 'three'][count]} spade{'' if count == 1 else 's'}"


def pass_facts(dealt: Mask, played: Mask, better: Mask) -> tuple[PassFact, ...]:
    """Every fact in which ``better`` keeps a principle of passing that ``played`` breaks, from ``dealt``."""
    kept, keeps = dealt & ~played, dealt & ~better      # what each pass leaves in the hand
    facts: list[PassFact] = []
    for suit in range(4):
        cards = SUIT_MASKS[suit]
        mine, its = (kept & cards).bit_count(), (keeps & cards).bit_count()
        if its == 0 < mine or its == 1 < mine and suit != SPADES:    # a spade left alone is no help
            given = better & cards
            what = f"voids your {_SUITS[suit]}" if its == 0 else f"leaves you only the {_cards(keeps & cards)}"
            facts.append(PassFact("void", f"passing {_cards(given)} {what}", given))
    spades = (dealt & SUIT_MASKS[SPADES]).bit_count()
    high = better & ~played & dealt & (HIGH_SPADES | 1 << QS)
    if high and spades < GUARDED:
        short = _spades(spades)
        text = (f"the better pass gives away {_the(high)}: with {short} the QS cannot be guarded"
                if high >> QS & 1 else f"the better pass gives away {' and '.join(names(high)[::-1])}, which "
                f"catch the queen, with {short}")
        facts.append(PassFact("high-spades", text, high))
    guards = keeps & LOW_SPADES
    if played >> QS & 1 and keeps >> QS & 1 and guards.bit_count() >= GUARDED - 1:
        facts.append(PassFact("high-spades", f"the better pass keeps your QS, guarded by {_cards(guards)}",
                              1 << QS))
    low = keeps & played & LOW_SPADES
    if low:
        under = " under your QS" if (kept & keeps) >> QS & 1 else ", spades below the queen"
        facts.append(PassFact("low-spades", f"the better pass keeps {_cards(low)}{under}", low))
    for suit in range(4):
        cards = SUIT_MASKS[suit]
        exits = dealt & cards & ((1 << (suit * 13 + LOW_RANK + 1)) - 1)
        if exits and not kept & exits and kept & cards and keeps & exits:
            one = exits.bit_count() == 1
            saved = keeps & exits
            text = (f"you pass the {_cards(exits)}, your only low {_SUIT[suit]}, an exit the better pass keeps"
                    if one else f"you pass {_cards(exits)}, your low {_SUITS[suit]}, exits the better pass keeps"
                    if saved == exits else f"you pass {_cards(exits)}, your low {_SUITS[suit]}, where the better "
                    f"pass keeps {'the ' if saved.bit_count() == 1 else ''}{_cards(saved)} as an exit")
            facts.append(PassFact("exit", text, saved))
    top = played & keeps & HIGH_HEARTS
    if top:
        what = ("high hearts that stop or make a moon" if top.bit_count() > 1
                else "a high heart that stops or makes a moon")
        facts.append(PassFact("hearts-kept", f"the better pass keeps {_the(top)}, {what}", top))
    given = better & kept & HIGH_HEARTS
    if given:
        take = "take" if given.bit_count() > 1 else "takes"
        facts.append(PassFact("hearts-passed", f"the better pass gives away {_the(given)}, which {take} heart tricks",
                              given))
    return tuple(facts)


def said_by_advice(fact: PassFact, advice: tuple[str, ...]) -> bool:
    """Whether the passing advice line (its rules' codes, ``advice``) already says ``fact``.

    >>> said_by_advice(PassFact("exit", "", 1 << 0), ("passed-low-card",))
    True
    >>> said_by_advice(PassFact("exit", "", 1 << 2), ("passed-low-card",))
    False
    """
    if fact.topic == "exit":
        return "passed-low-card" in advice and not fact.cards & ~LOW_RANKS
    return any(code in advice for code in SAID_BY.get(fact.topic, ()))


def lead_clauses(dealt: Mask, played: Mask, better: Mask, cause: str, advice: tuple[str, ...] = (),
                 count: int = 2) -> list[str]:
    """At most ``count`` clauses of :func:`pass_facts` for a cost whose largest part is ``cause``, nearest
    first (:data:`ORDER`), leaving out the ones the passing advice ``advice`` (codes) already says."""
    order = ORDER.get(cause, OTHER_ORDER)
    facts = [f for f in pass_facts(dealt, played, better) if f.topic in order and not said_by_advice(f, advice)]
    facts.sort(key=lambda f: order.index(f.topic))     # stable: suit order within a topic
    return [f.text for f in facts[:count]]


__all__ = ["PassFact", "lead_clauses", "pass_facts", "said_by_advice"]
