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
    trend_features,
    trend_size,
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


def test_the_quadratic_trend_has_every_term_of_a_full_quadratic():
    features = trend_features(np.array([[0.5, 0.5], [1.0, 0.0]]), "quadratic")
    assert features.shape == (2, trend_size(2, "quadratic")) == (2, 6)
    assert features[0] == pytest.approx([1, 0, 0, 0, 0, 0])
    assert features[1] == pytest.approx([1, 0.5, -0.5, 0.25, -0.25, 0.25])   # 1, z0, z1, z0², z0z1, z1²
    with pytest.raises(ValueError, match="trend must be one of constant, quadratic"):
        trend_features(np.zeros((1, 1)), "cubic")


def quadratic_surface(x):
    a, b = x[:, 0] - 0.3, x[:, 1] - 0.6
    return 0.4 - 2.0 * a * a - 1.0 * b * b + 0.5 * a * b


def test_a_quadratic_trend_extrapolates_a_quadratic_and_a_constant_one_does_not():
    rng = np.random.default_rng(3)
    x = 0.3 + 0.4 * rng.random((30, 2))          # data only in the middle of the square
    y = quadratic_surface(x)
    hyper = Hyperparameters((0.3, 0.3), 0.2)
    corners = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    quadratic = GaussianProcess(x, y, np.full(30, 1e-6), hyper, trend="quadratic")
    constant = GaussianProcess(x, y, np.full(30, 1e-6), hyper, trend="constant")
    assert quadratic.predict_mean(corners) == pytest.approx(quadratic_surface(corners), abs=1e-3)
    assert np.max(np.abs(constant.predict_mean(corners) - quadratic_surface(corners))) > 0.3


def test_predictions_match_the_limit_of_a_broad_prior_on_the_trend():
    # A flat prior on the trend's coefficients is the limit of a N(0, v I) prior as v grows, and
    # that prior is a GP whose kernel adds v H H'. The closed forms must agree with it, and the
    # REML likelihood must rank hyperparameters as the broad prior's marginal likelihood does.
    rng = np.random.default_rng(4)
    x = rng.random((12, 2))
    y = np.sin(4 * x[:, 0]) + x[:, 1] + rng.normal(0, 0.1, 12)
    noise = np.full(12, 0.01)
    points = rng.random((5, 2))
    v = 1e6
    h, hp = trend_features(x, "quadratic"), trend_features(points, "quadratic")

    def broad_prior(hyper):
        signal_var = hyper.signal_sd ** 2
        k_total = signal_var * _matern(x, x, hyper) + np.diag(noise) + v * h @ h.T
        cross = signal_var * _matern(points, x, hyper) + v * hp @ h.T
        prior = signal_var * _matern(points, points, hyper) + v * hp @ hp.T
        mean = cross @ np.linalg.solve(k_total, y)
        var = np.diag(prior - cross @ np.linalg.solve(k_total, cross.T))
        sign, logdet = np.linalg.slogdet(k_total)
        log_likelihood = -0.5 * y @ np.linalg.solve(k_total, y) - 0.5 * logdet
        return mean, np.sqrt(var), log_likelihood

    hypers = [Hyperparameters((0.3, 0.5), 0.8), Hyperparameters((0.6, 0.2), 0.3)]
    likelihoods = []
    for hyper in hypers:
        gp = GaussianProcess(x, y, noise, hyper, trend="quadratic")
        mean, sd, log_likelihood = broad_prior(hyper)
        got_mean, got_sd = gp.predict(points)
        assert got_mean == pytest.approx(mean, abs=1e-4)
        assert got_sd == pytest.approx(sd, rel=1e-3)
        likelihoods.append((gp.log_marginal_likelihood(), log_likelihood))
    (reml_a, broad_a), (reml_b, broad_b) = likelihoods
    assert reml_a - reml_b == pytest.approx(broad_a - broad_b, abs=1e-3)


def _matern(a, b, hyper):
    from ringmaster.tuning.gaussian_process import matern52, squared_differences
    return matern52(squared_differences(a, b), np.asarray(hyper.lengthscales))
