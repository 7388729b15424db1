"""Allocation methods: counts sum to the batch and match their expected proportions."""

import numpy as np
import pytest

from players.mcts.allocation import allocate, divisor_method, remainder_method


@pytest.mark.parametrize("method", ["divisor", "remainder"])
@pytest.mark.parametrize("divisor", [1, 4, 20])
def test_uniform_proportions(method, divisor):
    rng = np.random.default_rng(divisor)
    totals = np.zeros(6)
    for _ in range(400):
        counts = allocate(method, 99, 6, divisor=divisor, rng=rng)
        assert counts.sum() == 99 and (counts >= 0).all()
        totals += counts
    share = totals / totals.sum()
    assert share == pytest.approx(np.full(6, 1 / 6), abs=0.02 if divisor > 1 else 0.035)


@pytest.mark.parametrize("method", ["divisor", "remainder"])
def test_biased_proportions(method):
    rng = np.random.default_rng(7)
    weights = np.array([0.5, 0.3, 0.15, 0.05])
    totals = np.zeros(4)
    for _ in range(400):
        counts = allocate(method, 50, 4, divisor=5, rng=rng, weights=weights)
        assert counts.sum() == 50
        totals += counts
    assert totals / totals.sum() == pytest.approx(weights, abs=0.02)


def test_small_divisor_clusters_more_than_large():
    rng = np.random.default_rng(3)
    spread = {}
    for divisor in (1, 50):
        spread[divisor] = np.mean([divisor_method(1000, 10, divisor, rng).std()
                                   for _ in range(200)])
    assert spread[1] > 2 * spread[50]


def test_remainder_method_is_even_when_samples_divide():
    rng = np.random.default_rng(0)
    assert remainder_method(40, 8, 3, rng).tolist() == [5] * 8
    counts = remainder_method(43, 8, 3, rng)
    assert counts.sum() == 43 and counts.min() >= 5 and counts.max() <= 8


def test_bad_arguments():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError):
        allocate("nope", 10, 3, divisor=2, rng=rng)
    with pytest.raises(ValueError):
        divisor_method(10, 3, 0, rng)
    with pytest.raises(ValueError):
        divisor_method(10, 3, 2, rng, weights=np.array([1.0, -1.0, 1.0]))
