"""Descendants that leave their process group: be their subreaper, then kill and reap them."""

from __future__ import annotations

import ctypes
import os
import signal
import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager

from ringmaster.gtp.launch import SHARED_SERVICE_VARIABLE

PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37

_SHARED_MARKER = f"{SHARED_SERVICE_VARIABLE}=1".encode()

MAX_ROUNDS = 50

_is_subreaper = False

# Children kept on purpose between jobs (engines kept for the next game): never orphans.
_spared: set[int] = set()


def spare(pid: int) -> None:
    """Leave this child alone in kill_orphans() until unspare(pid)."""
    _spared.add(pid)


def unspare(pid: int) -> None:
    _spared.discard(pid)


def _prctl(option: int, value: int) -> int | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if option == PR_GET_CHILD_SUBREAPER:
            flag = ctypes.c_int(0)
            if libc.prctl(option, ctypes.byref(flag), 0, 0, 0) != 0:
                return None
            return flag.value
        return None if libc.prctl(option, value, 0, 0, 0) != 0 else value
    except (OSError, AttributeError):
        return None


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux 3.4+).

    A descendant orphaned by its parent's death is then re-parented to this
    process rather than to init, so kill_orphans() can find it. Returns
    False where the system doesn't allow it.
    """
    global _is_subreaper
    _is_subreaper = _prctl(PR_SET_CHILD_SUBREAPER, 1) is not None
    return _is_subreaper


def is_subreaper() -> bool:
    """Whether become_subreaper() succeeded in this process (and wasn't undone)."""
    return _is_subreaper


@contextmanager
def reaping(keep: Callable[[], Collection[int]] | None = None) -> Iterator[bool]:
    """While inside, be a subreaper; on leaving, kill every orphan inherited, then stop being one.

    Yields whether this process is a subreaper. keep() returns pids to spare
    (the caller's own children, such as worker processes still running).
    """
    global _is_subreaper
    previous = _prctl(PR_GET_CHILD_SUBREAPER, 0)
    active = become_subreaper()
    try:
        yield active
    finally:
        if active:
            kill_orphans(keep() if keep is not None else ())
            if not previous:
                _prctl(PR_SET_CHILD_SUBREAPER, 0)
                _is_subreaper = False


def helper_pids() -> set[int]:
    """This process's own helper children: multiprocessing's workers and its resource tracker."""
    import multiprocessing
    from multiprocessing import resource_tracker
    pids = {p.pid for p in multiprocessing.active_children()}
    tracker = getattr(getattr(resource_tracker, "_resource_tracker", None), "_pid", None)
    if tracker is not None:
        pids.add(tracker)
    return pids


def child_pids(parent: int) -> list[int]:
    """The pids of parent's children (from /proc)."""
    children = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return children
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == parent:
            children.append(int(name))
    return children


def listed_children() -> set[int] | None:
    """This process's children from /proc/self/task/*/children (a few small reads).

    None where the kernel has no such file. The list may miss a child that
    appears or goes while it is read, so it only says whether a full scan
    (child_pids) is needed.
    """
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return None
    pids: set[int] = set()
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as f:
                pids.update(int(pid) for pid in f.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/self/task/{tid}"):
                continue   # the thread has ended
            return None
        except (OSError, ValueError):
            return None
    return pids


def has_children() -> bool:
    """Whether this process has any child, alive or not (one system call)."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def is_shared_service(pid: int) -> bool:
    """Whether a process was started as a shared service (see SHARED_SERVICE_VARIABLE)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return _SHARED_MARKER in f.read().split(b"\0")
    except OSError:
        return False


def _reap(pid: int, block: bool) -> None:
    try:
        os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        pass


def kill_orphans(keep: Collection[int] = ()) -> list[int]:
    """Kill and reap every child of this process but those in keep, and what they leave.

    Meant for a subreaper, whose children are those it started (keep them)
    and the orphans it inherited. Each orphan's process group is killed with
    it; the orphans' own children, re-parented here in turn, go in the next
    round. Shared services and spared children are left running (shared
    services are reaped once they exit).
    Returns the pids killed.
    """
    killed: list[int] = []
    if not has_children():
        return killed   # the usual case after a game: no need to read /proc
    keep = set(keep) | _spared
    listed = listed_children()
    if listed is not None and listed <= keep:
        return killed   # only the children kept on purpose (engines kept between games)
    me = os.getpid()
    for _ in range(MAX_ROUNDS):
        targets = []
        for pid in child_pids(me):
            if pid in keep:
                continue
            if is_shared_service(pid):
                _reap(pid, block=False)   # a zombie once it has ended by itself
                continue
            targets.append(pid)
        if not targets:
            break
        for pid in targets:
            try:
                if os.getpgid(pid) == pid:
                    os.killpg(pid, signal.SIGKILL)
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in targets:
            _reap(pid, block=True)
        killed += targets
    return killed


class JobProcesses:
    """The engines one job has started (each its process group's leader), so that another
    thread can stop the job by killing them: a game a Dask worker plays on after its
    run has cancelled it."""

    def __init__(self) -> None:
        self.pids: set[int] = set()
        self.stopped = False
        self._lock = threading.Lock()

    def add(self, pid: int) -> None:
        with self._lock:
            self.pids.add(pid)
            stopped = self.stopped
        if stopped:   # started after the stop: it goes at once
            _kill_group(pid)

    def stop(self) -> None:
        """Kill every engine of the job, and any it starts from now on."""
        with self._lock:
            self.stopped = True
            pids = list(self.pids)
        for pid in pids:
            _kill_group(pid)


def _kill_group(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


_job = threading.local()
_running_jobs: set[JobProcesses] = set()
_jobs_lock = threading.Lock()   # held while an engine is started or the orphans are swept


@contextmanager
def job_processes() -> Iterator[JobProcesses]:
    """While inside, the engines this thread starts (note_engine) belong to one job."""
    job = JobProcesses()
    previous = getattr(_job, "current", None)
    _job.current = job
    with _jobs_lock:
        _running_jobs.add(job)
    try:
        yield job
    finally:
        _job.current = previous
        with _jobs_lock:
            _running_jobs.discard(job)


@contextmanager
def starting_engine() -> Iterator[None]:
    """Around starting an engine and noting it: no sweep of orphans meanwhile (on a
    Dask worker, another job's sweep would take the new engine for one)."""
    with _jobs_lock:
        yield


def note_engine(pid: int) -> None:
    """An engine this thread's job started (inside starting_engine)."""
    job = getattr(_job, "current", None)
    if job is not None:
        job.add(pid)


def running_jobs_engines() -> set[int]:
    """The engines of every job running in this process."""
    return {pid for job in list(_running_jobs) for pid in job.pids}


def sweep_orphans() -> list[int]:
    """Kill this subreaper's orphans, sparing the engines of jobs still running here and
    this process's helpers (a Dask worker: several games at once, in threads)."""
    if not is_subreaper():
        return []
    with _jobs_lock:
        return kill_orphans(keep=running_jobs_engines() | helper_pids())
