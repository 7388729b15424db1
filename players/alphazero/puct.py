"""Batched PUCT over many trees at once: virtual loss, one network call per round for all pending leaves."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

# An evaluator maps a list of states to (priors [B, A], values [B]); values are for
# each state's player to move. players.nets.inference.StateEvaluator.evaluate is one.
Evaluate = Callable[[Sequence], "tuple[np.ndarray, np.ndarray]"]


@dataclass(frozen=True)
class PuctConfig:
    """Search settings. U(s,a) = Q(s,a) + c_puct * P(s,a) * sqrt(sum_b N(s,b)) / (1 + N(s,a))."""

    c_puct: float = 1.5
    virtual_loss: float = 1.0
    fpu_reduction: float = 0.0       # unvisited Q = node's net value - fpu_reduction
    dirichlet_alpha: float = 0.5
    dirichlet_epsilon: float = 0.0   # 0 disables root noise (engines); self-play sets 0.25


class Node:
    """A decision node. Edge statistics are Python lists over the node's legal actions.

    (Lists, not arrays: nodes have ~10 edges, where a Python loop beats numpy's
    per-call overhead several times over.) W holds value sums from the point of
    view of the node's player to move; total is sum(N).
    """

    __slots__ = ("state", "to_play", "terminal", "terminal_value", "actions", "prior",
                 "N", "W", "total", "children", "value", "pending", "noised")

    def __init__(self, game, state) -> None:
        self.state = state
        self.to_play = game.to_play(state)
        self.terminal = game.is_terminal(state)
        self.terminal_value = game.terminal_value(state) if self.terminal else 0.0
        self.actions: list[int] | None = None    # [k] legal action ids once expanded
        self.prior: list[float] = []             # [k]
        self.N: list[float] = []                 # [k] visit counts (incl. virtual)
        self.W: list[float] = []                 # [k] value sums (incl. virtual)
        self.total = 0.0
        self.children: list[Node | None] = []
        self.value = 0.0                         # the network's value at expansion
        self.pending = False
        self.noised = False

    @property
    def expanded(self) -> bool:
        return self.actions is not None

    def expand(self, game, priors: np.ndarray, value: float) -> None:
        """Fill the edges from a network prior over all actions [A]."""
        actions = game.legal_actions(self.state)
        p = np.asarray(priors, dtype=np.float64)[actions]
        total = p.sum()
        self.prior = (p / total).tolist() if total > 0 else [1.0 / len(actions)] * len(actions)
        self.actions = list(actions)
        self.N = [0.0] * len(actions)
        self.W = [0.0] * len(actions)
        self.total = 0.0
        self.children = [None] * len(actions)
        self.value = float(value)

    def q_value(self) -> float:
        """Mean backed-up value for the player to move (the net value if unvisited)."""
        return sum(self.W) / self.total if self.total > 0 else self.value


def puct_scores(node: Node, c_puct: float, fpu_reduction: float) -> np.ndarray:
    """U(s,a) for each edge of an expanded node: [k]."""
    n = np.asarray(node.N)
    w = np.asarray(node.W)
    q = np.where(n > 0, w / np.maximum(n, 1e-9), node.value - fpu_reduction)
    return q + c_puct * np.asarray(node.prior) * math.sqrt(max(node.total, 1.0)) / (1.0 + n)


def best_edge(node: Node, c_puct: float, fpu_reduction: float) -> int:
    """argmax of puct_scores (the first on ties), as a plain loop."""
    coef = c_puct * math.sqrt(node.total if node.total > 1.0 else 1.0)
    fpu = node.value - fpu_reduction
    best, best_i = -math.inf, 0
    N, W, P = node.N, node.W, node.prior
    for i in range(len(N)):
        n = N[i]
        score = (W[i] / n if n > 0 else fpu) + coef * P[i] / (1.0 + n)
        if score > best:
            best, best_i = score, i
    return best_i


def add_dirichlet_noise(node: Node, alpha: float, epsilon: float, rng: np.random.Generator) -> None:
    """Mix Dirichlet(alpha) noise into an expanded root's priors (once per time it is a root)."""
    if epsilon <= 0 or node.noised or len(node.actions) < 2:
        return
    noise = rng.dirichlet(np.full(len(node.actions), alpha))
    node.prior = [(1 - epsilon) * p + epsilon * x for p, x in zip(node.prior, noise.tolist())]
    node.noised = True


class Tree:
    """One search tree, with its root and the count of completed simulations."""

    def __init__(self, game, state) -> None:
        self.game = game
        self.root = Node(game, state)
        self.simulations = 0

    def advance(self, action: int) -> None:
        """Make the child reached by action the new root, keeping its subtree."""
        root = self.root
        child = None
        if root.expanded and action in root.actions:
            child = root.children[root.actions.index(action)]
        if child is None:
            child = Node(self.game, self.game.apply(root.state, action))
        child.noised = False
        self.root = child
        self.simulations = 0

    def visit_counts(self) -> np.ndarray:
        """Root visits over all actions [A] (float)."""
        visits = np.zeros(self.game.num_actions)
        if self.root.expanded:
            visits[self.root.actions] = self.root.N
        return visits


def _select(tree: Tree, config: PuctConfig) -> tuple[list[tuple[Node, int]], Node]:
    """Descend from the root with PUCT, applying virtual loss; return (path, leaf)."""
    node = tree.root
    path: list[tuple[Node, int]] = []
    vl = config.virtual_loss
    while node.expanded and not node.terminal:
        i = best_edge(node, config.c_puct, config.fpu_reduction)
        node.N[i] += vl
        node.W[i] -= vl
        node.total += vl
        path.append((node, i))
        child = node.children[i]
        if child is None:
            child = Node(tree.game, tree.game.apply(node.state, node.actions[i]))
            node.children[i] = child
        node = child
    return path, node


def _backup(path: list[tuple[Node, int]], leaf: Node, value: float, vl: float) -> None:
    """Back value (for leaf.to_play) up the path, replacing the virtual loss."""
    for node, i in path:
        v = value if node.to_play == leaf.to_play else -value
        node.N[i] += 1.0 - vl
        node.W[i] += v + vl
        node.total += 1.0 - vl


def _undo_virtual_loss(path: list[tuple[Node, int]], vl: float) -> None:
    for node, i in path:
        node.N[i] -= vl
        node.W[i] += vl
        node.total -= vl


def run_round(trees: Sequence[Tree], evaluate: Evaluate, config: PuctConfig, *,
              leaves_per_tree: int, budgets: Sequence[int], rng: np.random.Generator) -> int:
    """One round: up to leaves_per_tree leaves from each tree, one evaluate() call for all.

    budgets[i] caps the simulations tree i may still run this round. Returns
    the number of simulations completed.
    """
    vl = config.virtual_loss
    pending: list[tuple[Tree, list, Node]] = []
    done = 0
    for tree, budget in zip(trees, budgets):
        if not tree.root.expanded and not tree.root.terminal:
            if not tree.root.pending and budget > 0:
                tree.root.pending = True
                pending.append((tree, [], tree.root))
            continue
        for _ in range(min(leaves_per_tree, budget)):
            path, leaf = _select(tree, config)
            if leaf.terminal:
                _backup(path, leaf, leaf.terminal_value, vl)
                tree.simulations += 1
                done += 1
                continue
            if leaf.pending:   # another leaf of this round already went here
                _undo_virtual_loss(path, vl)
                break
            leaf.pending = True
            pending.append((tree, path, leaf))
    if pending:
        priors, values = evaluate([leaf.state for _, _, leaf in pending])
        for k, (tree, path, leaf) in enumerate(pending):
            leaf.pending = False
            leaf.expand(tree.game, priors[k], float(values[k]))
            if leaf is tree.root:
                add_dirichlet_noise(leaf, config.dirichlet_alpha, config.dirichlet_epsilon, rng)
                continue  # expanding the root is not a simulation
            _backup(path, leaf, float(values[k]), vl)
            tree.simulations += 1
            done += 1
    return done


def search_many(trees: Sequence[Tree], evaluate: Evaluate, config: PuctConfig, *,
                num_simulations: int, leaves_per_tree: int = 1,
                rng: np.random.Generator) -> None:
    """Run each tree up to num_simulations simulations (kept subtrees count towards it)."""
    for tree in trees:
        if tree.root.expanded:
            add_dirichlet_noise(tree.root, config.dirichlet_alpha, config.dirichlet_epsilon, rng)
            tree.simulations = int(round(tree.root.total))
    while True:
        budgets = [0 if t.root.terminal else num_simulations - t.simulations for t in trees]
        if max(budgets, default=0) <= 0:
            return
        run_round(trees, evaluate, config, leaves_per_tree=leaves_per_tree,
                  budgets=budgets, rng=rng)


def visit_policy(visits: np.ndarray, temperature: float) -> np.ndarray:
    """Visits [A] -> a distribution: proportional to N^(1/T), or one-hot argmax when T = 0."""
    if temperature <= 0 or visits.sum() == 0:
        policy = np.zeros_like(visits, dtype=np.float64)
        policy[int(np.argmax(visits))] = 1.0
        return policy
    scaled = np.power(visits / visits.max(), 1.0 / temperature)
    return scaled / scaled.sum()


def search_timed(tree: Tree, evaluate: Evaluate, config: PuctConfig, *, seconds: float,
                 leaves_per_tree: int = 1, max_simulations: int | None = None,
                 rng: np.random.Generator) -> None:
    """Search one tree until `seconds` have passed (and at least one simulation is done)."""
    import time
    deadline = time.monotonic() + seconds
    if tree.root.expanded:
        add_dirichlet_noise(tree.root, config.dirichlet_alpha, config.dirichlet_epsilon, rng)
        tree.simulations = int(round(tree.root.total))
    while not tree.root.terminal:
        budget = (max_simulations - tree.simulations) if max_simulations else leaves_per_tree
        if budget <= 0:
            return
        run_round([tree], evaluate, config, leaves_per_tree=leaves_per_tree,
                  budgets=[budget], rng=rng)
        if time.monotonic() >= deadline and tree.root.total >= 1:
            return
