"""Exact Pig values by value iteration: a policy against Hold-N, the best response, the optimal policy.

For checking engines and reports, never for playing: the Pig engines are
MCTS. Positions are (i, j, k): the mover's banked score i, the other's j,
the mover's turn total k. A policy is a bool array roll[i, j, k] (True:
roll). A position where holding reaches the target counts as won (every
policy here holds there); the turn limit is ignored (it almost never
matters at target 50).
"""

from __future__ import annotations

import numpy as np

from players.games.pig import ThresholdPolicy


def hold_at_policy_array(target: int, hold_at: int) -> np.ndarray:
    """roll[i, j, k] of 'hold at hold_at' (hold when k >= hold_at or when holding wins; roll at k = 0)."""
    k = np.arange(target)[None, None, :]
    roll = np.broadcast_to(k < hold_at, (target, target, target)).copy()
    roll[:, :, 0] = True
    return roll


def threshold_policy_array(target: int, policy: ThresholdPolicy) -> np.ndarray:
    """roll[i, j, k] of a threshold policy (Hold20, keep pace and end race...)."""
    roll = np.zeros((target, target, target), dtype=bool)
    for i in range(target):
        for j in range(target):
            for k in range(target):
                roll[i, j, k] = policy.rolls(i, j, k, target)
    return roll


def _turn_values(target: int, my_turn_start: np.ndarray, their_turn_start: np.ndarray,
                 roll: np.ndarray | None) -> np.ndarray:
    """Values of every (i, j, k) with the mover's turn in progress, given the values at turn starts.

    my_turn_start[i, j]: the mover's win probability at (i, j, 0);
    their_turn_start[i, j]: the mover's win probability when the other
    player starts a turn with the mover on i and the other on j. roll None
    means the mover chooses the better of roll and hold at each k.
    Returns value[i, j, k] for k < target (the mover's win probability).
    """
    n = target
    value = np.zeros((n, n, n + 6))
    i = np.arange(n)[:, None]
    # Banked + turn total reaching the target: holding wins.
    for k in range(n + 5, -1, -1):
        won = i + k >= n
        if k >= n:
            value[:, :, k] = 1.0
            continue
        hold_i = np.minimum(i + k, n - 1)
        hold = np.where(won, 1.0, their_turn_start[hold_i, np.arange(n)[None, :]])
        if k == 0:
            hold = np.full((n, n), -np.inf)
        rolled = their_turn_start[:, :] / 6.0 + sum(value[:, :, k + d] for d in range(2, 7)) / 6.0
        rolled = np.where(won, 1.0, rolled)
        if roll is None:
            value[:, :, k] = np.maximum(hold, rolled)
        else:
            value[:, :, k] = np.where(roll[:, :, k] | (k == 0), rolled, hold)
    return value[:, :, :n]


def evaluate(target: int, mine: np.ndarray | None, theirs: np.ndarray | None,
             tolerance: float = 1e-12, max_sweeps: int = 10000) -> tuple[np.ndarray, np.ndarray]:
    """Win probabilities of a player using `mine` against one using `theirs` (None: maximise).

    With mine None the player plays the best response to theirs; with both
    None both play optimally. Returns (A, B): A[i, j, k] the player's win
    probability with the player to move (scores i, j, turn total k);
    B[i, j, k] the player's win probability with the other to move, the
    other's score j and turn total k, the player's score i.
    """
    n = target
    start_a = np.full((n, n), 0.5)   # player to move at (i, j, 0)
    start_b = np.full((n, n), 0.5)   # other to move at (i, j, 0): the player's win probability
    for _ in range(max_sweeps):
        # The player's turn: after the turn the other starts with (player i', other j).
        a = _turn_values(n, start_a, start_b, mine)
        # The other's turn from its own point of view: it starts its turn at (j, i) and wins 1 - B.
        if theirs is None and mine is None:
            other = a
        else:
            other = _turn_values(n, 1.0 - start_b.T, 1.0 - start_a.T, theirs)
        new_a = a[:, :, 0]
        new_b = 1.0 - other[:, :, 0].T
        change = max(np.abs(new_a - start_a).max(), np.abs(new_b - start_b).max())
        start_a, start_b = new_a, new_b
        if change < tolerance:
            break
    b = 1.0 - other.transpose(1, 0, 2)
    return a, b


def win_rates(target: int, mine: np.ndarray | None, theirs: np.ndarray | None) -> tuple[float, float]:
    """(first, second): the player's win probability moving first and moving second from 0-0."""
    a, b = evaluate(target, mine, theirs)
    return float(a[0, 0, 0]), float(b[0, 0, 0])


def optimal_policy(target: int) -> np.ndarray:
    """roll[i, j, k] of the optimal policy (both players maximise)."""
    a, _ = evaluate(target, None, None)
    return greedy_policy(target, a[:, :, 0], 1.0 - a[:, :, 0].T)


def greedy_policy(target: int, my_turn_start: np.ndarray, their_turn_start: np.ndarray) -> np.ndarray:
    """roll[i, j, k]: roll where rolling is at least as good as holding, given the turn-start values."""
    n = target
    values = _turn_values(n, my_turn_start, their_turn_start, None)
    roll = np.zeros((n, n, n), dtype=bool)
    i = np.arange(n)[:, None]
    padded = np.concatenate([values, np.ones((n, n, 6))], axis=2)
    for k in range(n):
        rolled = their_turn_start / 6.0 + sum(padded[:, :, k + d] for d in range(2, 7)) / 6.0
        hold_i = np.minimum(i + k, n - 1)
        hold = np.where(i + k >= n, 1.0, their_turn_start[hold_i, np.arange(n)[None, :]])
        roll[:, :, k] = (rolled > hold) | (k == 0)
        roll[:, :, k] &= ~(i + k >= n) | (k == 0)
    return roll
