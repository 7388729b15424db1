"""Spreading a batch of simulations across moves: the divisor, remainder and biased methods."""

from __future__ import annotations

import numpy as np


def _chunk(remaining: int, divisor: int, rng: np.random.Generator) -> int:
    """A random share of remaining: ceil(uniform(1..remaining) / divisor), at least 1."""
    return -(-int(rng.integers(1, remaining + 1)) // divisor)


def _normalised(weights: np.ndarray) -> np.ndarray:
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 1 or len(weights) == 0 or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError("weights must be non-negative with a positive sum")
    return weights / weights.sum()


def divisor_method(num_samples: int, num_options: int, divisor: int,
                   rng: np.random.Generator, weights: np.ndarray | None = None) -> np.ndarray:
    """Hand out num_samples in random chunks, each to a random option.

    Each chunk is ceil(uniform(1..remaining) / divisor): a small divisor gives
    a few large, clustered chunks, a large one many small chunks (divisor =
    num_samples is one random draw per sample). Options are chosen uniformly,
    or in proportion to weights (the biased method). Returns the count per
    option, summing to num_samples.

    Raises ValueError for a divisor below 1 or no options.
    """
    if divisor < 1 or num_options < 1 or num_samples < 0:
        raise ValueError("need divisor >= 1, num_options >= 1, num_samples >= 0")
    probs = None if weights is None else _normalised(weights)
    if probs is not None and len(probs) != num_options:
        raise ValueError("weights must have num_options entries")
    counts = np.zeros(num_options, dtype=np.int64)
    remaining = num_samples
    while remaining > 0:
        chunk = _chunk(remaining, divisor, rng)
        option = (int(rng.integers(num_options)) if probs is None
                  else int(rng.choice(num_options, p=probs)))
        counts[option] += chunk
        remaining -= chunk
    return counts


def remainder_method(num_samples: int, num_options: int, divisor: int,
                     rng: np.random.Generator, weights: np.ndarray | None = None) -> np.ndarray:
    """Share num_samples evenly (or in proportion to weights), then the remainder by divisor_method.

    Returns the count per option, summing to num_samples.
    """
    if num_options < 1:
        raise ValueError("need num_options >= 1")
    if weights is None:
        counts = np.full(num_options, num_samples // num_options, dtype=np.int64)
    else:
        probs = _normalised(weights)
        if len(probs) != num_options:
            raise ValueError("weights must have num_options entries")
        counts = np.floor(num_samples * probs).astype(np.int64)
    remainder = num_samples - int(counts.sum())
    return counts + divisor_method(remainder, num_options, divisor, rng, weights)


METHODS = {"divisor": divisor_method, "remainder": remainder_method}


def allocate(method: str, num_samples: int, num_options: int, *, divisor: int,
             rng: np.random.Generator, weights: np.ndarray | None = None) -> np.ndarray:
    """Run the allocation method named 'divisor' or 'remainder' (biased when weights are given).

    Raises ValueError for an unknown method.
    """
    try:
        function = METHODS[method]
    except KeyError:
        raise ValueError(f"unknown allocation method {method!r}") from None
    return function(num_samples, num_options, divisor, rng, weights)


def allocation_fn(method: str, divisor: int, biased: bool):
    """A root_allocation_fn for search(): fn(num_samples, weights, rng) -> counts.

    Unbiased methods ignore the weights (uniform over the root's moves).
    Raises ValueError for an unknown method.
    """
    if method not in METHODS:
        raise ValueError(f"unknown allocation method {method!r}")

    def allocate_batch(num_samples: int, weights: np.ndarray,
                       rng: np.random.Generator) -> np.ndarray:
        return allocate(method, num_samples, len(weights), divisor=divisor, rng=rng,
                        weights=weights if biased else None)

    return allocate_batch
