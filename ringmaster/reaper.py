"""Descendants that leave their process group: be their subreaper, then kill and reap them."""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager

from ringmaster.gtp.launch import SHARED_SERVICE_VARIABLE

PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37

# The service tokens of the runs whose games this process plays (see gtp/launch.py).
_service_tokens: set[str] = set()

SWEEP_SECONDS = 10.0
"""The longest a sweep of orphans goes on (each round kills every process it finds)."""

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
    return _children_in(_parents(), parent)


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


def new_service_token() -> str:
    """A run's service token, accepted in this process from now on (gtp/launch.py)."""
    token = os.urandom(16).hex()
    _service_tokens.add(token)
    return token


def accept_service_token(token: str) -> None:
    """A run's token, for a worker process that plays its games."""
    _service_tokens.add(token)


def is_shared_service(pid: int) -> bool:
    """Whether a process was started as a shared service: SHARED_SERVICE_VARIABLE set to
    the token of a run this process plays for (no other value counts)."""
    if not _service_tokens:
        return False
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            variables = f.read().split(b"\0")
    except OSError:
        return False
    return any(f"{SHARED_SERVICE_VARIABLE}={token}".encode() in variables for token in _service_tokens)


def _reap(pid: int, block: bool) -> None:
    try:
        os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        pass


def kill_orphans(keep: Collection[int] = ()) -> list[int]:
    """Kill and reap every child of this process but those in keep, and all below them.

    Meant for a subreaper, whose children are those it started (keep them)
    and the orphans it inherited. Every process below an orphan is stopped
    (SIGSTOP, until a scan finds no new one: a stopped process can't start
    another), then all are killed, each group leader with its group; those
    re-parented here as their parents die are reaped in the next round. No
    depth of descendants outruns it. Shared services and spared children are
    left running, with what is below them (shared services are reaped once
    they exit). Returns the pids of the children killed.
    """
    killed: list[int] = []
    if not has_children():
        return killed   # the usual case after a game: no need to read /proc
    keep = set(keep) | _spared
    listed = listed_children()
    if listed is not None and listed <= keep:
        return killed   # only the children kept on purpose (engines kept between games)
    me = os.getpid()
    deadline = time.monotonic() + SWEEP_SECONDS
    while time.monotonic() < deadline:
        parents = _parents()
        targets = []
        for pid in _children_in(parents, me):
            if pid in keep:
                continue
            if is_shared_service(pid):
                _reap(pid, block=False)   # a zombie once it has ended by itself
                continue
            targets.append(pid)
        if not targets:
            break
        below = _stop_all_below(targets, parents)
        for pid in targets:
            _kill_group(pid)
        for pid in below:
            _signal(pid, signal.SIGKILL)
        for pid in targets:
            _reap(pid, block=True)
        killed += targets
    return killed


def _parents() -> dict[int, int]:
    """{pid: parent pid} of every process, from /proc."""
    parents = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return parents
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            parents[int(name)] = int(fields[1])
    return parents


def _children_in(parents: dict[int, int], parent: int) -> list[int]:
    return [pid for pid, ppid in parents.items() if ppid == parent]


def _below(roots: Collection[int], parents: dict[int, int]) -> set[int]:
    """Every descendant of roots (not the roots)."""
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    todo = [child for root in roots for child in children.get(root, ())]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def _stop_all_below(roots: list[int], parents: dict[int, int]) -> set[int]:
    """Stop roots and every process below them, scanning again until none is new."""
    stopped: set[int] = set()
    for pid in roots:
        _signal(pid, signal.SIGSTOP)
    while True:
        new = _below(roots, parents) - stopped
        if not new:
            return stopped
        for pid in new:
            _signal(pid, signal.SIGSTOP)
        stopped |= new
        parents = _parents()   # one forked before it was stopped shows up now


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass



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
