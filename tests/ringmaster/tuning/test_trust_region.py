"""Tests for bayes_tuner's trust region (ringmaster/tuning/trust_region.py): box, counters, state."""

import numpy as np
import pytest

from ringmaster.tuning import trust_region
from ringmaster.tuning.trust_region import (
    FAILURES,
    MAX_SIDE,
    MIN_SIDE,
    START_SIDE,
    SUCCESSES,
    TrustRegion,
    box,
    inside,
    local_points,
    step,
)


def test_the_box_is_a_cube_around_its_centre_clipped_to_the_range():
    low, high = box([0.5, 0.1], 0.4)
    assert low.tolist() == pytest.approx([0.3, 0.0]) and high.tolist() == pytest.approx([0.7, 0.3])
    low, high = box([0.5], MAX_SIDE)
    assert low.tolist() == [0.0] and high.tolist() == [1.0]
    low, high = box([0.9], MAX_SIDE)
    assert low.tolist() == pytest.approx([0.1]) and high.tolist() == [1.0]


def test_inside_counts_the_faces_in():
    low, high = np.array([0.2, 0.2]), np.array([0.6, 0.6])
    x = np.array([[0.2, 0.6], [0.4, 0.4], [0.61, 0.4], [0.4, 0.19]])
    assert inside(x, low, high).tolist() == [True, True, False, False]


def test_the_local_set_is_the_points_within_reach_or_the_nearest():
    low, high = np.array([0.4]), np.array([0.6])          # side 0.2, centre 0.5: reach 0.3 to 0.7
    x = np.linspace(0.005, 0.995, 100)[:, None]
    near = local_points(x, low, high)
    assert near.sum() == 40
    assert x[near].min() == pytest.approx(0.305) and x[near].max() == pytest.approx(0.695)
    sparse = np.array([[0.5], [0.0], [1.0], [0.9], [0.05]])  # one within reach: the nearest 20 (all) instead
    assert local_points(sparse, low, high).all()
    many_far = np.concatenate([[[0.5]], np.linspace(0.8, 1.0, 30)[:, None]])
    chosen = local_points(many_far, low, high)
    assert chosen.sum() == trust_region.LOCAL_MIN_POINTS
    assert chosen[0] and many_far[chosen].max() < many_far[~chosen].min()
    assert local_points(many_far, low, high, at_least=0).tolist() == [True] + [False] * 30


def test_the_first_step_only_records():
    region = TrustRegion()
    step(region, 0.3)
    assert (region.side, region.successes, region.failures) == (START_SIDE, 0, 0)


def run_steps(region, values):
    for value in values:
        step(region, value)
        region.last_value = value


def test_rises_in_a_row_double_the_side_up_to_its_most():
    region = TrustRegion(last_value=0.0)
    run_steps(region, [0.01 * (i + 1) for i in range(SUCCESSES)])
    assert region.side == 2 * START_SIDE and region.successes == 0
    run_steps(region, [1.0 + 0.01 * (i + 1) for i in range(SUCCESSES)])
    assert region.side == MAX_SIDE


def test_a_rise_within_the_margin_is_no_progress():
    region = TrustRegion(last_value=0.0)
    run_steps(region, [0.0005, 0.0009, 0.0012])
    assert region.successes == 0 and region.failures == 3


def test_failures_in_a_row_halve_the_side_down_to_its_least_and_a_rise_resets_them():
    region = TrustRegion(last_value=0.0)
    run_steps(region, [0.0] * (FAILURES - 1) + [0.5])
    assert region.side == START_SIDE and (region.successes, region.failures) == (1, 0)
    run_steps(region, [0.5] * FAILURES)
    assert region.side == START_SIDE / 2 and region.failures == 0
    run_steps(region, [0.5] * (10 * FAILURES))
    assert region.side == MIN_SIDE


def test_the_state_round_trips_and_refuses_what_is_not_a_region():
    region = TrustRegion(side=0.4, successes=1, failures=2, centre=[0.1, 0.9], last_value=-0.25,
                         local_hyper=[0.3, 0.5, 1.2], local_rotation=[[0.6, 0.8], [-0.8, 0.6]],
                         local_fitted_at=40)
    assert TrustRegion.from_json(region.to_json(), 2) == region
    data = region.to_json()
    for bad in ({"centre": [0.1]}, {"local_hyper": [0.3, 0.5]}, {"local_rotation": [[1.0, 0.0]]},
                {"side": 5.0}, {"failures": -1}, {"side": "wide"}):
        with pytest.raises((ValueError, TypeError)):
            TrustRegion.from_json({**data, **bad}, 2)
    with pytest.raises(KeyError):
        TrustRegion.from_json({k: v for k, v in data.items() if k != "side"}, 2)
