"""Tests for the numpy Gaussian process (ringmaster/tuning/gaussian_process.py)."""

import math

import numpy as np
import pytest

from ringmaster.tuning.gaussian_process import (
    GaussianProcess,
    Hyperparameters,
    fit,
    logistic,
    match_observation,
)


def test_nearly_noiseless_data_are_reproduced_and_sure_only_near_the_data():
    x = np.array([[0.1], [0.5], [0.9]])
    y = np.array([0.2, -0.1, 0.4])
    gp = GaussianProcess(x, y, np.full(3, 1e-8), Hyperparameters((0.3,), 1.0))
    mean, sd = gp.predict(x)
    assert mean == pytest.approx(y, abs=1e-4)
    assert np.all(sd < 1e-3)
    _, far_sd = gp.predict(np.array([[0.3]]))
    assert far_sd[0] > 0.05


def test_the_level_is_uncertain_with_little_data():
    # One match of 10 games: the level itself is known only to the match's noise.
    value, noise = match_observation(5, 10)
    gp = GaussianProcess(np.array([[0.5]]), np.array([value]), np.array([noise]),
                         Hyperparameters((0.3,), 0.3))
    _, sd = gp.predict(np.array([[0.5]]))
    assert sd[0] >= math.sqrt(noise) * 0.99


def test_fit_prefers_a_long_lengthscale_for_a_flat_function_and_short_for_a_wiggly_one():
    rng = np.random.default_rng(1)
    x = rng.random((60, 1))
    noise = np.full(60, 0.01)
    flat = fit(x, 0.3 * x[:, 0] + rng.normal(0, 0.1, 60), noise)
    wiggly = fit(x, np.sin(25 * x[:, 0]) + rng.normal(0, 0.1, 60), noise)
    assert flat.hyper.lengthscales[0] > wiggly.hyper.lengthscales[0]


def test_fit_finds_the_relevant_dimension():
    rng = np.random.default_rng(2)
    x = rng.random((80, 2))
    y = np.sin(8 * x[:, 0]) + rng.normal(0, 0.05, 80)
    gp = fit(x, y, np.full(80, 0.0025))
    assert gp.hyper.lengthscales[0] < gp.hyper.lengthscales[1]


def test_match_observation_is_the_logit_of_the_shrunk_rate_with_delta_method_noise():
    value, noise = match_observation(7, 10)
    assert value == pytest.approx(math.log(7.5 / 3.5))
    p = 8 / 12
    assert noise == pytest.approx(1 / (10 * p * (1 - p)))
    assert logistic(value) == pytest.approx(7.5 / 11)
