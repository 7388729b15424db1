"""The job loop on this machine: each job in this process, or up to N at once in worker processes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ringmaster import reaper
from ringmaster.dispatch.job_loop import (
    Job,
    JobLoop,
    JobSource,
    NoJobAvailable,
    PlayFunction,
    WorkerTerminated,
    crashed,
    deliver,
    job_running,
    run_job,
)
from ringmaster.errors import RingmasterError
from ringmaster.files import one_line
from ringmaster.gtp.launch import set_parent_death_signal


def _on_sigterm(signum: int, frame: Any) -> None:
    if job_running():
        raise WorkerTerminated
    os._exit(1)   # an idle worker has nothing to clean up


def _worker_initialiser(coordinator_pid: int) -> None:
    # Ctrl-C, and the SIGHUP of a shell whose terminal closed, go to the whole
    # foreground process group: the coordinator deals with them. SIGTERM (from the
    # coordinator) unwinds the job so that its engines are killed, then the worker
    # exits at once. A worker never outlives the coordinator, so that an orphaned
    # game can't overwrite the record of its replay; it is its engines'
    # subreaper, so that what they leave behind dies with each game.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    set_parent_death_signal()
    reaper.become_subreaper()
    if os.getppid() != coordinator_pid:
        os._exit(1)


MAX_LOSSES = 3
"""A game whose worker dies this many times (the OOM killer, a kill) is a void game, as
Dask's KilledWorker is after its allowed failures."""


def run_jobs(source: JobSource, play: PlayFunction, parallel: int | None,
             poll_interval: float = 0.5, note: Callable[[str], None] | None = None) -> None:
    """Run jobs from source, each by calling play(job), until none are left or running.

    parallel None runs each job in this process; N runs up to N at once in
    worker processes (see JobLoop for the policy). A worker that dies takes
    the pool's games with it: they are played again on new workers (note()
    is told), and a game lost MAX_LOSSES times is an error response. A job
    that raises a bug (not JobFailed) is an InternalError with its traceback,
    raised once the other finished jobs are delivered. KeyboardInterrupt, and
    any error that stops the loop, stops the workers (their jobs clean up)
    and propagates.
    """
    if parallel is None:
        _run_inline(source, play)
        return
    loop = ProcessPoolLoop(source, parallel, play, poll_interval, note or (lambda message: None))
    try:
        loop.run()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            source.interrupted()
        _terminate(loop.executor)
        raise
    loop.executor.shutdown(wait=True)


def _new_executor(parallel: int) -> ProcessPoolExecutor:
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    return ProcessPoolExecutor(parallel, mp_context=context, initializer=_worker_initialiser,
                               initargs=(os.getpid(),))


class ProcessPoolLoop(JobLoop):
    """The job loop on this machine's worker processes."""

    def __init__(self, source: JobSource, parallel: int, play: PlayFunction,
                 poll_interval: float, note: Callable[[str], None]) -> None:
        super().__init__(source, parallel)
        self.play = play
        self.poll_interval = poll_interval
        self.note = note
        self.executor = _new_executor(parallel)
        self.losses: dict[str, int] = {}   # job id -> times lost with its worker

    def submit(self, job: Job) -> Future:
        try:
            return self.executor.submit(run_job, self.play, job)
        except BrokenProcessPool:   # a worker died: the pool is gone, with every game in it
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = _new_executor(self.parallel)
            return self.executor.submit(run_job, self.play, job)

    def wait(self) -> list[Future]:
        done, _ = wait(self.in_flight, timeout=self.poll_interval, return_when=FIRST_COMPLETED)
        return list(done)

    def deliver(self, handle: Future, job: Job) -> None:  # type: ignore[override]
        try:
            outcome = handle.result()
        except BrokenProcessPool:
            self._lost(job)
            return
        except (RingmasterError, OSError):   # the run's error (a full disk), not the game's
            raise
        except Exception as exc:  # noqa: BLE001 (a bug outside the game: pickling its result...)
            raise crashed(job, f"{type(exc).__name__}: {one_line(str(exc))}",
                          "".join(traceback.format_exception(exc))) from None
        deliver(self.source, job, outcome)   # a bug in the game: run_job's Crash

    def _lost(self, job: Job) -> None:
        name = job.game_id
        self.losses[name] = self.losses.get(name, 0) + 1
        if self.losses[name] >= MAX_LOSSES:
            self.source.process_error_response(
                job, f"lost with its worker process {MAX_LOSSES} times (killed: out of memory?)")
            return
        self.note(f"a worker process died (killed: out of memory?); game {name} will be played again")
        self.to_replay.append(job)


def _run_inline(source: JobSource, play: PlayFunction) -> None:
    while True:
        job = source.get_job()
        if isinstance(job, NoJobAvailable):
            return
        try:
            outcome = run_job(play, job)
        except KeyboardInterrupt:
            source.interrupted()
            raise
        deliver(source, job, outcome)
        source.poll([])


def _terminate(executor: ProcessPoolExecutor) -> None:
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        try:
            os.kill(process.pid, signal.SIGTERM)
        except (ProcessLookupError, TypeError):
            pass
    for process in processes:
        process.join(2)   # a worker exits as soon as its job's engines are killed
        if process.is_alive():
            process.kill()
            process.join(1)
    manager = getattr(executor, "_executor_manager_thread", None)   # shutdown forgets it
    executor.shutdown(wait=False, cancel_futures=True)
    # The pool's manager thread now sees its workers gone and closes its pipes. Let it
    # finish: at the interpreter's exit, concurrent.futures wakes each manager through
    # its pipe without the pool's lock, and one closing the pipe at that moment makes
    # CPython print "Exception ignored ... Bad file descriptor" after our message.
    if manager is not None:
        manager.join(5)
