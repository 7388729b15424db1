"""Pure rules for search: UCT and PUCT edge scores, root noise, outcome sampling and the final choice."""

from __future__ import annotations

import math

import numpy as np


def uct_score(q: np.ndarray, visits: np.ndarray, parent_visits: float,
              priors: np.ndarray, *, c: float = 1.4) -> np.ndarray:
    """UCT: w + c * sqrt(ln N / n), with w = (q + 1) / 2 the winning rate in [0, 1].

    q is each edge's mean value in [-1, 1] for the player choosing, visits its
    n, parent_visits N. Unvisited edges score +inf, so each is tried once
    before any is tried twice. priors are ignored.
    """
    visits = np.asarray(visits, dtype=np.float64)
    log_n = math.log(max(parent_visits, 1.0))
    scores = (np.asarray(q) + 1.0) * 0.5 + c * np.sqrt(log_n / np.maximum(visits, 1e-300))
    scores[visits <= 0] = np.inf
    return scores


def puct_score(q: np.ndarray, visits: np.ndarray, parent_visits: float,
               priors: np.ndarray, *, c_puct: float = 1.5,
               fpu: float = 0.0) -> np.ndarray:
    """PUCT (AlphaZero): q + c_puct * prior * sqrt(N) / (1 + n); unvisited edges take q = fpu."""
    visits = np.asarray(visits, dtype=np.float64)
    q = np.where(visits > 0, q, fpu)
    return q + c_puct * np.asarray(priors) * np.sqrt(parent_visits) / (1.0 + visits)


def select_edge(scores: np.ndarray) -> int:
    """The index of the highest score; the first one on ties."""
    return int(np.argmax(scores))


def add_dirichlet_noise(priors: np.ndarray, alpha: float, epsilon: float,
                        rng: np.random.Generator) -> np.ndarray:
    """Mix Dirichlet(alpha) noise into priors: (1 - epsilon) * p + epsilon * noise."""
    noise = rng.dirichlet(np.full(len(priors), alpha))
    return (1.0 - epsilon) * np.asarray(priors) + epsilon * noise


def sample_outcome(probs: np.ndarray, rng: np.random.Generator) -> int:
    """The index of an outcome drawn with the given probabilities."""
    cumulative = np.cumsum(probs)
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return min(index, len(probs) - 1)


def visit_policy(visit_counts: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Visit counts as a distribution, sharpened by 1 / temperature; temperature 0 is argmax.

    Raises ValueError if there are no visits.
    """
    counts = np.asarray(visit_counts, dtype=np.float64)
    if counts.sum() <= 0:
        raise ValueError("no visits")
    if temperature == 0:
        policy = (counts == counts.max()).astype(np.float64)
    else:
        policy = (counts / counts.max()) ** (1.0 / temperature)
    return policy / policy.sum()


def best_by_visits(visits: np.ndarray, q: np.ndarray) -> int:
    """The most visited edge, ties broken by mean value."""
    visits = np.asarray(visits)
    top = np.flatnonzero(visits == visits.max())
    return int(top[np.argmax(np.asarray(q)[top])])


def best_by_value(visits: np.ndarray, q: np.ndarray, min_share: float = 0.1) -> int:
    """The edge with the best mean value among those with at least min_share of the top visits."""
    visits = np.asarray(visits, dtype=np.float64)
    eligible = visits >= max(1.0, min_share * visits.max())
    if not eligible.any():
        return best_by_visits(visits, q)
    scores = np.where(eligible, q, -np.inf)
    return int(np.argmax(scores))
