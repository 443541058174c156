"""Pass choices: what each seat gave, what it did to its hand, what became of the cards,
and what the passing advice of the online rules page 'Play Hearts online with friends for free'
(in Persian) says of it.

The advice is judged on the passer's dealt hand only, as the passer saw it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import (HEARTS, HEARTS_MASK, QS_MASK, SPADES, SUIT_LETTERS, SUIT_MASKS, Card, Mask,
                     card_name, iter_cards)
from ..engine.replay import HandResult
from ..rules import Table, heart_points
from ..simulate.bits import AS, HIGH_SPADES, KS, LOW_RANKS, LOW_SPADES
from .trace import HandTrace

HIGH_HEARTS: Mask = sum(1 << (HEARTS * 13 + rank) for rank in range(9, 13))
"""JH QH KH AH: the hearts that win heart tricks (and moons)."""
LOW_HEARTS: Mask = sum(1 << (HEARTS * 13 + rank) for rank in range(4))
"""2H to 5H: the hearts that duck."""


@dataclass(frozen=True, slots=True)
class Advice:
    """One rule of the passing advice."""

    code: str
    rule: str
    """The advice, as the online rules page gives it."""


ADVICE: dict[str, Advice] = {a.code: a for a in [
    Advice("kept-queen-short", "With fewer than four spades, pass QS (it cannot be protected)."),
    Advice("kept-high-spade-short", "With fewer than four spades, pass AS and KS (they catch the queen) — "
           "except when passing right while holding a spade below the queen: then only QS needs passing."),
    Advice("passed-low-card", "Keep very low cards (2s and 3s) in every suit: they are the exits."),
    Advice("passed-top-hearts", "Do not pass your top three hearts: it may hand someone a moon."),
    Advice("passed-singleton-ace-of-hearts", "Never pass a singleton AH."),
    Advice("broke-long-hearts", "With a long, strong heart suit holding low hearts, pass only the "
           "second-highest heart (or none when going for the moon)."),
    Advice("passed-low-spade", "Never pass spades below the queen unless going for the moon."),
]}
"""The advisor's verdict codes; each verdict is a sentence naming the cards."""


@dataclass(frozen=True, slots=True)
class PassVerdict:
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class PassReview:
    """One seat's pass in one hand."""

    seat: int
    receiver: int
    direction: str
    cards: tuple[Card, ...]
    dealt: Mask
    voids: tuple[str, ...]
    """Suits (C D H S) the pass emptied, before anything was received."""
    spade_guards: int
    """Spades below the queen kept after the pass (before receiving)."""
    kept_qs: bool
    high_hearts: int
    """Hearts J and above given."""
    back_points: int
    """Heart and QS points among the passed cards that the passer took back in play."""
    receiver_took: int
    """Heart and QS points among the passed cards that the receiver took."""
    points: int
    """The passer's points for the hand (after the moon adjustment)."""
    receiver_points: int
    verdicts: tuple[PassVerdict, ...]

    @property
    def given(self) -> Mask:
        return sum(1 << card for card in self.cards)

    def gave(self, card: Card) -> bool:
        return any(c == card for c in self.cards)

    def had(self, card: Card) -> bool:
        return bool(self.dealt >> card & 1)


def _cards(mask: Mask) -> str:
    return " ".join(card_name(c) for c in sorted(iter_cards(mask), reverse=True))


def advise(dealt: Mask, given: Mask, direction: str, mooning: bool = False) -> tuple[PassVerdict, ...]:
    """The passing advice applied to one pass (``mooning``: the passer ran for the moon this hand)."""
    out: list[PassVerdict] = []
    kept = dealt & ~given
    spades = dealt & SUIT_MASKS[SPADES]
    short = spades.bit_count()
    if short < 4:
        only = f"with only {short} spade{'' if short == 1 else 's'}"
        if kept & QS_MASK:
            out.append(PassVerdict("kept-queen-short", f"kept QS {only}"))
        exempt = direction == "right" and spades & LOW_SPADES
        if kept & HIGH_SPADES and not exempt:
            out.append(PassVerdict("kept-high-spade-short", f"kept {_cards(kept & HIGH_SPADES)} {only}"))
    if given & LOW_RANKS and not mooning:
        out.append(PassVerdict("passed-low-card", f"passed a very low card ({_cards(given & LOW_RANKS)})"))
    hearts = dealt & HEARTS_MASK
    top3 = _top(hearts, 3)
    if hearts.bit_count() >= 3 and given & top3 == top3:
        out.append(PassVerdict("passed-top-hearts", f"passed its top three hearts ({_cards(top3)}), passing {direction}"))
    ace = 1 << (HEARTS * 13 + 12)
    if hearts == ace and given & ace:
        out.append(PassVerdict("passed-singleton-ace-of-hearts", "passed a singleton AH"))
    if (hearts.bit_count() >= 5 and hearts & LOW_HEARTS and (hearts & HIGH_HEARTS).bit_count() >= 2):
        allowed = 0 if mooning else _top(hearts, 2) & ~_top(hearts, 1)
        wrong = given & HEARTS_MASK & ~allowed
        if wrong:
            advice = "pass only the second-highest heart" + (", or none when going for the moon" if mooning else "")
            out.append(PassVerdict("broke-long-hearts", f"passed {_cards(wrong)} from a long, strong heart suit ({advice})"))
    if given & LOW_SPADES and not mooning:
        out.append(PassVerdict("passed-low-spade", f"passed a spade below the queen ({_cards(given & LOW_SPADES)})"))
    return tuple(out)


def explaining_advice(dealt: Mask, given: Mask, better: Mask, direction: str) -> tuple[Advice, ...]:
    """The advice that ``given`` breaks and the ``better`` pass keeps: the rules that explain why
    the better pass is better, never a second opinion against it.

    >>> from hearts_analysis.cards import mask_of, parse_card
    >>> hand = mask_of(parse_card(c) for c in "QS 5S 2C 3C 4C 9D TD JD 2H 3H 4H 5H 6H".split())
    >>> [a.code for a in explaining_advice(hand, mask_of(parse_card(c) for c in "2C 3C 4C".split()),
    ...                                    mask_of(parse_card(c) for c in "QS JD TD".split()), "left")]
    ['kept-queen-short', 'passed-low-card']
    """
    kept = {v.code for v in advise(dealt, better, direction)}
    return tuple(ADVICE[v.code] for v in advise(dealt, given, direction) if v.code not in kept)


def _top(mask: Mask, count: int) -> Mask:
    out = 0
    for _ in range(count):
        if not mask:
            break
        bit = 1 << (mask.bit_length() - 1)
        out |= bit
        mask ^= bit
    return out


_point_value = heart_points


def review_passes(table: Table, trace: HandTrace, result: HandResult,
                  mooner: int | None = None) -> tuple[PassReview, ...]:
    """Every seat's pass in a hand (nothing on a hold hand); ``mooner`` ran for the moon."""
    if trace.direction == "hold" or not any(trace.given):
        return ()
    out = []
    for seat, given in enumerate(trace.given):
        receiver = table.pass_target(seat, trace.direction)
        dealt = trace.dealt[seat]
        kept = dealt & ~given
        voids = tuple(SUIT_LETTERS[s] for s in range(4) if dealt & SUIT_MASKS[s] and not kept & SUIT_MASKS[s])
        out.append(PassReview(
            seat=seat, receiver=receiver, direction=trace.direction,
            cards=tuple(iter_cards(given)), dealt=dealt,
            voids=voids, spade_guards=(kept & LOW_SPADES).bit_count(), kept_qs=bool(kept & QS_MASK),
            high_hearts=(given & HIGH_HEARTS).bit_count(),
            back_points=_point_value(given & result.taken[seat]),
            receiver_took=_point_value(given & result.taken[receiver]),
            points=result.points[seat], receiver_points=result.points[receiver],
            verdicts=advise(dealt, given, trace.direction, mooning=mooner == seat)))
    return tuple(out)


PASS_KINDS = ("qs", "as", "ks", "high_hearts", "low_spade", "void", "flagged")
"""Kinds of pass for the aggregates; a pass can be of several kinds."""


def pass_kinds(review: PassReview) -> dict[str, bool]:
    """Which kinds of pass this was (see :data:`PASS_KINDS`)."""
    given = review.given
    return {"qs": bool(given & QS_MASK), "as": bool(given >> AS & 1), "ks": bool(given >> KS & 1),
            "high_hearts": bool(review.high_hearts), "low_spade": bool(given & LOW_SPADES),
            "void": bool(review.voids), "flagged": bool(review.verdicts)}


def opportunities(review: PassReview) -> dict[str, bool]:
    """Which kinds of pass were possible with the dealt hand."""
    dealt = review.dealt
    return {"qs": bool(dealt & QS_MASK), "as": bool(dealt >> AS & 1), "ks": bool(dealt >> KS & 1),
            "high_hearts": bool(dealt & HIGH_HEARTS), "low_spade": bool(dealt & LOW_SPADES),
            "void": True, "flagged": True}

