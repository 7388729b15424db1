"""Elo, its interval and LOS, by hand."""

from __future__ import annotations

import math

import pytest

from ringmaster.stats.win_rates import (
    elo_interval,
    elo_json,
    format_elo,
    likelihood_of_superiority,
    wilson_interval,
)


def test_elo_point_is_the_observed_score_with_no_hidden_half_game():
    # 3 wins in 4: 400 log10(3) = +191, not the +120 of (3.5/5).
    point, low, high = elo_interval(3, 4)
    assert point == pytest.approx(400 * math.log10(3))
    assert low < point < high


def test_one_win_in_one_game_is_an_infinite_estimate_with_a_finite_lower_bound():
    # Wilson for 1/1: low = 1 / (1 + 1.96^2) = 0.2065 -> -234 Elo.
    point, low, high = elo_interval(1, 1)
    assert point == math.inf and high == math.inf
    assert low == pytest.approx(-400 * math.log10(1 / 0.206543 - 1), abs=0.1)
    assert format_elo(1, 1) == "+inf [-234, +inf]"
    assert elo_json(1, 1) == {"elo": "+inf", "elo_low": pytest.approx(low), "elo_high": "+inf"}


def test_los_is_cutechess_formula():
    assert likelihood_of_superiority(10, 10) == 0.5
    # (1 + erf(4 / sqrt(2 * 16))) / 2 = 0.8413 (one standard deviation).
    assert likelihood_of_superiority(10, 6) == pytest.approx(0.841345, abs=1e-6)
    assert likelihood_of_superiority(0, 0) is None


def test_two_proportion_z_test_matches_seed_001s_comparison():
    from ringmaster.stats.win_rates import two_proportion_z_test
    # Seed 001: 52.5% against 49.5% over 1200 games each: z 1.47, p 0.1416.
    z, p = two_proportion_z_test(630, 1200, 594, 1200)
    assert z == pytest.approx(1.47, abs=0.005) and p == pytest.approx(0.1416, abs=0.001)
    assert two_proportion_z_test(594, 1200, 630, 1200)[0] == pytest.approx(-z)
    with pytest.raises(ValueError):
        two_proportion_z_test(0, 10, 0, 10)


def test_a_clean_sweep_has_an_infinite_far_end_at_every_number_of_games():
    # Wilson's centre equals its half-width at 0 of n: the low end is exactly 0 (and the
    # high end exactly 1 at n of n), whatever rounding does to centre - half.
    for games in range(1, 201):
        assert wilson_interval(0, games)[0] == 0.0 and wilson_interval(games, games)[1] == 1.0
    assert format_elo(0, 6) == "-inf [-inf, -77]"
    assert format_elo(10, 10) == "+inf [+166, +inf]"
    assert elo_json(0, 6) == {"elo": "-inf", "elo_low": "-inf", "elo_high": pytest.approx(-77.46, abs=0.01)}
