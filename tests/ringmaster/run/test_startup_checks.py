"""Start-up checks: engines launched together, each checked in turn, none left behind."""

from __future__ import annotations

import pytest

from ringmaster.competitions.base import PlayerCheck
from ringmaster.game.job import PlayerSpec
from ringmaster.run.lifecycle import run_competition
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.run.startup_checks import engines_started_together, run_player_checks, usable_cores
from tests.fakes.channels import recording_factory
from tests.fakes.fake_commands import fake_engine_command


def check(code: str, *options: str) -> PlayerCheck:
    return PlayerCheck(PlayerSpec(code, tuple(fake_engine_command(*options)), timeout=2),
                       board_size=9, komi=7.5)


def launches_and_first_commands(events: list) -> list:
    return [event for event in events if event[0] == "launch" or event[1] == "protocol_version"]


def test_a_batch_of_engines_is_launched_before_any_is_greeted():
    events: list = []
    errors = run_player_checks([check("p1"), check("p2"), check("p3")], recording_factory(events),
                           at_once=2)
    assert errors == [None, None, None]
    assert launches_and_first_commands(events) == [
        ("launch", "p1"), ("launch", "p2"), ("p1", "protocol_version"),
        ("p2", "protocol_version"), ("launch", "p3"), ("p3", "protocol_version")]
    # Each engine is set up and closed before the next is greeted.
    assert events.index(("close", "p1")) < events.index(("p2", "protocol_version"))


def test_one_at_a_time_each_engine_is_closed_before_the_next_starts():
    events: list = []
    assert run_player_checks([check("p1"), check("p2")], recording_factory(events)) == [None, None]
    assert events.index(("close", "p1")) < events.index(("launch", "p2"))


def test_failures_come_back_in_order_and_the_other_checks_still_run():
    events: list = []
    errors = run_player_checks(
        [check("p1"), check("p2", "--fail-command", "komi"), check("p3"), check("p4")],
        recording_factory(events, fail_launch="p3"), at_once=4)
    assert errors[0] is None and errors[3] is None
    assert errors[1] == "failure response from 'komi 7.5' to player p2: komi refused"
    assert errors[2] == "error starting subprocess for player p3: no such engine"
    for code in ("p1", "p2", "p4"):
        assert ("close", code) in events


def interrupting_p1(events: list, method: str, once: bool = False):
    """recording_factory, with p1's channel raising KeyboardInterrupt from method (only
    the first call if once: as if Ctrl-C came while that call waited)."""
    factory = recording_factory(events)

    def interrupting_factory(spec, env, stderr):
        channel = factory(spec, env, stderr)
        if spec.code == "p1":
            real = getattr(channel, method)

            def interrupted(*args):
                if once:
                    setattr(channel, method, real)
                raise KeyboardInterrupt
            setattr(channel, method, interrupted)
        return channel
    return interrupting_factory


def test_an_interrupt_while_greeting_leaves_no_engine_of_the_batch_behind():
    events: list = []
    with pytest.raises(KeyboardInterrupt):
        run_player_checks([check("p1"), check("p2"), check("p3")],
                          interrupting_p1(events, "send_command"), at_once=3)
    for code in ("p1", "p2", "p3"):
        assert ("kill", code) in events and ("close", code) in events


def test_an_interrupt_while_closing_an_engine_kills_it_and_the_rest_of_the_batch():
    events: list = []
    with pytest.raises(KeyboardInterrupt):
        run_player_checks([check("p1"), check("p2")],
                          interrupting_p1(events, "close", once=True), at_once=2)
    for code in ("p1", "p2"):
        assert ("kill", code) in events and ("close", code) in events
    assert events.index(("kill", "p2")) < events.index(("close", "p1"))   # all killed first


def test_usable_cores_follow_the_affinity_mask(monkeypatch):
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 3})
    assert usable_cores() == 2


def test_usable_cores_without_an_affinity_mask(monkeypatch):
    monkeypatch.delattr("os.sched_getaffinity", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 3)
    assert usable_cores() == 3


def test_no_more_engines_start_together_than_cores_or_the_runs_own_games_use(monkeypatch):
    monkeypatch.setattr("ringmaster.run.startup_checks.usable_cores", lambda: 16)
    assert [engines_started_together(parallel) for parallel in (None, 1, 3, 20)] == [2, 2, 6, 16]
    monkeypatch.setattr("ringmaster.run.startup_checks.usable_cores", lambda: 1)
    assert engines_started_together(4) == 1


def test_a_run_starts_its_players_engines_together(write_ctl, monkeypatch):
    monkeypatch.setattr("ringmaster.run.startup_checks.usable_cores", lambda: 2)
    ctl = write_ctl(f"""
competition_type = 'playoff'
players = {{'p': Player({fake_engine_command()!r}), 'q': Player({fake_engine_command()!r})}}
board_size = 5
komi = 0.5
matchups = [Matchup('p', 'q', number_of_games=1)]
""")
    events: list = []
    run_competition(Ringmaster(ctl, channel_factory=recording_factory(events)), say=lambda _: None)
    assert launches_and_first_commands(events)[:3] == [
        ("launch", "p"), ("launch", "q"), ("p", "protocol_version")]
