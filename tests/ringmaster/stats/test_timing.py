"""Elapsed time over runs, games per hour and the ETA."""

from __future__ import annotations

from ringmaster.stats.timing import RunClock, format_duration, games_per_hour, progress, progress_line


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_elapsed_adds_up_over_runs_and_the_eta_uses_this_runs_rate():
    tick = FakeClock()
    clock = RunClock(clock=tick)
    clock.load_json({"started": "2026-01-01 10:00:00", "elapsed": 1800.0})
    clock.start_run()
    for _ in range(11):
        tick.now += 180.0
        clock.games_this_run += 1
        clock.note_result()
    # 10 games in the half hour after this run's first: 20 per hour; 20 games left: one hour.
    info = progress(played=30, wanted=50, clock=clock)
    assert info["elapsed"] == 1800.0 + 11 * 180.0 and info["games_per_hour"] == 20.0
    assert info["eta"] == 3600.0 and info["started"] == "2026-01-01 10:00:00"
    assert progress_line(info) == "elapsed 1h 03m, 20 games per hour, 30/50 games, ETA 1h 00m"
    assert clock.to_json() == {"started": "2026-01-01 10:00:00", "elapsed": 1800.0 + 11 * 180.0}


def test_the_eta_leaves_out_each_workers_first_game_and_says_estimating_until_then():
    # Two workers: each one's first game compiles the engine (100 s), the next take 10 s.
    tick = FakeClock()
    clock = RunClock(clock=tick)
    clock.start_run(warmup=2)
    lines = []
    for finished_at in (100.0, 101.0, 110.0, 111.0, 120.0, 121.0):
        tick.now = 100.0 + finished_at
        clock.games_this_run += 1
        clock.note_result()
        lines.append(progress_line(progress(clock.games_this_run, 100, clock)))
    assert lines[0].endswith("ETA estimating (from the games after each worker's first)")
    assert lines[1].endswith("ETA estimating (from the games after each worker's first)")
    # 4 games in the 20 s after the first two: 720 an hour, 94 games left: 7 m 50 s.
    assert lines[-1] == "elapsed 2m 01s, 720 games per hour, 6/100 games, ETA 7m 50s"


def test_no_games_left_is_an_eta_of_nothing():
    clock = RunClock(clock=FakeClock())
    clock.start_run()
    assert progress(10, 10, clock)["eta"] == 0.0


def test_before_any_game_of_this_run_the_whole_events_rate_is_used():
    clock = RunClock(clock=FakeClock())
    clock.load_json({"started": "x", "elapsed": 7200.0})
    info = progress(played=20, wanted=None, clock=clock)
    assert info["games_per_hour"] == 10.0 and info["eta"] is None
    assert progress_line(info).endswith("ETA none (no game limit)")


def test_durations_and_rates():
    assert format_duration(None) == "--" and format_duration(12.4) == "12s"
    assert format_duration(185) == "3m 05s" and format_duration(3720) == "1h 02m"
    assert games_per_hour(0, 100) is None and games_per_hour(5, 0) is None
