"""Time management under a clock: the mature budget, the lag meter, extension and early stop."""

import numpy as np
import pytest

from players.engines.clock import LAG, SMALLEST, Clock, clock_from_settings
from players.engines.time_plan import (
    LEAST_SEARCH,
    LagMeter,
    MovePlan,
    StopRule,
    can_change,
    hard_budget,
    moves_to_go,
    plan_move,
    soft_budget,
    unclear,
)


def absolute(seconds: float, left: float | None = None) -> Clock:
    clock = clock_from_settings(["absolute", str(seconds)], fischer=True)
    clock.time_left = left
    return clock


def test_moves_to_go_counts_the_points_left_to_fill():
    assert moves_to_go(81, 81) == pytest.approx((81 - 16.2) / 2)
    assert moves_to_go(41, 81) == pytest.approx((41 - 16.2) / 2)
    assert moves_to_go(30, 81) == 10.0                    # never fewer than the least
    assert moves_to_go(30, 81, least=4) == pytest.approx((30 - 16.2) / 2)


def test_absolute_time_is_spread_over_the_moves_to_go_less_the_measured_lag():
    clock = absolute(20)
    soft = soft_budget(clock, 81, 81, 0.03)
    assert soft == pytest.approx((20 - 20 * (0.03 + SMALLEST)) / moves_to_go(81, 81) - 0.03)
    assert soft > clock.budget(81)                         # the old budget keeps more back
    clock.time_left = 5.0
    assert soft_budget(clock, 20, 81, 0.03) == pytest.approx((5 - 1.6) / 10 - 0.03)
    assert soft_budget(clock, 20, 81, 0.03) < 5.0 / 10


def test_deep_in_the_reserve_a_move_costs_little_more_than_its_lag():
    clock = absolute(20, left=1.2)                         # reserve: 20 * (0.03 + 0.05)
    assert soft_budget(clock, 20, 81, 0.03) == pytest.approx(1.2 / 20 - 0.03)
    clock.time_left = 0.5
    assert soft_budget(clock, 20, 81, 0.03) == LEAST_SEARCH


def test_periods_byoyomi_and_fischer():
    canadian = Clock(0, 30, 5, time_left=20, stones_left=4)
    assert soft_budget(canadian, 81, 81, 0.02) == pytest.approx(0.9 * 20 / 4 - 0.02)
    main = Clock(60, 30, 5, time_left=40)                  # canadian, still in main time
    assert soft_budget(main, 81, 81, 0.02) == pytest.approx(40 / moves_to_go(81, 81) + 6 - 0.02)
    byo = clock_from_settings(["byoyomi", "0", "10", "5"], fischer=False)
    assert soft_budget(byo, 81, 81, 0.02) == pytest.approx(byo.budget(81, lag=0.02))
    fischer = clock_from_settings(["fischer", "60", "2"], fischer=True)
    assert soft_budget(fischer, 81, 81, 0.02) == pytest.approx(60 / moves_to_go(81, 81) + 2 - 0.02)
    fischer.time_left = 3
    assert soft_budget(fischer, 81, 81, 0.02) == pytest.approx(1.5 - 0.02)
    assert soft_budget(Clock(kind="none"), 81, 81, 0.02) is None


def test_the_hard_budget_is_some_soft_ones_never_a_quarter_of_the_time_left():
    clock = absolute(20, left=20)
    assert hard_budget(clock, 0.5, 0.03, 2.0) == pytest.approx(1.0)
    assert hard_budget(clock, 0.5, 0.03, 1.0) == 0.5       # no extension
    clock.time_left = 2.0
    assert hard_budget(clock, 0.3, 0.03, 3.0) == pytest.approx(0.25 * 2.0 - 0.03)
    assert hard_budget(clock, 0.6, 0.03, 3.0) == 0.6       # never below the soft one
    period = Clock(0, 30, 5, time_left=20, stones_left=4)
    assert hard_budget(period, 4.0, 0.03, 2.0) == 4.0      # a canadian period: no extension


def test_plan_move_is_the_clocks_own_budget_unless_managed():
    clock = absolute(20)
    plain = plan_move(clock, 81, 81, 0.03, manage=False, extend_ratio=0.0)
    assert plain == MovePlan(clock.budget(81), clock.budget(81))
    managed = plan_move(clock, 81, 81, 0.03, manage=True, extend_ratio=2.0)
    assert managed.soft == pytest.approx(soft_budget(clock, 81, 81, 0.03))
    assert managed.hard == pytest.approx(2 * managed.soft)
    assert plan_move(Clock(kind="none"), 81, 81, 0.03, manage=True, extend_ratio=2.0) is None


def test_lag_meter_measures_what_the_clock_charged_beyond_the_search():
    meter = LagMeter()
    clock = absolute(20, left=20.0)
    clock.told = True                                      # as the controller's time_left
    assert meter.lag() == LAG                              # nothing measured yet
    meter.observe(clock)
    meter.searched(0.50)
    clock.time_left, clock.told = 19.44, True
    meter.observe(clock)
    assert meter.lag() == pytest.approx(0.06)
    meter.searched(0.30)
    clock.time_left, clock.told = 19.10, True
    meter.observe(clock)
    assert meter.lag() == pytest.approx((0.06 + 0.04) / 2)
    meter.searched(0.30)
    clock.time_left, clock.told = 20.0, True               # a new game: no sample
    meter.observe(clock)
    meter.reset()
    clock.time_left, clock.told = 10.0, True
    meter.observe(clock)
    assert len(meter.samples) == 2
    fischer = clock_from_settings(["fischer", "60", "2"], fischer=True)
    meter = LagMeter()
    fischer.time_left, fischer.told = 50.0, True
    meter.observe(fischer)
    meter.searched(1.0)
    fischer.time_left, fischer.told = 50.95, True          # +2 increment, 1.05 spent
    meter.observe(fischer)
    assert meter.lag() == pytest.approx(0.05)
    # Our own account, with no time_left from the controller, falls by just our move's
    # seconds: it measures nothing (it made the lag look nil, and the engine overspent).
    meter = LagMeter()
    clock = absolute(20, left=20.0)
    meter.observe(clock)
    meter.searched(0.50)
    clock.spend(0.501)
    meter.observe(clock)
    assert not meter.samples and meter.lag() == LAG


def test_lag_meter_ignores_overtime():
    meter = LagMeter()
    clock = Clock(0, 30, 5, time_left=20, stones_left=4)
    meter.observe(clock)
    meter.searched(1.0)
    clock.time_left, clock.stones_left = 18.9, 3
    meter.observe(clock)
    assert not meter.samples


def test_can_change_and_unclear():
    visits = np.array([100.0, 40.0, 10.0])
    assert can_change(visits, 60) and not can_change(visits, 59)
    assert can_change(np.array([5.0]), 0) is False
    wins = np.array([60.0, 20.0, 5.0])                     # leader best by value too
    assert not unclear(visits, wins, 2.0)
    assert unclear(visits, wins, 3.0)                      # lead 2.5 < 3
    assert unclear(visits, np.array([60.0, 30.0, 5.0]), 2.0)   # runner-up 75% > 60%
    assert not unclear(visits, np.array([60.0, 20.0, 9.0]), 2.0)  # 90% on 10% of the visits
    assert unclear(np.zeros(3), np.zeros(3), 2.0)


CLEAR = (np.array([300.0, 50.0, 10.0]), np.array([200.0, 20.0, 4.0]))
CLOSE = (np.array([300.0, 250.0, 10.0]), np.array([200.0, 160.0, 4.0]))


def test_stop_rule_stops_at_the_soft_budget_when_the_choice_is_clear():
    rule = StopRule(soft=0.5, hard=1.0, playouts=10**6, extend_ratio=2.0)
    assert not rule(0.4, 2000, *CLEAR)
    assert rule(0.5, 2500, *CLEAR)
    assert rule(0.5, 2500, *CLEAR) == StopRule(0.5, 0.5, 10**6)(0.5, 2500, *CLEAR)
    assert rule(0.1, 10**6, *CLOSE)                        # the playouts ran out


def test_stop_rule_extends_an_unclear_choice_up_to_the_hard_budget():
    rule = StopRule(soft=0.5, hard=1.0, playouts=10**6, extend_ratio=2.0)
    assert not rule(0.6, 3000, *CLOSE)
    assert not rule(0.99, 5000, *CLOSE)
    assert rule(1.0, 5000, *CLOSE)
    assert StopRule(soft=0.5, hard=1.0, playouts=10**6)(0.6, 3000, *CLOSE)   # not extending


def test_stop_rule_stops_early_when_the_runner_up_cannot_catch_up():
    rule = StopRule(soft=0.5, hard=0.5, playouts=10**6, early=True)
    # 360 playouts in 0.1 s: 1440 more in the 0.4 s left, the lead is 250
    assert not rule(0.1, 360, *CLEAR)
    # 360 playouts in 0.4 s: 90 more in the 0.1 s left, the lead is 250
    assert rule(0.4, 360, *CLEAR)
    assert not StopRule(soft=0.5, hard=0.5, playouts=10**6)(0.4, 360, *CLEAR)
    assert not rule(0.4, 50, *CLEAR)                       # too few playouts to judge
    by_playouts = StopRule(soft=None, hard=None, playouts=500, early=True)
    assert by_playouts(0.01, 300, *CLEAR) and not by_playouts(0.01, 200, *CLEAR)


def test_stop_rule_looks_a_chunk_ahead():
    rule = StopRule(soft=0.5, hard=0.5, playouts=10**6, lookahead=True, chunk=100)
    assert rule(0.45, 900, *CLOSE)                         # the next chunk ends at 0.5
    assert not rule(0.45, 1000, *CLOSE)                    # ... at 0.495


def play_absolute(main: float, moves: int, lag: float, *, manage: bool, extend: float,
                  late: float) -> list[float]:
    """A game on the engine's side of an absolute clock: each move's search takes its
    soft budget (its hard one when it extends) and `late` more, plus the lag; the clock
    left after each move (the controller's view)."""
    clock, meter, left, lefts = absolute(main), LagMeter(), main, []
    for k in range(moves):
        clock.time_left, clock.told = left, True               # the controller's time_left
        meter.observe(clock)
        plan = plan_move(clock, max(4, 81 - 2 * k), 81, meter.lag(), manage=manage,
                         extend_ratio=extend)
        searched = (plan.hard if extend and k % 3 == 0 else plan.soft) + late
        meter.searched(searched)
        left -= searched + lag
        lefts.append(left)
    return lefts


@pytest.mark.parametrize("extend", [0.0, 2.0])
def test_absolute_time_is_not_lost_in_a_long_game(extend):
    # 65 moves a side is a long 9x9 game; each move costs 0.045 s more than its search's budget
    lefts = play_absolute(20, 65, 0.04, manage=True, extend=extend, late=0.005)
    assert min(lefts) > 0
    assert lefts[29] < 0.25 * 20                           # most of it spent by move 30
    # in an endless game it lasts longer than the fixed lag's budget, though it spends more
    def last(manage):
        lefts = play_absolute(20, 200, 0.04, manage=manage, extend=extend, late=0.005)
        return next(k for k, left in enumerate(lefts) if left <= 0)
    assert last(True) > last(False)


def test_the_managed_clock_spends_more_of_a_normal_game_than_the_fixed_lag():
    managed = play_absolute(20, 30, 0.04, manage=True, extend=0.0, late=0.005)
    fixed = play_absolute(20, 30, 0.04, manage=False, extend=0.0, late=0.005)
    assert 0 < managed[-1] < fixed[-1]
