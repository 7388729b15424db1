"""The board's 8 symmetries on input planes [..., H, W] and policies [..., A] (pass stays put)."""

from __future__ import annotations

import numpy as np

NUM_SYMMETRIES = 8


def transform_planes(planes: np.ndarray, sym: int) -> np.ndarray:
    """Apply symmetry sym (0 = identity) to the last two axes of [..., H, W]."""
    out = np.rot90(planes, k=sym % 4, axes=(-2, -1))
    if sym >= 4:
        out = np.swapaxes(out, -2, -1)
    return out


def policy_permutation(size: int, sym: int) -> np.ndarray:
    """Index array perm [A] with transformed_policy = policy[..., perm] (pass fixed)."""
    grid = np.arange(size * size).reshape(size, size)
    return np.concatenate([transform_planes(grid, sym).ravel(), [size * size]])


def inverse_symmetry(sym: int) -> int:
    """The symmetry that undoes sym."""
    return {1: 3, 3: 1}.get(sym, sym)


def transform_example(planes: np.ndarray, policy: np.ndarray,
                      sym: int) -> tuple[np.ndarray, np.ndarray]:
    """Planes [C, H, W] (or [B, C, H, W]) and policy [A] (or [B, A]) under symmetry sym."""
    size = planes.shape[-1]
    return (np.ascontiguousarray(transform_planes(planes, sym)),
            policy[..., policy_permutation(size, sym)])
