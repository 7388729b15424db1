"""Start-up checks: engines launched together, each checked in turn, none left behind."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ringmaster.competitions.base import PlayerCheck, Setup
from ringmaster.control_file import load_control_file
from ringmaster.game.job import PlayerSpec
from ringmaster.run.lifecycle import parallel_clock_warning, run_competition
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.run.startup_checks import (
    engines_started_together,
    failure_messages,
    run_player_checks,
    usable_cores,
)
from tests.fakes.channels import fake_engine_channel, recording_factory
from tests.fakes.cli import invoke
from tests.fakes.fake_commands import fake_engine_command


def check(code: str, *options: str) -> PlayerCheck:
    return PlayerCheck(PlayerSpec(code, tuple(fake_engine_command(*options)), timeout=2),
                       Setup(board_size=9, komi=7.5))


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


# The commands the competition needs

def test_a_missing_handicap_command_fails_the_check_naming_engine_and_command():
    needs = (("place_free_handicap", "handicap 3 (free)"), ("fixed_handicap", "handicap 2 (fixed)"))
    errors = run_player_checks([replace(check("p1"), needs=needs)], fake_engine_channel)
    assert errors == ["it has no 'place_free_handicap' command, which handicap 3 (free) needs"]
    assert failure_messages([check("p1")], errors) == [
        "player p1 failed startup check: it has no 'place_free_handicap' command, which "
        "handicap 3 (free) needs"]


def test_a_timed_engine_with_no_time_command_is_named_in_a_warning_not_failed():
    notes: list[str] = []
    errors = run_player_checks([replace(check("p1"), timed=True),
                                replace(check("p2", "--time-commands", "time_settings"), timed=True),
                                check("p3")], fake_engine_channel, notes=notes)
    assert errors == [None, None, None]
    assert notes == ["player p1 lists none of the time commands kata-time_settings, "
                     "kgs-time_settings, time_settings: it is timed all the same, but not told "
                     "its clock"]


CTL = """
competition_type = 'playoff'
players = {{'p': Player({p!r}), 'q': Player({q!r})}}
board_size = 9
komi = 0.5
{top}
matchups = [Matchup('p', 'q', number_of_games=1), {matchup}]
"""


def checks_for(write_ctl, top="", matchup="Matchup('q', 'p', number_of_games=0)"):
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               top=top, matchup=matchup))
    return {c.player.code: c for c in load_control_file(ctl).make_competition().get_player_checks()}


def test_each_player_is_checked_for_what_all_its_matchups_need(write_ctl):
    checks = checks_for(write_ctl, matchup="Matchup('p', 'q', id='h', handicap=2, "
                                           "handicap_style='free', number_of_games=2)")
    assert checks["p"].needs == (("place_free_handicap", "handicap 2 (free)"),)
    assert checks["q"].needs == (("set_free_handicap", "handicap 2 (free)"),)
    assert not checks["p"].timed
    checks = checks_for(write_ctl, matchup="Matchup('p', 'q', id='h', handicap=2, alternating=True, "
                                           "time_control='per_move 5', number_of_games=2)")
    assert checks["q"].needs == (("fixed_handicap", "handicap 2 (fixed)"),) and checks["q"].timed


def test_a_player_is_set_up_on_the_board_of_each_of_its_matchups(write_ctl):
    # Checked only on its first matchup's board, an engine that can't play 7x7 passed the
    # check, then every game of the 7x7 matchup was void and the run halted.
    ctl = write_ctl(CTL.format(p=fake_engine_command(),
                               q=fake_engine_command("--name", "q", "--fail-command", "boardsize 7"),
                               top="", matchup="Matchup('q', 'p', id='small', board_size=7, "
                                               "number_of_games=2), Matchup('p', 'q', id='again', "
                                               "board_size=7, komi=0.5, number_of_games=2)"))
    checks = load_control_file(ctl).make_competition().get_player_checks()
    assert [(c.player.code, c.setup.board_size, [(m, b.board_size) for m, b in c.more_boards])
            for c in checks] == [("p", 9, [("small", 7)]), ("q", 9, [("small", 7)])]
    errors = run_player_checks(checks, fake_engine_channel)
    assert errors == [None, "failure response from 'boardsize 7' to player q: boardsize refused "
                            "(matchup small's board)"]
    # run --matchup 0: the 7x7 matchups get no games in this run, so their boards aren't checked
    competition = load_control_file(ctl).make_competition()
    competition.set_clean_status()
    competition.choose_matchups(["0"])
    assert [c.more_boards for c in competition.get_player_checks()] == [(), ()]
    assert run_player_checks(competition.get_player_checks(), fake_engine_channel) == [None, None]


def test_a_refused_first_board_names_its_matchup_as_a_later_one_does(write_ctl):
    # Only a player's later boards were named: the board of its first matchup failed with no
    # matchup in the message, so the reader could not tell which matchup to fix.
    ctl = write_ctl(CTL.format(p=fake_engine_command(),
                               q=fake_engine_command("--name", "q", "--fail-command", "boardsize 9"),
                               top="", matchup="Matchup('q', 'p', id='small', board_size=7, "
                                               "number_of_games=2)"))
    checks = load_control_file(ctl).make_competition().get_player_checks()
    assert [(c.player.code, c.matchup) for c in checks] == [("p", "0"), ("q", "0")]
    assert run_player_checks(checks, fake_engine_channel) == [
        None, "failure response from 'boardsize 9' to player q: boardsize refused (matchup 0's board)"]


def test_a_tuners_refused_board_names_no_matchup(write_ctl):
    # A tuner has no matchups: its checks' boards are the competition's own.
    ctl = write_ctl(TUNER_CTL.format(opp=fake_engine_command("--name", "opp"),
                                     cand=fake_engine_command("--fail-command", "boardsize 9")))
    checks = load_control_file(ctl).make_competition().get_player_checks()
    assert [(c.player.code, c.matchup) for c in checks] == [("candidate", None), ("opp", None)]
    assert run_player_checks(checks, fake_engine_channel) == [
        "failure response from 'boardsize 9' to player candidate: boardsize refused", None]


TUNER_CTL = """
competition_type = 'mc_tuner'
players = {{'opp': Player({opp!r})}}
board_size = 9
komi = 7.5
opponent = 'opp'
candidate_colour = 'random'
number_of_games = 2
parameters = [Parameter('c', scale=LINEAR(0.0, 1.0), split=2)]
exploration_coefficient = 0.45
initial_visits = 10
initial_wins = 5
def make_candidate(c):
    return Player({cand!r})
"""


def test_a_matchup_with_no_games_asks_for_nothing(write_ctl):
    checks = checks_for(write_ctl, top="", matchup="Matchup('p', 'q', id='h', handicap=2, "
                                                    "time_control='absolute 5', number_of_games=0)")
    assert checks["p"].needs == () and not checks["p"].timed


def test_a_run_at_a_time_control_warns_of_an_engine_with_no_time_command(write_ctl):
    ctl = write_ctl(CTL.format(p=fake_engine_command(),
                               q=fake_engine_command("--name", "q", "--time-commands",
                                                     "kgs-time_settings,time_left"),
                               top="time_control = 'absolute 600'",
                               matchup="Matchup('q', 'p', number_of_games=0)"))
    result = invoke("run", ctl, "-q", channel_factory=fake_engine_channel)
    assert result.exit_code == 0, result.output
    log = open(ctl[:-4] + ".log").read()
    assert "player p lists none of the time commands" in log
    assert "player q lists" not in log


def test_a_run_needing_a_missing_handicap_command_stops_in_one_line(write_ctl):
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               top="", matchup="Matchup('q', 'p', id='h', handicap=3, "
                                                "handicap_style='free', number_of_games=1)"))
    result = invoke("run", ctl, "-q", channel_factory=fake_engine_channel)
    assert result.exit_code != 0
    assert ("player q failed startup check: it has no 'place_free_handicap' command, which "
            "handicap 3 (free) needs") in result.output


def test_the_parallel_warning_needs_a_clock_and_more_games_than_cores():
    assert parallel_clock_warning(4, True, 2).startswith(
        "-j 4 plays more games at once than the 2 cores this process may use")
    assert parallel_clock_warning(2, True, 2) is None
    assert parallel_clock_warning(None, True, 1) is None
    assert parallel_clock_warning(4, False, 2) is None


def test_a_timed_run_with_more_games_than_cores_warns(write_ctl, monkeypatch):
    monkeypatch.setattr("ringmaster.run.lifecycle.usable_cores", lambda: 0)
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               top="time_control = 'absolute 600'",
                               matchup="Matchup('q', 'p', number_of_games=0)"))
    run_competition(Ringmaster(ctl, channel_factory=fake_engine_channel), parallel=1,
                    say=lambda _: None)
    assert "-j 1 plays more games at once than the 0 cores" in open(ctl[:-4] + ".log").read()


def test_check_names_a_timed_engine_with_no_time_command(write_ctl):
    ctl = write_ctl(CTL.format(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               top="time_control = 'absolute 600'",
                               matchup="Matchup('q', 'p', number_of_games=0)"))
    result = invoke("check", ctl, channel_factory=fake_engine_channel)
    assert result.exit_code == 0, result.output
    assert "warning: player p lists none of the time commands" in result.stderr
