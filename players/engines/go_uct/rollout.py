"""Rollout evaluation of Go positions for the search: numba playouts, optionally on several threads."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from players.engines.go_uct import patterns, playout
from players.engines.go_uct.rng import new_rng_state
from players.games import go_board
from players.games.go import GoGame, GoState


class GoRolloutEvaluator:
    """An evaluator for the search core: a leaf is valued by the mean result of random playouts.

    Priors are uniform over the moves that neither self-capture nor fill the
    mover's own eye (and pass), so the tree never grows those branches.
    playouts_per_leaf > 1 is leaf parallelism when threads > 1: a leaf's
    playouts are shared among the threads. A batch of several leaves (tree
    parallelism) is shared among the threads one leaf at a time. The numba
    playouts release the GIL, so threads run them truly in parallel.

    Public attributes:
      game, heavy, playouts_per_leaf, threads
    """

    def __init__(self, game: GoGame, *, heavy: bool = True, playouts_per_leaf: int = 1,
                 threads: int = 1, seed: int = 0) -> None:
        if playouts_per_leaf < 1 or threads < 1:
            raise ValueError("playouts_per_leaf and threads must be at least 1")
        self.game = game
        self.heavy = heavy
        self.playouts_per_leaf = playouts_per_leaf
        self.threads = threads
        self.patterns = patterns.default_table()
        self.max_moves = 3 * game.size * game.size
        self._rngs = [new_rng_state(seed * 1009 + i) for i in range(threads)]
        self._pool = ThreadPoolExecutor(threads) if threads > 1 else None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    def prior(self, state: GoState) -> np.ndarray:
        """Uniform over sensible moves and pass [num_actions]; zero elsewhere."""
        mask = go_board.sensible_mask(state.board, self.game.size, state.colour, state.ko)
        return mask / mask.sum()

    def black_total(self, state: GoState, count: int, worker: int = 0) -> int:
        """Sum of count playout results for Black (+1 win, -1 loss, 0 jigo)."""
        return playout.playout_many(
            state.board, self.game.size, state.colour, state.ko, state.last, state.passes,
            self.max_moves, self.heavy, self.patterns, self._rngs[worker], count,
            self.game.komi)

    def __call__(self, states: Sequence[GoState]) -> tuple[np.ndarray, np.ndarray]:
        """Priors [B, num_actions] and values [B] for each state's player to move."""
        totals = self._totals(states)
        priors = np.stack([self.prior(state) for state in states])
        signs = np.array([1.0 if s.colour == go_board.BLACK else -1.0 for s in states])
        return priors, signs * np.asarray(totals, dtype=np.float64) / self.playouts_per_leaf

    def _totals(self, states: Sequence[GoState]) -> list[int]:
        k = self.playouts_per_leaf
        if self._pool is None:
            return [self.black_total(s, k) for s in states]
        if len(states) == 1:
            shares = [k // self.threads + (i < k % self.threads) for i in range(self.threads)]
            futures = [self._pool.submit(self.black_total, states[0], share, i)
                       for i, share in enumerate(shares) if share]
            return [sum(f.result() for f in futures)]
        groups = [list(range(i, len(states), self.threads)) for i in range(self.threads)]
        futures = [self._pool.submit(self._run_group, states, group, i)
                   for i, group in enumerate(groups) if group]
        totals = [0] * len(states)
        for future in futures:
            for index, total in future.result():
                totals[index] = total
        return totals

    def _run_group(self, states, indices, worker):
        return [(i, self.black_total(states[i], self.playouts_per_leaf, worker))
                for i in indices]
