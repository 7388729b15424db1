"""Root parallelism: independent searches in worker processes, merged at the root.

The workers never outlive the engine: SIGTERM to the engine stops them before it
exits, and each dies with its parent however the parent dies (SIGKILL too).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from players.mcts.policies import FINAL_CHOICES, SearchResult


def merge_results(results: Sequence[SearchResult], final_choice: str = "visits") -> SearchResult:
    """Merge independent searches of one position: visits add, values average by visits.

    Raises ValueError if there is nothing to merge.
    """
    if not results:
        raise ValueError("no results to merge")
    visits = np.sum([r.visit_counts for r in results], axis=0)
    weighted = np.sum([r.visit_counts * r.q_values for r in results], axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(visits > 0, weighted / visits, 0.0)
    simulations = sum(r.simulations for r in results)
    root_value = sum(r.root_value * r.simulations for r in results) / max(simulations, 1)
    if visits.sum() == 0:
        best = results[0].best_action
    else:
        best = FINAL_CHOICES[final_choice](visits, q)
    return SearchResult(visits, q, float(root_value), int(best), simulations)


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal this process gets when its parent dies."""

PARENT_POLL = 0.5
"""Seconds between two looks at the parent, where prctl is not to be had."""


class RootParallel:
    """A pool of worker processes, each set up once by initializer(*initargs).

    run() calls job_fn(*args) for each args in the pool and returns the
    results in order; job_fn must be a module-level function returning a
    picklable value (such as a SearchResult).

    The workers die with this process: each asks the kernel for SIGKILL when
    its parent dies (prctl(PR_SET_PDEATHSIG); elsewhere a thread watches
    os.getppid()), and while a pool is open a SIGTERM left at its default
    stops every pool's workers before the process ends as SIGTERM ends it.
    Pools are to be made and run from one thread that lives as long as they
    do (the main thread): Linux sends the parent-death signal when the thread
    that started a worker ends.
    """

    def __init__(self, workers: int, initializer: Callable, initargs: tuple = ()) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        self._running = False
        self._pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(os.getpid(), initializer, initargs))
        _POOLS.add(self)
        _stop_workers_on_sigterm()

    def run(self, job_fn: Callable, jobs: Sequence[tuple]) -> list[Any]:
        self._running = True
        try:
            futures = [self._pool.submit(job_fn, *args) for args in jobs]
            return [f.result() for f in futures]
        finally:
            self._running = False

    def close(self) -> None:
        """Shut the pool down: idle workers finish cleanly; workers still searching (close
        called while run() waits, from a signal handler or an exception) are stopped."""
        if self._running:
            self.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
        _POOLS.discard(self)

    def terminate(self) -> None:
        """Stop every worker now, whatever it is doing (SIGTERM); the pool is then broken."""
        processes = getattr(self._pool, "_processes", None) or {}
        for process in list(processes.values()):
            if process.is_alive():
                process.terminate()


_POOLS: weakref.WeakSet[RootParallel] = weakref.WeakSet()
"""The open pools, whose workers a SIGTERM stops."""


def _stop_workers_on_sigterm() -> None:
    """While SIGTERM has its default action (it ends the process at once, with no cleanup),
    have it stop the pools' workers first; called from the main thread only. A handler
    of the engine's own (or SIG_IGN) is left as it is."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)


def _on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM: stop every pool's workers, then end as SIGTERM's default action would."""
    for pool in list(_POOLS):
        pool.terminate()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _start_worker(parent: int, initializer: Callable, initargs: tuple) -> None:
    """A worker's start: die with the parent, then set up as the pool's owner asked."""
    _die_with_parent(parent)
    initializer(*initargs)


def _die_with_parent(parent: int) -> None:
    """Have this process killed when parent (its parent now) dies, however it dies."""
    if _parent_death_signal(signal.SIGKILL):
        if os.getppid() != parent:       # the parent died before the kernel was asked
            os._exit(1)
        return
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent",
                     daemon=True).start()


def _parent_death_signal(signum: int) -> bool:
    """Ask Linux to send signum when the parent dies; False where that can't be had."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """Poll os.getppid(): once the parent is gone (the worker re-parented), end at once."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)
