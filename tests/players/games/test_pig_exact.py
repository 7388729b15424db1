"""Exact Pig values: agree with play-outs, and with the published figures at target 50 (slow)."""

import random

import pytest

from players.games.pig import Pig, ThresholdPolicy, threshold_rollout
from players.games.pig_exact import hold_at_policy_array, optimal_policy, win_rates


def test_exact_values_agree_with_playouts_at_a_small_target():
    target = 20
    first, second = win_rates(target, hold_at_policy_array(target, 8), hold_at_policy_array(target, 12))
    game, rng = Pig(target), random.Random(4)
    policies = (ThresholdPolicy(8), ThresholdPolicy(12))
    results = [threshold_rollout(game, game.initial_state(), rng, policies) for _ in range(40000)]
    assert (sum(results) / len(results) + 1) / 2 == pytest.approx(first, abs=0.01)
    assert 0.0 < second < first < 1.0


def test_the_optimal_policy_beats_any_hold_at_rule_at_a_small_target():
    target = 20
    optimal = optimal_policy(target)
    for hold_at in (5, 8, 12):
        first, second = win_rates(target, optimal, hold_at_policy_array(target, hold_at))
        assert first + second > 1.0


@pytest.mark.slow
def test_the_published_figures_at_target_50():
    hold20 = hold_at_policy_array(50, 20)
    assert win_rates(50, hold20, hold20)[0] == pytest.approx(0.5556, abs=1e-4)
    first, second = win_rates(50, optimal_policy(50), hold20)
    assert (first, second) == (pytest.approx(0.6133, abs=1e-4), pytest.approx(0.5236, abs=1e-4))
    first, second = win_rates(50, None, hold20)
    assert (first + second) / 2 == pytest.approx(0.5966, abs=1e-4)


def test_a_threshold_policy_array_plays_as_the_policy():
    from players.games.pig import ThresholdPolicy
    from players.games.pig_exact import threshold_policy_array
    target = 20
    hold8 = hold_at_policy_array(target, 8)
    assert win_rates(target, threshold_policy_array(target, ThresholdPolicy(8)), hold8) == \
        pytest.approx(win_rates(target, hold8, hold8))
    racing = threshold_policy_array(target, ThresholdPolicy(8, 4, 15))
    assert racing[3, 16, 12] and not racing[3, 3, 12]
