"""Time controls: parsing each form, and each form's arithmetic as pure functions."""

from __future__ import annotations

import pytest

from ringmaster.game.clock import (
    FORMS,
    ClockState,
    TimeControl,
    after_move,
    available,
    canonical_time_control,
    parse_time_control,
    sgf_main_time,
    sgf_overtime,
    sgf_time_left,
    start,
    time_left,
)


def moves(control: TimeControl, times: list[float], margin: float = 0.0) -> ClockState | None:
    """The clock after moves of these lengths; None once a side has lost."""
    state = start(control)
    for elapsed in times:
        state = after_move(control, state, elapsed, margin)
        if state is None:
            return None
    return state


@pytest.mark.parametrize("text, control", [
    ("absolute 60", TimeControl("absolute", main=60)),
    ("absolute 0.5", TimeControl("absolute", main=0.5)),
    ("canadian 600 300 25", TimeControl("canadian", main=600, period=300, stones=25)),
    ("canadian 0 10 5", TimeControl("canadian", main=0, period=10, stones=5)),
    ("byoyomi 60 30 5", TimeControl("byoyomi", main=60, period=30, periods=5)),
    ("fischer 60 1.5", TimeControl("fischer", main=60, increment=1.5)),
    ("fischer 60 0", TimeControl("fischer", main=60, increment=0)),
    ("per_move 2", TimeControl("per_move", period=2, stones=1)),
    ("  absolute   60 ", TimeControl("absolute", main=60)),
])
def test_each_form_parses(text, control):
    assert parse_time_control(text) == control


def test_none_is_no_clock():
    assert parse_time_control("none") is None
    assert canonical_time_control("none") == "none"


@pytest.mark.parametrize("text", ["absolute 60", "canadian 600 300 25", "byoyomi 60 30 5",
                                  "fischer 60 1.5", "per_move 2", "byoyomi 0 0.5 1"])
def test_a_control_describes_itself_in_the_words_it_was_set_in(text):
    assert canonical_time_control(text) == text
    assert canonical_time_control(text.replace(" ", "  ")) == text


@pytest.mark.parametrize("value, fragment", [
    ("absolute", "absolute takes MAIN"),
    ("absolute 60 5", "absolute takes MAIN"),
    ("absolute 0", "MAIN must be positive"),
    ("absolute -1", "MAIN must be positive"),
    ("absolute x", "MAIN is 'x', not a number"),
    ("absolute nan", "MAIN must be finite"),
    ("absolute inf", "MAIN must be finite"),
    ("canadian 60 30 2.5", "STONES is '2.5', not a whole number"),
    ("canadian 60 0 5", "PERIOD must be positive"),
    ("canadian 60 30 0", "STONES must be positive"),
    ("byoyomi -1 30 5", "MAIN must be zero or more"),
    ("byoyomi 60 30 0", "PERIODS must be positive"),
    ("fischer 60 -1", "INCREMENT must be zero or more"),
    ("per_move 0", "SECONDS must be positive"),
    ("sudden_death 60", "is not a time control"),
    ("", "is not a time control"),
    (60, "must be a string"),
    (None, "must be a string"),
])
def test_a_bad_form_says_what_is_wrong_and_names_the_forms(value, fragment):
    with pytest.raises(ValueError) as info:
        parse_time_control(value)
    assert fragment in str(info.value)
    assert FORMS in str(info.value)
    assert "\n" not in str(info.value)


# absolute

def test_absolute_spends_main_time_and_loses_past_it_by_more_than_the_margin():
    control = parse_time_control("absolute 10")
    assert moves(control, [3, 4]).main_left == pytest.approx(3)
    assert moves(control, [3, 4, 3.2], margin=0.25).main_left == 0   # over by 0.2: stands
    assert moves(control, [3, 4, 3.3], margin=0.25) is None          # over by 0.3: lost
    assert moves(control, [10]).main_left == 0
    assert moves(control, [10.001]) is None                          # margin 0


def test_a_move_within_the_margin_leaves_nothing_for_the_next():
    control = parse_time_control("absolute 10")
    state = moves(control, [10.2], margin=0.25)
    assert available(control, state) == 0
    assert after_move(control, state, 0.3, 0.25) is None
    assert after_move(control, state, 0.2, 0.25) is not None


# fischer

def test_fischer_adds_the_increment_after_each_move_in_time():
    control = parse_time_control("fischer 10 2")
    assert start(control).main_left == 10
    assert moves(control, [3]).main_left == pytest.approx(9)
    assert moves(control, [3, 5]).main_left == pytest.approx(6)
    assert moves(control, [1, 1, 1, 1]).main_left == pytest.approx(14)   # it builds up
    assert moves(control, [11]) is None


def test_fischer_within_the_margin_gets_the_increment_on_an_empty_clock():
    control = parse_time_control("fischer 10 2")
    assert moves(control, [10.1], margin=0.25).main_left == pytest.approx(2)


# canadian

def test_canadian_main_time_then_periods_of_stones_that_refill():
    control = parse_time_control("canadian 10 20 3")
    state = moves(control, [4, 4])
    assert (state.in_overtime, state.main_left) == (False, pytest.approx(2))
    assert available(control, state) == pytest.approx(22)   # main, then a whole period
    state = after_move(control, state, 5, 0)                # 2 of main, 3 of the period
    assert state.in_overtime and state.stones_left == 2
    assert state.period_left == pytest.approx(17)
    state = after_move(control, state, 10, 0)
    assert (state.stones_left, state.period_left) == (1, pytest.approx(7))
    state = after_move(control, state, 6.5, 0)              # third stone: a fresh period
    assert (state.stones_left, state.period_left) == (3, pytest.approx(20))


def test_canadian_left_over_period_time_is_lost():
    control = parse_time_control("canadian 0 20 2")
    state = moves(control, [1, 1])    # both stones in 2 of 20 seconds: 18 not carried over
    assert state.period_left == pytest.approx(20)
    assert moves(control, [1, 1, 20]) is not None
    assert moves(control, [1, 1, 20.5]) is None


def test_canadian_loses_when_the_period_runs_out_before_its_stones():
    control = parse_time_control("canadian 0 20 3")
    assert moves(control, [10, 10.5], margin=0.25) is None
    assert moves(control, [10, 10.2], margin=0.25).period_left == 0   # within the margin
    assert moves(control, [10, 10.2, 0.3], margin=0.25) is None       # nothing left for stone 3


def test_canadian_with_main_time_exactly_spent_starts_the_first_period_next_move():
    control = parse_time_control("canadian 10 20 3")
    state = moves(control, [10])
    assert not state.in_overtime and state.main_left == 0
    assert available(control, state) == 20
    assert after_move(control, state, 5, 0).stones_left == 2


def test_per_move_is_one_stone_a_period_from_the_start():
    control = parse_time_control("per_move 2")
    state = start(control)
    assert state.in_overtime and available(control, state) == 2
    assert moves(control, [1.9, 2, 0.1, 1.99]).period_left == 2
    assert moves(control, [1, 2.3], margin=0.25) is None
    assert moves(control, [1, 2.2], margin=0.25) is not None


# byo-yomi

def test_byoyomi_keeps_a_period_used_within_it():
    control = parse_time_control("byoyomi 10 5 3")
    state = moves(control, [10, 4.9, 4.9, 4.9])
    assert state.in_overtime and state.periods_left == 3


def test_byoyomi_loses_a_period_for_each_one_a_move_overruns():
    control = parse_time_control("byoyomi 0 5 3")
    assert moves(control, [6]).periods_left == 2
    assert moves(control, [11]).periods_left == 1
    assert moves(control, [6, 6]).periods_left == 1
    assert moves(control, [15]).periods_left == 1
    assert moves(control, [15.1]) is None
    assert moves(control, [6, 6, 5.2], margin=0.25).periods_left == 1
    assert moves(control, [6, 6, 5.3], margin=0.25) is None


def test_byoyomi_overrun_of_main_time_goes_into_the_periods():
    control = parse_time_control("byoyomi 10 5 3")
    state = moves(control, [8])
    assert available(control, state) == pytest.approx(17)
    assert after_move(control, state, 8, 0).periods_left == 2    # 2 main, 6 periods: one lost
    assert after_move(control, state, 7, 0).periods_left == 3
    assert after_move(control, state, 17.1, 0) is None


# What engines and records are told

def test_time_left_in_main_time_gives_stones_zero():
    control = parse_time_control("canadian 10 20 3")
    assert time_left(control, moves(control, [4])) == (pytest.approx(6), 0)
    control = parse_time_control("absolute 10")
    assert time_left(control, moves(control, [4])) == (pytest.approx(6), 0)


def test_time_left_in_a_period_gives_its_time_and_stones():
    control = parse_time_control("canadian 10 20 3")
    assert time_left(control, moves(control, [12])) == (pytest.approx(18), 2)
    control = parse_time_control("byoyomi 10 5 3")
    assert time_left(control, moves(control, [16])) == (5, 2)     # periods left, kgs-style


def test_time_left_is_never_zero_zero_at_the_end_of_main_time():
    for text, expected in (("canadian 10 20 3", (20, 3)), ("byoyomi 10 5 3", (5, 3))):
        control = parse_time_control(text)
        assert time_left(control, moves(control, [10])) == expected


def test_time_left_of_an_absolute_clock_run_out_is_zero():
    control = parse_time_control("absolute 10")
    assert time_left(control, moves(control, [10.1], margin=0.25)) == (0, 0)


def test_sgf_records_main_time_without_stones_and_overtime_with_them():
    control = parse_time_control("canadian 10 20 3")
    assert sgf_time_left(control, moves(control, [4])) == (pytest.approx(6), None)
    assert sgf_time_left(control, moves(control, [12])) == (pytest.approx(18), 2)
    control = parse_time_control("byoyomi 10 5 3")
    assert sgf_time_left(control, moves(control, [16])) == (5, 2)
    control = parse_time_control("fischer 10 2")
    assert sgf_time_left(control, moves(control, [3])) == (pytest.approx(9), None)


@pytest.mark.parametrize("text, main, overtime", [
    ("absolute 60", 60, None),
    ("canadian 600 300 25", 600, "25/300 Canadian"),
    ("byoyomi 60 30 5", 60, "5x30 byo-yomi"),
    ("fischer 60 1.5", 60, "1.5 fischer"),
    ("per_move 2", 0, "1/2 Canadian"),
])
def test_sgf_root_properties(text, main, overtime):
    control = parse_time_control(text)
    assert sgf_main_time(control) == main
    assert sgf_overtime(control) == overtime
