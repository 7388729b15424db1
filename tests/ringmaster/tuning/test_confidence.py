"""The posterior probability that a candidate is the best, from its wins and games."""

from __future__ import annotations

import random

import pytest

from ringmaster.tuning.confidence import probability_best


def test_probability_best_is_symmetric_and_sums_to_one():
    assert probability_best([(5, 10), (5, 10)], 0) == pytest.approx(0.5, abs=1e-6)
    records = [(3, 10), (6, 10), (5, 12)]
    total = sum(probability_best(records, i) for i in range(3))
    assert total == pytest.approx(1.0, abs=1e-4)
    assert probability_best([(0, 0)] * 4, 2) == pytest.approx(0.25, abs=1e-4)


def test_probability_best_matches_sampling():
    records = [(30, 50), (24, 50), (10, 20)]
    rng = random.Random(5)
    draws = 20000
    hits = 0
    for _ in range(draws):
        values = [rng.betavariate(1 + w, 1 + g - w) for w, g in records]
        hits += values[0] == max(values)
    assert probability_best(records, 0) == pytest.approx(hits / draws, abs=0.015)


def test_probability_best_grows_with_evidence():
    assert probability_best([(60, 100), (40, 100)], 0) > probability_best([(6, 10), (4, 10)], 0)
    assert probability_best([(600, 1000), (400, 1000)], 0) > 0.999
