"""The game context's win chances: the quick path (first future over the line, looked up) gives exactly
what walking every path of totals through the futures gives."""

import numpy as np
import pytest

from hearts_analysis.review import context
from hearts_analysis.rules import Rules


@pytest.mark.parametrize("preset, fields, seats", [
    ("standard", {}, 4),
    ("standard", {"end_at": "exceed"}, 4),
    ("standard", {"target": 50}, 3),
    ("omnibus", {}, 5),
    ("standard", {"end_at": "exceed", "target": 26}, 4),
])
def test_the_looked_up_first_future_gives_the_chances_of_every_path(preset, fields, seats):
    table = Rules.preset(preset, **fields).table(seats)
    rng = np.random.default_rng(7)
    target = table.rules.target
    for trial in range(40):
        low = 0 if trial % 2 else target // 2   # far from the end (futures that never end it) and near it
        totals = rng.integers(low, target + 1, (int(rng.integers(1, 90)), seats))
        seat, hand = trial % seats, 5
        hands = int(np.ceil((seats * (target + 1) - totals.sum(axis=1).min()) / max(table.point_total, 1))) + 1
        hands = max(1, min(hands, context.MAX_HANDS))
        quick = context._simulated(table, totals, seat, hand)
        paths = context._simulated_paths(table, totals, seat, hand, hands)
        assert context._first_over(table, hands) is not None
        assert quick.tobytes() == paths.tobytes()


def test_a_fixed_number_of_deals_walks_the_paths():
    table = Rules.preset("standard", deals_per_game=4).table(4)
    totals = np.array([[10, 20, 30, 40], [0, 0, 0, 0]])
    assert context._simulated(table, totals, 0, 2).tolist() == context._simulated_paths(table, totals, 0, 2, 2).tolist()
