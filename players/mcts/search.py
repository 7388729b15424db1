"""The search: many trees at once, a selection rule and a batched evaluator passed in, virtual loss.

This module knows nothing of noise, temperature or the final move choice:
those are policies composed around it (players.mcts.policies). One round
descends each tree up to leaves_per_tree times, charging virtual_loss (that
many lost visits) to every decision edge on the way so that later descents
spread out; the distinct unexpanded leaves of all trees go to the evaluator
in one call; the values are backed up and the virtual loss taken back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from players.mcts.chance import SAMPLED, ChanceRule
from players.mcts.tree import ChanceNode, Node, Tree, make_node

# evaluate(states) -> (priors [B, num_actions] or None for uniform, values [B]).
# Each value is for the state's player to move, in [-1, 1].
Evaluate = Callable[[Sequence], "tuple[np.ndarray | None, Sequence[float]]"]
# select(node) -> the index of the edge to descend (see players.mcts.selection).
Select = Callable[[Node], int]
# root_allocation(count, weights, rng) -> descents per root edge, summing to count.
RootAllocation = Callable[[int, np.ndarray, np.random.Generator], np.ndarray]

Path = list[tuple["Node | ChanceNode", int]]


def expand(game, node: Node, prior, value: float, shuffle: np.random.Generator | None) -> None:
    """Give node its edges: the legal actions with their priors (renormalised), and its value.

    prior None is uniform. Actions whose prior is exactly 0 get no edge,
    unless all do. With shuffle, the edges are put in a random order (rules
    that break ties by order then break them at random).
    """
    actions = game.legal_actions(node.state)
    if prior is None:
        p: list[float] | np.ndarray = [1.0 / len(actions)] * len(actions)
    else:
        legal = np.asarray(actions)
        row = np.asarray(prior, dtype=np.float64)[legal]
        keep = row > 0
        if keep.any() and not keep.all():
            legal, row = legal[keep], row[keep]
            actions = legal.tolist()
        total = row.sum()
        p = row / total if total > 0 else [1.0 / len(actions)] * len(actions)
    order = shuffle.permutation(len(actions)) if shuffle is not None and len(actions) > 1 else None
    node.expand(actions, p, value, order)


def expand_roots(trees: Sequence[Tree], evaluate: Evaluate, *,
                 shuffle: np.random.Generator | None = None) -> None:
    """Expand every unexpanded, non-terminal root with one evaluate call (not a simulation)."""
    waiting = [t for t in trees if not t.root.terminal and not t.root.is_chance
               and not t.root.expanded]
    if not waiting:
        return
    priors, values = evaluate([t.root.state for t in waiting])
    for k, tree in enumerate(waiting):
        expand(tree.game, tree.root, None if priors is None else priors[k], float(values[k]),
               shuffle)


def descend(tree: Tree, select: Select, virtual_loss: float, rng: np.random.Generator,
            chance: ChanceRule, root_edge: int | None = None) -> tuple[Path, Node]:
    """Walk from the root to a leaf (unexpanded or terminal), charging virtual loss.

    A chance node is a leaf too until evaluated, when the chance rule needs
    its value (chance.needs_value).

    root_edge, if given, is the edge taken at the root instead of select's.
    Returns the path of (node, edge index) and the leaf.
    """
    game = tree.game
    stochastic = game.stochastic_apply
    node = tree.root
    path: Path = []
    vl = virtual_loss
    while True:
        if node.is_chance:
            if node.value is None and chance.needs_value:
                return path, node
            i = chance.select(node, rng)
        elif node.terminal or node.actions is None:
            return path, node
        else:
            i = select(node) if root_edge is None or path else root_edge
            node.N[i] += vl
            node.W[i] -= vl
            node.total += vl
        path.append((node, i))
        if stochastic:
            node = _stochastic_child(game, node, i)
            continue
        child = node.children[i]
        if child is None:
            child = node.children[i] = make_node(game, game.apply(node.state, node.actions[i]))
        node = child


def _stochastic_child(game, node: Node, i: int) -> Node | ChanceNode:
    """The node of the state that edge i leads to this time (the game draws chance in apply)."""
    state = game.apply(node.state, node.actions[i])
    reached = node.children[i]
    if reached is None:
        reached = node.children[i] = {}
    child = reached.get(state)
    if child is None:
        child = reached[state] = make_node(game, state)
    return child


def backup(path: Path, player: int, value: float, virtual_loss: float,
           chance: ChanceRule) -> None:
    """Add value (for player) to every edge of path, bottom up, taking the virtual loss back.

    A chance node may change the value passed above it (chance.backed_value).
    """
    vl = virtual_loss
    for node, i in reversed(path):
        v = value if node.to_play == player else -value
        if node.is_chance:
            node.N[i] += 1.0
            node.W[i] += v
            node.total += 1.0
            value, player = chance.backed_value(node, i, v), node.to_play
        else:
            node.N[i] += 1.0 - vl
            node.W[i] += v + vl
            node.total += 1.0 - vl


def undo_virtual_loss(path: Path, virtual_loss: float) -> None:
    """Take back the virtual loss of a descent that will not be backed up."""
    for node, i in path:
        if not node.is_chance:
            node.N[i] -= virtual_loss
            node.W[i] += virtual_loss
            node.total -= virtual_loss


def run_round(trees: Sequence[Tree], evaluate: Evaluate, select: Select,
              budgets: Sequence[int], *, leaves_per_tree: int = 1, virtual_loss: float = 1.0,
              rng: np.random.Generator, chance: ChanceRule = SAMPLED,
              root_allocation: RootAllocation | None = None,
              shuffle: bool = False) -> list[int]:
    """One round: up to min(leaves_per_tree, budgets[i]) descents in tree i, one evaluate call.

    A descent that reaches a leaf already waiting in this round is taken
    back and doesn't count. Roots must be expanded (expand_roots).
    Returns the simulations completed in each tree.
    """
    done = [0] * len(trees)
    waiting: list[tuple[int, Path, Node]] = []
    for t, tree in enumerate(trees):
        count = min(leaves_per_tree, budgets[t])
        if count <= 0 or tree.root.terminal:
            continue
        forced: Sequence[int | None] = [None] * count
        if root_allocation is not None and count > 1:
            root = tree.root
            counts = root_allocation(count, np.asarray(root.N) + np.asarray(root.prior), rng)
            forced = np.repeat(np.arange(len(counts)), counts).tolist()
        for edge in forced:
            path, leaf = descend(tree, select, virtual_loss, rng, chance, edge)
            if leaf.terminal:
                backup(path, leaf.to_play, leaf.terminal_value, virtual_loss, chance)
                done[t] += 1
                continue
            if leaf.pending:
                undo_virtual_loss(path, virtual_loss)
                continue
            leaf.pending = True
            waiting.append((t, path, leaf))
    if waiting:
        priors, values = evaluate([leaf.state for _, _, leaf in waiting])
        for k, (t, path, leaf) in enumerate(waiting):
            leaf.pending = False
            value = float(values[k])
            if leaf.is_chance:
                chance.initialise(leaf, value)
            else:
                expand(trees[t].game, leaf, None if priors is None else priors[k], value,
                       rng if shuffle else None)
            backup(path, leaf.to_play, value, virtual_loss, chance)
            done[t] += 1
    return done


def search(trees: Sequence[Tree], evaluate: Evaluate, select: Select, *,
           num_simulations: int | Sequence[int], rng: np.random.Generator,
           leaves_per_tree: int = 1, virtual_loss: float = 1.0,
           chance: ChanceRule = SAMPLED, deadline: float | None = None,
           root_allocation: RootAllocation | None = None, shuffle: bool = False) -> list[int]:
    """Run num_simulations more simulations in each tree (a number, or one per tree).

    Unexpanded roots are expanded first. deadline, a time.monotonic() value,
    ends the search after the round in which it passes (each tree runs at
    least one round). shuffle puts each node's edges in random order. Adds
    the simulations run to each tree's count and returns them.

    Raises ValueError if a root is a chance state.
    """
    if any(t.root.is_chance for t in trees):
        raise ValueError("search needs decision states at the roots; apply the chance outcome")
    expand_roots(trees, evaluate, shuffle=rng if shuffle else None)
    if isinstance(num_simulations, int):
        budgets = [0 if t.root.terminal else num_simulations for t in trees]
    else:
        budgets = [0 if t.root.terminal else int(n) for t, n in zip(trees, num_simulations)]
    run = [0] * len(trees)
    while max(budgets, default=0) > 0:
        done = run_round(trees, evaluate, select, budgets, leaves_per_tree=leaves_per_tree,
                         virtual_loss=virtual_loss, rng=rng, chance=chance,
                         root_allocation=root_allocation, shuffle=shuffle)
        for t, n in enumerate(done):
            budgets[t] -= n
            run[t] += n
        if deadline is not None and time.monotonic() >= deadline:
            break
    for tree, n in zip(trees, run):
        tree.simulations += n
    return run
