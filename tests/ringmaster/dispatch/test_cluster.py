"""Runs on a Dask cluster (--cluster): a playoff, a tuner, a lost worker, an unreachable or lost scheduler."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import ringmaster.dispatch as ringmaster_package
from ringmaster.errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_USER_ERROR, InternalError
from tests.fakes.cli import CliResult
from tests.fakes.control_files import playoff_ctl
from tests.fakes.fake_commands import fake_engine_command
from tests.ringmaster.dispatch.test_local import Job, Source, buggy, check_internal_error
from tests.ringmaster.game.test_engine_pool import _engine_pids
from tests.ringmaster.run.test_lifecycle import MC_TUNER, _default_sigint, check_consistent, write

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def distributed():
    """The 'cluster' extra (CI installs it), imported only when a test here runs, not when
    the unit tier collects this module."""
    return pytest.importorskip("distributed")


def invoke(*args: str) -> CliResult:
    """Run `ringmaster ARGS` as its own process: in this one, the run's reaper would take the
    LocalCluster's worker processes (children of this process) for engines' leftovers."""
    proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", *args], capture_output=True,
                          text=True, timeout=300)
    return CliResult(proc.returncode, proc.stdout + proc.stderr, proc.stdout, proc.stderr)


@pytest.fixture(scope="module")
def cluster(distributed):
    """A LocalCluster of two worker processes with one thread each."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local


def test_playoff_through_the_cluster_names_the_host_of_every_game(write_ctl, cluster):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=6))
    result = invoke("run", ctl, "-q", "--cluster", cluster.scheduler_address)
    assert result.exit_code == EXIT_OK, result.output
    check_consistent(ctl, 6)
    report = json.loads(invoke("show", ctl, "--json").output)
    hosts = {g["host"] for g in report["games"]}
    assert None not in hosts and hosts <= {h for h in report["hosts"]["games"]}
    workers = set(cluster.scheduler_info["workers"])
    assert all(h.split()[1] in workers for h in hosts)
    assert "Games per host" in open(ctl[:-4] + ".report").read()


def test_games_at_a_time_control_through_the_cluster(write_ctl, cluster):
    # Each game's clock travels in its job; a loss on time comes back as such.
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--time-commands", "time_settings,time_left"),
                               q=fake_engine_command("--name", "q", "--think-on", "2", "2"),
                               games=2).replace("scorer = 'internal'",
                                                "scorer = 'internal'\ntime_control = 'per_move 1'"))
    result = invoke("run", ctl, "-q", "--cluster", cluster.scheduler_address)
    assert result.exit_code == EXIT_OK, result.output
    report = json.loads(invoke("show", ctl, "--json").output)
    assert [g["time_loss"] for g in report["games"]] == [True, True]
    assert all(g["clock_black"] and g["clock_white"] for g in report["games"])


def test_parallel_bounds_the_games_in_flight(write_ctl, cluster):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=3))
    result = invoke("run", ctl, "-q", "-j", "1", "--cluster", cluster.scheduler_address)
    assert result.exit_code == EXIT_OK, result.output
    log = open(ctl[:-4] + ".log").read()
    # One game at a time: each game starts once the previous one has finished, just before
    # that one's result is recorded (the freed worker isn't kept waiting: JobLoop's policy).
    events = [line for line in log.splitlines() if "starting game" in line or "response from" in line]
    assert [("starting" in e) for e in events] == [True, True, False, True, False, False]


def test_a_worker_keeps_no_engines_between_games(write_ctl, cluster):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--env-to-stderr"),
                               q=fake_engine_command("--name", "q", "--env-to-stderr"),
                               games=4) + "reuse_engines = True\n")
    result = invoke("run", ctl, "-q", "--cluster", cluster.scheduler_address)
    assert result.exit_code == EXIT_OK, result.output
    check_consistent(ctl, 4)
    # Each engine writes its environment (a game= line) once, when it starts.
    assert open(ctl[:-4] + ".log").read().count("game=") == 2 * 4


def test_tuner_through_the_cluster(write_ctl, cluster):
    ctl = write(write_ctl, MC_TUNER, games=3)
    result = invoke("run", ctl, "-q", "--cluster", cluster.scheduler_address)
    assert result.exit_code == EXIT_OK, result.output
    base = ctl[:-4]
    assert sorted(os.listdir(base + ".games")) == ["0.sgf", "1.sgf", "2.sgf", "c0.sgf", "c1.sgf"]
    assert "3/3 tuning games played" in open(base + ".report").read()


def test_check_runs_on_every_worker_and_names_a_worker_without_the_engine(write_ctl, cluster,
                                                                          tmp_path):
    # The engine exists here but not on the workers: a file the workers can't see.
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=1))
    assert invoke("check", ctl, "--cluster", cluster.scheduler_address).exit_code == EXIT_OK
    hidden = tmp_path / "only-here"
    hidden.write_text("")
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=["/nonexistent/engine-on-workers"],
                               games=1), name="missing.ctl")
    result = invoke("check", ctl, "--cluster", cluster.scheduler_address)
    assert result.exit_code != EXIT_OK
    worker = next(iter(cluster.scheduler_info["workers"]))
    assert f"{worker}: player q failed startup check" in result.output
    assert "can't run '/nonexistent/engine-on-workers'" in result.output


def test_an_unreachable_scheduler_is_a_one_line_error(write_ctl):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=1))
    from ringmaster.dispatch import cluster as cluster_module
    original = cluster_module.CONNECT_TIMEOUT
    cluster_module.CONNECT_TIMEOUT = 2
    try:
        result = invoke("run", ctl, "-q", "--cluster", "tcp://127.0.0.1:9")
    finally:
        cluster_module.CONNECT_TIMEOUT = original
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output.startswith("ringmaster: can't reach the Dask scheduler at tcp://127.0.0.1:9")
    assert result.output.count("\n") == 1
    assert not os.path.exists(ctl[:-4] + ".games")


@pytest.mark.parametrize("address", ["not-an-address", "tcp://host-without-port"])
def test_an_address_that_is_not_one_is_a_one_line_error_before_anything_starts(write_ctl, address):
    ctl = write_ctl(playoff_ctl(p=fake_engine_command(), q=fake_engine_command("--name", "q"),
                               games=1))
    result = invoke("run", ctl, "--cluster", address)
    assert result.exit_code == EXIT_USER_ERROR
    assert result.output == (f"ringmaster: --cluster {address!r} is not a scheduler's address: "
                             f"missing port number in address '{address.split('//')[-1]}' "
                             "(give tcp://HOST:PORT)\n")
    assert not os.path.exists(ctl[:-4] + ".log")


def test_workers_killed_mid_game_then_every_game_counted_once_with_its_own_record(
        write_ctl, cluster, distributed):
    # Twice, a worker killed by pid while games are in progress; Dask plays its games
    # again elsewhere, and a game it had finished (its result on the lost worker) must not
    # be played again over the counted one's record.
    games = 16
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--move-delay", "0.03"),
                               q=fake_engine_command("--name", "q", "--move-delay", "0.03"),
                               games=games))
    client = distributed.Client(cluster.scheduler_address, set_as_default=False)
    outcome = []
    thread = threading.Thread(
        target=lambda: outcome.append(invoke("run", ctl, "-q", "--cluster",
                                             cluster.scheduler_address)))
    thread.start()
    victims = []
    for responses in (1, 6):
        deadline = time.monotonic() + 120
        while _read(ctl[:-4] + ".log").count("response from game") < responses or \
                not _processing(client):
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.05)
        time.sleep(0.3)   # in the middle of games
        victim = next(iter(_processing(client)))
        os.kill(client.run(os.getpid)[victim], signal.SIGKILL)
        victims.append(victim)
    thread.join(300)
    client.close()
    assert outcome and outcome[0].exit_code == EXIT_OK, outcome and outcome[0].output
    check_consistent(ctl, games)
    check_records(ctl)
    for victim in victims:
        assert f"lost Dask worker {victim}" in _read(ctl[:-4] + ".log")


def buggy_briefly(job):
    """test_local.buggy (a bug in job 1), with job 2's long game short enough not to hold the
    module's workers up for long."""
    if job.number == 2:
        time.sleep(10)
        return job.number
    return buggy(job)


def test_a_bug_in_a_job_on_a_worker_is_an_internal_error_with_its_traceback(cluster, distributed):
    # Job 0 is delivered; the bug in job 1 stops the run with the worker's traceback, without
    # waiting for job 2 (cancelled), and makes no game void.
    from ringmaster.dispatch.cluster import run_jobs_on_cluster
    source = Source(4)
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        started = time.monotonic()
        with pytest.raises(InternalError) as info:
            run_jobs_on_cluster(source, buggy_briefly, 2, client, poll_interval=0.05)
        assert time.monotonic() - started < 8
    check_internal_error(info, source)
    assert source.responses == [0]


class FailedFuture:
    """A Dask future whose task raised exc outside the game (outside run_job)."""

    key = "ringmaster-1-x"
    status = "error"

    def __init__(self, exc: BaseException) -> None:
        self._exc = exc

    def exception(self) -> BaseException:
        return self._exc

    def traceback(self) -> None:
        return None

    def release(self) -> None:
        pass


def _loop_delivering(source: Source):
    """A ClusterLoop with no client, enough to deliver a future seen on a worker."""
    from ringmaster.dispatch.cluster import ClusterLoop
    loop = ClusterLoop.__new__(ClusterLoop)
    loop.source = source
    loop.playing_on = {FailedFuture.key: "tcp://10.0.0.5:4000"}
    return loop


@pytest.mark.parametrize("exc, trouble", [
    (MemoryError(), "MemoryError"),
    (RuntimeError("can't start new thread"), "RuntimeError: can't start new thread"),
    (OSError(errno.EMFILE, "Too many open files"), "OSError: [Errno 24] Too many open files"),
])
def test_a_worker_out_of_resources_outside_the_game_makes_a_void_game_naming_it(
        distributed, exc, trouble):
    # It was an internal error (exit 4), or for an OSError the run's error (exit 1).
    source = Source(0)
    _loop_delivering(source).deliver(FailedFuture(exc), Job(1))
    assert source.errors == [(1, f"the worker tcp://10.0.0.5:4000 ran out of resources: {trouble}")]


def test_a_bug_or_a_full_disk_outside_the_game_is_no_void_game(distributed):
    source = Source(0)
    with pytest.raises(InternalError, match="^game 1's job raised RuntimeError: dictionary"):
        _loop_delivering(source).deliver(
            FailedFuture(RuntimeError("dictionary changed size during iteration")), Job(1))
    with pytest.raises(OSError, match="No space left"):
        _loop_delivering(source).deliver(
            FailedFuture(OSError(errno.ENOSPC, "No space left on device")), Job(1))
    assert source.errors == []


def test_a_task_that_cant_start_its_watcher_thread_is_a_void_game(distributed, monkeypatch):
    from ringmaster.dispatch import cluster

    class Worker:
        address = "tcp://10.0.0.5:4000"

        def get_current_task(self):
            return "key"

    def no_thread(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(distributed, "get_worker", lambda: Worker())
    monkeypatch.setattr(cluster.reaper, "become_subreaper", lambda: None)
    monkeypatch.setattr(cluster.reaper, "sweep_orphans", lambda: None)
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    outcome, where, _ = cluster._cluster_task(lambda job: job.number, Job(1))
    assert outcome == (False, f"the worker {where} ran out of resources: RuntimeError: can't "
                              "start new thread")
    assert where.endswith(" tcp://10.0.0.5:4000")


def check_records(ctl: str) -> None:
    """Each game's record is the counted game's: its result and its number of moves."""
    from sgfmill import sgf
    base = ctl[:-4]
    state = json.load(open(base + ".status"))
    for entry in state["games"]:
        with open(f"{base}.games/{entry['game_id']}.sgf", "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        moves = [node for node in game.get_main_sequence()[1:] if node.get_move()[0]]
        assert (game.get_root().get("RE"), len(moves)) == (entry["result"], entry["moves"]), \
            entry["game_id"]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_a_stopped_ringmaster_stops_its_games_on_the_workers(write_ctl, cluster, tmp_path, stop):
    # Games that would run for minutes: once the ringmaster has gone, their engines must go
    # within seconds, and nothing they do may touch the records.
    marker = str(tmp_path / "stopped-engine")
    games = 6
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--name", marker, "--move-delay", "1"),
                               q=fake_engine_command("--name", marker + "q", "--move-delay", "1"),
                               games=games) + "skip_player_checks = True\n")
    run = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q",
                            "--cluster", cluster.scheduler_address],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 120
    while len(_engine_pids(marker)) < 4:   # two games, on the two workers
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.1)
    records = sorted(os.listdir(ctl[:-4] + ".games")) if os.path.exists(ctl[:-4] + ".games") else []
    os.killpg(run.pid, stop)
    run.wait(60)
    deadline = time.monotonic() + 20
    while _engine_pids(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _engine_pids(marker), "engines of the stopped run play on"
    games_dir = ctl[:-4] + ".games"
    assert [n for n in (os.listdir(games_dir) if os.path.exists(games_dir) else [])
            if not n.startswith(".")] == [n for n in records if not n.startswith(".")]


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""


def _processing(client) -> dict:
    return {w: keys for w, keys in client.processing().items() if keys}


def _start(*argv: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _scheduler_and_worker(distributed, port: int) -> list[subprocess.Popen]:
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                       str(port), "--dashboard-address", ":0")
    worker = _start("distributed.cli.dask_worker", address, "--nthreads", "1",
                    "--no-nanny")
    client = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            client = distributed.Client(address, timeout=2, set_as_default=False)
            client.wait_for_workers(1, timeout=30)
            break
        except Exception:  # noqa: BLE001 (still starting)
            time.sleep(0.2)
    assert client is not None
    client.close()
    return [scheduler, worker]


def _ringmaster_with_other_code(root) -> str:
    """A copy of the ringmaster package under root, one comment added: another version's code."""
    import shutil
    package = os.path.dirname(os.path.dirname(os.path.abspath(ringmaster_package.__file__)))
    shutil.copytree(package, os.path.join(root, "ringmaster"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    with open(os.path.join(root, "ringmaster", "__init__.py"), "a") as f:
        f.write("# another version\n")
    return str(root)


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def own_cluster(distributed):
    """A scheduler and one worker of our own, as processes: (address, the processes), each of
    them killed at the end (a test may append more)."""
    port = _free_port()
    processes = _scheduler_and_worker(distributed, port)
    try:
        yield f"tcp://127.0.0.1:{port}", processes
    finally:
        for process in processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()


def run_until_a_result(write_ctl, address: str, games: int) -> tuple[str, subprocess.Popen]:
    """A playoff of games 0.03 s a move, run on the cluster at address until its first result."""
    ctl = write_ctl(playoff_ctl(p=fake_engine_command("--move-delay", "0.03"),
                               q=fake_engine_command("--name", "q", "--move-delay", "0.03"),
                               games=games))
    run = subprocess.Popen([sys.executable, "-m", "ringmaster.cli", "run", ctl, "-q",
                            "--cluster", address], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while "response from game" not in _read(ctl[:-4] + ".log"):
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.05)
    return ctl, run


def test_a_lost_scheduler_stops_the_run_cleanly_and_it_resumes(write_ctl, distributed):
    games = 6
    with own_cluster(distributed) as (address, processes):
        ctl, run = run_until_a_result(write_ctl, address, games)
        os.kill(processes[0].pid, signal.SIGKILL)   # the scheduler
        output, _ = run.communicate(timeout=120)
        assert run.returncode == EXIT_INTERRUPTED, output
        assert "lost the Dask scheduler" in output
        assert "Traceback" not in output
        for process in processes:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        processes[:] = _scheduler_and_worker(distributed, int(address.rsplit(":", 1)[1]))
        result = invoke("run", ctl, "-q", "--cluster", address)
        assert result.exit_code == EXIT_OK, result.output
        check_consistent(ctl, games)


def test_a_worker_joining_with_other_code_stops_the_run_and_no_game_is_lost(
        write_ctl, distributed, tmp_path):
    # A worker present at the start is checked by connect(); one that joins later, before
    # any result of its own is taken. The run stops with the results so far kept.
    games = 40
    with own_cluster(distributed) as (address, processes):
        ctl, run = run_until_a_result(write_ctl, address, games)
        environment = dict(os.environ, PYTHONPATH=_ringmaster_with_other_code(tmp_path / "other"))
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
             "--no-nanny"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, env=environment, cwd=str(tmp_path)))
        output, _ = run.communicate(timeout=120)
        assert run.returncode == EXIT_USER_ERROR, output
        assert "joined the run with other ringmaster code than this one" in output
        assert "the results so far are saved" in output and "Traceback" not in output
        counted = len(json.load(open(ctl[:-4] + ".status"))["competition"]["results"]["0"])
        assert 0 < counted < games
        # the other worker's game, refused, may leave its record's attempt (removed below)
        check_consistent(ctl, counted, stray_attempts=True)
        other = processes.pop()
        os.killpg(other.pid, signal.SIGKILL)
        other.wait()
        result = invoke("run", ctl, "-q", "--cluster", address)
        assert result.exit_code == EXIT_OK, result.output
        check_consistent(ctl, games)
