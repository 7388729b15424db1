"""atomic_add: two threads adding to the same elements lose nothing."""

import threading

import numpy as np
import pytest
from numba import njit

from players.engines.go_uct.atomics import atomic_add


@njit(nogil=True)
def _add_many(array, times, value):
    for i in range(times):
        atomic_add(array, i % array.shape[0], value)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_two_threads_lose_no_update(dtype):
    array = np.zeros(3, dtype)
    _add_many(array, 3, 1)           # compile before the threads start
    array[:] = 0
    times = 300_000                  # a multiple of 3, and below float32's exact integers
    threads = [threading.Thread(target=_add_many, args=(array, times, 1)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert array.tolist() == [2 * times // 3] * 3


def test_a_negative_value_subtracts():
    array = np.array([5.0, 1.5])
    _add_many(array, 2, -0.5)
    assert array.tolist() == [4.5, 1.0]
