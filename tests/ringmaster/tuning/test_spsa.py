"""Tests for SPSA's gain schedule and update (ringmaster/tuning/spsa.py)."""

import math

import pytest

from ringmaster.tuning.spsa import Schedule, default_c_end, default_r_end, perturbed, updated


def test_the_last_iteration_has_the_final_perturbation_and_learning_rate():
    schedule = Schedule(iterations=500, c_end=(0.05, 0.2), r_end=(0.002, 0.01))
    assert schedule.c_k(500) == pytest.approx([0.05, 0.2])
    assert schedule.r_k(500) == pytest.approx([0.002, 0.01])


def test_gains_follow_fishtests_formulas_at_the_first_iteration():
    n, c_end, r_end = 1000, 0.1, 0.004
    schedule = Schedule(iterations=n, c_end=(c_end,), r_end=(r_end,))
    big_a = 0.1 * n
    c = c_end * n ** 0.101
    a = r_end * c_end ** 2 * (big_a + n) ** 0.602
    assert schedule.big_a == big_a
    assert schedule.c_k(1) == pytest.approx([c])
    assert schedule.r_k(1) == pytest.approx([a / (big_a + 1) ** 0.602 / c ** 2])


def test_perturbation_shrinks_over_the_run():
    schedule = Schedule(iterations=100, c_end=(0.05,), r_end=(0.01,))
    values = [schedule.c_k(k)[0] for k in (1, 10, 50, 100)]
    assert values == sorted(values, reverse=True)


def test_default_r_end_shrinks_with_the_run_and_is_capped():
    assert default_r_end(100) == 0.1
    assert default_r_end(10000) == pytest.approx(0.015)
    assert default_r_end(2500) > default_r_end(10000)


def test_perturbed_points_are_clipped_to_the_unit_cube():
    assert perturbed([0.5, 0.98], [0.1, 0.1], [1, 1], +1) == pytest.approx([0.6, 1.0])
    assert perturbed([0.5, 0.02], [0.1, 0.1], [1, 1], -1) == pytest.approx([0.4, 0.0])


def test_update_moves_along_the_flip_by_r_times_c_times_score():
    theta = updated([0.5, 0.5], [0.2, 0.2], [0.1, 0.1], [1, -1], 1.0)
    assert theta == pytest.approx([0.52, 0.48])
    assert updated([0.999], [1.0], [1.0], [1], 2.0) == [1.0]
    assert not math.isnan(updated([0.5], [0.0], [0.1], [1], 1.0)[0])


def test_the_default_perturbation_grows_with_the_square_root_of_the_parameters_up_to_a_fifth():
    assert default_c_end(1) == pytest.approx(0.05)
    assert default_c_end(4) == pytest.approx(0.1)
    assert default_c_end(2) == pytest.approx(0.05 * math.sqrt(2))
    assert default_c_end(16) == default_c_end(40) == pytest.approx(0.2)
