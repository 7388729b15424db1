"""The job loop on this machine: each job in this process, or up to N at once in worker processes."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import struct
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


_STARTED = struct.Struct("=qq")
"""A worker's note that it starts a job: its pid and the job's token, written whole (it is
shorter than PIPE_BUF) to the pipe the coordinator reads."""

_started_fd: int | None = None   # in a worker: the write end of that pipe, if there is one


def _run_tracked(play: PlayFunction, job: Job, token: int) -> tuple[bool, Any]:
    """run_job() in a worker, once the coordinator is told which worker plays the job."""
    if _started_fd is not None:
        try:
            os.write(_started_fd, _STARTED.pack(os.getpid(), token))
        except OSError:   # the coordinator has gone: the worker is about to die with it
            pass
    return run_job(play, job)


def _worker_initialiser(coordinator_pid: int, started_fd: int | None = None) -> None:
    # Ctrl-C, and the SIGHUP of a shell whose terminal closed, go to the whole
    # foreground process group: the coordinator deals with them. SIGTERM (from the
    # coordinator) unwinds the job so that its engines are killed, then the worker
    # exits at once. A worker never outlives the coordinator, so that an orphaned
    # game can't overwrite the record of its replay; it is its engines'
    # subreaper, so that what they leave behind dies with each game.
    global _started_fd
    _started_fd = started_fd
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

STOPPED_BY_THE_POOL = frozenset({0, 1, -signal.SIGTERM})
"""The exit codes of the workers a broken pool stops (SIGTERM; our handler exits 1): a
worker that ended otherwise (-9: the OOM killer, a kill) died by itself."""


def run_jobs(source: JobSource, play: PlayFunction, parallel: int | None,
             poll_interval: float = 0.5, note: Callable[[str], None] | None = None) -> None:
    """Run jobs from source, each by calling play(job), until none are left or running.

    parallel None runs each job in this process; N runs up to N at once in
    worker processes (see JobLoop for the policy). A worker that dies takes
    the pool's games with it: they are played again on new workers (note()
    is told). A game lost MAX_LOSSES times with its own worker is an error
    response; the games of the workers the pool stopped then don't count a
    loss (each job tells the coordinator which worker plays it). Where the
    worker that died can't be told (not Linux; every worker stopped alike),
    every game lost counts one. A job
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
        try:
            loop.run()
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                source.interrupted()
            _terminate(loop.executor)
            raise
        loop.executor.shutdown(wait=True)
    finally:
        loop.close()


def _new_executor(parallel: int, started_fd: int | None) -> ProcessPoolExecutor:
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    return ProcessPoolExecutor(parallel, mp_context=context, initializer=_worker_initialiser,
                               initargs=(os.getpid(), started_fd))


class ProcessPoolLoop(JobLoop):
    """The job loop on this machine's worker processes."""

    def __init__(self, source: JobSource, parallel: int, play: PlayFunction,
                 poll_interval: float, note: Callable[[str], None]) -> None:
        super().__init__(source, parallel)
        self.play = play
        self.poll_interval = poll_interval
        self.note = note
        # The pipe through which each job tells which worker plays it (fork only: the
        # workers inherit its write end).
        self._started: tuple[int, int] | None = None
        if sys.platform == "linux":
            self._started = os.pipe()
            os.set_blocking(self._started[0], False)
        self.executor = _new_executor(parallel, self._write_end())
        self._tokens = itertools.count()
        self._token_of: dict[Future, int] = {}
        self._pool_of: dict[Future, ProcessPoolExecutor] = {}
        self._worker_of: dict[int, int] = {}   # token -> the pid of the worker that started it
        self._died: dict[ProcessPoolExecutor, set[int] | None] = {}   # see _died_by_themselves
        self.losses: dict[str, int] = {}   # job id -> times lost with its worker

    def _write_end(self) -> int | None:
        return self._started[1] if self._started is not None else None

    def close(self) -> None:
        """Close the pipe of the jobs' notes."""
        if self._started is not None:
            for fd in self._started:
                os.close(fd)
            self._started = None

    def submit(self, job: Job) -> Future:
        token = next(self._tokens)
        try:
            handle = self.executor.submit(_run_tracked, self.play, job, token)
        except BrokenProcessPool:   # a worker died: the pool is gone, with every game in it
            self._died_by_themselves(self.executor)   # while the pool can still tell
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = _new_executor(self.parallel, self._write_end())
            handle = self.executor.submit(_run_tracked, self.play, job, token)
        self._token_of[handle] = token
        self._pool_of[handle] = self.executor
        return handle

    def wait(self) -> list[Future]:
        done, _ = wait(self.in_flight, timeout=self.poll_interval, return_when=FIRST_COMPLETED)
        self._read_notes()
        return list(done)

    def _read_notes(self) -> None:
        """Take in the notes the jobs started since the last call wrote."""
        if self._started is None:
            return
        data = b""
        while True:
            try:
                chunk = os.read(self._started[0], 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            data += chunk
        for pid, token in _STARTED.iter_unpack(data):   # whole notes: each is written at once
            self._worker_of[token] = pid

    def _died_by_themselves(self, executor: ProcessPoolExecutor) -> set[int] | None:
        """The pids of the broken pool's workers that died by themselves, not stopped by the
        pool after one did; None if it can't be told. Asked once a pool, before its shutdown
        (which forgets its processes): waits for the pool to have stopped its workers."""
        if executor in self._died:
            return self._died[executor]
        processes = dict(getattr(executor, "_processes", None) or {})
        manager = getattr(executor, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(10)   # it stops the other workers, then joins them all
        died = None
        if self._started is not None and processes and (manager is None or not manager.is_alive()):
            died = {pid for pid, process in processes.items()
                    if process.exitcode is not None and process.exitcode not in STOPPED_BY_THE_POOL}
        self._read_notes()
        self._died[executor] = died or None
        return died or None

    def deliver(self, handle: Future, job: Job) -> None:  # type: ignore[override]
        token = self._token_of.pop(handle, None)
        pool = self._pool_of.pop(handle, None)
        try:
            outcome = handle.result()
        except BrokenProcessPool:
            died = self._died_by_themselves(pool) if pool is not None else None
            worker = self._worker_of.pop(token, None)   # None: the job never started
            self._lost(job, own_worker=None if died is None else worker in died)
            return
        except (RingmasterError, OSError):   # the run's error (a full disk), not the game's
            raise
        except Exception as exc:  # noqa: BLE001 (a bug outside the game: pickling its result...)
            raise crashed(job, f"{type(exc).__name__}: {one_line(str(exc))}",
                          "".join(traceback.format_exception(exc))) from None
        finally:
            self._worker_of.pop(token, None)
            self._forget_if_done(pool)
        deliver(self.source, job, outcome)   # a bug in the game: run_job's Crash

    def _forget_if_done(self, pool: ProcessPoolExecutor | None) -> None:
        """Forget a broken pool once none of its jobs is left to deliver (a long run's worker
        deaths would otherwise keep every broken pool)."""
        if pool is not None and pool is not self.executor and pool not in self._pool_of.values():
            self._died.pop(pool, None)

    def _lost(self, job: Job, own_worker: bool | None) -> None:
        """A job lost with the pool: own_worker, whether its own worker died by itself (None:
        unknown, and counted as if it had)."""
        name = job.game_id
        if own_worker is False:
            self.note(f"a worker process died (killed: out of memory?); game {name}, stopped "
                      "on another worker, will be played again")
            self.to_replay.append(job)
            return
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
