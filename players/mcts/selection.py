"""Selection rules: pure functions from a decision node's statistics to the edge to descend.

A rule is called as rule(node) -> edge index; configure one with
functools.partial, e.g. partial(puct, c_puct=1.5). Values are in [-1, 1]
for the node's player to move. Each rule has a *_scores twin returning the
scores of every edge as an array. The rules loop in plain Python over
nodes with fewer than VECTOR_EDGES edges, where that beats numpy's per-call
cost several times over, and score wider nodes, whose statistics are numpy
arrays (players.mcts.tree), in numpy without copying them.
"""

from __future__ import annotations

import math

import numpy as np

from players.mcts.tree import VECTOR_EDGES, Node


def puct(node: Node, *, c_puct: float = 1.5, fpu_reduction: float = 0.0) -> int:
    """AlphaZero's rule: argmax of Q + c_puct * P * sqrt(N) / (1 + n), the first edge on ties.

    Q is the edge's mean value; an unvisited edge takes the node's evaluated
    value minus fpu_reduction (first-play urgency). N is the node's total
    visits, at least 1, so that the priors decide the first descent.
    """
    N, W, P = node.N, node.W, node.prior
    if len(N) >= VECTOR_EDGES:
        return int(np.argmax(puct_scores(node, c_puct=c_puct, fpu_reduction=fpu_reduction)))
    coef = c_puct * math.sqrt(node.total if node.total > 1.0 else 1.0)
    fpu = node.value - fpu_reduction
    best, best_i = -math.inf, 0
    for i in range(len(N)):
        n = N[i]
        score = (W[i] / n if n > 0 else fpu) + coef * P[i] / (1.0 + n)
        if score > best:
            best, best_i = score, i
    return best_i


def puct_scores(node: Node, *, c_puct: float = 1.5, fpu_reduction: float = 0.0) -> np.ndarray:
    """The score puct() maximises, for every edge."""
    n = np.asarray(node.N, dtype=np.float64)
    q = np.where(n > 0, np.asarray(node.W, dtype=np.float64) / np.maximum(n, 1e-300),
                 node.value - fpu_reduction)
    explore = np.asarray(node.prior, dtype=np.float64) * (
        c_puct * math.sqrt(max(node.total, 1.0)))
    explore /= 1.0 + n
    q += explore
    return q


def uct(node: Node, *, c: float = 1.4) -> int:
    """UCB1: argmax of w + c * sqrt(ln N / n) with w = (q + 1) / 2, the first edge on ties.

    An unvisited edge comes before any visited one (the first in edge order),
    so every edge is tried once before any is tried twice. Priors are ignored.
    """
    N, W = node.N, node.W
    if len(N) >= VECTOR_EDGES:
        return _uct_wide(node, c)
    log_n = math.log(node.total) if node.total > 1.0 else 0.0
    best, best_i = -math.inf, 0
    for i in range(len(N)):
        n = N[i]
        if n <= 0:
            return i
        score = (W[i] / n + 1.0) * 0.5 + c * math.sqrt(log_n / n)
        if score > best:
            best, best_i = score, i
    return best_i


def _uct_wide(node: Node, c: float) -> int:
    """uct() on a wide node: the first unvisited edge, else the argmax of uct_scores."""
    n = np.asarray(node.N)
    if n.min() <= 0:
        return int((n <= 0).argmax())
    return int(uct_scores(node, c=c).argmax())


def uct_scores(node: Node, *, c: float = 1.4) -> np.ndarray:
    """The score uct() maximises, for every edge (+inf for unvisited edges)."""
    n = np.array(node.N, dtype=np.float64)
    log_n = math.log(node.total) if node.total > 1.0 else 0.0
    unvisited = n <= 0
    n[unvisited] = 1.0
    scores = np.asarray(node.W, dtype=np.float64) / n   # a new array: N and W stay as they are
    scores += 1.0
    scores *= 0.5
    explore = log_n / n
    np.sqrt(explore, out=explore)
    explore *= c
    scores += explore
    scores[unvisited] = np.inf
    return scores
