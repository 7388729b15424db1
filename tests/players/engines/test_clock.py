"""The GTP clock's budget for the next move."""

import pytest

from players.engines.clock import Clock


def test_clock_budgets():
    assert Clock().budget(81) is None
    assert Clock(0, 10, 0).budget(81) is None  # GTP: no time limit
    byo = Clock(0, 30, 5, time_left=20, stones_left=4)
    assert byo.budget(81) == pytest.approx(0.9 * 20 / 4 - 0.1)
    main = Clock(300, 0, 0, time_left=100)
    assert main.budget(80) == pytest.approx(0.9 * 100 / 40 - 0.1)
    assert Clock(300, 0, 0, time_left=0.01).budget(80) == pytest.approx(0.05)
