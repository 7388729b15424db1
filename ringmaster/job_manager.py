"""The job loop: keep up to N jobs running, in this process or in worker processes; knows nothing of Go."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

from ringmaster import reaper
from ringmaster.errors import JobFailed
from ringmaster.gtp.launch import set_parent_death_signal


class NoJobAvailable:
    """Returned by get_job() when there is nothing to start now."""


NO_JOB = NoJobAvailable()


class Job(Protocol):
    """Plain data for one job; the loop only sets its slot."""

    slot: int | None


PlayFunction = Callable[[Any], Any]
"""Runs one job and returns its response; raises JobFailed if the job can't be done.

For worker processes it must be picklable (a module-level function, or a
functools.partial of one)."""


class JobSource(Protocol):
    """What the loop needs from the ringmaster."""

    def get_job(self) -> Job | NoJobAvailable: ...

    def process_response(self, response: Any) -> None: ...

    def process_error_response(self, job: Job, message: str) -> None: ...

    def poll(self, running: list[Job]) -> None:
        """Called at least once a second while jobs run: redraw, look for stop requests."""

    def interrupted(self) -> None:
        """Called at once on Ctrl-C or SIGTERM, before the jobs running are stopped."""


class WorkerTerminated(BaseException):
    """Raised in a worker's job by SIGTERM from the coordinator: unwind the job, then exit."""


_in_job = False


def _on_sigterm(signum: int, frame: Any) -> None:
    if _in_job:
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


def _run_job(play: PlayFunction, job: Job) -> tuple[bool, Any]:
    """Run one job; then kill what its processes left behind (as their subreaper)."""
    global _in_job
    _in_job = True
    try:
        return True, play(job)
    except JobFailed as exc:
        return False, str(exc)
    except WorkerTerminated:
        _in_job = False
        _kill_orphans()
        os._exit(1)
    finally:
        _in_job = False
        _kill_orphans()


def _notify_interrupted(source: JobSource) -> None:
    interrupted = getattr(source, "interrupted", None)
    if interrupted is not None:
        interrupted()


def _kill_orphans() -> None:
    if reaper.is_subreaper():
        reaper.kill_orphans(keep=reaper.helper_pids())


def run_jobs(source: JobSource, play: PlayFunction, parallel: int | None,
             poll_interval: float = 0.5) -> None:
    """Run jobs from source, each by calling play(job), until none are left or running.

    parallel None runs each job in this process; N runs up to N at once in
    worker processes. Each job gets a slot number 0..N-1 unique among the
    running jobs. KeyboardInterrupt stops the workers (their jobs clean up)
    and propagates.
    """
    if parallel is None:
        _run_inline(source, play)
        return
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    executor = ProcessPoolExecutor(parallel, mp_context=context,
                                   initializer=_worker_initialiser,
                                   initargs=(os.getpid(),))
    in_flight: dict[Future, Job] = {}
    try:
        exhausted = False
        while True:
            exhausted = _fill(source, play, executor, in_flight, parallel, exhausted)
            if not in_flight:
                break
            done, _ = wait(in_flight, timeout=poll_interval, return_when=FIRST_COMPLETED)
            finished = [(future, in_flight.pop(future)) for future in done]
            try:
                if finished:
                    # The freed workers start their next games before these results
                    # are recorded, so that recording them (the state written, the
                    # report) doesn't hold the workers up; the source is asked again
                    # once the results are in.
                    _fill(source, play, executor, in_flight, parallel, exhausted)
                    exhausted = False
            finally:   # even on Ctrl-C a finished game is recorded, not replayed (unless
                # a second interrupt cuts its recording short: then it is replayed)
                for future, job in finished:
                    _deliver(source, job, future)
            source.poll(list(in_flight.values()))
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            _notify_interrupted(source)
        _terminate(executor)
        raise
    executor.shutdown(wait=True)


def _fill(source: JobSource, play: PlayFunction, executor: ProcessPoolExecutor,
          in_flight: dict[Future, Job], parallel: int, exhausted: bool) -> bool:
    """Start jobs until parallel are running or the source has none; returns exhausted."""
    while not exhausted and len(in_flight) < parallel:
        job = source.get_job()
        if isinstance(job, NoJobAvailable):
            return True
        used = {j.slot for j in in_flight.values()}
        job.slot = min(s for s in range(parallel) if s not in used)
        in_flight[executor.submit(_run_job, play, job)] = job
    return exhausted


def _deliver(source: JobSource, job: Job, future: Future) -> None:
    try:
        ok, value = future.result()
    except Exception as exc:  # the worker died, or the job raised something unexpected
        source.process_error_response(job, f"worker failed: {type(exc).__name__}: {exc}")
        return
    if ok:
        source.process_response(value)
    else:
        source.process_error_response(job, value)


def _run_inline(source: JobSource, play: PlayFunction) -> None:
    while True:
        job = source.get_job()
        if isinstance(job, NoJobAvailable):
            return
        try:
            ok, value = _run_job(play, job)
        except KeyboardInterrupt:
            _notify_interrupted(source)
            raise
        if ok:
            source.process_response(value)
        else:
            source.process_error_response(job, value)
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
