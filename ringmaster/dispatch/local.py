"""The job loop on this machine: each job in this process, or up to N at once in worker processes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ringmaster import reaper
from ringmaster.dispatch.job_loop import (
    Job,
    JobLoop,
    JobSource,
    NoJobAvailable,
    PlayFunction,
    WorkerTerminated,
    deliver,
    job_running,
    run_job,
)
from ringmaster.errors import RingmasterError
from ringmaster.gtp.launch import set_parent_death_signal


def _on_sigterm(signum: int, frame: Any) -> None:
    if job_running():
        raise WorkerTerminated
    os._exit(1)   # an idle worker has nothing to clean up


def _worker_initialiser(coordinator_pid: int) -> None:
    # Ctrl-C goes to the whole foreground process group: the coordinator deals
    # with it. SIGTERM (from the coordinator) unwinds the job so that its
    # engines are killed, then the worker exits at once. A worker never
    # outlives the coordinator, so that an orphaned game can't overwrite the
    # record of its replay; it is its engines' subreaper, so that what they
    # leave behind dies with each game.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    set_parent_death_signal()
    reaper.become_subreaper()
    if os.getppid() != coordinator_pid:
        os._exit(1)


def run_jobs(source: JobSource, play: PlayFunction, parallel: int | None,
             poll_interval: float = 0.5) -> None:
    """Run jobs from source, each by calling play(job), until none are left or running.

    parallel None runs each job in this process; N runs up to N at once in
    worker processes (see JobLoop for the policy). KeyboardInterrupt stops
    the workers (their jobs clean up) and propagates.
    """
    if parallel is None:
        _run_inline(source, play)
        return
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    executor = ProcessPoolExecutor(parallel, mp_context=context,
                                   initializer=_worker_initialiser,
                                   initargs=(os.getpid(),))
    try:
        ProcessPoolLoop(source, parallel, play, executor, poll_interval).run()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            source.interrupted()
        _terminate(executor)
        raise
    executor.shutdown(wait=True)


class ProcessPoolLoop(JobLoop):
    """The job loop on this machine's worker processes."""

    def __init__(self, source: JobSource, parallel: int, play: PlayFunction,
                 executor: ProcessPoolExecutor, poll_interval: float) -> None:
        super().__init__(source, parallel)
        self.play = play
        self.executor = executor
        self.poll_interval = poll_interval

    def submit(self, job: Job) -> Future:
        return self.executor.submit(run_job, self.play, job)

    def wait(self) -> list[Future]:
        done, _ = wait(self.in_flight, timeout=self.poll_interval, return_when=FIRST_COMPLETED)
        return list(done)

    def deliver(self, handle: Future, job: Job) -> None:  # type: ignore[override]
        try:
            outcome = handle.result()
        except RingmasterError:   # the run's error (a full disk), not the game's
            raise
        except Exception as exc:  # the worker died, or the job raised something unexpected
            self.source.process_error_response(job, f"worker failed: {type(exc).__name__}: {exc}")
            return
        deliver(self.source, job, outcome)


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
    executor.shutdown(wait=False, cancel_futures=True)
