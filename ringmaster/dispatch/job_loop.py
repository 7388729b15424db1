"""What every job loop shares: the source it serves, run_job, and when jobs start and results go back."""

from __future__ import annotations

import errno
import os
import socket
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol

from ringmaster import reaper
from ringmaster.errors import InternalError, JobFailed, RingmasterError
from ringmaster.files import one_line


class NoJobAvailable:
    """Returned by get_job() when there is nothing to start now."""


NO_JOB = NoJobAvailable()


class Job(Protocol):
    """Plain data for one job; the loop only sets its slot, and names it by its game_id."""

    slot: int | None
    game_id: str


PlayFunction = Callable[[Any], Any]
"""Runs one job and returns its response; raises JobFailed if the job can't be done (an
engine's failure included: the loop knows nothing of engines). Anything else it raises is a
bug, but a RingmasterError or OSError (the run's, a full disk) and a worker out of memory or
threads.

For worker processes it must be picklable (a module-level function, or a
functools.partial of one)."""


class JobSource(ABC):
    """What a job loop needs from the ringmaster: jobs, and somewhere to send their results."""

    @abstractmethod
    def get_job(self) -> Job | NoJobAvailable:
        """The next job to start, or NO_JOB if there is none now."""

    @abstractmethod
    def process_response(self, response: Any) -> None:
        """A job's result."""

    @abstractmethod
    def process_error_response(self, job: Job, message: str) -> None:
        """A job that failed (JobFailed, or its worker died)."""

    def poll(self, running: list[Job]) -> None:
        """Called at least once a second while jobs run: redraw, look for stop requests."""
        return None

    def interrupted(self) -> None:
        """Called at once on Ctrl-C or SIGTERM, before the jobs running are stopped."""
        return None

    def note_host(self, job: Job, host: str) -> None:
        """Which machine played a job (a cluster's loop calls it before delivering the result)."""
        return None


class WorkerTerminated(BaseException):
    """Raised in a worker's job by SIGTERM from the coordinator: unwind the job, then exit."""


_in_job = False


def job_running() -> bool:
    """Whether this process is inside run_job (a worker's SIGTERM unwinds the job then)."""
    return _in_job


_EXHAUSTED = {errno.ENOMEM, errno.EAGAIN, errno.EMFILE, errno.ENFILE}
"""OSError numbers of a machine out of memory, processes or file descriptors."""


def resource_trouble(exc: BaseException) -> str | None:
    """'MemoryError', 'RuntimeError: can't start new thread'... if exc says the machine that
    ran a job ran out of memory, threads, processes or file descriptors (the worker's
    trouble, not a bug in the ringmaster), else None."""
    if isinstance(exc, MemoryError) or (
            isinstance(exc, RuntimeError) and "can't start new thread" in str(exc)) or (
            isinstance(exc, OSError) and exc.errno in _EXHAUSTED):
        return one_line("".join(traceback.format_exception_only(type(exc), exc)).strip())[:300]
    return None


def worker_trouble(where: str, trouble: str) -> str:
    """A void game's reason for a worker out of resources."""
    return f"the worker {where} ran out of resources: {trouble}"


@dataclass(frozen=True)
class Crash:
    """What a job raised that is a bug in the ringmaster (not JobFailed), with the traceback
    from the process that ran it: deliver() raises it as an InternalError."""

    summary: str     # 'AttributeError: ...', the traceback's last line
    traceback: str


def run_job(play: PlayFunction, job: Job) -> tuple[bool, Any]:
    """Run one job: (True, its response), (False, why it failed: JobFailed's message, or the
    worker out of memory or threads: a void game) or (False, a Crash: anything else it
    raised, a bug).

    A RingmasterError or OSError (the run's, a full disk) propagates. Then kill
    what its processes left behind, where this process is their subreaper. A
    WorkerTerminated (a worker's SIGTERM) ends the process once the job has unwound.
    """
    global _in_job
    _in_job = True
    try:
        return True, play(job)
    except JobFailed as exc:
        return False, str(exc)
    except (RingmasterError, OSError):   # the run's error, not the game's, nor a bug
        raise
    except WorkerTerminated:
        _in_job = False
        _kill_orphans()
        os._exit(1)
    except Exception as exc:  # noqa: BLE001 (a bug: its traceback goes back with the outcome)
        trouble = resource_trouble(exc)   # MemoryError, no thread: the worker's, a void game
        if trouble is not None:
            return False, worker_trouble(f"{socket.gethostname()} pid {os.getpid()}", trouble)
        summary = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return False, Crash(one_line(summary), traceback.format_exc())
    finally:
        _in_job = False
        _kill_orphans()


def _kill_orphans() -> None:
    reaper.sweep_orphans()   # sparing other jobs' engines, where games run in threads (Dask)


def deliver(source: JobSource, job: Job, outcome: tuple[bool, Any]) -> None:
    """Hand a job's outcome from run_job to the source; raises InternalError for a Crash."""
    ok, value = outcome
    if ok:
        source.process_response(value)
    elif isinstance(value, Crash):
        raise crashed(job, value.summary, value.traceback)
    else:
        source.process_error_response(job, value)


def crashed(job: Job, summary: str, traceback_text: str) -> InternalError:
    """The InternalError for a job that raised summary ('AttributeError: ...') in its worker."""
    return InternalError(f"game {job.game_id}'s job raised {summary}", traceback_text)


class JobLoop(ABC):
    """A loop that keeps up to parallel jobs running on workers, with one policy for every backend.

    The slots are filled from the source; when some jobs finish, the freed
    workers are given their next jobs before the finished ones' results are
    delivered, so that recording them (the state written, the report) doesn't
    hold the workers up; the source is asked again once the results are in
    (a result may make new jobs available). Each job gets a slot number
    0..parallel-1 unique among the running jobs. A job that raised a bug
    (InternalError from deliver) stops the loop once the other finished jobs
    are delivered; the caller stops the jobs still running. Subclasses say how
    a job is submitted, waited for and delivered.
    """

    def __init__(self, source: JobSource, parallel: int) -> None:
        self.source = source
        self.parallel = parallel
        self.in_flight: dict[Hashable, Job] = {}   # handle (a future) -> its job
        self.to_replay: list[Job] = []             # lost with their workers: started again first

    @abstractmethod
    def submit(self, job: Job) -> Hashable:
        """Start a job on a worker; returns its handle."""

    @abstractmethod
    def wait(self) -> list[Hashable]:
        """Wait up to a poll interval; the handles of jobs that have finished."""

    @abstractmethod
    def deliver(self, handle: Hashable, job: Job) -> None:
        """Hand a finished job's result (or failure) to the source; raises InternalError for
        a job that raised a bug."""

    def between(self) -> None:
        """After each wait and its deliveries (a cluster looks at its workers here)."""
        return None

    def fill(self) -> bool:
        """Start jobs until parallel are running or the source has none; returns True if it had none.

        Jobs lost with their workers (to_replay) start again before any new one.
        """
        while len(self.in_flight) < self.parallel:
            job = self.to_replay.pop(0) if self.to_replay else self.source.get_job()
            if isinstance(job, NoJobAvailable):
                return True
            used = {j.slot for j in self.in_flight.values()}
            job.slot = min(s for s in range(self.parallel) if s not in used)
            self.in_flight[self.submit(job)] = job
        return False

    def run(self) -> None:
        """Run jobs until the source has none left and none are running."""
        exhausted = False
        while True:
            if not exhausted or self.to_replay:
                exhausted = self.fill()
            if not self.in_flight:
                break
            finished = [(handle, self.in_flight.pop(handle)) for handle in self.wait()]
            try:
                if finished and (not exhausted or self.to_replay):
                    self.fill()
                exhausted = exhausted and not finished
            finally:   # even on Ctrl-C a finished game is recorded, not replayed (unless
                # a second interrupt stops its recording before its state is saved: then it
                # is replayed; after, it is counted, and the next run's start renames its
                # record into place if this one didn't)
                crash = self._deliver_all(finished)
            if crash is not None:
                raise crash
            self.between()
            self.source.poll(list(self.in_flight.values()))

    def _deliver_all(self, finished: list[tuple[Hashable, Job]]) -> InternalError | None:
        """Deliver each finished job; the first InternalError is returned, not raised, so that
        a bug in one game's job loses none of the games finished with it."""
        crash = None
        for handle, job in finished:
            try:
                self.deliver(handle, job)
            except InternalError as exc:
                crash = crash or exc
        return crash
