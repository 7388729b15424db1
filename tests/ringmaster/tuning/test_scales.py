"""Tests for the mc_tuner's predefined scales (exact values)."""

import itertools
import math

import pytest

from ringmaster.tuning import scales as scales_module
from ringmaster.tuning.scales import (
    EXPLICIT,
    LINEAR,
    LOG,
    distinct_values,
    interpret_scale,
    round_half_up,
    value_count,
)
from ringmaster.tuning.tree import AxisCentres, parameters_for_path


def centres(split):
    return [parameters_for_path([split], (i,))[0] for i in range(split)]


def test_linear_exact_values():
    scale = LINEAR(20.0, 30.0)
    assert scale(0.0) == 20.0
    assert scale(1.0) == 30.0
    assert scale(0.5) == 25.0
    assert scale(0.49) == 24.9


def test_linear_integer_rounds_to_nearest():
    scale = LINEAR(20.0, 30.0, integer=True)
    assert scale(0.0) == 20 and isinstance(scale(0.0), int)
    assert scale(1.0) == 30
    assert scale(0.49) == 25
    assert scale(0.51) == 25
    assert scale(0.44) == 24


def test_samples_are_division_centres():
    # The manual's example says LINEAR(0, 8) with split 3 gives 1.0, 4.0, 7.0; its rule
    # (the centre of each division) gives 4/3, 4, 20/3, which is what Gomill does too.
    scale = LINEAR(0.0, 8.0)
    assert [scale(f) for f in centres(3)] == pytest.approx([4 / 3, 4.0, 20 / 3])
    assert [scale(f) for f in centres(4)] == pytest.approx([1.0, 3.0, 5.0, 7.0])


def test_integer_range_tip_gives_each_integer_once():
    scale = LINEAR(-0.5, 10.5, integer=True)
    assert [scale(f) for f in centres(11)] == list(range(11))


def test_negative_integer_rounding_is_to_nearest():
    # Gomill's int(x + .5) gives -1 for -1.7; we round to the nearest integer.
    assert LINEAR(-2.0, 0.0, integer=True)(0.15) == -2
    assert round_half_up(-1.7) == -2
    assert round_half_up(-1.5) == -1
    assert round_half_up(2.5) == 3


def test_log_values():
    scale = LOG(2, 200000)
    assert scale(0.0) == pytest.approx(2.0)
    assert scale(0.2) == pytest.approx(20.0)
    assert scale(0.4) == pytest.approx(200.0)
    assert scale(0.5) == pytest.approx(2 * math.sqrt(100000.0))
    assert scale(0.6) == pytest.approx(2000.0)
    assert scale(1.0) == pytest.approx(200000.0)
    assert LOG(1, 100, integer=True)(0.1) == 2
    assert LOG(-2, -200)(0.5) == pytest.approx(-20.0)


def test_manual_scale_functions_are_equivalent():
    # The manual's hand-written equivalents of LINEAR(3, 3000) and LOG(3, 3000).
    for f in (0.05, 0.3, 0.77):
        assert LINEAR(3, 3000)(f) == pytest.approx(2997 * f + 3)
        assert LOG(3, 3000)(f) == pytest.approx(math.exp(math.log(1000) * f) * 3)


@pytest.mark.parametrize("scale, message", [
    (LOG(0.0, 1.0), "invalid parameters for LOG: lower bound is zero"),
    (LOG(1, -2), "invalid parameters for LOG: bounds have different signs"),
    (LINEAR("a", 2), "invalid parameters for LINEAR: lower bound is not a number"),
    (EXPLICIT([]), "invalid parameters for EXPLICIT: empty value list"),
    (LINEAR(1), "invalid parameters for LINEAR:"),
])
def test_bad_scale_arguments_are_reported_when_interpreted(scale, message):
    with pytest.raises(ValueError) as info:
        interpret_scale(scale)
    assert str(info.value).startswith(message)


def test_explicit_gives_each_value_once_with_matching_split():
    values = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
    scale = EXPLICIT(values)
    assert [scale(f) for f in centres(len(values))] == values


def test_explicit_with_depth_two_covers_the_list():
    # With max_depth 2, split ** 2 values: the second generation's centres pick each once.
    values = list(range(9))
    scale = EXPLICIT(values)
    seen = [scale(parameters_for_path([3], (i, j))[0]) for i in range(3) for j in range(3)]
    assert seen == values


# Which cells of a tree give different values (mc_tuner's twins)

@pytest.mark.parametrize("split, levels", [(10, 1), (3, 4), (2, 10), (7, 3), (5, 2)])
def test_axis_centres_are_the_very_floats_of_the_trees_candidates(split, levels):
    centres = AxisCentres(split, levels)
    expected = [parameters_for_path([split], path)[0]
                for path in itertools.product(range(split), repeat=levels)]
    assert len(centres) == len(expected)
    assert list(centres) == [centres[i] for i in range(len(centres))] == expected


@pytest.mark.parametrize("scale, count", [
    (EXPLICIT(["a", "b", "a"]), 3), (LINEAR(0, 10, integer=True), 11), (LINEAR(10, 0, integer=True), 11),
    (LINEAR(-0.5, 10.5, integer=True), 12), (LOG(1, 32, integer=True), 32), (LOG(-64, -1, integer=True), 64),
    (LINEAR(5, 5, integer=True), 1), (LINEAR(0, 10), None), (LOG(1, 32), None), (float, None)])
def test_value_count_is_how_many_values_a_scale_can_give(scale, count):
    assert value_count(scale) == count


def test_integer_scales_give_distinct_values_where_no_two_points_round_alike():
    assert distinct_values(LINEAR(0, 10, integer=True), AxisCentres(3, 2))        # 9 cells: 1 to 9
    assert not distinct_values(LINEAR(0, 10, integer=True), AxisCentres(4, 2))    # 16 cells, 11 integers
    assert not distinct_values(LINEAR(0, 2.6, integer=True), AxisCentres(4, 1))   # 1.625 and 2.275
    assert not distinct_values(LOG(1, 1000, integer=True), AxisCentres(3, 3))     # 1.14 and 1.47 at one end
    assert not distinct_values(LOG(-1000, -1, integer=True), AxisCentres(3, 3))   # and at the other
    assert distinct_values(LINEAR(0, 1), AxisCentres(10, 5)) and distinct_values(float, [0.5, 0.5])
    # Two points alike far from either end are found too.
    points = [i / 200 for i in range(200)]
    assert distinct_values(LINEAR(0, 400, integer=True), points)                  # 0, 2, 4, ...
    assert not distinct_values(LINEAR(0, 400, integer=True), points[:100] + [0.504] + points[101:])


def test_an_explicit_lists_cells_differ_while_no_more_than_its_values():
    # The rule the tree has always used for a list: its index at the tree's centres agrees.
    for split, levels in [(2, 1), (2, 3), (2, 5), (3, 2), (3, 3), (4, 2), (5, 2), (6, 2), (7, 2)]:
        centres = AxisCentres(split, levels)
        for length in range(1, 3 * len(centres)):
            indices = [min(int(length * f), length - 1) for f in centres]
            differ = len(set(indices)) == len(indices)
            assert distinct_values(EXPLICIT(range(length)), centres) == differ == (len(centres) <= length)


def test_beyond_the_exact_limit_neighbours_at_each_end_must_be_two_apart(monkeypatch):
    monkeypatch.setattr(scales_module, "EXACT_LIMIT", 8)
    assert distinct_values(LINEAR(0, 100, integer=True), AxisCentres(2, 4))       # 6.25 apart
    assert not distinct_values(LINEAR(0, 24, integer=True), AxisCentres(2, 4))    # 1.5 apart: not sure
    assert not distinct_values(LOG(1, 10000, integer=True), AxisCentres(2, 4))    # crowded at 1
    assert not distinct_values(LOG(-10000, -1, integer=True), AxisCentres(2, 4))  # crowded at -1
    assert distinct_values(LOG(1000, 10000, integer=True), AxisCentres(2, 4))
    assert distinct_values(LINEAR(0, 24, integer=True), AxisCentres(2, 3))        # 8 points: exact


def test_any_callable_is_a_scale_and_non_callables_are_not():
    assert interpret_scale(float) is float
    with pytest.raises(ValueError, match="invalid callable"):
        interpret_scale(None)


# Inverses and stochastic rounding (spsa_tuner, bayes_tuner)

def test_position_inverts_each_predefined_scale():
    assert LINEAR(10, 30).position(15) == 0.25
    assert LOG(1, 100).position(10) == pytest.approx(0.5)
    assert LOG(-100, -1).position(-10) == pytest.approx(0.5)
    assert EXPLICIT(["a", "b", "c", "d"]).position("c") == 0.625


@pytest.mark.parametrize("scale, value", [
    (LINEAR(0, 1), 1.5), (LOG(1, 100), 0.5), (LOG(1, 100), -3), (EXPLICIT([1, 2]), 3),
    (LINEAR(2, 2), 2),
])
def test_position_refuses_values_the_scale_cannot_give(scale, value):
    with pytest.raises(ValueError):
        scale.position(value)


def test_stochastic_rounding_of_integer_scales_averages_to_the_unrounded_value():
    from ringmaster.tuning.scales import stochastic_value
    scale = LINEAR(0, 10, integer=True)
    values = [stochastic_value(scale, 0.23, (i + 0.5) / 100) for i in range(100)]
    assert set(values) == {2, 3}
    assert sum(values) / 100 == pytest.approx(2.3)
    assert stochastic_value(LINEAR(0, 10), 0.23, 0.9) == pytest.approx(2.3)


def test_stochastic_rounding_of_explicit_picks_the_nearer_centre_more_often():
    from ringmaster.tuning.scales import stochastic_value
    scale = EXPLICIT(["a", "b", "c"])   # centres 1/6, 1/2, 5/6
    values = [stochastic_value(scale, 0.4, (i + 0.5) / 100) for i in range(100)]
    assert set(values) == {"a", "b"}
    # 0.4 is 0.1 from b's centre and 7/30 from a's: b with probability (7/30) / (1/3) = 0.7.
    assert values.count("b") == 70
    assert stochastic_value(scale, 0.0, 0.99) == "a"
    assert stochastic_value(scale, 1.0, 0.0) == "c"
