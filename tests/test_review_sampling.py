"""The fast deal sampler draws exactly the deals of the plain one, from the same generator stream."""

from __future__ import annotations

import numpy as np
import pytest

from hearts_analysis.cards import iter_cards
from hearts_analysis.kernel.masks import U64
from hearts_analysis.review.information_set import Knowledge
from hearts_analysis.review.sampling import _Deals, count_deals, sample_hands


def plain_sample_hands(knowledge: Knowledge, count: int, rng: np.random.Generator) -> np.ndarray:
    """The sampler as first written: per group, ``rng.choice(..., p=...)`` for each distinct room
    (``np.unique`` order), then the cards shuffled by one ``rng.random`` block, one card at a time."""
    others = [s for s in range(len(knowledge.counts)) if s != knowledge.seat]
    room = tuple(knowledge.counts[s] - knowledge.holds[s].bit_count() for s in others)
    by_mask: dict[int, list[int]] = {}
    for card in iter_cards(knowledge.unplaced):
        mask = sum(1 << i for i, s in enumerate(others) if knowledge.may_hold[s] >> card & 1)
        by_mask.setdefault(mask, []).append(card)
    groups = sorted(by_mask.items(), key=lambda item: (bin(item[0]).count("1"), item[0]))
    deals = _Deals(tuple((mask, len(cards)) for mask, cards in groups))
    assert deals.ways(0, room) > 0
    hands = np.tile(np.array(knowledge.holds, U64), (count, 1))
    rooms = np.tile(np.array(room, np.int64), (count, 1))
    for index, (_, cards) in enumerate(groups):
        split = np.zeros_like(rooms)
        distinct, inverse = np.unique(rooms, axis=0, return_inverse=True)
        for state_index, state in enumerate(distinct):
            splits, probabilities = deals.options(index, tuple(int(r) for r in state))
            members = np.flatnonzero(inverse.reshape(-1) == state_index)
            if len(splits) == 1:
                split[members] = splits[0]
            else:
                split[members] = np.array(splits)[rng.choice(len(splits), size=len(members), p=probabilities)]
        rooms -= split
        keys = rng.random((count, len(cards)))
        for row in range(count):
            place = 0
            for i, seat in enumerate(others):
                for j in np.argsort(keys[row], kind="stable")[place:place + split[row, i]]:
                    hands[row, seat] |= np.uint64(1 << cards[j])
                place += split[row, i]
    return hands


def random_knowledge(rng: np.random.Generator, players: int) -> Knowledge:
    """A true deal with some cards played, seat 0's view of it: a known passed card or two, and
    random voids (only in suits a seat really lacks), so the groups and rooms vary."""
    size = 52 // players
    deck = rng.permutation(52)[:size * players]
    hands = [set(deck[s * size:(s + 1) * size].tolist()) for s in range(players)]
    played = int(rng.integers(0, size - 1))
    for hand in hands:   # each seat has played `played` or `played + 1` cards
        for card in rng.choice(sorted(hand), size=played + int(rng.integers(0, 2)), replace=False).tolist():
            hand.remove(card)

    def mask(cards) -> int:
        return sum(1 << c for c in cards)

    hidden = set().union(*hands[1:])
    holds = [mask(hands[0])] + [0] * (players - 1)
    if played < 3 and len(hands[1]) > 1:
        holds[1] = mask(sorted(hands[1])[:int(rng.integers(1, 3))])
    may_hold = [mask(hands[0])]
    for s in range(1, players):
        voids = [suit for suit in range(4) if not any(c // 13 == suit for c in hands[s]) and rng.random() < 0.7]
        may_hold.append(mask(c for c in hidden if c // 13 not in voids) | holds[s])
    return Knowledge(0, mask(hands[0]), tuple(len(h) for h in hands), tuple(holds), tuple(may_hold))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fast_sampler_draws_the_plain_samplers_deals(players):
    rng = np.random.default_rng(players)
    voided = 0
    for case in range(40):
        knowledge = random_knowledge(rng, players)
        voided += len({m for m in knowledge.may_hold[1:]}) > 1
        for seed in (0, case + 1):
            for count in (1, 7, 128):
                fast_rng, plain_rng = np.random.default_rng(seed), np.random.default_rng(seed)
                fast = sample_hands(knowledge, count, fast_rng)
                plain = plain_sample_hands(knowledge, count, plain_rng)
                assert fast.dtype == plain.dtype
                np.testing.assert_array_equal(fast, plain)
                assert fast_rng.random() == plain_rng.random()   # the stream is left where it was
                assert all(knowledge.admits([int(h) for h in row]) for row in fast)
    assert voided > 10   # the cases exercise several groups, not just one


def test_a_second_batch_continues_the_same_stream():
    """Batches of one decision share the programme and the tables; the deals still follow the stream."""
    knowledge = random_knowledge(np.random.default_rng(11), 4)
    fast_rng, plain_rng = np.random.default_rng(5), np.random.default_rng(5)
    for count in (200, 128, 128):
        np.testing.assert_array_equal(sample_hands(knowledge, count, fast_rng),
                                      plain_sample_hands(knowledge, count, plain_rng))
    assert count_deals(knowledge) > 1


def test_searching_numpys_cdf_is_numpys_weighted_choice():
    """``Generator.choice(n, size, p=p)`` is ``random(size)`` searched in ``p.cumsum() / its last``."""
    source = np.random.default_rng(1)
    for _ in range(500):
        n = int(source.integers(2, 12))
        weights = source.integers(1, 10 ** int(source.integers(1, 18)), size=n).tolist()
        total = sum(weights)
        p = np.array([w / total for w in weights])
        size = int(source.integers(1, 300))
        seed = int(source.integers(0, 2 ** 32))
        numpy_rng, ours = np.random.default_rng(seed), np.random.default_rng(seed)
        cdf = p.cumsum()
        cdf /= cdf[-1]
        np.testing.assert_array_equal(numpy_rng.choice(n, size=size, p=p),
                                      cdf.searchsorted(ours.random(size), side="right"))
        assert numpy_rng.random() == ours.random()
