"""The passing advice as a bound on the review's better pass, so a page has one judge.

The rollout players are models of the opponents with known blind spots (they never flush QS
with low spades, never run for a moon), and passes are where those blind spots show. The
passing advice is what good players know of them. So the review never names as better a pass
that breaks a rule of the advice the played pass kept: such a verdict would be the model's
blind spot speaking against the advice on the same page. Only passes that keep every rule the
played pass kept compete; the advice the played pass broke and the better pass keeps then
explains the verdict (:func:`~hearts_analysis.analysis.passes.explaining_advice`).

Passes are reviewed up to interchangeable cards (passing 4C from 2C 3C 4C is passing 2C), and
the advice is not: of the passes interchangeable with a candidate, the one that keeps the most
advice stands for it.

>>> from hearts_analysis.cards import iter_cards, mask_of, names, parse_card
>>> def cards(text): return mask_of(parse_card(c) for c in text.split())
>>> hand = cards("QS 5S 2C 3C 4C 9D TD JD 2H 3H 4H 5H 6H")
>>> bound = AdviceBound(hand, cards("QS TD 9D"), "left")       # the played pass keeps every rule
>>> bound.keeps(cards("QS JD TD")), bound.keeps(cards("JD TD 9D"))   # the second keeps QS with two spades
(True, False)
>>> bound = AdviceBound(hand, cards("JD TD 9D"), "left")       # now keeping QS is the played pass's own fault
>>> bound.keeps(cards("QS JD TD")), bound.keeps(cards("JD TD 4H")), bound.keeps(cards("JD TD 2H"))
(True, True, False)
>>> names(iter_cards(bound.shown([cards("2C JD TD"), cards("4C JD TD")])))   # 2C and 4C are one choice here
['4C', 'TD', 'JD']
"""

from __future__ import annotations

from itertools import product
from typing import Sequence

from ..analysis.passes import advise
from ..cards import Mask


def broken(dealt: Mask, given: Mask, direction: str) -> frozenset[str]:
    """The codes of the advice rules passing ``given`` from ``dealt`` breaks."""
    return frozenset(v.code for v in advise(dealt, given, direction))


class AdviceBound:
    """Which passes may be named better than ``played``: those breaking no rule it kept."""

    def __init__(self, dealt: Mask, played: Mask, direction: str):
        self.dealt, self.direction = dealt, direction
        self.allowed = broken(dealt, played, direction)
        self._kept: dict[Mask, bool] = {}

    def keeps(self, given: Mask) -> bool:
        """``given`` breaks no advice the played pass kept (each pass judged once: the members of
        many candidates are the same few passes)."""
        kept = self._kept.get(given)
        if kept is None:
            kept = self._kept[given] = broken(self.dealt, given, self.direction) <= self.allowed
        return kept

    def shown(self, members: Sequence[Mask]) -> Mask | None:
        """Of interchangeable passes (``members``, the review's own first), the first that keeps
        what the played pass kept, or ``None`` if none does (then none may be named better)."""
        return next((m for m in members if self.keeps(m)), None)


def members(groups: Sequence[Sequence[int]], choice: Mask) -> list[Mask]:
    """The passes interchangeable with ``choice``: from each run of ``groups`` it takes cards of,
    its lowest or its highest that many (``choice`` itself first). Enough for the advice, whose
    rules look at the low and the high end of a suit."""
    ends = []
    for group in groups:
        # the run's cards are in order, so its ends are its mask's lowest and highest ``take`` bits
        run = 0
        for card in group:
            run |= 1 << card
        take = (choice & run).bit_count()
        if not take:
            ends.append((0,))
            continue
        low, high, rest = 0, 0, run
        for _ in range(take):
            low |= rest & -rest
            rest &= rest - 1
        rest = run
        for _ in range(take):
            top = 1 << (rest.bit_length() - 1)
            high |= top
            rest &= ~top
        ends.append((low,) if low == high else (low, high))
    out = [choice]
    for parts in product(*ends):
        mask = sum(parts)
        if mask not in out:
            out.append(mask)
    return out
