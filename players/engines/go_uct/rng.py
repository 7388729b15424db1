"""The playouts' and the search's random numbers: xorshift64*, its state a one-element array."""

from __future__ import annotations

import numpy as np
from numba import njit

from players.engines.go_uct.kernels import KERNEL

_MUL = np.uint64(2685821657736338717)


@njit(**KERNEL)
def rand_below(rng, k):
    """A pseudo-random integer in [0, k) from the xorshift64* state rng[0]."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return np.int64((x * _MUL) >> np.uint64(33)) % k


def new_rng_state(seed: int) -> np.ndarray:
    """A non-zero xorshift64* state for rand_below, from any integer seed."""
    value = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([value or 1], dtype=np.uint64)
