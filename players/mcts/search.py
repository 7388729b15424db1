"""Game-independent MCTS: select with a scoring rule, expand, evaluate leaves in batches, back up."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from players.games.base import Game
from players.mcts.selection import (
    add_dirichlet_noise,
    best_by_value,
    best_by_visits,
    sample_outcome,
    select_edge,
)
from players.mcts.tree import ChanceNode, Node

# evaluate_fn(states) -> [(prior over num_actions or None, value for to_play(state))]
EvaluateFn = Callable[[Sequence], Sequence[tuple["np.ndarray | None", float]]]
# select_fn(q, visits, parent_visits, priors) -> scores, one per edge
SelectFn = Callable[[np.ndarray, np.ndarray, float, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class SearchResult:
    """What a search found at the root.

    Public attributes:
      visit_counts -- visits of each action [num_actions] (0 for unexpanded or illegal)
      q_values     -- mean value of each action for the root player [num_actions], 0 if unvisited
      root_value   -- mean value of all simulations for the root player
      best_action  -- the chosen action
      simulations  -- simulations run in this call
      root         -- the root Node, for reuse or inspection
    """

    visit_counts: np.ndarray
    q_values: np.ndarray
    root_value: float
    best_action: int
    simulations: int
    root: Node


def make_node(game: Game, state) -> Node | ChanceNode:
    """A fresh, unexpanded node for state."""
    if not game.is_terminal(state) and game.is_chance(state):
        return ChanceNode(state, game.to_play(state), game.chance_outcomes(state))
    return Node(state, game.to_play(state), game.is_terminal(state))


def search(game: Game, root_state, *, evaluate_fn: EvaluateFn, select_fn: SelectFn,
           num_simulations: int, batch_size: int = 1, rng: np.random.Generator,
           root_dirichlet: tuple[float, float] | None = None, virtual_loss: float = 1.0,
           root: Node | None = None, final_choice: str = "visits",
           time_limit: float | None = None,
           root_allocation_fn: Callable | None = None) -> SearchResult:
    """Run num_simulations simulations from root_state and choose a move.

    Each step descends batch_size times, scoring edges with select_fn and
    charging virtual_loss (that many lost visits) to every edge on the way
    down so later descents in the batch spread out; it then evaluates the
    distinct unexpanded leaves in one evaluate_fn call and backs the values
    up, removing the virtual loss. Leaf priors of None mean uniform over the
    legal actions; actions whose prior is exactly 0 get no edge (unless all
    do). Chance nodes sample an outcome by probability and pass values up
    unchanged. root_dirichlet (alpha, epsilon) adds noise to the root priors.
    root continues an earlier tree whose state is root_state. final_choice
    is 'visits' (most visited) or 'value' (best mean value among well-visited
    edges). time_limit, in seconds, stops the search early.
    root_allocation_fn(num_samples, weights, rng) -> counts, if given, spreads
    each batch over the root's edges instead of selecting there (weights are
    the root visits plus priors, for biased methods); below the root,
    selection is as usual.

    Raises ValueError if root_state is terminal or a chance state.
    """
    if final_choice not in ("visits", "value"):
        raise ValueError(f"unknown final_choice {final_choice!r}")
    if root is None:
        root = make_node(game, root_state)
    if root.terminal or root.is_chance:
        raise ValueError("search needs a decision state that is not terminal")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    noised = False
    done = 0
    while done < num_simulations:
        if not root.expanded:
            _evaluate_batch(game, [(root, [])], evaluate_fn, rng, 0.0)
            done += 1
        else:
            if root_dirichlet is not None and not noised:
                root.priors = add_dirichlet_noise(root.priors, *root_dirichlet, rng)
                noised = True
            count = min(batch_size, num_simulations - done)
            if root_allocation_fn is not None and count > 1:
                counts = root_allocation_fn(count, root.visits + root.priors, rng)
                forced = np.repeat(np.arange(len(counts)), counts)
            else:
                forced = [None] * count
            descents = [_descend(game, root, select_fn, rng, virtual_loss, edge)
                        for edge in forced]
            _evaluate_batch(game, descents, evaluate_fn, rng, virtual_loss)
            done += count
        if deadline is not None and time.monotonic() >= deadline:
            break
    return _result(game, root, done, final_choice)


def _descend(game: Game, root: Node, select_fn: SelectFn, rng: np.random.Generator,
             virtual_loss: float, root_edge=None) -> tuple[Node | ChanceNode, list]:
    """Walk from root to a leaf; returns (leaf, path of (node, edge index or -1))."""
    node: Node | ChanceNode = root
    path: list[tuple[Node | ChanceNode, int]] = []
    while not node.terminal:
        if node.is_chance:
            k = sample_outcome(node.probs, rng)
            key = int(node.outcomes[k])
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = make_node(game, game.apply(node.state, key))
            path.append((node, -1))
            node = child
            continue
        if not node.expanded:
            break
        if node is root and root_edge is not None:
            index = int(root_edge)
        else:
            parent_visits = float(node.visits.sum())
            index = select_edge(select_fn(node.q_values(), node.visits, parent_visits,
                                          node.priors))
        node.visits[index] += virtual_loss
        node.value_sum[index] -= virtual_loss
        path.append((node, index))
        action = int(node.actions[index])
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = make_node(game, game.apply(node.state, action))
        node = child
    return node, path


def _evaluate_batch(game: Game, descents: list, evaluate_fn: EvaluateFn,
                    rng: np.random.Generator, virtual_loss: float) -> None:
    to_evaluate: list[Node] = []
    for leaf, _ in descents:
        if not leaf.terminal and not leaf.expanded and leaf.pending == 0:
            to_evaluate.append(leaf)
            leaf.pending = 1
    values: dict[int, float] = {}
    if to_evaluate:
        results = evaluate_fn([leaf.state for leaf in to_evaluate])
        for leaf, (prior, value) in zip(to_evaluate, results):
            _expand(game, leaf, prior, rng)
            leaf.pending = 0
            values[id(leaf)] = float(value)
    for leaf, path in descents:
        if leaf.terminal:
            value = game.terminal_value(leaf.state)
        elif id(leaf) in values:
            value = values[id(leaf)]
        else:
            # Reached again in the same batch, or expanded earlier: reuse its mean.
            value = leaf.value()
        _backup(leaf, path, value, virtual_loss)


def _expand(game: Game, node: Node, prior, rng: np.random.Generator) -> None:
    actions = np.asarray(game.legal_actions(node.state), dtype=np.int64)
    if prior is None:
        priors = np.full(len(actions), 1.0 / max(len(actions), 1))
    else:
        priors = np.asarray(prior, dtype=np.float64)[actions]
        keep = priors > 0
        if keep.any():
            actions, priors = actions[keep], priors[keep]
            priors = priors / priors.sum()
        else:
            priors = np.full(len(actions), 1.0 / max(len(actions), 1))
    order = rng.permutation(len(actions))
    node.expand(actions[order], priors[order])


def _backup(leaf: Node | ChanceNode, path: list, value: float, virtual_loss: float) -> None:
    """Add value (for leaf.to_play) to the leaf and every node and edge above it."""
    leaf.visit_count += 1
    leaf.total_value += value
    for node, index in reversed(path):
        v = value if node.to_play == leaf.to_play else -value
        node.visit_count += 1
        node.total_value += v
        if index >= 0:
            node.visits[index] += 1.0 - virtual_loss
            node.value_sum[index] += v + virtual_loss


def _result(game: Game, root: Node, done: int, final_choice: str) -> SearchResult:
    visit_counts = np.zeros(game.num_actions)
    q_values = np.zeros(game.num_actions)
    visit_counts[root.actions] = root.visits
    q = root.q_values()
    q_values[root.actions] = q
    if root.visits.sum() == 0:
        index = int(np.argmax(root.priors))
    elif final_choice == "visits":
        index = best_by_visits(root.visits, q)
    else:
        index = best_by_value(root.visits, q)
    return SearchResult(visit_counts, q_values, root.value(), int(root.actions[index]),
                        done, root)
