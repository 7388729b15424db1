"""Every ringmaster command through the CLI's error boundary, on small competitions of fake engines.

The engines run in-process (tests.fakes.channels); the tests marked
integration start processes: worker processes, or the console script.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time

import pytest

from ringmaster.cli import (
    EXIT_CHECKS_FAILED,
    EXIT_HALTED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    EXIT_USER_ERROR,
    normalise_arguments,
)
from ringmaster.errors import StartupCheckFailed
from ringmaster.state.lock import CompetitionLock
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.fake_commands import FAKE_ENGINE, fake_engine_command

PLAYOFF = """
competition_type = 'playoff'
description = 'test playoff'
players = {{
    'p1': Player({p1!r}),
    'p2': Player({p2!r}),
}}
board_size = 5
komi = 0.5
{extra}
matchups = [Matchup('p1', 'p2', alternating=True, number_of_games={games})]
"""


def playoff(write_ctl, games=4, p1=None, p2=None, extra=""):
    return write_ctl(PLAYOFF.format(p1=p1 or fake_engine_command(),
                                    p2=p2 or fake_engine_command("--name", "other"),
                                    games=games, extra=extra))


def invoke(*args):
    return cli.invoke(*args, channel_factory=fake_engine_channel)


def test_run_show_report_and_files(write_ctl):
    ctl = playoff(write_ctl, extra="scorer = 'internal'")
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    base = ctl[:-4]
    games = sorted(os.listdir(base + ".games"))
    assert games == ["0_0.sgf", "0_1.sgf", "0_2.sgf", "0_3.sgf"]
    history = open(base + ".hist").read().splitlines()
    assert len(history) == 4 and all(" beat " in line or " vs " in line for line in history)
    report = open(base + ".report").read()
    assert "p1 v p2 (4/4 games)" in report and "player p2: other:1.0" in report
    assert "Elo p1 - p2:" in report
    assert re.search(r"\nprogress: elapsed \S+, \d+ games per hour, 4/4 games, ETA 0s\n", report)
    shown = invoke("show", ctl)
    assert shown.exit_code == 0 and "p1 v p2 (4/4 games)" in shown.output
    assert "games per hour, 4/4 games, ETA 0s" in shown.output
    log = open(base + ".log").read()
    assert "starting game 0_0: p1 (b) vs p2 (w)" in log
    assert "starting game 0_1: p2 (b) vs p1 (w)" in log
    os.remove(base + ".report")
    assert invoke("report", ctl).exit_code == 0
    assert os.path.exists(base + ".report")


def test_sgf_records_the_game(write_ctl):
    ctl = playoff(write_ctl, games=1, extra="scorer = 'internal'")
    invoke("run", ctl, "-q")
    sgf = open(ctl[:-4] + ".games/0_0.sgf").read()
    for expected in ("GN[comp 0_0]", "EV[comp]", "SZ[5]", "KM[0.5]", "PB[fake:1.0 (p1)]",
                     "PW[other:1.0 (p2)]", "Game id 0_0", "Black p1 fake:1.0"):
        assert expected in sgf
    assert ";B[" in sgf and ";W[" in sgf


def test_show_json_has_every_result_and_stats(write_ctl):
    ctl = playoff(write_ctl, games=3, extra="scorer = 'internal'")
    invoke("run", ctl, "-q")
    data = json.loads(invoke("show", ctl, "--json").output)
    (matchup,) = data["matchups"]
    assert [r["game_id"] for r in matchup["results"]] == ["0_0", "0_1", "0_2"]
    stats = matchup["stats"]
    assert stats["games"] == 3 and stats["wins_1"] + stats["wins_2"] == 3
    assert len(stats["elo_1_minus_2_95"]) == 2


@pytest.mark.integration
def test_max_games_and_resume_continue_where_stopped(write_ctl):
    ctl = playoff(write_ctl, games=4, extra="scorer = 'internal'")
    assert invoke("run", ctl, "-q", "-g", "1").exit_code == 0
    assert os.listdir(ctl[:-4] + ".games") == ["0_0.sgf"]
    assert invoke("run", ctl, "-q", "-j", "2").exit_code == 0
    assert len(os.listdir(ctl[:-4] + ".games")) == 4
    assert len(open(ctl[:-4] + ".hist").read().splitlines()) == 4
    log = open(ctl[:-4] + ".log").read()
    assert "halting competition: max-games reached for this run" in log
    assert log.count("starting game 0_0") == 1


def test_matchup_plays_only_the_matchups_chosen_and_help_says_how_g_picks(write_ctl):
    ctl = write_ctl(PLAYOFF.replace(
        "matchups = [Matchup('p1', 'p2', alternating=True, number_of_games={games})]",
        "matchups = [Matchup('p1', 'p2', id='slow', number_of_games=4),\n"
        "            Matchup('p2', 'p1', id='quick', number_of_games=4),\n"
        "            Matchup('p1', 'p1', id='mirror', name='self-play', number_of_games=4)]").format(
        p1=fake_engine_command(), p2=fake_engine_command("--name", "other"), extra="scorer = 'internal'"))
    # Without --matchup, -g 3 takes one game from each matchup in turn.
    assert invoke("run", ctl, "-q", "-g", "3").exit_code == 0
    assert sorted(os.listdir(ctl[:-4] + ".games")) == ["mirror_0.sgf", "quick_0.sgf", "slow_0.sgf"]
    result = invoke("run", ctl, "-q", "-g", "4", "--matchup", "quick", "--matchup", "self-play")
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(ctl[:-4] + ".games")) == [
        "mirror_0.sgf", "mirror_1.sgf", "mirror_2.sgf", "quick_0.sgf", "quick_1.sgf", "quick_2.sgf",
        "slow_0.sgf"]
    # Gomill's order too; the chosen matchup plays to its end, and the run stops.
    assert invoke(ctl, "--matchup", "quick", "-q").exit_code == 0
    assert len([f for f in os.listdir(ctl[:-4] + ".games") if f.startswith("quick")]) == 4
    assert len(os.listdir(ctl[:-4] + ".games")) == 8
    result = invoke("run", ctl, "--matchup", "fast")
    assert result.exit_code == EXIT_USAGE
    assert result.output == ("ringmaster: --matchup fast: no such matchup in comp "
                             "(its matchup ids: slow, quick, mirror)\n")
    help_text = " ".join(invoke("run", "--help").output.split())
    assert "takes them from every matchup in turn (the one with the fewest games first)" in help_text
    assert "--matchup ID Play only this matchup" in help_text


def mc_tuner_ctl(engine: str, make_candidate_body: str = "") -> str:
    """A small mc_tuner over one parameter p (0.25 or 0.75), its opponent and candidates engine;
    make_candidate_body: lines run before make_candidate returns (indented by 4)."""
    return f"""
competition_type = 'mc_tuner'
players = {{'opp': Player({engine!r})}}
board_size = 5
komi = 0.5
opponent = 'opp'
candidate_colour = 'b'
parameters = [Parameter('p', scale=LINEAR(0, 1), split=2)]
def make_candidate(p):
{make_candidate_body}    return Player({engine!r})
exploration_coefficient = 0.45
initial_visits = 2
initial_wins = 1
"""


def test_matchup_is_refused_for_a_tuner(write_ctl):
    ctl = write_ctl(mc_tuner_ctl("x"))
    result = invoke("run", ctl, "--matchup", "0")
    assert result.exit_code == EXIT_USAGE
    assert result.output == ("ringmaster: --matchup: comp is an event of type mc_tuner, which has no "
                             "matchups (playoff and allplayall have)\n")


def test_stop_without_a_run_going_says_so_and_fails(write_ctl):
    # It exited 0 saying nothing, and left a stop request for no run.
    ctl = playoff(write_ctl, games=4)
    result = invoke("stop", ctl)
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output == "ringmaster: no run of comp is going on: nothing to stop\n"
    assert not os.path.exists(ctl[:-4] + ".cmd")


def test_stop_command_halts_a_run_before_its_next_game(write_ctl):
    ctl = playoff(write_ctl, games=4)
    lock = CompetitionLock(ctl[:-4] + ".log")   # as a run going on holds it
    lock.acquire()
    try:
        result = invoke("stop", ctl)
    finally:
        lock.release()
    assert result.exit_code == 0 and result.output == ""
    assert open(ctl[:-4] + ".cmd").read().strip() == "stop"
    # A stale stop file is removed when a run starts, so this run completes.
    assert invoke("run", ctl, "-q").exit_code == 0
    assert not os.path.exists(ctl[:-4] + ".cmd")
    assert len(os.listdir(ctl[:-4] + ".games")) == 4


def assert_refused_as_running(ctl: str) -> None:
    """reset and run are refused, each in its one line, while another run holds the lock."""
    result = invoke("reset", ctl)
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output == ("ringmaster: competition is already running (another run holds "
                             f"the lock on comp.log): stop it with `ringmaster stop {ctl}`, "
                             "then reset\n")
    result = invoke("run", ctl, "-q")
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output == ("ringmaster: competition is already running (another run holds "
                             "the lock on comp.log): wait for it to end, or stop it with "
                             f"`ringmaster stop {ctl}`\n")


def test_reset_removes_outputs_and_is_refused_while_running(write_ctl):
    ctl = playoff(write_ctl, games=1)
    invoke("run", ctl, "-q")
    lock = CompetitionLock(ctl[:-4] + ".log")
    lock.acquire()
    try:
        assert_refused_as_running(ctl)
    finally:
        lock.release()
    assert invoke("reset", ctl).exit_code == 0
    assert sorted(os.listdir(os.path.dirname(ctl))) == ["comp.ctl"]


@pytest.mark.parametrize("tidy_up", ["remove", "rename"])
def test_run_and_reset_are_refused_with_the_log_gone_from_under_a_run(write_ctl, tidy_up):
    # The lock was an flock on FILE.log alone: with the log deleted or rotated under a run,
    # a second run made a new log, locked it and played alongside the first (records
    # overwritten, games counted twice), and reset deleted the state under the run.
    ctl = playoff(write_ctl, games=1)
    invoke("run", ctl, "-q")
    log = ctl[:-4] + ".log"
    lock = CompetitionLock(log)
    lock.acquire()
    try:
        if tidy_up == "remove":
            os.remove(log)
        else:
            os.rename(log, log + ".1")
        assert_refused_as_running(ctl)
        assert os.path.exists(ctl[:-4] + ".status") and os.listdir(ctl[:-4] + ".games")
    finally:
        lock.release()
    assert invoke("run", ctl, "-q").exit_code == 0   # released: the competition is complete


def test_show_without_state_and_debugstatus(write_ctl):
    ctl = playoff(write_ctl, games=1)
    result = invoke("show", ctl)
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output == ("ringmaster: no status file comp.status: play some games first "
                             f"with `ringmaster run {ctl}`\n")
    lock = CompetitionLock(ctl[:-4] + ".log")   # as while a first run plays its first game
    lock.acquire()
    try:
        assert invoke("show", ctl).output == ("ringmaster: no status file comp.status yet: the first "
                                              "run is playing and has finished no game; ask again "
                                              "once one is in\n")
    finally:
        lock.release()
    invoke("run", ctl, "-q")
    document = json.loads(invoke("debugstatus", ctl).output)
    assert document["format"] == "ringmaster-state"
    assert document["competition"]["results"]["0"][0]["game_id"] == "0_0"


def test_check_reports_failures_with_stderr(write_ctl):
    ctl = playoff(write_ctl, p2=fake_engine_command("--fail-command", "komi"))
    result = invoke("check", ctl)
    assert result.exit_code == EXIT_CHECKS_FAILED
    assert "checking player p1" in result.output
    assert "player p2 failed startup check: failure response from 'komi 0.5' to player p2: " \
           "komi refused" in result.output
    # check shows the engines' stderr itself: it doesn't send the user to check
    assert result.stderr == "ringmaster: 1 player failed the startup check\n"


def test_run_refuses_to_start_when_a_check_fails(write_ctl):
    ctl = playoff(write_ctl, p2=fake_engine_command("--exit-at-start"))
    result = invoke("run", ctl)
    assert result.exit_code == EXIT_CHECKS_FAILED
    assert ("player p2 failed startup check: error reading response to first command "
            "(protocol_version) from player p2: engine has closed the response channel"
            in result.stdout)
    assert ("ringmaster: 1 player failed the startup check (use the 'check' command to see "
            "stderr output)\n") == result.stderr
    assert not os.path.exists(ctl[:-4] + ".games")
    # The log says why the run played nothing (it had only 'run ended').
    log = open(ctl[:-4] + ".log").read()
    assert "player p2 failed startup check: error reading response to first command" in log
    assert "run refused: 1 player failed the startup check" in log


def test_the_check_command_is_suggested_only_where_a_failing_engine_started():
    missing = ("player q failed startup check: error starting subprocess for player q: "
               "can't run 'q': No such file or directory (give the full path, or check PATH)")
    crashed = "player p failed startup check: engine has closed the response channel"
    assert str(StartupCheckFailed([missing])) == "1 player failed the startup check"
    assert str(StartupCheckFailed([missing, crashed])) == (
        "2 players failed the startup check (use the 'check' command to see stderr output)")


@pytest.mark.integration
def test_an_engine_gone_fails_the_check_with_its_players_hint_and_show_still_works(write_ctl,
                                                                                     tmp_path):
    engine = tmp_path / "engine"   # named by the control file as a variable would name it
    engine.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE_ENGINE} \"$@\"\n")
    engine.chmod(0o755)
    hint = "set ENGINE to the engine's path, or put engine on PATH"
    ctl = playoff(write_ctl, games=2, p2=[str(engine)], extra=(
        f"players['p2'] = Player(players['p2'].settings['command'], missing_hint={hint!r})"))
    assert cli.invoke("run", ctl, "-q", "--max-games", "1").exit_code == 0
    engine.unlink()
    shown = cli.invoke("show", ctl)   # nothing is started: no check of the engine
    assert shown.exit_code == 0 and "p1 v p2 (1/2 games)" in shown.output
    result = cli.invoke("run", ctl, "-q")
    assert result.exit_code == EXIT_CHECKS_FAILED
    assert result.stdout == (f"player p2 failed startup check: error starting subprocess for "
                             f"player p2: can't run '{engine}': No such file or directory "
                             f"({hint})\n")
    # no engine started, so none wrote to stderr: 'check' would show nothing more
    assert result.stderr == "ringmaster: 1 player failed the startup check\n"


def test_void_games_halt_the_run_with_its_own_exit_code(write_ctl):
    ctl = playoff(write_ctl, p2=fake_engine_command("--exit-at-start"),
                  extra="skip_player_checks = True")
    result = invoke("run", ctl, "-q")
    assert result.exit_code == EXIT_HALTED
    assert result.stderr.endswith(
        "ringmaster: run halted: too many void games; see the log file\n")
    log = open(ctl[:-4] + ".log").read()
    assert "game 0_0 -- aborting game due to error:" in log
    assert "halting competition: too many void games" in log
    state = json.loads(open(ctl[:-4] + ".status").read())
    assert state["void_game_count"] == 1
    assert state["competition"]["results"]["0"] == []


def test_user_errors_are_one_line(write_ctl):
    ctl = write_ctl("competition_type = 'playoff'\nboard_size = 99\n")
    result = invoke("run", ctl)
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    result = invoke("show", str(os.path.dirname(ctl)) + "/missing.ctl")
    assert result.exit_code == EXIT_USER_ERROR
    assert "not found" in result.output


def test_corrupt_state_file_is_a_one_line_error(write_ctl):
    ctl = playoff(write_ctl, games=1)
    with open(ctl[:-4] + ".status", "w") as f:
        f.write("{not json")
    result = invoke("show", ctl)
    assert result.exit_code == EXIT_USER_ERROR
    assert "state file comp.status is corrupt" in result.output


@pytest.mark.parametrize("argv, expected", [
    (["x.ctl"], ["run", "x.ctl"]),
    (["x.ctl", "show"], ["show", "x.ctl"]),
    (["-j", "2", "x.ctl", "run", "-q"], ["run", "x.ctl", "-j", "2", "-q"]),
    (["run", "x.ctl", "-j", "2"], ["run", "x.ctl", "-j", "2"]),
    (["--help"], ["--help"]),
])
def test_gomill_argument_order(argv, expected):
    assert normalise_arguments(argv) == expected


COMMAND_LIST = "the commands are run, show, check, report, stop, reset, debugstatus"


@pytest.mark.parametrize("order", ["ours", "gomill's"])
def test_a_mistyped_command_is_named_with_the_commands(write_ctl, order):
    ctl = playoff(write_ctl, games=1)
    argv = ["rnu", ctl] if order == "ours" else [ctl, "rnu"]
    result = invoke(*argv, "-q")
    assert result.exit_code == EXIT_USAGE
    assert result.output == f"ringmaster: no such command 'rnu' (did you mean 'run'?); {COMMAND_LIST}\n"
    assert not os.path.exists(ctl[:-4] + ".status")


def test_an_unknown_command_before_a_control_file_that_is_not_there_yet_is_named(tmp_path):
    result = invoke("frobnicate", str(tmp_path / "new.ctl"))
    assert (result.exit_code, result.output) == (
        EXIT_USAGE, f"ringmaster: no such command 'frobnicate'; {COMMAND_LIST}\n")


@pytest.mark.integration
def test_console_script_in_gomill_order(write_ctl):
    ctl = playoff(write_ctl, games=1)
    proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", ctl, "run", "-q"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "ringmaster", ctl, "frobnicate"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.startswith("ringmaster: no such command 'frobnicate'; ")


@pytest.mark.integration
@pytest.mark.parametrize("suffix, stream", [(".log", "output"), (".report", "error")])
def test_run_with_its_output_sent_into_its_own_file_is_refused_in_one_line(write_ctl, suffix, stream):
    ctl = playoff(write_ctl, games=1)
    own = ctl[:-4] + suffix
    with open(own, "w") as f:   # as the shell does for `ringmaster run comp.ctl > comp.log`
        redirect = {"stdout": f} if stream == "output" else {"stderr": f, "stdout": subprocess.PIPE}
        proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", "run", ctl], timeout=60,
                              text=True, **({"stderr": subprocess.PIPE} | redirect))
    message = proc.stderr if stream == "output" else open(own).read()
    assert proc.returncode == EXIT_USAGE
    assert message == (f"ringmaster: standard {stream} is comp{suffix}, which the run writes itself: "
                       "send it to another file\n")
    assert not os.path.exists(ctl[:-4] + ".status")


def test_errors_in_commands_become_exit_codes_once(write_ctl, monkeypatch):
    ctl = playoff(write_ctl, games=1)
    assert invoke("frobnicate", ctl).exit_code == EXIT_USAGE
    assert invoke("run", ctl, "-j", "0").exit_code == EXIT_USAGE
    assert invoke("debugstatus", ctl).output.startswith("ringmaster: no status file comp.status: ")

    def interrupted(self, *args, **kwargs):
        self.games_started = 1
        raise KeyboardInterrupt
    monkeypatch.setattr("ringmaster.run.ringmaster.Ringmaster.run", interrupted)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == EXIT_INTERRUPTED
    assert result.stderr == "ringmaster: interrupted; games in progress will be replayed\n"

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr("ringmaster.run.ringmaster.Ringmaster.run", broken)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 4
    assert result.stderr.startswith("ringmaster: internal error\nTraceback")
    assert "ZeroDivisionError: a bug" in result.stderr


def test_othello_board_size_is_a_control_file_error_naming_the_setting(write_ctl):
    ctl = playoff(write_ctl, extra="game = 'othello'")
    result = invoke("run", ctl)
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output == ("ringmaster: error in control file comp.ctl line 7: 'board_size': "
                             "out of range for othello (even, 4-16)\n")


@pytest.mark.parametrize("extra, expected", [
    ("raise BaseException('x')", "BaseException: x"),
    ("raise ValueError('two\\nlines')", "ValueError: two / lines"),
])
def test_anything_a_control_file_raises_is_a_one_line_user_error(write_ctl, extra, expected):
    result = invoke("run", playoff(write_ctl, extra=extra))
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output == f"ringmaster: error in control file comp.ctl line 9: {expected}\n"


def test_make_candidate_failing_in_a_run_names_the_control_files_line(write_ctl):
    ctl = write_ctl(mc_tuner_ctl(fake_engine_command(),
                                 "    if p > 0.5:\n        raise ValueError('boom')\n"))
    result = invoke("run", ctl, "-q", "-g", "4")
    assert result.exit_code == EXIT_USER_ERROR
    assert result.stderr.endswith("ringmaster: error in control file comp.ctl line 10, "
                                  "in make_candidate(p=0.75): ValueError: boom\n")


def spy_on_html(monkeypatch, base: str) -> list[int]:
    """The number of game rows in FILE.html each time it is written."""
    from ringmaster.run.reports import RunReports
    written: list[int] = []
    original = RunReports.write_html

    def spy(self):
        original(self)
        written.append(open(base + ".html").read().count("<tr><td class=\"l\"><a href="))
    monkeypatch.setattr(RunReports, "write_html", spy)
    return written


def test_html_is_rewritten_at_most_once_an_interval_and_always_at_the_end(write_ctl,
                                                                          monkeypatch):
    import ringmaster.run.reports
    ctl = playoff(write_ctl, games=3, extra="scorer = 'internal'")
    written = spy_on_html(monkeypatch, ctl[:-4])
    monkeypatch.setattr(ringmaster.run.reports, "HTML_INTERVAL", 3600.0)
    assert invoke("run", ctl).exit_code == 0
    # Nothing within the interval (which starts with the run), then the end of the run.
    assert written == [3]


def test_an_interrupted_run_leaves_html_with_every_result(write_ctl, monkeypatch):
    import ringmaster.run.reports
    from ringmaster.run.ringmaster import Ringmaster
    ctl = playoff(write_ctl, games=3, extra="scorer = 'internal'")
    written = spy_on_html(monkeypatch, ctl[:-4])
    monkeypatch.setattr(ringmaster.run.reports, "HTML_INTERVAL", 3600.0)

    def ctrl_c_after_two(self, running):
        if len(self.game_index) == 2:
            raise KeyboardInterrupt
    monkeypatch.setattr(Ringmaster, "poll", ctrl_c_after_two)
    assert invoke("run", ctl, "-q").exit_code == EXIT_INTERRUPTED
    # Nothing within the interval; the interrupt writes both results.
    assert written == [2]


def test_a_page_slow_to_render_is_rewritten_less_often(write_ctl, monkeypatch):
    import ringmaster.reporting.html
    import ringmaster.run.reports
    ctl = playoff(write_ctl, games=3, extra="scorer = 'internal'")
    written = spy_on_html(monkeypatch, ctl[:-4])
    monkeypatch.setattr(ringmaster.run.reports, "HTML_INTERVAL", 1e-6)
    render = ringmaster.reporting.html.render_html

    def slow(report, listed=None):
        time.sleep(1.0)   # then the next rewrite waits 1.0 / HTML_SHARE = 20 s
        return render(report, listed)
    monkeypatch.setattr(ringmaster.reporting.html, "render_html", slow)
    assert invoke("run", ctl, "-q").exit_code == 0
    # The first result's page, then none until the end (the interval alone allows more).
    assert written == [1, 3]


def test_show_csv_html_after_every_result_and_report_rewrites_it(write_ctl, monkeypatch):
    import ringmaster.run.reports
    ctl = playoff(write_ctl, games=3, extra="scorer = 'internal'")
    base = ctl[:-4]
    written = spy_on_html(monkeypatch, base)
    monkeypatch.setattr(ringmaster.run.reports, "HTML_INTERVAL", 0.0)
    result = invoke("run", ctl)
    assert result.exit_code == 0, result.output
    # With no interval FILE.html is rewritten after each result (one more game row each
    # time), and at the end.
    assert written == [1, 2, 3, 3]
    # The live display shows elapsed time, games per hour and the ETA.
    assert "games per hour, 3/3 games, ETA" in result.output
    rows = invoke("show", ctl, "--csv").output.splitlines()
    assert rows[0].startswith("game_id,black,white,result,winner,moves,seconds")
    assert [row.split(",")[0] for row in rows[1:]] == ["0_0", "0_1", "0_2"]
    assert all(int(row.split(",")[5]) > 0 for row in rows[1:])
    os.remove(base + ".html")
    assert invoke("report", ctl).exit_code == 0
    assert "p1 v p2" in open(base + ".html").read()
    data = json.loads(invoke("show", ctl, "--json").output)
    assert data["progress"]["games_played"] == 3 and data["progress"]["games_wanted"] == 3
    assert isinstance(data["progress"]["elapsed"], float) and len(data["games"]) == 3
    assert invoke("reset", ctl).exit_code == 0 and not os.path.exists(base + ".html")


def test_forfeit_lines_and_player_descriptions_each_start_a_line(write_ctl):
    # Issue 14 saw "GTP GRhino:0.16.1game 0_0: ..." in a playoff with forfeits.
    ctl = playoff(write_ctl, games=3, p2=fake_engine_command("--reject-play", "--name", "GTP GRhino"))
    outputs = [invoke("run", ctl).output, invoke("show", ctl).output, open(ctl[:-4] + ".report").read()]
    assert "game 0_0: forfeit by p2: p2 claims move A1 is illegal, which no ruleset forbids" in outputs[0]
    assert "player p2: GTP GRhino:1.0 (--reject-play --name 'GTP GRhino')\n" in outputs[1]
    for text in outputs:
        assert text.endswith("\n")
        assert not re.search(r"\Sgame \d|\Splayer p\d:", text), text


# Issue 12: warnings a user sees, and a newcomer's traps.

def test_control_file_warnings_go_to_the_screen_once_and_to_the_log(write_ctl):
    ctl = playoff(write_ctl, extra="scorer = 'internal'\nmove_limt = 50")
    result = invoke("run", ctl)
    assert result.exit_code == 0, result.output
    warning = "comp.ctl line 10: 'move_limt' is not a setting; did you mean 'move_limit'?"
    assert result.stderr.count(warning) == 1
    assert warning in open(ctl[:-4] + ".log").read()


def test_a_history_file_truncated_by_hand_is_warned_on_the_screen(write_ctl):
    ctl = playoff(write_ctl, extra="scorer = 'internal'")
    assert invoke("run", ctl, "-g", "2").exit_code == 0
    with open(ctl[:-4] + ".hist", "r+") as f:
        f.truncate(3)
    result = invoke("run", ctl)
    assert result.exit_code == 0
    assert "history file comp.hist is shorter than the state expects" in result.stderr


def test_a_complete_competition_says_so(write_ctl):
    ctl = playoff(write_ctl, extra="scorer = 'internal'")
    assert invoke("run", ctl, "-q").exit_code == 0
    result = invoke("run", ctl)
    assert result.exit_code == 0
    assert result.output.strip() == (
        "competition is complete: nothing to play (ringmaster show prints the results)")


def test_quiet_prints_the_results_at_the_end(write_ctl):
    ctl = playoff(write_ctl, extra="scorer = 'internal'")
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0
    assert "p1 v p2 (4/4 games)" in result.stdout
    assert result.stdout.count("p1 v p2") == 1
    assert re.search(r"\nelapsed \S+, \d+ games per hour, 4/4 games, ETA 0s\n$", result.stdout)


def test_a_komi_change_between_runs_is_refused(write_ctl):
    ctl = playoff(write_ctl, extra="scorer = 'internal'")
    assert invoke("run", ctl, "-g", "1").exit_code == 0
    with open(ctl) as f:
        text = f.read()
    with open(ctl, "w") as f:
        f.write(text.replace("komi = 0.5", "komi = 6.5"))
    result = invoke("run", ctl)
    assert result.exit_code == 1
    assert result.output.strip() == (
        "ringmaster: komi of matchup 0 is 6.5 in the control file but was 0.5 for the games "
        "in comp.status; put it back, or use a new matchup (or reset) for games at 6.5")
    with open(ctl, "w") as f:
        f.write(text)
    assert invoke("run", ctl).exit_code == 0


def test_every_log_line_has_a_timestamp_to_the_second(write_ctl):
    ctl = playoff(write_ctl, extra="scorer = 'internal'",
                  p2=fake_engine_command("--name", "other", "--env-to-stderr"))
    assert invoke("run", ctl, "-q").exit_code == 0
    lines = open(ctl[:-4] + ".log").read().splitlines()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d "
    assert [line for line in lines if not re.match(stamp, line)] == []
    assert any(re.match(stamp + r"starting game 0_0: ", line) for line in lines)   # an event
    assert any(re.match(stamp + r"\[0_0 p2\] game=0_0", line) for line in lines)   # engine stderr
    assert re.match(stamp + r"run started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d with", lines[0])
    assert lines[-1].endswith(" run ended")


def test_a_scoring_disagreement_says_why_it_may_happen(write_ctl):
    ctl = playoff(write_ctl, games=1, p1=fake_engine_command("--score", "B+3.5"),
                  p2=fake_engine_command("--score", "W+12.5"))
    result = invoke("run", ctl)
    assert result.exit_code == 0
    hint = ("game 0_0: the players disagreed on the score (each one's final_score is in the "
            "SGF): they may count by different rules (GNU Go counts Japanese-style unless given "
            "--chinese-rules); scorer = 'internal' has the referee count every game")
    assert hint in result.stderr
    assert hint in open(ctl[:-4] + ".log").read()
    # The reports say it too, with what each player claimed.
    why = ("why: players disagreed: 1 game (e.g. 0_0: p1 said B+3.5, p2 said W+12.5); they may "
           "count by different rules")
    assert why in open(ctl[:-4] + ".report").read() and why in invoke("show", ctl).output
    assert ("Without a result: players disagreed: 1 game (e.g. 0_0: p1 said B+3.5, p2 said W+12.5)"
            in open(ctl[:-4] + ".html").read())


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_a_runs_files_follow_the_umask(write_ctl, umask):
    ctl = playoff(write_ctl, games=2, extra="scorer = 'internal'")
    old = os.umask(umask)
    try:
        assert invoke("run", ctl).exit_code == 0
    finally:
        os.umask(old)
    base = ctl[:-4]
    for path in (".report", ".status", ".hist", ".log", ".html", ".games/0_0.sgf"):
        assert stat.S_IMODE(os.stat(base + path).st_mode) == 0o666 & ~umask, path
    assert stat.S_IMODE(os.stat(base + ".games").st_mode) == 0o777 & ~umask


@pytest.mark.integration
@pytest.mark.parametrize("closed", [1, 2])
def test_a_command_started_with_a_standard_stream_closed_exits_0(closed):
    # `ringmaster --version 2>&-` (or `>&-`) exited 1 with a traceback: main's last flush
    # called None.flush() (Python makes a stream closed at start None).
    def close() -> None:
        os.close(closed)
    keep = subprocess.PIPE if closed == 1 else None
    proc = subprocess.run([sys.executable, "-m", "ringmaster", "--version"], preexec_fn=close,
                          stdout=subprocess.PIPE if closed == 2 else None, stderr=keep,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    if closed == 2:
        assert proc.stdout.startswith(b"ringmaster, version ")
    else:
        assert proc.stderr == b""


def test_a_standard_fd_closed_at_start_gets_dev_null_not_the_runs_next_file():
    # Left closed, fd 2 would be the number of the next file opened (the log, the state), where
    # anything writing to "stderr" (a child's inherited one, a fatal error) would then write.
    script = ("import os, sys; from ringmaster.cli import reserve_standard_fds; "
              "reserve_standard_fds(); f = open(os.devnull); "
              "print(sys.stderr, f.fileno() > 2, os.readlink('/proc/self/fd/2'), "
              "os.get_inheritable(2))")
    proc = subprocess.run([sys.executable, "-c", script], preexec_fn=lambda: os.close(2),
                          stdout=subprocess.PIPE, text=True, timeout=60)
    assert proc.stdout == "None True /dev/null True\n"
