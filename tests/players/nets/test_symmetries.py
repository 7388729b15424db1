"""The board's 8 symmetries on planes and policies."""

from __future__ import annotations

import numpy as np

from players.nets.symmetries import (
    NUM_SYMMETRIES,
    inverse_symmetry,
    policy_permutation,
    transform_planes,
)


def test_symmetries_are_distinct_and_invertible():
    grid = np.arange(36).reshape(6, 6)
    images = {transform_planes(grid, s).tobytes() for s in range(NUM_SYMMETRIES)}
    assert len(images) == 8
    for s in range(NUM_SYMMETRIES):
        back = transform_planes(transform_planes(grid, s), inverse_symmetry(s))
        assert np.array_equal(back, grid)
        perm = policy_permutation(6, s)
        assert sorted(perm.tolist()) == list(range(37)) and perm[-1] == 36
