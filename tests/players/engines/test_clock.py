"""The GTP clock's budget for the next move."""

import pytest

from players.engines.clock import Clock, clock_from_settings


def test_clock_budgets():
    assert Clock().budget(81) is None
    assert Clock(0, 10, 0).budget(81) is None  # GTP: no time limit
    byo = Clock(0, 30, 5, time_left=20, stones_left=4)
    assert byo.budget(81) == pytest.approx(0.9 * 20 / 4 - 0.1)
    main = Clock(300, 0, 0, time_left=100)
    assert main.budget(80) == pytest.approx(0.9 * 100 / 40 - 0.1)
    assert Clock(300, 0, 0, time_left=3).budget(80) == pytest.approx(0.05)
    # absolute time: no floor that what is left can't pay for move after move
    assert Clock(300, 0, 0, time_left=0.4).budget(80) == pytest.approx(0.9 * 0.4 / 40)
    assert Clock(300, 0, 0, time_left=0.01).budget(80) == pytest.approx(0.001)


def test_byoyomi_never_plans_to_spend_a_period():
    clock = clock_from_settings(["byoyomi", "60", "10", "5"], fischer=False)
    assert clock.budget(80) == pytest.approx(0.9 * max(60 / 40, 10) - 0.1)   # a period a move
    clock.time_left, clock.stones_left = 600, 0
    assert clock.budget(80) == pytest.approx(0.9 * 600 / 40 - 0.1)          # main time's share
    clock.time_left, clock.stones_left = 10, 3                              # overtime
    assert clock.budget(80) == pytest.approx(0.9 * 10 - 0.1)


def test_fischer_spends_a_share_and_most_of_the_increment_but_never_half_its_time():
    clock = clock_from_settings(["fischer", "60", "2"], fischer=True)
    assert clock.budget(80) == pytest.approx(0.9 * (60 / 40 + 0.9 * 2) - 0.1)
    clock.time_left = 3
    assert clock.budget(80) == pytest.approx(3 / 2 - 0.1)


def test_settings_words():
    assert clock_from_settings(["none"], fischer=False).budget(80) is None
    assert clock_from_settings(["absolute", "60"], fischer=False) == Clock(60.0)
    assert clock_from_settings(["canadian", "60", "30", "5"], fischer=False) == Clock(60, 30, 5)
    capped = clock_from_settings(["fischer-capped", "60", "2", "-1", "-1"], fischer=True)
    assert (capped.kind, capped.main_time, capped.increment) == ("fischer", 60, 2)
    for words, fischer in ((["fischer", "60", "2"], False), (["absolute"], False),
                           (["byoyomi", "1", "2", "0.5"], False), (["absolute", "inf"], True),
                           (["canadian", "-1", "2", "3"], False), ([], True)):
        with pytest.raises(ValueError):
            clock_from_settings(words, fischer=fischer)
