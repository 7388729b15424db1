"""Tests for the numpy Gaussian process on binomial match results (ringmaster/tuning/gaussian_process.py)."""

import math

import numpy as np
import pytest
from scipy import optimize, stats

import ringmaster.tuning.gaussian_process as gp_module
from ringmaster.tuning.gaussian_process import (
    GaussianProcess,
    Hyperparameters,
    expected_best,
    fit,
    knowledge_gradient,
    knowledge_gradient_head_to_head,
    matern52,
    mean_hessian,
    posterior_samples,
    principal_axes,
    prior_covariance,
    trend_features,
    trend_size,
    turned_in_plane,
)


def test_one_even_match_at_the_middle_is_checked_by_hand():
    # 4 wins of 8 at x = 0.5: by symmetry the mode is f = 0, where W = 8 * 1/4 = 2. The prior
    # variance there is signal 1 + level 1 (the quadratic's other terms vanish at z = 0) = 2,
    # so the posterior variance is 2 - 2 * 2 / (2 + 1/2) = 0.4.
    gp = GaussianProcess(np.array([[0.5]]), np.array([4.0]), np.array([8.0]),
                         Hyperparameters((0.3,), 1.0), trend="quadratic")
    mean, sd = gp.predict(np.array([[0.5]]))
    assert mean[0] == pytest.approx(0.0, abs=1e-9)
    assert sd[0] ** 2 == pytest.approx(0.4)


def test_three_points_match_the_textbook_laplace_posterior():
    # Rasmussen and Williams, section 3.4: f_hat maximises log p(w | f) - f'K^-1 f / 2, then at a new
    # point mean k*'K^-1 f_hat and variance k** - k*'(K + W^-1)^-1 k*. Computed here with scipy's
    # optimiser and plain inverses, the constant trend written out as a kernel term (level sd 1).
    x = np.array([[0.1], [0.4], [0.8]])
    wins, games = np.array([3.0, 7.0, 4.0]), np.array([10.0, 10.0, 6.0])
    hyper = Hyperparameters((0.3,), 0.7)

    def kernel(a, b):
        r = np.abs(a[:, None, 0] - b[None, :, 0]) / 0.3 * math.sqrt(5)
        return 0.49 * (1 + r + r * r / 3) * np.exp(-r) + 1.0

    k = kernel(x, x)

    def negative_log_posterior(f):
        p = 1 / (1 + np.exp(-f))
        return -np.sum(wins * np.log(p) + (games - wins) * np.log(1 - p)) + 0.5 * f @ np.linalg.solve(k, f)

    f_hat = optimize.minimize(negative_log_posterior, np.zeros(3), method="BFGS", tol=1e-12).x
    p = 1 / (1 + np.exp(-f_hat))
    w_inv = np.diag(1 / (games * p * (1 - p)))
    new = np.array([[0.25], [0.6], [1.0]])
    k_star = kernel(new, x)
    expected_mean = k_star @ np.linalg.solve(k, f_hat)
    expected_var = np.diag(kernel(new, new) - k_star @ np.linalg.inv(k + w_inv) @ k_star.T)

    gp = GaussianProcess(x, wins, games, hyper, trend="constant")
    mean, sd = gp.predict(new)
    assert gp.predict_mean(x) == pytest.approx(f_hat, abs=1e-5)
    assert mean == pytest.approx(expected_mean, abs=1e-5)
    assert sd ** 2 == pytest.approx(expected_var, rel=1e-5)
    # Laplace's marginal likelihood: log p(w | f_hat) - f_hat'K^-1 f_hat / 2 - log|I + W K| / 2.
    expected_lml = (-negative_log_posterior(f_hat)
                    - 0.5 * np.linalg.slogdet(np.eye(3) + np.linalg.inv(w_inv) @ k)[1])
    assert gp.log_marginal_likelihood() == pytest.approx(expected_lml, abs=1e-6)
    # The posterior covariance between points is the same formula off the diagonal.
    cov = gp.covariance(new, new)
    assert cov == pytest.approx(kernel(new, new) - k_star @ np.linalg.inv(k + w_inv) @ k_star.T, abs=1e-6)


def test_a_head_to_head_match_matches_the_laplace_posterior_over_the_points_values():
    # Chu and Ghahramani's form, computed independently: the latent values are f at the distinct
    # points [0.2, 0.5, 0.8]; a match between 0.8 and 0.2 has p = logistic(f(0.8) - f(0.2)), the
    # others are against the opponent. f_hat maximises the log posterior (scipy), W is the log
    # likelihood's Hessian in f (not diagonal: the head-to-head match couples two points), and at
    # new points mean k*'K^-1 f_hat, variance k** - k*'K^-1 k* + k*'K^-1 (K^-1 + W)^-1 K^-1 k*.
    points = np.array([[0.2], [0.5], [0.8]])
    hyper = Hyperparameters((0.3,), 0.7)

    def kernel(a, b):
        r = np.abs(a[:, None, 0] - b[None, :, 0]) / 0.3 * math.sqrt(5)
        return 0.49 * (1 + r + r * r / 3) * np.exp(-r) + 1.0

    k = kernel(points, points)
    # matches: 0.2 vs opponent 3/8, 0.5 vs opponent 5/8, 0.8 head to head against 0.2: 9/12
    rows = np.array([[1, 0, 0], [0, 1, 0], [-1, 0, 1]], dtype=float)
    wins, games = np.array([3.0, 5.0, 9.0]), np.array([8.0, 8.0, 12.0])

    def negative_log_posterior(f):
        g = rows @ f
        return (np.sum(wins * np.logaddexp(0, -g) + (games - wins) * np.logaddexp(0, g))
                + 0.5 * f @ np.linalg.solve(k, f))

    f_hat = optimize.minimize(negative_log_posterior, np.zeros(3), method="BFGS", tol=1e-12).x
    q = 1 / (1 + np.exp(-(rows @ f_hat)))
    w = rows.T @ np.diag(games * q * (1 - q)) @ rows
    k_inv = np.linalg.inv(k)
    new = np.array([[0.1], [0.35], [0.65], [0.95]])
    k_star = kernel(new, points)
    expected_mean = k_star @ k_inv @ f_hat
    expected_cov = (kernel(new, new) - k_star @ k_inv @ k_star.T
                    + k_star @ k_inv @ np.linalg.inv(k_inv + w) @ k_inv @ k_star.T)

    nan = [np.nan]
    gp = GaussianProcess(np.array([[0.2], [0.5], [0.8]]), wins, games, hyper, trend="constant",
                         other=np.array([nan, nan, [0.2]]))
    mean, sd = gp.predict(new)
    assert gp.predict_mean(points) == pytest.approx(f_hat, abs=1e-5)
    assert mean == pytest.approx(expected_mean, abs=1e-5)
    assert sd ** 2 == pytest.approx(np.diag(expected_cov), rel=1e-5)
    assert gp.covariance(new, new) == pytest.approx(expected_cov, abs=1e-6)
    # Laplace's marginal likelihood: log p(w | f_hat) - f_hat'K^-1 f_hat / 2 - log|I + K W| / 2.
    expected_lml = -negative_log_posterior(f_hat) - 0.5 * np.linalg.slogdet(np.eye(3) + k @ w)[1]
    assert gp.log_marginal_likelihood() == pytest.approx(expected_lml, abs=1e-6)


def test_a_head_to_head_match_says_nothing_of_the_level():
    # Only differences were played: the mean's level stays the prior's (0) at the middle of the
    # pair, the winner's side is above it, and the uncertainty of the level barely shrinks.
    hyper = Hyperparameters((0.5,), 0.5)
    gp = GaussianProcess(np.array([[0.7]]), np.array([30.0]), np.array([40.0]), hyper,
                         trend="constant", other=np.array([[0.3]]))
    mean, sd = gp.predict(np.array([[0.3], [0.5], [0.7]]))
    assert mean[1] == pytest.approx(0.0, abs=1e-9)
    assert mean[2] == pytest.approx(-mean[0]) and mean[2] > 0.3
    prior_sd = math.sqrt(1.0 + 0.25)
    assert sd[1] == pytest.approx(prior_sd, rel=0.02)
    # The same games against the opponent at both points tell the level.
    both = GaussianProcess(np.array([[0.3], [0.7]]), np.array([10.0, 30.0]), np.array([40.0, 40.0]),
                           hyper, trend="constant")
    assert both.predict(np.array([[0.5]]))[1][0] < 0.6 * prior_sd


def test_no_head_to_head_match_is_the_plain_model():
    x = np.array([[0.2], [0.6]])
    hyper = Hyperparameters((0.3,), 0.8)
    plain = GaussianProcess(x, np.array([3.0, 6.0]), np.array([8.0, 8.0]), hyper, trend="quadratic")
    marked = GaussianProcess(x, np.array([3.0, 6.0]), np.array([8.0, 8.0]), hyper, trend="quadratic",
                             other=np.full((2, 1), np.nan))
    new = np.array([[0.1], [0.9]])
    assert marked.predict(new)[0] == pytest.approx(plain.predict(new)[0])
    assert marked.predict(new)[1] == pytest.approx(plain.predict(new)[1])


def test_the_head_to_head_knowledge_gradient_is_the_expectation_over_the_matchs_result():
    # Independently: the posterior's joint covariance of f at the pair's points and the answers,
    # the difference's variance and its covariance with each answer written out; the expectation
    # of the best mean after the match is then expected_best's (its quadrature is checked against
    # the closed form above), and within its quadrature error of a Monte Carlo one.
    nan = [np.nan]
    gp = GaussianProcess(np.array([[0.2], [0.5], [0.8], [0.6]]), np.array([5.0, 7.0, 4.0, 5.0]),
                         np.array([10.0, 10.0, 10.0, 8.0]), Hyperparameters((0.25,), 0.8),
                         other=np.array([nan, nan, nan, [0.4]]))
    plus, minus = np.array([[0.55], [0.7], [0.3]]), np.array([[0.45], [0.3], [0.7]])
    answers = np.array([[0.4], [0.5], [0.62], [0.75]])
    got = knowledge_gradient_head_to_head(gp, plus, minus, answers, 12)
    means = gp.predict_mean(answers)
    normal = np.random.default_rng(0).standard_normal(400_000)
    for i in range(3):
        stacked = np.concatenate([plus[i:i + 1], minus[i:i + 1], answers])
        cov = gp.covariance(stacked, stacked)
        var_g = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
        cov_g = cov[0, 2:] - cov[1, 2:]
        q = 1 / (1 + np.exp(-(gp.predict_mean(plus[i:i + 1]) - gp.predict_mean(minus[i:i + 1]))[0]))
        moves = cov_g / math.sqrt(var_g + 1 / (12 * q * (1 - q)))
        assert got[i] == pytest.approx(expected_best(means, moves[None, :])[0] - means.max(), abs=1e-9)
        sampled = np.mean(np.max(means[None, :] + moves[None, :] * normal[:, None], axis=1)) - means.max()
        assert got[i] == pytest.approx(sampled, abs=5e-3)
        assert got[i] > 0
    # A pair mirrored (minus against plus) is the same match, seen from the other side.
    assert knowledge_gradient_head_to_head(gp, minus, plus, answers, 12) == pytest.approx(got, abs=1e-9)


def test_fit_takes_head_to_head_matches():
    # A peak at 0.6 seen only through pairs either side of it (and two matches for the level).
    rng = np.random.default_rng(3)
    centre = rng.uniform(0.2, 0.8, 60)
    step = rng.uniform(0.05, 0.2, 60)
    x, other = np.clip(centre + step, 0, 1), np.clip(centre - step, 0, 1)

    def strength(u):
        return 0.5 - 6.0 * (u - 0.6) ** 2

    p = 1 / (1 + np.exp(-(strength(x) - strength(other))))
    wins = rng.binomial(20, p).astype(float)
    gp = fit(np.concatenate([x, [0.1, 0.9]])[:, None], np.concatenate([wins, [4.0, 6.0]]),
             np.full(62, 20.0), trend="quadratic",
             other=np.concatenate([other, [np.nan, np.nan]])[:, None])
    grid = np.linspace(0, 1, 201)[:, None]
    assert abs(grid[int(np.argmax(gp.predict_mean(grid)))][0] - 0.6) < 0.05


def test_fit_gives_the_model_its_hyperparameters_give_to_the_last_digit():
    # A resumed run keeps only the hyperparameters and solves the model from them: it must be
    # the model the search returned, not one whose mode was warm-started from a neighbour's.
    rng = np.random.default_rng(5)
    x = rng.random((40, 2))
    rate = 1 / (1 + np.exp(-(0.4 - 3.0 * (x[:, 0] + x[:, 1] - 1.0) ** 2)))
    wins, games = rng.binomial(12, rate).astype(float), np.full(40, 12.0)
    other = np.where(np.arange(40)[:, None] % 3 == 0, rng.random((40, 2)), np.nan)
    for pairs in (None, other):
        gp = fit(x, wins, games, trend="quadratic", other=pairs)
        again = GaussianProcess(x, wins, games, gp.hyper, trend="quadratic", other=pairs)
        assert np.array_equal(gp.mode, again.mode)
        grid = rng.random((50, 2))
        assert np.array_equal(gp.predict(grid)[1], again.predict(grid)[1])


def test_a_two_game_match_is_worth_what_two_games_are():
    # The old model turned 1 win in 2 into a logit with a guessed variance; the binomial model
    # must give a lone 2-game match at 50% the same mode as 0 games, and less spread.
    hyper = Hyperparameters((0.3,), 1.0)
    x = np.array([[0.5]])
    none = GaussianProcess(x, np.array([0.0]), np.array([0.0]), hyper)
    two = GaussianProcess(x, np.array([1.0]), np.array([2.0]), hyper)
    many = GaussianProcess(x, np.array([100.0]), np.array([200.0]), hyper)
    sds = [g.predict(x)[1][0] for g in (none, two, many)]
    assert none.predict_mean(x)[0] == pytest.approx(0.0) == pytest.approx(two.predict_mean(x)[0])
    assert sds[0] > sds[1] > sds[2]
    assert sds[0] ** 2 == pytest.approx(2.0)      # the prior: signal 1 + level 1


def test_fit_prefers_a_long_lengthscale_for_a_flat_landscape_and_short_for_a_wiggly_one():
    rng = np.random.default_rng(1)
    x = rng.random((60, 1))
    games = np.full(60, 200.0)
    flat = fit(x, rng.binomial(200, 1 / (1 + np.exp(-0.3 * x[:, 0]))).astype(float), games)
    wiggly = fit(x, rng.binomial(200, 1 / (1 + np.exp(-np.sin(25 * x[:, 0])))).astype(float), games)
    assert flat.hyper.lengthscales[0] > wiggly.hyper.lengthscales[0]


def test_fit_finds_the_relevant_dimension():
    rng = np.random.default_rng(2)
    x = rng.random((80, 2))
    rate = 1 / (1 + np.exp(-np.sin(8 * x[:, 0])))
    gp = fit(x, rng.binomial(400, rate).astype(float), np.full(80, 400.0))
    assert gp.hyper.lengthscales[0] < gp.hyper.lengthscales[1]


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
    games = np.full(30, 1e6)
    wins = games / (1 + np.exp(-quadratic_surface(x)))
    hyper = Hyperparameters((0.3, 0.3), 0.2)
    corners = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    quadratic = GaussianProcess(x, wins, games, hyper, trend="quadratic")
    constant = GaussianProcess(x, wins, games, hyper, trend="constant")
    # The trend's coefficients have a prior (not flat), so the extrapolation is near, not exact.
    assert quadratic.predict_mean(corners) == pytest.approx(quadratic_surface(corners), abs=0.15)
    assert np.max(np.abs(constant.predict_mean(corners) - quadratic_surface(corners))) > 0.3


def test_expected_best_of_two_lines_is_the_closed_form():
    # E max(a1 + b1 Z, a2 + b2 Z) = a1 + E max(0, m + s Z), m = a2 - a1, s = b2 - b1 > 0,
    # and E max(0, m + s Z) = m Phi(m / s) + s phi(m / s).
    means = np.array([0.3, 0.1])
    moves = np.array([[0.05, 0.4], [0.2, 0.25], [0.0, 0.0]])
    got = expected_best(means, moves)
    for row, value in zip(moves, got):
        m, s = means[1] - means[0], row[1] - row[0]
        exact = means[0] + (m * stats.norm.cdf(m / s) + s * stats.norm.pdf(m / s) if s > 0 else max(m, 0))
        assert value == pytest.approx(exact, abs=2e-3)


def test_the_knowledge_gradient_of_one_answer_is_zero_and_of_two_is_the_closed_form():
    x = np.array([[0.2], [0.5], [0.8]])
    gp = GaussianProcess(x, np.array([5.0, 7.0, 4.0]), np.array([10.0, 10.0, 10.0]),
                         Hyperparameters((0.25,), 0.8))
    choices = np.array([[0.3], [0.65], [0.95]])
    # One possible answer: a match can't change which point is best.
    assert knowledge_gradient(gp, choices, np.array([[0.5]]), 10) == pytest.approx(0.0, abs=1e-12)
    # Two: the closed form above, with the moves computed from the posterior by hand.
    answers = np.array([[0.45], [0.7]])
    means = gp.predict_mean(answers)
    mean_x, sd_x = gp.predict(choices)
    p = 1 / (1 + np.exp(-mean_x))
    moves = gp.covariance(choices, answers) / np.sqrt(sd_x ** 2 + 1 / (10 * p * (1 - p)))[:, None]
    got = knowledge_gradient(gp, choices, answers, 10)
    for row, value in zip(moves, got):
        lo = int(np.argmin(row))
        m, s = means[1 - lo] - means[lo], abs(row[1] - row[0])
        exact = means[lo] + m * stats.norm.cdf(m / s) + s * stats.norm.pdf(m / s) - means.max()
        assert value == pytest.approx(exact, abs=2e-3)
        assert value > 0


def test_posterior_samples_have_the_posteriors_mean_and_covariance():
    x = np.array([[0.1], [0.5], [0.9]])
    gp = GaussianProcess(x, np.array([2.0, 8.0, 5.0]), np.array([10.0, 10.0, 10.0]),
                         Hyperparameters((0.3,), 1.0))
    points = np.array([[0.2], [0.5], [0.7]])
    draws = posterior_samples(gp, points, 40000, np.random.default_rng(5))
    assert draws.mean(axis=0) == pytest.approx(gp.predict_mean(points), abs=0.02)
    assert np.cov(draws.T) == pytest.approx(gp.covariance(points, points), abs=0.02)


def test_matern_is_one_at_zero_distance_and_the_textbook_formula_elsewhere():
    a, b = np.array([[0.0, 0.0]]), np.array([[0.0, 0.0], [0.3, 0.4]])
    got = matern52(a, b, np.array([0.5, 1.0]))
    r = math.sqrt(5) * math.sqrt((0.3 / 0.5) ** 2 + 0.4 ** 2)
    assert got[0] == pytest.approx([1.0, (1 + r + r * r / 3) * math.exp(-r)])


# A kernel turned onto the trend's principal axes

def test_a_rotated_kernel_is_the_kernel_of_the_rotated_points():
    turn = math.radians(30)
    rotation = ((math.cos(turn), -math.sin(turn)), (math.sin(turn), math.cos(turn)))
    a, b = np.array([[0.1, 0.9], [0.5, 0.5]]), np.array([[0.3, 0.2], [1.0, 0.0], [0.6, 0.7]])
    turned = prior_covariance(a, b, Hyperparameters((0.2, 0.9), 1.3, rotation), "constant")
    matrix = np.array(rotation)
    expected = 1.3 ** 2 * matern52(a @ matrix.T, b @ matrix.T, np.array([0.2, 0.9])) + 1.0   # + level sd²
    assert turned == pytest.approx(expected)
    plain = prior_covariance(a, b, Hyperparameters((0.2, 0.9), 1.3), "constant")
    assert not np.allclose(turned, plain)       # the lengthscales now follow the turned axes


def diagonal_ridge(x):
    along, across = (x[:, 0] + x[:, 1] - 1.0) / math.sqrt(2), (x[:, 0] - x[:, 1]) / math.sqrt(2)
    return 0.3 - 12.0 * along ** 2 - 0.5 * across ** 2


def test_the_means_hessian_and_principal_axes_on_a_diagonal_ridge():
    # Noise-free counts of a quadratic with its ridge along x0 = x1: -12 along² - 0.5 across² is
    # -6.25 z0² - 11.5 z0 z1 - 6.25 z1², whose Hessian is [[-12.5, -11.5], [-11.5, -12.5]], the
    # same everywhere; its eigenvectors are the diagonals.
    rng = np.random.default_rng(5)
    x = rng.random((40, 2))
    games = np.full(40, 1e6)
    gp = GaussianProcess(x, games / (1 + np.exp(-diagonal_ridge(x))), games,
                         Hyperparameters((0.3, 0.3), 0.05), trend="quadratic")
    for centre in ([0.5, 0.5], [0.2, 0.7]):
        assert mean_hessian(gp, np.array(centre)) == pytest.approx(
            np.array([[-12.5, -11.5], [-11.5, -12.5]]), abs=0.1)
    axes = np.abs(np.array(principal_axes(gp)))
    assert axes == pytest.approx(np.full((2, 2), 1 / math.sqrt(2)), abs=0.01)
    assert principal_axes(GaussianProcess(x[:1, :1], games[:1] / 2, games[:1],
                                          Hyperparameters((0.3,), 1.0), trend="quadratic")) is None


def test_fit_turns_the_kernel_onto_a_diagonal_ridge_and_not_onto_an_upright_one():
    rng = np.random.default_rng(6)
    x = rng.random((120, 2))
    games = np.full(120, 400.0)
    # Waves across the diagonal x0 = x1, slow along it: one short lengthscale on turned axes.
    strength = np.sin(10.0 * (x[:, 0] + x[:, 1] - 1.0) / math.sqrt(2)) \
        - 0.5 * ((x[:, 0] - x[:, 1]) / math.sqrt(2)) ** 2
    gp = fit(x, rng.binomial(400, 1 / (1 + np.exp(-strength))).astype(float), games, trend="quadratic")
    assert gp.hyper.rotation is not None
    steep = int(np.argmin(gp.hyper.lengthscales))      # the axis with the short lengthscale
    assert np.abs(gp.hyper.rotation[steep]) == pytest.approx([1 / math.sqrt(2)] * 2, abs=0.15)
    upright = fit(x, rng.binomial(400, 1 / (1 + np.exp(-np.sin(8 * x[:, 0])))).astype(float), games,
                  trend="quadratic")
    if upright.hyper.rotation is not None:     # kept only when it is (near) the parameters' own axes
        assert np.max(np.abs(upright.hyper.rotation), axis=1) == pytest.approx([1.0, 1.0], abs=0.05)


def test_a_turn_in_a_plane_is_the_textbook_rotation_and_leaves_the_other_axes():
    turn = math.radians(30.0)
    assert np.array(turned_in_plane(None, 2, 0, 1, turn)) == pytest.approx(
        np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]]))
    twice = turned_in_plane(turned_in_plane(None, 3, 0, 2, 0.4), 3, 0, 2, 0.3)
    assert np.array(twice) == pytest.approx(np.array(turned_in_plane(None, 3, 0, 2, 0.7)))
    assert np.array(twice)[1] == pytest.approx([0.0, 1.0, 0.0])
    assert np.array(twice) @ np.array(twice).T == pytest.approx(np.eye(3))


def long_axis_degrees(hyper: Hyperparameters) -> float:
    """The direction, in [0, 180) degrees from the first parameter, of the kernel's longer lengthscale."""
    rows = np.eye(2) if hyper.rotation is None else np.asarray(hyper.rotation)
    axis = rows[int(np.argmax(hyper.lengthscales))]
    return math.degrees(math.atan2(axis[1], axis[0])) % 180.0


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_fit_finds_a_ridge_at_30_degrees_to_within_a_few_degrees(seed):
    # Waves across a line at 30 degrees, slow along it. The principal axes of the mean of a fit
    # on the parameters' own axes miss the line by 4 to 8 degrees on these seeds; the search
    # over the rotation by the marginal likelihood finds it to within 1 degree.
    rng = np.random.default_rng(seed)
    x = rng.random((120, 2))
    games = np.full(120, 400.0)
    turn = math.radians(30.0)
    along = math.cos(turn) * (x[:, 0] - 0.5) + math.sin(turn) * (x[:, 1] - 0.5)
    across = -math.sin(turn) * (x[:, 0] - 0.5) + math.cos(turn) * (x[:, 1] - 0.5)
    strength = np.sin(10.0 * across) - 0.5 * along ** 2
    gp = fit(x, rng.binomial(400, 1 / (1 + np.exp(-strength))).astype(float), games, trend="quadratic")
    assert long_axis_degrees(gp.hyper) == pytest.approx(30.0, abs=2.0)


def principal_axes_fits(x, wins, games):
    """fit's steps before the turn's search: the fit on the parameters' own axes, and the fit turned
    onto its mean's principal axes."""
    plain = gp_module._fit_axes(x, wins, games, None, "quadratic")
    turned = gp_module._fit_axes(x, wins, games, Hyperparameters(
        plain.hyper.lengthscales, plain.hyper.signal_sd, principal_axes(plain)), "quadratic", sweeps=2)
    return plain, turned


def test_the_turn_is_searched_with_two_parameters_and_not_with_three():
    # With three parameters fit keeps the principal axes' fit: the same hyperparameters as
    # that procedure's own steps give.
    rng = np.random.default_rng(7)
    x = rng.random((60, 3))
    games = np.full(60, 50.0)
    strength = np.sin(6.0 * (x[:, 0] - x[:, 1])) - (x[:, 2] - 0.5) ** 2
    wins = rng.binomial(50, 1 / (1 + np.exp(-strength))).astype(float)
    plain, turned = principal_axes_fits(x, wins, games)
    expected = turned if gp_module.objective(turned) > gp_module.objective(plain) + 1e-9 else plain
    assert fit(x, wins, games, trend="quadratic").hyper == expected.hyper
    # With two, the search moves the turn off the principal axes' and scores higher.
    x = x[:, :2]
    strength = np.sin(6.0 * (x[:, 0] - 0.6 * x[:, 1])) - (x[:, 1] - 0.5) ** 2
    wins = rng.binomial(50, 1 / (1 + np.exp(-strength))).astype(float)
    plain, turned = principal_axes_fits(x, wins, games)
    found = fit(x, wins, games, trend="quadratic")
    assert found.hyper.rotation != turned.hyper.rotation
    assert gp_module.objective(found) > max(gp_module.objective(turned), gp_module.objective(plain))


def test_hyperparameters_round_trip_through_the_state_files_lists():
    turned = Hyperparameters((0.3, 0.7), 1.5, ((0.6, 0.8), (-0.8, 0.6)))
    assert turned.to_lists() == ([0.3, 0.7, 1.5], [[0.6, 0.8], [-0.8, 0.6]])
    assert Hyperparameters.from_lists(*turned.to_lists()) == turned
    plain = Hyperparameters((0.4,), 0.9)
    assert plain.to_lists() == ([0.4, 0.9], None)
    assert Hyperparameters.from_lists(*plain.to_lists()) == plain


@pytest.mark.parametrize("size", [1, 5, 64, 65, 150, 301])
def test_the_triangular_inverse_by_halves_is_the_inverse(size):
    # a Cholesky factor of I + W^1/2 K W^1/2's kind (a random triangle is too ill-conditioned to test)
    rng = np.random.default_rng(size)
    a = rng.normal(size=(size, size))
    lower = np.linalg.cholesky(np.eye(size) + 10.0 * a @ a.T / size)
    inverse = gp_module.lower_triangular_inverse(lower)
    assert np.abs(inverse @ lower - np.eye(size)).max() < 1e-12
    assert np.abs(inverse - np.linalg.inv(lower)).max() < 1e-12 * np.abs(inverse).max()


def test_a_large_models_predictions_are_the_plain_inverses_formula():
    # 200 matches: the Cholesky factor's inverse is built by halves (lower_triangular_inverse), and
    # only when a prediction asks for it; the textbook variance k** - k*'(K + W^-1)^-1 k* to 1e-9.
    rng = np.random.default_rng(3)
    x = rng.random((200, 2))
    games = np.full(200, 4.0)
    wins = rng.binomial(4, 0.3 + 0.4 * x[:, 0]).astype(float)
    hyper = Hyperparameters((0.3, 0.5), 0.8)
    gp = GaussianProcess(x, wins, games, hyper, trend="quadratic")
    assert gp._chol_inv is None   # not yet: the fit's search asks only for the marginal likelihood
    new = rng.random((7, 2))
    k = gp_module.prior_covariance(x, x, hyper, "quadratic") + 1e-9 * np.eye(200)
    k_star = gp_module.prior_covariance(new, x, hyper, "quadratic")
    rate = 1 / (1 + np.exp(-gp.mode))
    w_inv = np.diag(1 / (games * rate * (1 - rate)))
    expected = gp_module.prior_covariance(new, new, hyper, "quadratic") \
        - k_star @ np.linalg.inv(k + w_inv) @ k_star.T
    assert np.abs(gp.covariance(new, new) - expected).max() < 1e-9
    assert np.abs(gp.predict(new)[1] ** 2 - np.diag(expected)).max() < 1e-9
