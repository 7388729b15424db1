"""Whole runs: playoffs, all-play-alls, tuners, resume, interrupts, void games, forfeits.

The unit tier plays with in-process engines (tests.fakes.channels) and
starts no process; the integration tests kill real runs with kill -9 and
Ctrl-C, and play with worker processes.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sgfmill import sgf

from ringmaster.errors import (
    EXIT_INTERNAL_ERROR,
    LockError,
    RunHalted,
    RunInterrupted,
    StartupCheckFailed,
    StateFileError,
)
from ringmaster.files import TEMP_SUFFIX
from ringmaster.game.engines import subprocess_channel
from ringmaster.game.play import play_game_job
from ringmaster.run.lifecycle import COMPLETE_MESSAGE, run_competition
from ringmaster.run.ringmaster import Ringmaster
from ringmaster.state.lock import CompetitionLock
from tests.fakes import cli
from tests.fakes.channels import fake_engine_channel
from tests.fakes.control_files import playoff_ctl
from tests.fakes.fake_commands import fake_engine_command

GAMES = 12



def _default_sigint() -> None:
    # A shell without job control starts background commands with SIGINT ignored,
    # and Python then never raises KeyboardInterrupt: give the run a terminal's default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_run(ctl: str, *options: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q", *options],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_default_sigint)


def check_consistent(ctl: str, games: int, stray_attempts: bool = False) -> None:
    """The state counts games once each, with the history's lines and the records on disk.

    stray_attempts: allow records' attempt temporaries, which a game still being played
    when a cluster run stopped may write after it (the next run's start removes them).
    """
    base = ctl[:-4]
    state = json.load(open(base + ".status"))
    results = state["competition"]["results"]["0"]
    ids = [r["game_id"] for r in results]
    assert len(ids) == len(set(ids)) == games
    history = open(base + ".hist").read().splitlines()
    assert sorted(line.split()[0] for line in history) == sorted(ids)
    names = os.listdir(base + ".games")
    if stray_attempts:
        names = [n for n in names if not n.endswith(".attempt" + TEMP_SUFFIX)]
    assert sorted(names) == sorted(f"{i}.sgf" for i in ids)
    for r in results:
        with open(f"{base}.games/{r['game_id']}.sgf", "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        assert game.get_root().get("RE") == r["sgf_result"]
    assert not [n for n in os.listdir(base + ".games") if n.startswith(".tmp")]
    assert not os.path.exists(base + ".journal")   # folded into FILE.status by the last run


@pytest.mark.integration
@pytest.mark.parametrize("parallel", [[], ["-j", "2"]])
def test_kill_9_of_the_whole_group_at_random_moments(write_ctl, parallel):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=GAMES))
    rng = random.Random(20261122)
    for _ in range(4):
        proc = start_run(ctl, *parallel)
        time.sleep(rng.uniform(0.4, 2.0))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    proc = start_run(ctl, *parallel)
    _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    check_consistent(ctl, GAMES)


@pytest.mark.integration
def test_a_worker_killed_mid_run_is_replaced_and_its_game_played_again(write_ctl):
    # As the OOM killer would: one worker process of -j 2, in the middle of the games.
    from ringmaster.reaper import child_pids
    slow = ("--move-delay", "0.02")
    games = 10
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(*slow), q=fake_engine_command(*slow),
                               games=games))
    proc = start_run(ctl, "-j", "2")
    log = Path(ctl[:-4] + ".log")
    deadline = time.monotonic() + 120
    while not (log.exists() and log.read_text().count("response from game") >= 2):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    workers = [pid for pid in child_pids(proc.pid)
               if open(f"/proc/{pid}/cmdline", "rb").read() == open(f"/proc/{proc.pid}/cmdline", "rb").read()]
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    _, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    assert b"Traceback" not in stderr
    check_consistent(ctl, games)
    state = json.load(open(ctl[:-4] + ".status"))
    assert state["void_game_count"] == 0
    assert "a worker process died" in log.read_text()


@pytest.mark.integration
def test_ctrl_c_interrupts_and_the_next_run_finishes(write_ctl):
    # Engines that think 20 ms a move, so that games are still in progress at the interrupt.
    slow = ("--move-delay", "0.02")
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(*slow), q=fake_engine_command(*slow),
                               games=30))
    proc = start_run(ctl, "-j", "2")
    log = Path(ctl[:-4] + ".log")
    deadline = time.monotonic() + 120   # a loaded machine can take a while to start
    while not (log.exists() and "starting game" in log.read_text()):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 3, stderr
    assert b"Traceback" not in stderr
    assert "games in progress were" in open(ctl[:-4] + ".log").read()
    proc = start_run(ctl, "-j", "2")
    proc.communicate(timeout=120)
    assert proc.returncode == 0
    check_consistent(ctl, 30)


def _wait_for_a_game(ctl: str, proc: subprocess.Popen) -> None:
    log = Path(ctl[:-4] + ".log")
    deadline = time.monotonic() + 120   # a loaded machine can take a while to start
    while not (log.exists() and "starting game" in log.read_text()):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)


@pytest.mark.integration
def test_after_kill_9_the_next_runs_log_says_the_previous_run_died(write_ctl):
    slow = ("--move-delay", "0.02")
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(*slow), q=fake_engine_command(*slow), games=30))
    proc = start_run(ctl)
    _wait_for_a_game(ctl, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    started = open(ctl[:-4] + ".log").read().split(" run started at ")[1][:19]
    proc = start_run(ctl, "-g", "0")
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    said = (f"the previous run (started at {started}) did not end: it was killed (kill -9, a power "
            "cut or a crash); the games it had in progress will be replayed")
    log = open(ctl[:-4] + ".log").read()
    assert log.count(said) == 1 and said in stderr.decode()
    proc = start_run(ctl, "-g", "0")   # that run ended: the next says nothing
    proc.communicate(timeout=120)
    assert open(ctl[:-4] + ".log").read().count("did not end") == 1


@pytest.mark.integration
def test_a_run_started_with_sigint_ignored_still_stops_on_sigint(write_ctl):
    # A shell without job control starts `ringmaster run x.ctl &` with SIGINT ignored.
    slow = ("--move-delay", "0.02")
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(*slow), q=fake_engine_command(*slow), games=30))
    proc = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    _wait_for_a_game(ctl, proc)
    os.kill(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 3, stderr
    assert "games in progress were" in open(ctl[:-4] + ".log").read()


# In-process whole runs: no process is started.

ALLPLAYALL = """
competition_type = 'allplayall'
players = {{'p': Player({p!r}), 'q': Player({q!r}), 'r': Player({r!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
rounds = 2
competitors = ['p', 'q', 'r']
"""

MC_TUNER = """
competition_type = 'mc_tuner'
description = 'tiny tuning event'
players = {{'opp': Player({opponent!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
opponent = 'opp'
candidate_colour = 'random'
number_of_games = {games}
confirm_games = 2
exploration_coefficient = 0.45
initial_visits = 2
initial_wins = 1
summary_spec = [3]
log_tree_to_history_period = 2

def make_candidate(name):
    return Player({candidate!r} + ['--name', name])

parameters = [Parameter('name', scale=EXPLICIT(['cand-a', 'cand-b', 'cand-c']), split=3,
                        format='n: %s')]
"""

CE_TUNER = """
competition_type = 'ce_tuner'
players = {{'opp': Player({opponent!r})}}
board_size = 5
komi = 0.5
scorer = 'internal'
opponent = 'opp'
candidate_colour = 'w'
number_of_generations = 2
samples_per_generation = 2
batch_size = 1
elite_proportion = 0.5
step_size = 0.5

def make_candidate(x):
    return Player({candidate!r} + ['--name', 'x%d' % x])

parameters = [Parameter('x', initial_mean=5.0, initial_variance=4.0, transform=round)]
"""


def invoke(*args):
    return cli.invoke(*args, channel_factory=fake_engine_channel)


def write(write_ctl, template, **kwargs):
    return write_ctl(template.format(opponent=fake_engine_command("--name", "opp"),
                                     candidate=fake_engine_command(), **kwargs))


def playoff(write_ctl, games=GAMES, p=(), q=("--name", "q"), extra=""):
    return write_ctl(playoff_ctl(p=fake_engine_command(*p), q=fake_engine_command(*q),
                                games=games) + extra)


def ringmaster_for(ctl):
    return Ringmaster(ctl, channel_factory=fake_engine_channel)


def test_playoff_runs_to_completion_in_process(write_ctl):
    ctl = playoff(write_ctl, games=4)
    said = []
    run_competition(ringmaster_for(ctl), say=said.append)
    assert said == ["running startup checks on all players"]
    check_consistent(ctl, 4)
    assert "p v q (4/4 games)" in Path(ctl[:-4] + ".report").read_text()
    assert not os.path.exists(ctl[:-4] + ".void")


def test_allplayall_runs_every_pairing(write_ctl):
    ctl = write_ctl(ALLPLAYALL.format(p=fake_engine_command("--name", "p"),
                                      q=fake_engine_command("--name", "q"),
                                      r=fake_engine_command("--name", "r")))
    assert invoke("run", ctl, "-q").exit_code == 0
    state = json.load(open(ctl[:-4] + ".status"))
    results = state["competition"]["results"]
    assert {mid: len(games) for mid, games in results.items()} == {
        "AvB": 2, "AvC": 2, "BvC": 2}
    assert len(os.listdir(ctl[:-4] + ".games")) == 6
    assert len(Path(ctl[:-4] + ".hist").read_text().splitlines()) == 6


def test_max_games_then_resume_counts_every_game_once(write_ctl):
    ctl = playoff(write_ctl, games=6)
    run_competition(ringmaster_for(ctl), max_games=2, quiet=True, say=print)
    state = json.load(open(ctl[:-4] + ".status"))
    assert len(state["competition"]["results"]["0"]) == 2
    run_competition(ringmaster_for(ctl), quiet=True)
    check_consistent(ctl, 6)
    log = Path(ctl[:-4] + ".log").read_text()
    assert log.count("starting game 0_0:") == 1 and log.count("run started") == 2


def test_interrupted_run_replays_the_games_in_flight(write_ctl, monkeypatch):
    ctl = playoff(write_ctl, games=4)
    real_play = __import__("ringmaster.game.play", fromlist=["play_game_job"]).play_game_job
    calls = []

    def interrupt_third_game(job, factory, **options):
        calls.append(job.game_id)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_play(job, factory, **options)
    monkeypatch.setattr("ringmaster.run.ringmaster.play_game_job", interrupt_third_game)
    with pytest.raises(RunInterrupted, match="games in progress will be replayed") as info:
        run_competition(ringmaster_for(ctl), quiet=True)
    assert info.value.exit_code == 3
    assert "games in progress were: 0_2" in Path(ctl[:-4] + ".log").read_text()
    monkeypatch.undo()
    run_competition(ringmaster_for(ctl), quiet=True)
    check_consistent(ctl, 4)


def test_history_is_reconciled_and_crash_debris_removed_at_start(write_ctl):
    ctl = playoff(write_ctl, games=2)
    run_competition(ringmaster_for(ctl), max_games=1, quiet=True)
    base = ctl[:-4]
    with open(base + ".hist", "a") as f:
        f.write("0_9 a line the state never counted\n")
    Path(base + ".games/.0_1.sgf.x.ringmaster-tmp").write_text("half")
    Path(base + ".cmd").write_text("stop\n")
    run_competition(ringmaster_for(ctl), quiet=True)
    check_consistent(ctl, 2)


def test_a_complete_competition_still_repairs_its_history_and_removes_debris(write_ctl):
    # As a run killed while saving its last game leaves them: the state counts every game,
    # the history lacks the last line, a temporary is left.
    ctl = playoff(write_ctl, games=2)
    run_competition(ringmaster_for(ctl), quiet=True)
    base = ctl[:-4]
    history = Path(base + ".hist").read_text()
    Path(base + ".hist").write_text("".join(history.splitlines(keepends=True)[:-1]))
    Path(base + ".games/.0_1.sgf.x.ringmaster-tmp").write_text("half")
    said = []
    run_competition(ringmaster_for(ctl), quiet=True, say=said.append)
    assert said == [COMPLETE_MESSAGE]
    assert Path(base + ".hist").read_text() == history
    assert sorted(os.listdir(base + ".games")) == ["0_0.sgf", "0_1.sgf"]


def test_a_run_removes_only_its_own_competitions_temporaries(write_ctl):
    # 't' and 't.x' side by side: starting t must not touch what t.x's run is writing.
    ctl = playoff(write_ctl, games=1)
    other = Path(ctl).with_name("comp.x.ctl")
    other.write_text(Path(ctl).read_text())
    directory = Path(ctl).parent
    theirs = directory / ".comp.x.status.abc123.ringmaster-tmp"
    ours = directory / ".comp.status.def456.ringmaster-tmp"
    theirs.write_text("being written")
    ours.write_text("left by a killed run")
    run_competition(ringmaster_for(ctl), quiet=True)
    assert theirs.exists() and not ours.exists()


def test_void_games_halt_the_run_and_are_recorded(write_ctl):
    ctl = playoff(write_ctl, games=4, q=("--exit-at-start",),
                  extra="skip_player_checks = True\n")
    said = []
    with pytest.raises(RunHalted, match="too many void games") as info:
        run_competition(ringmaster_for(ctl), say=said.append)
    assert info.value.exit_code == 6
    assert said == ["skipping 2 player checks"]
    state = json.load(open(ctl[:-4] + ".status"))
    assert state["void_game_count"] == 1 and state["competition"]["results"]["0"] == []
    assert os.listdir(ctl[:-4] + ".void") == ["0_0.sgf"]
    assert "game 0_0 -- aborting game due to error" in Path(ctl[:-4] + ".log").read_text()


def test_forfeits_are_results_of_a_completed_run(write_ctl):
    ctl = playoff(write_ctl, games=2, q=("--name", "q", "--fail-genmove-on", "1"))
    run_competition(ringmaster_for(ctl), quiet=True)
    check_consistent(ctl, 2)
    results = json.load(open(ctl[:-4] + ".status"))["competition"]["results"]["0"]
    assert all(r["is_forfeit"] and r["winning_colour"] is not None for r in results)
    assert "forfeit by q: failure response from 'genmove" in Path(ctl[:-4] + ".hist").read_text()


def test_failed_startup_check_raises_before_any_game(write_ctl):
    ctl = playoff(write_ctl, q=("--fail-command", "boardsize"))
    said = []
    with pytest.raises(StartupCheckFailed) as info:
        run_competition(ringmaster_for(ctl), quiet=True, say=said.append)
    assert info.value.exit_code == 5
    assert info.value.failures == said == [
        "player q failed startup check: failure response from 'boardsize 5' to player q: "
        "boardsize refused (matchup 0's board)"]
    assert not os.path.exists(ctl[:-4] + ".status")
    assert not os.path.exists(ctl[:-4] + ".games")


def test_a_run_needs_the_lock_and_a_usable_state(write_ctl):
    ctl = playoff(write_ctl, games=1)
    lock = CompetitionLock(ctl[:-4] + ".log")
    lock.acquire()
    try:
        with pytest.raises(LockError, match="competition is already running"):
            run_competition(ringmaster_for(ctl), quiet=True)
    finally:
        lock.release()
    Path(ctl[:-4] + ".status").write_text("{not json")
    with pytest.raises(StateFileError, match="state file comp.status is corrupt"):
        run_competition(ringmaster_for(ctl), quiet=True)


def test_sigterm_handler_is_restored_after_a_run(write_ctl):
    ctl = playoff(write_ctl, games=1)
    before = signal.getsignal(signal.SIGTERM)
    run_competition(ringmaster_for(ctl), quiet=True)
    assert signal.getsignal(signal.SIGTERM) is before


def test_sighup_unwinds_like_sigterm_unless_ignored():
    from ringmaster.errors import Interrupt
    from ringmaster.run.lifecycle import sigterm_interrupts
    previous = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        with pytest.raises(Interrupt), sigterm_interrupts():
            signal.raise_signal(signal.SIGHUP)
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL
        signal.signal(signal.SIGHUP, signal.SIG_IGN)   # `nohup ringmaster run ...`: it runs on
        with sigterm_interrupts():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_mc_tuner_event_runs_in_process(write_ctl):
    ctl = write(write_ctl, MC_TUNER, games=3)
    assert invoke("run", ctl, "-q", "-g", "2").exit_code == 0
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    base = ctl[:-4]
    assert sorted(os.listdir(base + ".games")) == ["0.sgf", "1.sgf", "2.sgf", "c0.sgf", "c1.sgf"]
    assert "3/3 tuning games played" in Path(base + ".report").read_text()
    assert "confirmation games (2/2)" in Path(base + ".report").read_text()
    # Each game's row says which candidate played it (the note its SGF has).
    rows = list(csv.DictReader(io.StringIO(invoke("show", ctl, "--csv").output)))
    assert len(rows) == 5 and all(row["note"].startswith("Candidate parameters: n: cand-")
                                  for row in rows)
    assert "<th class=\"l\">note</th>" in Path(base + ".html").read_text()


@pytest.mark.integration
def test_mc_tuner_event_runs_resumes_and_reports(write_ctl):
    # With worker processes: -j 2.
    ctl = write(write_ctl, MC_TUNER, games=3)
    base = ctl[:-4]
    result = invoke("run", ctl, "-q", "-g", "2")
    assert result.exit_code == 0, result.output
    state = json.loads(Path(base + ".status").read_text())
    assert "tree" in json.dumps(state)
    # Resume: the remaining tuning game and then the confirmation games, two at a time.
    result = invoke("run", ctl, "-q", "-j", "2")
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(base + ".games")) == ["0.sgf", "1.sgf", "2.sgf", "c0.sgf", "c1.sgf"]
    sgf = Path(base + ".games/0.sgf").read_text()
    assert "Candidate parameters: n: cand-" in sgf
    history = Path(base + ".hist").read_text().splitlines()
    assert sum(line.endswith((" won", " lost")) and line.startswith("n: ")
               for line in history) == 3
    assert "Win rate" in "\n".join(history)
    assert sum(line.startswith("confirm n: cand-") for line in history) == 2
    report = Path(base + ".report").read_text()
    assert report.startswith("MCTS tuning event: comp\ntiny tuning event\n")
    assert "3/3 tuning games played" in report
    assert "Verdict: " in report and "Leader: " in report
    assert "confirmation games (2/2)" in report
    assert "opponent (opp): opp:1.0" in report
    shown = invoke("show", ctl)
    assert shown.exit_code == 0 and "most visited candidates at depth 1" in shown.output
    data = json.loads(invoke("show", ctl, "--json").output)
    assert data["games_played"] == 3 and data["confirmation"]["played"] == 2


def test_changed_control_file_is_refused_on_resume(write_ctl):
    ctl = write(write_ctl, MC_TUNER, games=1)
    assert invoke("run", ctl, "-q", "-g", "1").exit_code == 0
    text = Path(ctl).read_text().replace("split=3", "split=2")
    Path(ctl).write_text(text)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 1
    assert ("error loading competition state from comp.status: parameter name: 'split' is 2 in the "
            "control file but was 3 for the games so far; put it back, or start afresh with "
            "`ringmaster reset`") in result.output


def test_a_changed_opponent_is_refused_on_resume(write_ctl):
    # Else the games against opp and opp2 would be mixed in every candidate's record and the verdict.
    ctl = write(write_ctl, MC_TUNER, games=2)
    assert invoke("run", ctl, "-q", "-g", "1").exit_code == 0
    text = Path(ctl).read_text()
    Path(ctl).write_text(text.replace("{'opp': ", "{'opp2': ").replace("opponent = 'opp'",
                                                                       "opponent = 'opp2'"))
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 1
    assert ("error loading competition state from comp.status: 'opponent' is opp2 in the control file "
            "but was opp for the games so far; put it back, or start afresh with `ringmaster reset`"
            ) in result.output
    Path(ctl).write_text(text)
    assert invoke("run", ctl, "-q").exit_code == 0


def test_ce_tuner_event_runs(write_ctl):
    ctl = write(write_ctl, CE_TUNER)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    base = ctl[:-4]
    # Four tuning games, then the default 20 confirmation games of the mean against the start.
    assert sorted(os.listdir(base + ".games")) == sorted(
        ["g0#0r0.sgf", "g0#1r0.sgf", "g1#0r0.sgf", "g1#1r0.sgf"] + [f"c{n}.sgf" for n in range(20)])
    report = Path(base + ".report").read_text()
    assert report.startswith("CEM tuning event: comp\n")
    assert "final distribution (its mean is the recommended candidate):" in report
    assert "Generation 1" in Path(base + ".hist").read_text()
    log = Path(base + ".log").read_text()
    assert log.count("starting generation 1") == 1 and "starting generation 2" not in log


# Issue 12: nothing hangs, nothing escapes, nothing is lost.

def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _run_with_a_guard(ringmaster: Ringmaster, parallel: int | None) -> BaseException | None:
    """Run the competition in a thread; what it raised (None if nothing), failing the test
    if it hasn't ended after 120 s (a guard only: a run used to wait 600 s for the child)."""
    import threading
    ended: list[BaseException | None] = []

    def run() -> None:
        try:
            run_competition(ringmaster, parallel=parallel, quiet=True)
            ended.append(None)
        except Exception as exc:  # noqa: BLE001 (handed to the test)
            ended.append(exc)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(120)
    assert ended, "the run waited for an engine's escaped child"
    return ended[0]


def _escaped_children(pid_file: Path) -> list[int]:
    return [int(line) for line in pid_file.read_text().split()]


@pytest.mark.integration
@pytest.mark.parametrize("parallel", [None, 2])
def test_an_escaped_child_neither_hangs_the_run_nor_outlives_it(write_ctl, tmp_path, parallel,
                                                                 no_leftover_processes):
    # The engine's child leaves its process group (setsid) and keeps the engine's stdout
    # and stderr open, as an inference server started by an engine would.
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--escape-child", str(tmp_path / "child")),
                               q=fake_engine_command("--name", "q"), games=2)
                    + "skip_player_checks = True\n")
    assert _run_with_a_guard(Ringmaster(ctl), parallel) is None
    check_consistent(ctl, 2)
    children = _escaped_children(tmp_path / "child")
    assert len(children) == 2   # one a game: p's engine isn't kept (no reuse)
    assert not [child for child in children if _alive(child)], \
        "an engine's escaped child outlived the run"


@pytest.mark.integration
@pytest.mark.parametrize("parallel", [None, 2])
@pytest.mark.parametrize("misbehaviour", [("--exit-at-start",), ("--crash-on", "2")])
def test_an_engine_that_exits_leaving_an_escaped_child_with_its_output_is_not_waited_for(
        write_ctl, tmp_path, parallel, misbehaviour, no_leftover_processes):
    # The engine exits (at start-up, or in the middle of a game without answering) while
    # its escaped child holds its stdout: no end of file comes, and without a timeout
    # only the engine's exit could end the wait (CI: an engine that died at start-up
    # held a worker, and the run, for the child's 600 s).
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--escape-child", str(tmp_path / "child"),
                                                      *misbehaviour),
                               q=fake_engine_command("--name", "q"), games=2)
                    + "skip_player_checks = True\n")
    error = _run_with_a_guard(Ringmaster(ctl), parallel)
    children = _escaped_children(tmp_path / "child")
    assert children
    assert not [child for child in children if _alive(child)], \
        "an engine's escaped child outlived the run"
    log = Path(ctl[:-4] + ".log").read_text()
    assert "engine has exited, and a process it started holds its output open" in log
    if misbehaviour == ("--exit-at-start",):   # void games, until too many stop the run
        assert isinstance(error, RunHalted), error
    else:                                      # the game is forfeited, and the run goes on
        assert error is None
        check_consistent(ctl, 2)


def test_a_matchup_id_like_a_temporary_file_keeps_its_records(write_ctl):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=2).replace("alternating=True", "alternating=True, id='tmp-x'"))
    run_competition(ringmaster_for(ctl), max_games=1, quiet=True)
    run_competition(ringmaster_for(ctl), quiet=True)
    assert sorted(os.listdir(ctl[:-4] + ".games")) == ["tmp-x_0.sgf", "tmp-x_1.sgf"]


def test_an_id_that_cannot_be_a_plain_file_name_is_refused(write_ctl):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=2).replace("alternating=True", "alternating=True, id='.tmp-x'"))
    result = invoke("run", ctl)
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "ringmaster: error in control file comp.ctl line 6: matchup 0: 'id': '.tmp-x' "
        "starts with '.' (it names files, which would be hidden)"]
    Path(ctl).write_text(Path(ctl).read_text().replace(".tmp-x", "x" * 300))
    result = invoke("run", ctl)
    assert result.exit_code == 1
    assert result.output.startswith("ringmaster: error in control file comp.ctl line 6: "
                                    "matchup 0: 'id': 'xxxxxxxxxxxxxxxxxxxx'... is longer than")


def test_a_control_file_name_that_is_not_utf8_plays_and_reports(write_ctl):
    # `ringmaster run $'bad\xff.ctl'`: Python holds the byte as the surrogate escape U+DCFF.
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                                games=2), name="bad\udcff.ctl")
    ringmaster = ringmaster_for(ctl)
    result = invoke("run", ctl, "-q")
    assert result.exit_code == 0, result.output
    with open(ctl[:-4] + ".games/0_0.sgf", "rb") as f:
        root = sgf.Sgf_game.from_bytes(f.read()).get_root()
    assert root.get("EV") == "bad\ufffd"
    assert 'href="bad%FF.games/0_0.sgf"' in Path(ctl[:-4] + ".html").read_text()
    assert invoke("show", ctl).output.startswith("playoff: bad\ufffd\n")
    ringmaster.open_log()
    ringmaster.warn(f"ignoring unknown command in {os.path.basename(ringmaster.paths.command)}")
    ringmaster.close_log()
    assert Path(ctl[:-4] + ".log").read_text().endswith("command in bad\\udcff.cmd\n")


def forging_channel(spec, env, stderr):
    """Player p answers genmove with a second line that looks like a history line."""
    from tests.fakes.channels import EngineChannel, programmed_engine
    if spec.code == "p":
        return EngineChannel(programmed_engine(["C3\n0_9 forged beat q B+99"]))
    return fake_engine_channel(spec, env, stderr)


def test_engine_text_cannot_forge_history_or_log_lines(write_ctl):
    ctl = playoff(write_ctl, games=1)
    run_competition(Ringmaster(ctl, channel_factory=forging_channel), quiet=True)
    history = Path(ctl[:-4] + ".hist").read_text().splitlines()
    assert len(history) == 1 and history[0].split()[0] == "0_0" and "\\n0_9 forged" in history[0]
    log = Path(ctl[:-4] + ".log").read_text().splitlines()
    assert not [line for line in log if line.startswith("0_9 forged")]
    assert any("\\n0_9 forged" in line for line in log)


def _fail_fsync_after(monkeypatch, calls: int) -> None:
    import errno

    import ringmaster.files as files
    real = os.fsync
    count = [0]

    def fsync(fd):
        count[0] += 1
        if count[0] > calls:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)
    monkeypatch.setattr(files.os, "fsync", fsync)


def test_a_full_disk_is_a_one_line_error_and_the_resumed_run_completes(write_ctl, monkeypatch):
    ctl = playoff(write_ctl, games=4)
    assert invoke("run", ctl, "-g", "1").exit_code == 0
    status_before = Path(ctl[:-4] + ".status").read_bytes()
    _fail_fsync_after(monkeypatch, 0)   # the disk is full from now on
    result = invoke("run", ctl)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("ringmaster:")]
    assert len(errors) == 1 and "No space left on device" in errors[0]
    assert "comp." in errors[0]          # names the file
    assert Path(ctl[:-4] + ".status").read_bytes() == status_before
    monkeypatch.undo()                   # space freed
    assert invoke("run", ctl).exit_code == 0
    check_consistent(ctl, 4)


@pytest.mark.integration
@pytest.mark.parametrize("parallel", [[], ["-j", "2"]])
def test_a_record_that_cannot_be_written_is_the_runs_error_not_a_void_game(write_ctl, monkeypatch,
                                                                           parallel):
    # The disk fills while a worker writes a record (the workers are forked from here).
    import errno

    import ringmaster.files as files
    ctl = playoff(write_ctl, games=4)
    real_replace = os.replace

    def replace(source, target):
        if str(target).endswith(".sgf"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_replace(source, target)
    monkeypatch.setattr(files.os, "replace", replace)
    result = invoke("run", ctl, "-q", *parallel)
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1, result.output
    assert result.output.startswith("ringmaster: can't write ") and "No space left" in result.output
    assert not os.path.exists(ctl[:-4] + ".void")
    assert "void" not in Path(ctl[:-4] + ".log").read_text()
    monkeypatch.undo()
    assert invoke("run", ctl, "-q").exit_code == 0
    check_consistent(ctl, 4)


class _FullDiskFile:
    """A file on a full disk: every write fails."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def write(self, text: str) -> int:
        import errno
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize("parallel", [[], pytest.param(["-j", "2"], marks=pytest.mark.integration)])
def test_a_full_disk_while_an_engines_stderr_is_logged_names_the_log(write_ctl, monkeypatch,
                                                                      parallel):
    from ringmaster.game import engines
    ctl = playoff(write_ctl, games=2, p=("--stderr-flood", "10"))
    monkeypatch.setattr(engines, "open", _FullDiskFile, raising=False)   # the stderr sink's file
    result = invoke("run", ctl, "-q", *parallel)
    assert result.exit_code == 1, result.output
    assert result.output == f"ringmaster: can't write {ctl[:-4]}.log: No space left on device\n"


def _read_only(monkeypatch, directory: str) -> None:
    """Make writes under directory fail as a read-only file system would (we run as root)."""
    import builtins
    import errno
    import shutil
    import tempfile

    def refuse(path):
        return str(path).startswith(directory)

    def error(path):
        return OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
    real_open, real_mkstemp, real_remove, real_rmtree = (
        builtins.open, tempfile.mkstemp, os.remove, shutil.rmtree)

    def fake_open(file, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+") and refuse(file):
            raise error(file)
        return real_open(file, mode, *args, **kwargs)

    def fake_mkstemp(*args, dir=None, **kwargs):
        if refuse(dir):
            raise error(dir)
        return real_mkstemp(*args, dir=dir, **kwargs)

    def fake_remove(path, *args, **kwargs):
        if refuse(path):
            raise error(path)
        return real_remove(path, *args, **kwargs)

    def fake_rmtree(path, *args, **kwargs):
        if refuse(path):
            raise error(path)
        return real_rmtree(path, *args, **kwargs)
    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(tempfile, "mkstemp", fake_mkstemp)
    monkeypatch.setattr(os, "remove", fake_remove)
    monkeypatch.setattr(shutil, "rmtree", fake_rmtree)


@pytest.mark.parametrize("command, existing", [
    ("run", False), ("run", True), ("stop", False), ("reset", True)])
def test_a_read_only_directory_is_a_one_line_error(write_ctl, monkeypatch, command, existing):
    ctl = playoff(write_ctl, games=2)
    if existing:
        assert invoke("run", ctl, "-g", "1").exit_code == 0
    lock = CompetitionLock(ctl[:-4] + ".log")   # stop acts only on a run going on
    if command == "stop":
        lock.acquire()
    before = sorted(os.listdir(os.path.dirname(ctl)))
    _read_only(monkeypatch, os.path.dirname(ctl))
    try:
        result = invoke(command, ctl)
    finally:
        monkeypatch.undo()
        lock.release()
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ringmaster: "), result.output
    assert "Read-only file system" in lines[0] and os.path.dirname(ctl) in lines[0]
    assert sorted(os.listdir(os.path.dirname(ctl))) == before


@pytest.mark.parametrize("field, value, problem", [
    ("history_size", -5, "history_size is negative"),
    ("history_size", "12", "history_size should be an integer, not str"),
    ("void_game_count", 1.5, "void_game_count should be an integer, not float"),
    ("history_tail", 3, "history_tail should be a str, not int"),
    ("competition", [], "competition should be a dict, not list"),
])
@pytest.mark.parametrize("command", ["run", "show"])
def test_a_state_file_with_a_bad_field_is_a_one_line_error(write_ctl, field, value, problem,
                                                            command):
    ctl = playoff(write_ctl, games=2)
    assert invoke("run", ctl, "-g", "1").exit_code == 0
    status = Path(ctl[:-4] + ".status")
    document = json.loads(status.read_text())
    document[field] = value
    status.write_text(json.dumps(document))
    before = sorted(os.listdir(os.path.dirname(ctl))), status.read_bytes()
    result = invoke(command, ctl)
    assert result.exit_code == 1
    assert result.output.strip() == (f"ringmaster: state file comp.status is malformed: {problem}; "
                                     "restore it from a backup, or start afresh with "
                                     f"`ringmaster reset {ctl}`")
    assert (sorted(os.listdir(os.path.dirname(ctl))), status.read_bytes()) == before


def test_a_state_file_whose_competition_has_wrong_types_is_a_one_line_error(write_ctl):
    ctl = playoff(write_ctl, games=2)
    assert invoke("run", ctl, "-g", "1").exit_code == 0
    status = Path(ctl[:-4] + ".status")
    document = json.loads(status.read_text())
    document["competition"]["results"] = {"0": [{"game_id": 5}]}
    status.write_text(json.dumps(document))
    result = invoke("run", ctl)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "comp.status" in lines[0], result.output


def _set_nested(document, path, value):
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.mark.parametrize("path, value, problem", [
    (("competition", "results", "0", 0, "cpu_times"), None, "'cpu_times' is None"),
    (("competition", "results", "0", 0, "cpu_times", "p1"), "x", "cpu_times: 'p1' is 'x'"),
    (("competition", "results", "0", 0, "winning_colour"), "x", "'winning_colour' is 'x'"),
    (("competition", "results", "0", 0, "is_forfeit"), 1, "'is_forfeit' is 1"),
    (("games", 0, "host"), [], "game '0_0': 'host' is []"),
    (("games", 0, "black"), None, "game '0_0': 'black' is null"),
    (("games", 0, "cpu_white"), "1.5", "game '0_0': 'cpu_white' is '1.5'"),
    (("games", 0, "moves"), 1.5, "game '0_0': 'moves' is 1.5"),
    (("games", 0, "seconds"), True, "game '0_0': 'seconds' is True"),
    (("games", 0), 7, "a game entry is 7"),
])
@pytest.mark.parametrize("command", ["run", "show"])
def test_a_state_file_with_a_bad_game_or_result_is_a_one_line_error(write_ctl, path, value,
                                                                     problem, command):
    # Fields inside the results and the game index are checked when the state is read,
    # not when a report first uses them (then: an internal error and a traceback).
    ctl = playoff(write_ctl, games=2, extra="scorer = 'internal'")
    assert invoke("run", ctl, "-g", "1").exit_code == 0
    status = Path(ctl[:-4] + ".status")
    document = json.loads(status.read_text())
    _set_nested(document, path, value)
    status.write_text(json.dumps(document))
    before = status.read_bytes()
    result = invoke(command, ctl)
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ringmaster: "), result.output
    assert "comp.status" in lines[0] and "malformed: ValueError: " in lines[0]
    assert problem in lines[0]
    assert status.read_bytes() == before


ODD_OTHELLO = """
competition_type = 'playoff'
players = {{'p': Player({p!r}), 'q': Player({q!r})}}
game = 'othello'
board_size = 7
matchups = [Matchup('p', 'q', number_of_games=2)]
"""


@pytest.mark.parametrize("parallel", [[], pytest.param(["-j", "2"], marks=pytest.mark.integration)])
def test_othello_on_an_odd_board_is_refused_before_any_game(write_ctl, parallel):
    ctl = write_ctl(ODD_OTHELLO.format(p=fake_engine_command(), q=fake_engine_command()))
    result = invoke("run", ctl, *parallel)
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1
    assert "board_size" in result.output and "line 4" in result.output
    assert not os.path.exists(ctl[:-4] + ".status")


def _wait_for(path: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists() or not path.read_text():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


@pytest.mark.integration
@pytest.mark.parametrize("moment", ["control file", "startup checks"])
def test_sigterm_while_loading_or_checking_exits_3(write_ctl, tmp_path, moment):
    marker = tmp_path / "marker"
    if moment == "control file":
        ctl = playoff(write_ctl, games=2) + ""
        text = Path(ctl).read_text() + (
            f"open({str(marker)!r}, 'w').write('loading')\n"
            "import time\ntime.sleep(60)\n")
        Path(ctl).write_text(text)
    else:
        ctl = playoff(write_ctl, games=2,
                      p=("--record", str(marker), "--hang-on-command", "boardsize"))
    proc = start_run(ctl)
    _wait_for(marker)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 3, stderr
    assert b"Traceback" not in stderr
    # One line that says so; no game had started, so none is said to be replayed.
    expected = ("ringmaster: interrupted" if moment == "control file" else
                "ringmaster: interrupted before any game started; nothing was played")
    assert stderr.decode().strip() == expected


@pytest.mark.integration
def test_ctrl_c_with_workers_says_so_in_one_line(write_ctl, tmp_path):
    # It said "interrupted: stopping the games in progress (they will be replayed)" and then,
    # a moment later, "ringmaster: interrupted; games in progress will be replayed".
    # (That the workers then exit by themselves: tests of dispatch/local.py.)
    slow = ("--move-delay", "0.05", "--record", str(tmp_path / "record"))
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(*slow), q=fake_engine_command("--move-delay",
                                                                                   "0.05"),
                               games=30))
    proc = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-j", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_default_sigint)
    _wait_for(tmp_path / "record")
    while "genmove" not in (tmp_path / "record").read_text():
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 3, stderr
    assert stderr.decode() == "ringmaster: interrupted; games in progress will be replayed\n"


@pytest.mark.integration
def test_a_run_loads_numpy_before_its_first_game(write_ctl):
    # Loaded lazily, numpy was first imported by the first game's report: a Ctrl-C then could
    # leave it half-loaded, and the report written as the run stopped failed with an
    # internal error ("module 'numpy' has no attribute 'logical_or'").
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command(), games=1))
    script = (
        "import sys\n"
        "from ringmaster.run.ringmaster import Ringmaster\n"
        "from tests.fakes.channels import fake_engine_channel\n"
        f"ringmaster = Ringmaster({str(ctl)!r}, channel_factory=fake_engine_channel)\n"
        "seen = []\n"
        "get_game = ringmaster.competition.get_game\n"
        "ringmaster.competition.get_game = lambda: seen.append('numpy' in sys.modules) or get_game()\n"
        "assert 'numpy' not in sys.modules\n"
        "ringmaster.load_state()\n"
        "ringmaster.run(max_games=1)\n"
        "print(seen[0])\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=root, env={**os.environ, "PYTHONPATH": root})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "True"


def play_with_a_bug_in_game_2(job, factory, **options):
    """play_game_job with a bug that game 0_2 runs into, in whichever process plays it."""
    if job.game_id == "0_2":
        return job.no_such_attribute
    return play_game_job(job, factory, **options)


@pytest.mark.parametrize("parallel", [[], pytest.param(["-j", "2"], marks=pytest.mark.integration)])
def test_a_bug_in_a_game_stops_the_run_as_an_internal_error_not_a_void_game(
        write_ctl, monkeypatch, parallel, no_leftover_processes):
    # With -j 2 the workers are forked from here (the bug with them), and the engines are
    # processes: the other game in progress is stopped, its engines with it.
    record = ("--record", os.path.join(no_leftover_processes, "commands"))
    ctl = playoff(write_ctl, games=4, p=record, q=("--name", "q", *record))
    monkeypatch.setattr("ringmaster.run.ringmaster.play_game_job", play_with_a_bug_in_game_2)
    result = cli.invoke("run", ctl, "-q", *parallel,
                        channel_factory=subprocess_channel if parallel else fake_engine_channel)
    assert result.exit_code == EXIT_INTERNAL_ERROR, result.output
    bug = "AttributeError: 'GameJob' object has no attribute 'no_such_attribute'"
    assert result.stderr.startswith(f"ringmaster: internal error: game 0_2's job raised {bug}; the "
                                    "results so far are saved\nTraceback (most recent call last):\n")
    assert "in play_with_a_bug_in_game_2\n    return job.no_such_attribute\n" in result.stderr
    assert result.stderr.endswith(f"\n{bug}\n")
    log = Path(ctl[:-4] + ".log").read_text()
    assert "run stopped at " in log and f"by an internal error: game 0_2's job raised {bug}" in log
    assert "return job.no_such_attribute" in log
    assert "void" not in log and not os.path.exists(ctl[:-4] + ".void")
    counted = [r["game_id"] for r in json.load(open(ctl[:-4] + ".status"))["competition"]["results"]["0"]]
    if parallel:   # 0_2 started once one of the first two had finished: at least that one
        assert counted and "0_2" not in counted
    else:
        assert counted == ["0_0", "0_1"]
    monkeypatch.undo()
    assert invoke("run", ctl, "-q").exit_code == 0
    check_consistent(ctl, 4)


def _default_sigint_and_sighup() -> None:
    # As a login shell leaves them: SIGHUP's default action kills a process outright.
    _default_sigint()
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _take_the_terminal() -> None:
    # In the new session: standard input, the pty, becomes its controlling terminal.
    import fcntl
    import termios
    _default_sigint_and_sighup()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _read_until(fd: int, text: bytes, timeout: float = 60) -> None:
    import select
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen:
        assert time.monotonic() < deadline, seen[-2000:]
        if select.select([fd], [], [], 0.5)[0]:
            seen += os.read(fd, 65536)


@pytest.mark.integration
@pytest.mark.parametrize("how", ["terminal closed", "process group"])
def test_sighup_stops_a_run_as_sigterm_does(write_ctl, tmp_path, how):
    # SIGHUP (the terminal closed, ssh dropped) killed a run outright: no `run ended`, the games
    # in progress lost, and the next run warned that this one had been killed. Closing the
    # terminal sends it to the ringmaster (the session's leader here), whose writes to the
    # terminal then fail; a shell that hangs up sends it to the whole job, workers included.
    slow = ("--move-delay", "0.05", "--record", str(tmp_path / "record"))
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(*slow),
                                q=fake_engine_command("--move-delay", "0.05"), games=30))
    command = [sys.executable, "-m", "ringmaster.cli", "run", ctl, "-j", "2"]
    if how == "terminal closed":
        import pty
        master, terminal = pty.openpty()
        proc = subprocess.Popen(command, stdin=terminal, stdout=terminal, stderr=terminal,
                                start_new_session=True, preexec_fn=_take_the_terminal)
        os.close(terminal)
        _read_until(master, b"games in progress")   # the live display is on the terminal
    else:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True, preexec_fn=_default_sigint_and_sighup)
    _wait_for(tmp_path / "record")
    while "genmove" not in (tmp_path / "record").read_text():
        time.sleep(0.02)
    if how == "terminal closed":
        os.close(master)   # the terminal hangs up
    else:
        os.killpg(proc.pid, signal.SIGHUP)
    assert proc.wait(timeout=60) == 3
    log = Path(ctl[:-4] + ".log").read_text()
    assert "run interrupted" in log and log.endswith("run ended\n"), log[-2000:]
    assert "worker process died" not in log   # the workers left SIGHUP to the coordinator
    result = cli.invoke("run", ctl, "-q", "-g", "0")
    assert result.exit_code == 0, result.output
    assert "did not end" not in result.output


@pytest.mark.integration
def test_a_closed_standard_output_stops_the_run_and_says_so(write_ctl):
    # `ringmaster run x.ctl -j 2 | head -2` exited 1, saying nothing, and the log said only
    # `run ended`: click caught the BrokenPipeError itself.
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--move-delay", "0.01"),
                                q=fake_engine_command("--move-delay", "0.01"), games=30))
    proc = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_default_sigint)
    assert proc.stdout.readline() == b"running startup checks on all players\n"
    assert proc.stdout.readline().startswith(b"game ")
    proc.stdout.close()   # the reader ends, as `head -2` does
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 3, stderr
    assert b"Traceback" not in stderr and b"Exception ignored" not in stderr, stderr
    # Only the true reason: not "interrupted: stopping the games in progress" too.
    assert stderr.decode() == ("ringmaster: standard output was closed (Broken pipe): stopped; games "
                               "in progress will be replayed\n")
    log = Path(ctl[:-4] + ".log").read_text()
    assert "standard output was closed (Broken pipe): the run stopped\n" in log
    assert log.endswith("run ended\n")
    result = cli.invoke("run", ctl, "-q", "-g", "0")   # the state was saved, the run ended
    assert result.exit_code == 0 and "did not end" not in result.output, result.output


def _closing(fd: int):
    """A preexec_fn: the run starts with fd closed, as after `>&-` or `2>&-`."""
    def preexec() -> None:
        _default_sigint()
        os.close(fd)
    return preexec


def _workers_of(proc: subprocess.Popen) -> list[int]:
    from ringmaster.reaper import child_pids
    own = open(f"/proc/{proc.pid}/cmdline", "rb").read()
    return [pid for pid in child_pids(proc.pid) if open(f"/proc/{pid}/cmdline", "rb").read() == own]


@pytest.mark.integration
def test_a_run_started_with_stderr_closed_survives_its_warnings_and_exits_0(write_ctl):
    # `run x.ctl -j 2 2>&-`: sys.stderr is None, and the first warning (a worker killed)
    # was an internal error (exit 4); a run with no warning exited 1 at the final flush.
    slow = ("--move-delay", "0.02")
    games = 8
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(*slow), q=fake_engine_command(*slow),
                                games=games))
    proc = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-j", "2"],
                            stdout=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_closing(2))
    log = Path(ctl[:-4] + ".log")
    deadline = time.monotonic() + 120
    while not (log.exists() and "response from game" in log.read_text()):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    workers = _workers_of(proc)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)   # a warning: "a worker process died"
    stdout, _ = proc.communicate(timeout=240)
    assert proc.returncode == 0, stdout[-2000:]
    assert b"Traceback" not in stdout and b"internal error" not in stdout
    assert stdout.count(b"\ngame ") >= games   # the display went on after the warning
    check_consistent(ctl, games)
    text = log.read_text()
    assert "a worker process died" in text and text.endswith("run ended\n")


@pytest.mark.integration
def test_a_run_started_with_stdout_closed_plays_to_the_end_quietly(write_ctl):
    # `run x.ctl -j 2 >&-` (as a daemon starts it): nobody will read the display, so the run
    # doesn't stop at its first line; it was an internal error (exit 4).
    games = 6
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                                games=games))
    for options in ([], ["-j", "2"], ["-q"]):
        proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", "run", ctl, *options,
                               "-g", "2"],
                              stderr=subprocess.PIPE, preexec_fn=_closing(1), timeout=240)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert proc.stderr == b""
    check_consistent(ctl, games)
    assert Path(ctl[:-4] + ".log").read_text().endswith("run ended\n")


@pytest.mark.integration
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("options", [["-j", "2"], ["-q"]])
def test_a_full_disk_under_stdout_stops_the_run_with_one_line_exit_1(write_ctl, options):
    # `run x.ctl > out.txt` on a full disk said "standard output cannot be written (No space
    # left on device)" and exited 3; with -q (written only at the end) it wasn't noticed.
    games = 4
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                                games=games))
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", "run", ctl, *options],
                              stdout=full, stderr=subprocess.PIPE, timeout=240,
                              start_new_session=True, preexec_fn=_default_sigint)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.decode().splitlines() == [
        "ringmaster: can't write standard output: No space left on device"]
    assert Path(ctl[:-4] + ".log").read_text().endswith("run ended\n")
    result = cli.invoke("run", ctl, "-q")   # the state was saved: the run goes on
    assert result.exit_code == 0 and "did not end" not in result.output, result.output
    check_consistent(ctl, games)
