"""The job loop on an existing Dask cluster (--cluster): imported, with Dask, only when a run asks for it."""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import socket
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from typing import Any

from ringmaster import reaper
from ringmaster.dispatch.job_loop import (
    Job,
    JobLoop,
    JobSource,
    PlayFunction,
    crashed,
    deliver,
    resource_trouble,
    run_job,
    worker_trouble,
)
from ringmaster.errors import ClusterLost, ClusterUnavailable, RingmasterError
from ringmaster.files import one_line

CONNECT_TIMEOUT = 10.0
SCHEMES = ("tcp", "tls")   # a scheduler's; 'http://' (its dashboard's) half-makes a Client
# How long the scheduler may stay out of reach during a run before the run stops.
LOST_SCHEDULER_GRACE = 10.0


def check_address(address: str) -> None:
    """Raises ClusterUnavailable (one line) if Dask isn't installed or address isn't a
    scheduler's address (tcp://HOST:PORT, or HOST:PORT)."""
    try:
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        raise ClusterUnavailable(
            "--cluster needs Dask: pip install -e '.[cluster]' (dask and distributed)") from None
    try:
        scheme, location = parse_address(address)
        parse_host_port(location)
    except ValueError as exc:
        raise ClusterUnavailable(f"--cluster {address!r} is not a scheduler's address: "
                                 f"{one_line(str(exc))[:200]} (give tcp://HOST:PORT)") from None
    if scheme not in SCHEMES:
        raise ClusterUnavailable(f"--cluster {address!r} is not a scheduler's address: a Dask "
                                 f"scheduler speaks tcp:// or tls://, not {scheme}:// "
                                 "(give tcp://HOST:PORT)")


def connect(address: str, timeout: float | None = None) -> Any:
    """A distributed.Client for the scheduler at address.

    Raises ClusterUnavailable (a one-line message) if Dask isn't installed
    or the scheduler doesn't answer within timeout seconds.
    """
    try:
        import distributed
    except ImportError:
        raise ClusterUnavailable(
            "--cluster needs Dask: pip install -e '.[cluster]' (dask and distributed)") from None
    check_address(address)   # before a Client exists: one half made waits 20 s to close
    # Dask logs every reconnection attempt with a traceback; our own messages say what happened.
    for name in [n for n in logging.root.manager.loggerDict if n.startswith("distributed")]:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    probe_scheduler(address, timeout or CONNECT_TIMEOUT)
    try:
        client = distributed.Client(address, timeout=timeout or CONNECT_TIMEOUT,
                                    set_as_default=False)
    except Exception as exc:  # noqa: BLE001 (any failure to connect is the same error to the user)
        raise ClusterUnavailable(
            f"can't reach the Dask scheduler at {address}: {one_line(str(exc))[:200]} "
            "(start one with 'dask scheduler', or check the address)") from None
    try:
        require_same_code(client)
    except BaseException:
        client.close()
        raise
    return client


def probe_scheduler(address: str, timeout: float) -> None:
    """Raises ClusterUnavailable unless what listens at a tcp:// address speaks first, as a Dask
    scheduler does (its handshake): a Client made to a peer that accepts and then waits (the
    dashboard's port, any HTTP server) hangs past its own timeout. Refused or unreachable:
    left to the Client, whose error says so."""
    from distributed.comm.addressing import parse_address, parse_host_port
    scheme, location = parse_address(address)
    if scheme != "tcp":
        return
    host, port = parse_host_port(location)
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError:
        return
    with sock:
        try:
            sock.settimeout(timeout)
            spoke = bool(sock.recv(1))
        except OSError:
            spoke = False
    if not spoke:
        raise ClusterUnavailable(
            f"what listens at {address} is no Dask scheduler: it sent no handshake within "
            f"{timeout:g} s (give the scheduler's address, tcp://HOST:8786 by default, not its "
            "dashboard's)")


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of the ringmaster package's source, as this process imports it: a worker's and
    the ringmaster's must match, or their games and results can't be exchanged."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digest = hashlib.sha256()
    for directory, subdirectories, files in sorted(os.walk(package)):
        subdirectories.sort()
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(directory, name)
            digest.update(os.path.relpath(path, package).encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read() + b"\0")
    return digest.hexdigest()[:12]


RESULTS_SAVED = "; the results so far are saved"   # ends a refusal of a worker during a run


def require_same_code(client: Any, workers: list[str] | None = None, joined: bool = False) -> None:
    """Raises ClusterUnavailable naming a worker whose ringmaster code differs from this one's.

    workers: the addresses to check (None: every worker there now; none is no error here).
    joined: they joined during a run, whose results so far are saved (the message says so).
    """
    ours = code_fingerprint()
    later = RESULTS_SAVED if joined else ""
    try:
        theirs = client.run(_named, code_fingerprint, workers=workers)
    except Exception as exc:  # noqa: BLE001 (a worker that can't run the check has other code)
        raise ClusterUnavailable(
            f"a Dask worker can't check its ringmaster code ({one_line(str(exc))[:100]}): install "
            f"this ringmaster on every worker{later}") from None
    for address, (host, fingerprint) in sorted(theirs.items()):
        if fingerprint != ours:
            raise other_code(f"{host} {address}", fingerprint, joined)


def other_code(worker: str, theirs: str, joined: bool) -> ClusterUnavailable:
    """The refusal of a worker ('HOST ADDRESS') whose code's digest is theirs; joined: it joined
    during a run, whose results so far are saved."""
    later = RESULTS_SAVED if joined else ""
    return ClusterUnavailable(
        f"the Dask worker {worker} {'joined the run with' if joined else 'runs'} other ringmaster "
        f"code than this one ({theirs} against {code_fingerprint()}): install this ringmaster on "
        f"every worker{later}")


def worker_name() -> str:
    """This Dask worker as the reports name it: 'HOSTNAME tcp://ADDRESS:PORT'."""
    try:
        from distributed import get_worker
        address = get_worker().address
    except (ImportError, ValueError):
        address = "?"
    return f"{socket.gethostname()} {address}"


# How often a game on a Dask worker looks whether its run still wants it.
WATCH_INTERVAL = 0.5


def _cluster_task(play: PlayFunction, job: Any) -> tuple[tuple[bool, Any], str, str]:
    """A job on a Dask worker: stopped (its engines killed) once the run no longer wants
    it (cancelled, or the ringmaster gone), and what its engines left behind killed after.
    Returns its outcome, the worker's name and the digest of the code that played it."""
    from distributed import get_worker
    worker = get_worker()
    key = worker.get_current_task()
    reaper.become_subreaper()   # the worker process: its engines' orphans come to it
    finished = threading.Event()
    try:
        with reaper.job_processes() as processes:
            watcher = threading.Thread(target=_watch, args=(worker, key, processes, finished),
                                       daemon=True)
            watcher.start()
            try:
                return run_job(play, job), worker_name(), code_fingerprint()
            finally:
                finished.set()
    except (MemoryError, RuntimeError, OSError) as exc:   # out of threads (the watcher)...
        trouble = resource_trouble(exc)
        if trouble is None:
            raise
        return (False, worker_trouble(worker_name(), trouble)), worker_name(), code_fingerprint()
    finally:
        reaper.sweep_orphans()


def _watch(worker: Any, key: Any, processes: reaper.JobProcesses, finished: threading.Event) -> None:
    """Stop the job's engines once its task isn't executing any more: the scheduler cancels
    a running task when its run cancels it or its client goes away (Ctrl-C, kill -9)."""
    while not finished.wait(WATCH_INTERVAL):
        task = worker.state.tasks.get(key)
        if task is None or task.state not in ("executing", "long-running"):
            processes.stop()
            return


def total_threads(client: Any) -> int:
    """The number of task threads on the cluster's workers now (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def run_on_workers(client: Any, function: Callable, *args: Any) -> dict[str, Any]:
    """{worker name: function(*args)} from every worker (RingmasterError if there are none)."""
    results = client.run(_named, function, *args)
    if not results:
        raise ClusterUnavailable("the Dask cluster has no workers")
    return {f"{host} {address}": value for address, (host, value) in results.items()}


def _named(function: Callable, *args: Any) -> tuple[str, Any]:
    return socket.gethostname(), function(*args)


class ClusterLoop(JobLoop):
    """The job loop on a Dask cluster: what is in flight, and on which worker."""

    def __init__(self, client: Any, source: JobSource, play: PlayFunction, parallel: int,
                 note: Callable[[str], None], poll_interval: float = 0.5) -> None:
        super().__init__(source, parallel)
        self.client = client
        self.play = play
        self.note = note
        self.poll_interval = poll_interval
        self.playing_on: dict[str, str] = {}  # future key -> worker address
        self.workers: set[str] = set(client.scheduler_info().get("workers", {}))
        self.unreachable_since: float | None = None
        # Workers whose code matches ours: those there at the start were checked by connect(),
        # any that joins since on the next poll.
        self.checked: set[str] = set(self.workers)
        self.refused: ClusterUnavailable | None = None   # a result came from other code

    def submit(self, job: Any) -> Any:
        # A unique key and pure=False: Dask would otherwise hand back the cached result
        # of an earlier task with the same arguments instead of playing the game.
        key = f"ringmaster-{job.game_id}-{uuid.uuid4().hex}"
        return self.client.submit(_cluster_task, self.play, job, key=key, pure=False, retries=0)

    def wait(self) -> list[Any]:
        from distributed import wait as dask_wait
        try:
            dask_wait(list(self.in_flight), timeout=self.poll_interval, return_when="FIRST_COMPLETED")
        except TimeoutError:
            pass
        except Exception:  # FuturesCancelledError: the scheduler dropped our tasks
            if any(f.status == "cancelled" for f in self.in_flight) or \
                    self.client.status != "running":
                raise ClusterLost(self._lost_message()) from None
            raise
        return [f for f in self.in_flight if f.done()]

    def deliver(self, handle: Any, job: Job) -> None:
        future = handle
        where = self.playing_on.pop(future.key, None)
        try:
            self._deliver(future, job, where)
        finally:
            # Released once delivered: Dask would otherwise play a game again whose
            # result was on a worker lost since (the coordinator holding its future).
            future.release()

    def _deliver(self, future: Any, job: Job, where: str | None = None) -> None:
        """Hand the job's outcome to the source; where: the worker's address, if seen playing it.
        A worker out of resources outside the game (memory, threads, file descriptors) makes
        a void game naming it; a bug, an InternalError; the run's error (a full disk) is raised."""
        from distributed import KilledWorker
        if future.status == "finished":
            result = future.result()
            if not (isinstance(result, tuple) and len(result) == 3 and result[2] == code_fingerprint()):
                # Played by other code (one older than this check returns 2 items): not taken,
                # so it is played again when the run resumes; the run stops once every
                # other finished game is delivered (between).
                if self.refused is None:
                    where = result[1] if isinstance(result, tuple) and len(result) > 1 else "?"
                    theirs = result[2] if isinstance(result, tuple) and len(result) > 2 else "none"
                    self.refused = other_code(where, theirs, joined=True)
                return
            outcome, where, _ = result
            self.source.note_host(job, where)
            deliver(self.source, job, outcome)
            return
        if future.status == "cancelled":
            raise ClusterLost(self._lost_message())
        exc = future.exception()
        trouble = resource_trouble(exc)
        if trouble is not None:   # the worker's, not the run's nor a bug: as a lost worker's
            self.source.process_error_response(job, worker_trouble(where or "(unknown)", trouble))
            return
        if isinstance(exc, (RingmasterError, OSError)):   # the run's error (a full disk), not the game's
            raise exc
        if not isinstance(exc, KilledWorker):   # a bug outside the game (in the game: a Crash)
            raise crashed(job, f"{type(exc).__name__}: {one_line(str(exc))[:300]}",
                          "".join(traceback.format_exception(type(exc), exc, future.traceback())))
        self.source.process_error_response(job, f"lost with its worker several times (Dask's "
                                                f"KilledWorker: {one_line(str(exc))[:200]})")

    def between(self) -> None:
        """Raises ClusterUnavailable once a result came from other code (every other finished
        game delivered first); watches the workers."""
        if self.refused is not None:
            raise self.refused
        self.watch(time.monotonic())

    def watch(self, now: float) -> None:
        """Note workers lost with our games (Dask plays them again elsewhere); stop if the scheduler is gone.

        Raises ClusterLost if the scheduler has been out of reach for LOST_SCHEDULER_GRACE seconds.
        """
        try:
            if self.client.status != "running":
                raise OSError("not connected")
            processing = self.client.sync(self.client.scheduler.processing, callback_timeout=5)
            workers = set(self.client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001 (a dropped connection shows up in many forms)
            if self.client.status in ("closed", "closing", "failed"):
                raise ClusterLost(self._lost_message()) from None
            if self.unreachable_since is None:
                self.unreachable_since = now
            elif now - self.unreachable_since > LOST_SCHEDULER_GRACE:
                raise ClusterLost(self._lost_message()) from None
            return
        self.unreachable_since = None
        self.checked &= workers   # one that comes back at the same address is checked again
        self.check_joined(workers)
        ours = {f.key: job for f, job in self.in_flight.items()}
        for worker in self.workers - workers:
            lost = [ours[k] for k, w in self.playing_on.items() if w == worker and k in ours]
            games = " ".join(j.game_id for j in lost) or "none of ours"
            self.note(f"lost Dask worker {worker} (games in progress there: {games}); "
                      "Dask plays them again on another worker, under the same ids")
        self.workers = workers
        for worker, keys in processing.items():
            for key in keys:
                if key in ours:
                    self.playing_on[key] = worker

    def check_joined(self, workers: set[str]) -> None:
        """Check the code of those of workers not checked yet and still there, so that a run
        stops as soon as one with other code joins (every result carries the digest of the
        code that played it too: _deliver takes none from other code).

        Raises ClusterUnavailable (the run stops, its results saved) if one differs.
        """
        for worker in sorted(workers - self.checked):
            try:
                require_same_code(self.client, [worker], joined=True)
            except ClusterUnavailable:
                if worker in self.client.scheduler_info().get("workers", {}):
                    raise
                continue   # it left while being checked: nothing of its is taken unchecked
            self.checked.add(worker)

    def _lost_message(self) -> str:
        return ("lost the Dask scheduler; the results so far are saved, and games in progress "
                "will be replayed when the run is resumed")

    def cancel_all(self) -> None:
        try:
            self.client.cancel(list(self.in_flight), force=True)
        except Exception:  # noqa: BLE001 (the scheduler may be gone already)
            pass


def run_jobs_on_cluster(source: JobSource, play: PlayFunction, parallel: int | None,
                        client: Any, poll_interval: float = 0.5,
                        note: Callable[[str], None] | None = None) -> None:
    """Run jobs from source on a Dask cluster, up to parallel at once, like local.run_jobs().

    parallel None: as many as the cluster has task threads. Each job's
    result is delivered once, whichever worker played it; a job whose
    worker dies is played again by Dask (KilledWorker after the scheduler's
    allowed failures, 3 by default, is an error response). note() receives
    the lost workers. A job that raises a bug (not JobFailed) is an
    InternalError with its worker's traceback, raised once the other finished
    jobs are delivered. Raises ClusterLost if the scheduler goes away; on
    that, on KeyboardInterrupt and on any other error the jobs in flight are
    cancelled.
    """

    if note is None:
        def note(message: str) -> None:
            print(message, file=sys.stderr)
    if parallel is None:
        parallel = total_threads(client)
    loop = ClusterLoop(client, source, play, parallel, note, poll_interval)
    try:
        with client.as_current():
            loop.run()
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            source.interrupted()
        loop.cancel_all()
        raise
