"""The job loop: plain-data jobs played by the function it is given, inline or in workers."""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass

import pytest

from ringmaster.dispatch.job_loop import NO_JOB, Crash, JobLoop, JobSource, deliver
from ringmaster.dispatch.local import ProcessPoolLoop, run_jobs
from ringmaster.errors import EXIT_INTERNAL_ERROR, InternalError, JobFailed


@dataclass
class Job:
    number: int
    slot: int | None = None

    @property
    def game_id(self) -> str:
        return str(self.number)


class Source(JobSource):
    """Hands out jobs 0..n-1 and records what comes back."""

    def __init__(self, n: int) -> None:
        self.remaining = list(range(n))
        self.responses: list = []
        self.errors: list = []
        self.polls = 0

    def get_job(self):
        return Job(self.remaining.pop(0)) if self.remaining else NO_JOB

    def process_response(self, response) -> None:
        self.responses.append(response)

    def process_error_response(self, job, message: str) -> None:
        self.errors.append((job.number, message))

    def poll(self, running) -> None:
        self.polls += 1


def play(job: Job):
    if job.number == 2:
        raise JobFailed("job 2 can't be played")
    return job.number * 10, job.slot, os.getpid()


def test_inline_jobs_are_played_in_this_process_by_the_given_function():
    source = Source(4)
    run_jobs(source, play, None)
    assert [r[0] for r in source.responses] == [0, 10, 30]
    assert {r[1] for r in source.responses} == {None}
    assert {r[2] for r in source.responses} == {os.getpid()}
    assert source.errors == [(2, "job 2 can't be played")]
    assert source.polls == 4


@pytest.mark.parametrize("exc, trouble", [
    (MemoryError(), "MemoryError"),
    (RuntimeError("can't start new thread"), "RuntimeError: can't start new thread"),
])
def test_a_worker_out_of_memory_or_threads_in_a_job_is_a_void_game(exc, trouble):
    def exhausted(job: Job):
        if job.number == 1:
            raise exc
        return job.number
    source = Source(3)
    run_jobs(source, exhausted, None)
    assert source.responses == [0, 2]
    ((number, message),) = source.errors
    assert number == 1 and message.startswith("the worker ")
    assert message.endswith(f" pid {os.getpid()} ran out of resources: {trouble}")


def test_a_runtime_error_that_is_no_resource_trouble_is_still_a_bug():
    def buggy_runtime(job: Job):
        raise RuntimeError("dictionary changed size during iteration")
    with pytest.raises(InternalError, match="RuntimeError: dictionary changed size"):
        run_jobs(Source(1), buggy_runtime, None)


def buggy(job: Job):
    """A play function with a bug in job 1 (whose game takes a moment), job 2 a long game."""
    if job.number == 1:
        time.sleep(0.3)
        return job.no_such_attribute
    if job.number == 2:
        time.sleep(60)   # a long game: the end of the run ends it
    return job.number


def check_internal_error(info: pytest.ExceptionInfo, source: Source) -> None:
    """The bug in job 1 stopped the run with its traceback, and no game was made void by it."""
    assert str(info.value) == "game 1's job raised AttributeError: 'Job' object has no attribute " \
        "'no_such_attribute'"
    assert info.value.exit_code == EXIT_INTERNAL_ERROR
    text = info.value.traceback
    assert text.startswith("Traceback (most recent call last):")
    assert "in buggy\n    return job.no_such_attribute" in text
    assert text.endswith("AttributeError: 'Job' object has no attribute 'no_such_attribute'\n")
    assert source.errors == []


def test_a_bug_in_a_job_is_an_internal_error_inline():
    source = Source(3)
    with pytest.raises(InternalError) as info:
        run_jobs(source, buggy, None)
    check_internal_error(info, source)
    assert source.responses == [0]


@pytest.mark.integration
def test_worker_processes_get_slots_and_report_failures():
    source = Source(6)
    run_jobs(source, play, 2, poll_interval=0.05)
    assert sorted(r[0] for r in source.responses) == [0, 10, 30, 40, 50]
    assert {r[1] for r in source.responses} <= {0, 1}
    assert os.getpid() not in {r[2] for r in source.responses}
    assert source.errors == [(2, "job 2 can't be played")]


@pytest.mark.integration
def test_a_bug_in_a_job_is_an_internal_error_in_worker_processes():
    # Job 0 finishes first (delivered), job 2 then starts on its worker: the bug in job 1
    # stops the run at once, job 2's worker with it, and brings back the worker's traceback.
    source = Source(4)
    started = time.monotonic()
    with pytest.raises(InternalError) as info:
        run_jobs(source, buggy, 2, poll_interval=0.05)
    assert time.monotonic() - started < 30
    check_internal_error(info, source)
    assert source.responses == [0]


def a_runs_handler(signum, frame) -> None:
    pass


def signal_actions(job: Job):
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGHUP)


@pytest.mark.integration
def test_workers_leave_ctrl_c_and_sighup_to_the_coordinator():
    # Both go to the whole foreground process group (Ctrl-C; a shell hanging up its jobs);
    # the run's handler raising in a worker, or SIGHUP's default action, would end its game.
    source = Source(1)
    previous = signal.signal(signal.SIGHUP, a_runs_handler)   # inherited by the workers
    try:
        run_jobs(source, signal_actions, 1, poll_interval=0.05)
    finally:
        signal.signal(signal.SIGHUP, previous)
    assert source.responses == [(signal.SIG_IGN, signal.SIG_IGN)]


def sleepy(job: Job):
    import time
    if job.number == 0:
        return job.number
    time.sleep(600)   # a long game: only the interrupt ends it


class InterruptedSource(Source):
    """Raises KeyboardInterrupt (Ctrl-C) at the first poll after a job has finished."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.told: list[str] = []

    def poll(self, running) -> None:
        if self.responses:
            raise KeyboardInterrupt

    def interrupted(self) -> None:
        self.told.append("interrupted")


@pytest.mark.integration
def test_ctrl_c_stops_busy_and_idle_workers_at_once(monkeypatch):
    # Two workers: one busy with a 600 s job, one idle. Each must exit by itself on
    # SIGTERM (exit code 1), not be SIGKILLed after the join times out (-9).
    import ringmaster.dispatch.local as job_manager
    real_terminate = job_manager._terminate
    exit_codes: list = []
    managers_left: list = []
    # A loaded machine: the pool's manager thread closes its pipes late.
    from concurrent.futures import process as futures_process
    manager_class = futures_process._ExecutorManagerThread
    real_join_internals = manager_class.join_executor_internals

    def late_join_internals(self) -> None:
        time.sleep(0.5)
        real_join_internals(self)
    monkeypatch.setattr(manager_class, "join_executor_internals", late_join_internals)

    def terminate(executor) -> None:
        processes = list(executor._processes.values())
        real_terminate(executor)
        managers_left.extend(thread for thread in threading.enumerate()
                             if isinstance(thread, manager_class))
        # The pool's own management thread may reap a worker at the same moment, and then
        # the exit code is set a moment later: wait for it rather than read None.
        deadline = time.monotonic() + 5
        while any(p.exitcode is None for p in processes) and time.monotonic() < deadline:
            time.sleep(0.01)
        exit_codes.extend(p.exitcode for p in processes)
    monkeypatch.setattr(job_manager, "_terminate", terminate)
    source = InterruptedSource(2)
    with pytest.raises(KeyboardInterrupt):
        run_jobs(source, sleepy, 2, poll_interval=0.05)
    assert source.told == ["interrupted"]
    # The busy worker unwinds its job and exits 1. The idle one exits 1 too, unless the
    # SIGTERM came before its initialiser had set the handler (it has no job then, and
    # SIGTERM's default action ends it: -15). Neither waits to be SIGKILLed (-9).
    assert len(exit_codes) == 2 and 1 in exit_codes
    assert set(exit_codes) <= {1, -signal.SIGTERM}
    # Nor does the pool's manager thread outlive _terminate, to race the interpreter's
    # exit (which then printed a traceback after "interrupted" under load).
    assert managers_left == []


def test_inline_ctrl_c_tells_the_source():
    source = InterruptedSource(1)

    def interrupted(job: Job):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        run_jobs(source, interrupted, None)
    assert source.told == ["interrupted"]


class ScriptedLoop(JobLoop):
    """A JobLoop whose jobs finish in the order a script gives, with every event noted."""

    def __init__(self, source, parallel, finishing):
        super().__init__(source, parallel)
        self.finishing = list(finishing)   # per wait: the job numbers that finish
        self.events: list[tuple[str, int, int | None]] = []

    def submit(self, job):
        assert len(self.in_flight) < self.parallel
        self.events.append(("start", job.number, job.slot))
        return job.number

    def wait(self):
        numbers = self.finishing.pop(0) if self.finishing else list(self.in_flight)
        return [n for n in numbers if n in self.in_flight]

    def deliver(self, handle, job):
        self.events.append(("deliver", job.number, job.slot))
        self.source.process_response(job.number)


def test_the_loop_starts_the_freed_slots_next_jobs_before_delivering_results():
    source = Source(5)
    loop = ScriptedLoop(source, 2, finishing=[[1], [0, 2], [3], [4]])
    loop.run()
    assert loop.events == [
        ("start", 0, 0), ("start", 1, 1),
        ("start", 2, 1), ("deliver", 1, 1),
        ("start", 3, 0), ("start", 4, 1), ("deliver", 0, 0), ("deliver", 2, 1),
        ("deliver", 3, 0), ("deliver", 4, 1)]
    assert sorted(source.responses) == [0, 1, 2, 3, 4]


class CrashingLoop(ScriptedLoop):
    """A ScriptedLoop whose job 0 raised a bug in its worker."""

    def deliver(self, handle, job):
        self.events.append(("deliver", job.number, job.slot))
        outcome = (False, Crash("ZeroDivisionError: x", "Traceback ...")) if job.number == 0 \
            else (True, job.number)
        deliver(self.source, job, outcome)


def test_a_bug_in_a_job_stops_the_loop_once_the_games_finished_with_it_are_delivered():
    source = Source(5)
    loop = CrashingLoop(source, 3, finishing=[[0, 1, 2]])
    with pytest.raises(InternalError, match="^game 0's job raised ZeroDivisionError: x$") as info:
        loop.run()
    assert info.value.traceback == "Traceback ..."
    assert sorted(source.responses) == [1, 2] and source.errors == []
    assert [e for e in loop.events if e[0] == "start"][-2:] == [("start", 3, 0), ("start", 4, 1)]
    assert sorted(j.number for j in loop.in_flight.values()) == [3, 4]   # the caller stops them


class LateSource(Source):
    """Has no job until a result has come in (a tuner waiting for its batch)."""

    def get_job(self):
        if len(self.responses) < 1 and len(self.remaining) < 3:
            return NO_JOB
        return super().get_job()


def test_the_loop_asks_a_source_that_had_no_job_again_once_a_result_is_in():
    source = LateSource(4)
    loop = ScriptedLoop(source, 4, finishing=[[0], [1], [2], [3]])
    loop.run()
    assert [e[:2] for e in loop.events if e[0] == "start"] == [
        ("start", 0), ("start", 1), ("start", 2), ("start", 3)]
    assert sorted(source.responses) == [0, 1, 2, 3]


def dies_on_2(job: Job):
    if job.number == 2:
        os.kill(os.getpid(), signal.SIGKILL)   # as the OOM killer does
    return job.number


@pytest.mark.integration
def test_a_job_whose_worker_dies_is_played_again_and_then_given_up():
    source = Source(5)
    notes: list[str] = []
    run_jobs(source, dies_on_2, 1, poll_interval=0.05, note=notes.append)
    # Each time a new worker takes over; the others' games are played as usual.
    assert sorted(source.responses) == [0, 1, 3, 4]
    assert source.errors == [(2, "lost with its worker process 3 times (killed: out of memory?)")]
    assert notes.count("a worker process died (killed: out of memory?); game 2 will be played again") == 2


def zero_dies_one_plays_on(job: Job):
    """Job 0 is killed every time, soon after it starts; job 1 takes a while."""
    if job.number == 0:
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGKILL)   # as the OOM killer does
    time.sleep(1.5)
    return job.number


@pytest.mark.integration
def test_only_the_game_whose_worker_died_counts_the_loss():
    # Every game in flight was counted as lost with its worker when one worker died, so a game
    # became void after 3 deaths of another game's worker. Each job now tells which worker
    # plays it, and only the game whose worker died by itself (not stopped by the broken
    # pool) counts a loss; the others are played again as if nothing had happened.
    source = Source(2)
    notes: list[str] = []
    run_jobs(source, zero_dies_one_plays_on, 2, poll_interval=0.05, note=notes.append)
    assert source.errors == [(0, "lost with its worker process 3 times (killed: out of memory?)")]
    assert source.responses == [1]
    assert notes.count("a worker process died (killed: out of memory?); game 0 will be played "
                       "again") == 2
    assert notes.count("a worker process died (killed: out of memory?); game 1, stopped on "
                       "another worker, will be played again") == 3


@pytest.mark.integration
def test_the_loop_forgets_each_broken_pool_once_its_games_are_delivered():
    source = Source(5)
    loop = ProcessPoolLoop(source, 1, dies_on_2, 0.05, lambda message: None)
    try:
        loop.run()
        loop.executor.shutdown(wait=True)
    finally:
        loop.close()
    assert source.errors == [(2, "lost with its worker process 3 times (killed: out of memory?)")]
    # Three pools broke; only the one still the loop's own (broken last, unreplaced) is kept.
    assert loop._pool_of == {} and set(loop._died) <= {loop.executor}
