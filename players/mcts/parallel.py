"""Root parallelism: independent searches in worker processes, merged at the root."""

from __future__ import annotations

import multiprocessing
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


class RootParallel:
    """A pool of worker processes, each set up once by initializer(*initargs).

    run() calls job_fn(*args) for each args in the pool and returns the
    results in order; job_fn must be a module-level function returning a
    picklable value (such as a SearchResult).
    """

    def __init__(self, workers: int, initializer: Callable, initargs: tuple = ()) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=initializer, initargs=initargs)

    def run(self, job_fn: Callable, jobs: Sequence[tuple]) -> list[Any]:
        futures = [self._pool.submit(job_fn, *args) for args in jobs]
        return [f.result() for f in futures]

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
