"""The leak finder's exact test and interval, held equal to scipy.stats, which they stand in for at run time."""

import random

import pytest
from scipy import stats

from hearts_analysis.analysis.significance import fisher_tail, wilson_interval


@pytest.mark.parametrize("seed", range(4))
def test_fisher_tail_equals_the_hypergeometric_law_of_scipy(seed):
    rng = random.Random(seed)
    for _ in range(300):
        population = rng.randint(1, 20_000)
        events, draws = rng.randint(0, population), rng.randint(0, population)
        hits = rng.randint(max(0, draws + events - population), min(draws, events))
        more = fisher_tail(hits, draws, events, population, more=True)
        fewer = fisher_tail(hits, draws, events, population, more=False)
        assert more == pytest.approx(min(1.0, stats.hypergeom.sf(hits - 1, population, events, draws)),
                                     rel=1e-8, abs=1e-290)
        assert fewer == pytest.approx(min(1.0, stats.hypergeom.cdf(hits, population, events, draws)),
                                      rel=1e-8, abs=1e-290)


def test_fisher_tail_is_fishers_exact_test():
    table = [[31, 69], [40, 160]]
    for more, alternative in ((True, "greater"), (False, "less")):
        assert fisher_tail(31, 100, 71, 300, more) == pytest.approx(
            stats.fisher_exact(table, alternative=alternative).pvalue, rel=1e-10)


def test_fisher_tail_of_a_count_outside_the_support_is_certain_or_impossible():
    assert fisher_tail(5, 4, 10, 20, more=True) == 0.0 and fisher_tail(5, 4, 10, 20, more=False) == 1.0


@pytest.mark.parametrize("hits,trials", [(0, 1), (0, 10), (10, 10), (3, 17), (50, 100), (1, 1000), (999, 1000)])
def test_wilson_interval_equals_scipys(hits, trials):
    expected = stats.binomtest(hits, trials).proportion_ci(0.95, method="wilson")
    assert wilson_interval(hits, trials) == pytest.approx((expected.low, expected.high), rel=1e-12, abs=1e-15)
