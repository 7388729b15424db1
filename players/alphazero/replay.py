"""Replay buffer: a window of recent examples, one npz shard per iteration, symmetry-augmented samples."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import numpy as np

from players.alphazero.selfplay import Examples
from players.errors import RunDirError
from players.nets.symmetries import NUM_SYMMETRIES, policy_permutation, transform_planes


class ReplayBuffer:
    """The newest max_positions examples, kept as whole shards (one per self-play iteration)."""

    def __init__(self, max_positions: int) -> None:
        self.max_positions = max_positions
        self.shards: list[tuple[int, Examples]] = []  # (iteration, examples), oldest first
        self.missing: list[tuple[Path, int | None]] = []  # shards load() didn't find, oldest first

    def __len__(self) -> int:
        return sum(len(ex) for _, ex in self.shards)

    def add(self, iteration: int, examples: Examples) -> None:
        self.shards.append((iteration, examples))
        while len(self.shards) > 1 and len(self) - len(self.shards[0][1]) >= self.max_positions:
            self.shards.pop(0)

    def arrays(self) -> Examples:
        return Examples.concat([ex for _, ex in self.shards])

    def sampler(self, rng: np.random.Generator) -> Sampler:
        return Sampler(self.arrays(), rng)

    # -- disk ----------------------------------------------------------------------

    @staticmethod
    def save_shard(directory: Path, iteration: int, examples: Examples) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"iter_{iteration:05d}.npz"
        tmp = directory / f"iter_{iteration:05d}.tmp.npz"
        np.savez_compressed(tmp, planes=examples.planes, policies=examples.policies,
                            values=examples.values)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, directory: Path, max_positions: int, up_to_iteration: int,
             sizes: dict[int, int] | None = None) -> ReplayBuffer:
        """Rebuild the window from the shards of iterations <= up_to_iteration.

        Every iteration from 1 on saved a shard. One that is missing is
        skipped and listed in the buffer's `missing` as (path, its positions
        as sizes gives them, or None); it still counts, by that size, towards
        the window, so that the window spans the iterations it would have.
        Raises RunDirError, naming the file, for a shard that is corrupt.
        """
        buffer = cls(max_positions)
        sizes = sizes or {}
        chosen: list[tuple[int, Examples]] = []
        total = 0
        for iteration in range(up_to_iteration, 0, -1):
            if total >= max_positions:
                break
            path = directory / f"iter_{iteration:05d}.npz"
            if not path.exists():
                buffer.missing.insert(0, (path, sizes.get(iteration)))
                total += sizes.get(iteration, 0)
                continue
            examples = _read_shard(path)
            total += len(examples)
            chosen.append((iteration, examples))
        for iteration, examples in reversed(chosen):
            buffer.add(iteration, examples)
        return buffer


def _read_shard(path: Path) -> Examples:
    """A shard's examples. Raises RunDirError, naming it, if it is corrupt or truncated."""
    try:
        with np.load(path) as data:
            return Examples(data["planes"], data["policies"], data["values"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        raise RunDirError(f"{path}: a corrupt replay shard; delete it to resume without its "
                          "positions") from None


class Sampler:
    """Uniform minibatches with a random board symmetry per example."""

    def __init__(self, examples: Examples, rng: np.random.Generator) -> None:
        self.examples = examples
        self.rng = rng
        size = examples.planes.shape[-1]
        self.perms = np.stack([policy_permutation(size, s) for s in range(NUM_SYMMETRIES)])

    def sample(self, batch_size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(planes float32 [B, C, H, W], policies [B, A], values [B])."""
        idx = self.rng.integers(0, len(self.examples), size=batch_size)
        syms = self.rng.integers(0, NUM_SYMMETRIES, size=batch_size)
        planes = self.examples.planes[idx].astype(np.float32)
        policies = self.examples.policies[idx]
        out_planes = np.empty_like(planes)
        out_policies = np.empty_like(policies)
        for s in range(NUM_SYMMETRIES):
            sel = syms == s
            if sel.any():
                out_planes[sel] = transform_planes(planes[sel], s)
                out_policies[sel] = policies[sel][:, self.perms[s]]
        return out_planes, out_policies, self.examples.values[idx].astype(np.float32)
