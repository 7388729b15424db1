"""Search trees: nodes made for each kind of state, expansion, advancing the root, root statistics."""

import numpy as np
import pytest

from players.mcts.tree import VECTOR_EDGES, ChanceNode, Node, Tree, make_node
from tests.players.toys import Lottery, Nim


def test_make_node_by_kind_of_state():
    nim, lottery = Nim(), Lottery()
    terminal = make_node(nim, (0, 1))
    assert terminal.terminal and terminal.terminal_value == -1.0 and terminal.to_play == 1
    decision = make_node(nim, (5, 0))
    assert not decision.terminal and not decision.expanded and not decision.is_chance
    chance = make_node(lottery, ("draw", 1))
    assert chance.is_chance and chance.outcomes == [1, 0] and chance.probs == [0.7, pytest.approx(0.3)]


def test_expand_sets_edges_and_q_value():
    node = Node((5, 0), 0)
    node.expand([0, 1], [0.25, 0.75], value=0.4)
    assert node.N == [0.0, 0.0] and node.children == [None, None]
    assert node.q_value() == 0.4          # the evaluator's value until visited
    node.N, node.W, node.total = [1.0, 3.0], [1.0, -2.0], 4.0
    assert node.q_value() == pytest.approx(-0.25)


def test_wide_nodes_keep_their_statistics_in_arrays():
    narrow, wide = Node("s", 0), Node("s", 0)
    narrow.expand(np.arange(VECTOR_EDGES - 1), np.full(VECTOR_EDGES - 1, 1.0 / 31), 0.0)
    wide.expand(list(range(VECTOR_EDGES)), [1.0 / VECTOR_EDGES] * VECTOR_EDGES, 0.1)
    assert isinstance(narrow.N, list) and isinstance(narrow.prior, list)
    assert narrow.actions == list(range(VECTOR_EDGES - 1)) and type(narrow.actions[0]) is int
    assert isinstance(wide.N, np.ndarray) and isinstance(wide.W, np.ndarray)
    assert isinstance(wide.prior, np.ndarray) and isinstance(wide.actions, list)
    assert wide.q_value() == 0.1
    wide.N[3], wide.W[3], wide.total = 2.0, -1.0, 2.0
    assert wide.q_value() == -0.5


@pytest.mark.parametrize("k", [3, VECTOR_EDGES + 3])
def test_expand_puts_edges_in_the_given_order(k):
    """An order (a permutation) moves each action together with its prior, narrow or wide."""
    actions, prior = list(range(10, 10 + k)), np.arange(1, k + 1) / (k * (k + 1) / 2)
    order = np.random.default_rng(0).permutation(k)
    node = Node("s", 0)
    node.expand(actions, prior, 0.0, order)
    assert node.actions == [actions[i] for i in order] and type(node.actions[0]) is int
    assert np.allclose(node.prior, prior[order])
    assert len(node.N) == len(node.W) == len(node.children) == k
    unordered = Node("s", 0)
    unordered.expand(np.asarray(actions), prior, 0.0)
    assert unordered.actions == actions and np.allclose(unordered.prior, prior)


def test_advance_keeps_the_subtree_or_starts_fresh():
    game = Nim()
    tree = Tree(game, (7, 0))
    tree.root.expand([0, 1], [0.5, 0.5], 0.0)
    kept = tree.root.children[0] = Node((6, 1), 1)
    tree.advance(0)
    assert tree.root is kept and tree.simulations == 0
    tree.advance(1)                        # never tried: a fresh node
    assert tree.root.state == (4, 0) and not tree.root.expanded


def test_advance_through_a_chance_state():
    tree = Tree(Lottery(), ("choose",))
    tree.advance(1)
    assert isinstance(tree.root, ChanceNode)
    tree.advance(0)
    assert tree.root.terminal and tree.root.terminal_value == -1.0


def test_root_statistics_cover_every_action():
    tree = Tree(Nim(), (7, 0))
    tree.root.expand([1], [1.0], 0.0)
    tree.root.N, tree.root.W, tree.root.total = [4.0], [2.0], 4.0
    assert tree.visit_counts().tolist() == [0.0, 4.0]
    assert tree.q_values().tolist() == [0.0, 0.5]
    assert np.array_equal(Tree(Nim(), (0, 0)).visit_counts(), [0.0, 0.0])
