"""Tests for the batched PUCT search: scores on hand-built nodes, backup signs, virtual loss, known answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from players.alphazero.puct import (Node, PuctConfig, Tree, _backup, _select, add_dirichlet_noise, best_edge,
                                    puct_scores, run_round, search_many, visit_policy)
from players.games.base import Game


class Nim(Game):
    """Take 1 or 2 from a pile; whoever takes the last object wins. Actions 0: take 1, 1: take 2."""

    name = "nim"
    num_actions = 2

    def initial_state(self):
        return (7, 0)

    def to_play(self, state):
        return state[1]

    def legal_actions(self, state):
        pile = state[0]
        return [] if pile == 0 else [0] if pile == 1 else [0, 1]

    def apply(self, state, action):
        return (state[0] - action - 1, 1 - state[1])

    def is_terminal(self, state):
        return state[0] == 0

    def terminal_value(self, state):
        return -1.0   # the previous player took the last object


class Recorder:
    """Uniform priors and a constant value; records the batch of every call."""

    def __init__(self, num_actions: int, value: float = 0.0) -> None:
        self.num_actions, self.value, self.batches = num_actions, value, []

    def __call__(self, states):
        self.batches.append(list(states))
        n = len(states)
        return np.full((n, self.num_actions), 1.0 / self.num_actions), np.full(n, self.value)


def expanded_node(game, state, prior, visits, values, net_value=0.0) -> Node:
    node = Node(game, state)
    node.expand(game, np.array(prior + [0.0] * (game.num_actions - len(prior))), net_value)
    node.N = [float(v) for v in visits]
    node.W = [float(v) for v in values]
    node.total = float(sum(visits))
    return node


def test_puct_scores_follow_the_formula():
    game = Nim()
    node = expanded_node(game, (5, 0), [0.7, 0.3], [3, 1], [1.5, -1.0])
    c = 2.0
    expected = [1.5 / 3 + c * 0.7 * math.sqrt(4) / 4, -1.0 + c * 0.3 * math.sqrt(4) / 2]
    assert np.allclose(puct_scores(node, c, 0.0), expected)


def test_best_edge_agrees_with_the_scores():
    game = Nim()
    rng = np.random.default_rng(7)
    for _ in range(50):
        prior = rng.dirichlet([1, 1]).tolist()
        visits = rng.integers(0, 4, 2).tolist()
        values = (rng.uniform(-1, 1, 2) * visits).tolist()
        node = expanded_node(game, (5, 0), prior, visits, values, net_value=rng.uniform(-1, 1))
        assert best_edge(node, 1.3, 0.2) == int(np.argmax(puct_scores(node, 1.3, 0.2)))


def test_unvisited_edges_use_first_play_urgency():
    game = Nim()
    node = expanded_node(game, (5, 0), [0.5, 0.5], [0, 0], [0, 0], net_value=0.4)
    scores = puct_scores(node, 1.0, fpu_reduction=0.1)
    assert np.allclose(scores, [0.3 + 0.5, 0.3 + 0.5])


def test_selection_prefers_the_higher_score_and_charges_virtual_loss():
    game = Nim()
    tree = Tree(game, (5, 0))
    tree.root.expand(game, np.array([0.2, 0.8]), 0.0)
    path, leaf = _select(tree, PuctConfig(c_puct=1.0, virtual_loss=2.0))
    assert path == [(tree.root, 1)]
    assert leaf.state == (3, 1)
    assert tree.root.N == [0, 2] and tree.root.W == [0, -2] and tree.root.total == 2


def test_backup_alternates_sign_by_player():
    game = Nim()
    a = expanded_node(game, (5, 0), [0.5, 0.5], [1, 1], [0, 0])
    b = expanded_node(game, (4, 1), [0.5, 0.5], [1, 1], [0, 0])
    leaf = Node(game, (3, 0))
    _backup([(a, 0), (b, 0)], leaf, 0.6, vl=0.0)
    assert a.W[0] == pytest.approx(0.6)    # a's mover is the leaf's mover
    assert b.W[0] == pytest.approx(-0.6)
    assert a.N[0] == 2 and b.N[0] == 2


def test_round_removes_virtual_loss():
    game = Nim()
    evaluate = Recorder(2, value=0.25)
    tree = Tree(game, (7, 0))
    search_many([tree], evaluate, PuctConfig(virtual_loss=3.0), num_simulations=30,
                leaves_per_tree=4, rng=np.random.default_rng(0))

    def check(node):
        if not node.expanded:
            return
        assert all(n == round(n) for n in node.N)             # no leftover virtual visits
        assert node.total == pytest.approx(sum(node.N))
        for child, n, w in zip(node.children, node.N, node.W):
            if child is not None and child.expanded and not child.terminal:
                assert n == pytest.approx(sum(child.N) + 1)
        for child in node.children:
            if child is not None:
                check(child)
    check(tree.root)
    assert sum(tree.root.N) == 30


def test_known_answer_nim():
    """From 7 the winning move is to take 1 (leaving a multiple of 3)."""
    game = Nim()
    tree = Tree(game, (7, 0))
    search_many([tree], Recorder(2), PuctConfig(c_puct=1.0), num_simulations=400,
                leaves_per_tree=1, rng=np.random.default_rng(1))
    visits = tree.visit_counts()
    assert int(np.argmax(visits)) == 0
    assert tree.root.q_value() > 0.3


def test_many_trees_share_one_call_per_round():
    game = Nim()
    evaluate = Recorder(2)
    trees = [Tree(game, (30, 0)) for _ in range(3)]
    search_many(trees, evaluate, PuctConfig(), num_simulations=10, rng=np.random.default_rng(2))
    assert len(evaluate.batches) == 11          # the root expansions, then one call per round
    assert all(len(batch) == 3 for batch in evaluate.batches)
    assert all(sum(t.root.N) == 10 for t in trees)


def test_collisions_end_a_tree_batch_early():
    game = Nim()
    evaluate = Recorder(2)
    tree = Tree(game, (2, 0))
    search_many([tree], evaluate, PuctConfig(), num_simulations=20, leaves_per_tree=8,
                rng=np.random.default_rng(3))
    assert sum(tree.root.N) == 20
    assert max(len(b) for b in evaluate.batches) <= 2   # the tree has one non-terminal leaf


def test_advance_keeps_the_subtree_and_visit_policy():
    game = Nim()
    tree = Tree(game, (7, 0))
    search_many([tree], Recorder(2), PuctConfig(), num_simulations=50, rng=np.random.default_rng(4))
    child = tree.root.children[0]
    tree.advance(0)
    assert tree.root is child and tree.root.state == (6, 1)
    visits = np.array([3.0, 1.0, 0.0])
    assert visit_policy(visits, 0).tolist() == [1, 0, 0]
    assert np.allclose(visit_policy(visits, 1.0), [0.75, 0.25, 0])
    assert np.allclose(visit_policy(visits, 0.5), [0.9, 0.1, 0])


def test_dirichlet_noise_once_per_root():
    game = Nim()
    node = expanded_node(game, (5, 0), [0.9, 0.1], [0, 0], [0, 0])
    rng = np.random.default_rng(5)
    add_dirichlet_noise(node, 0.3, 0.25, rng)
    noised = list(node.prior)
    assert sum(noised) == pytest.approx(1) and not np.allclose(noised, [0.9, 0.1])
    add_dirichlet_noise(node, 0.3, 0.25, rng)
    assert node.prior == noised


def test_round_respects_budgets():
    game = Nim()
    trees = [Tree(game, (30, 0)), Tree(game, (30, 0))]
    evaluate = Recorder(2)
    rng = np.random.default_rng(6)
    run_round(trees, evaluate, PuctConfig(), leaves_per_tree=1, budgets=[1, 1], rng=rng)
    done = run_round(trees, evaluate, PuctConfig(), leaves_per_tree=4, budgets=[2, 0], rng=rng)
    assert done == 2                              # virtual loss sent the two leaves apart
    assert trees[0].root.N == [1, 1] and sum(trees[1].root.N) == 0
    assert len(evaluate.batches[-1]) == 2
