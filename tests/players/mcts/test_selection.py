"""Selection rules: each loop agrees with its scores, and the scores follow their formulas."""

import math

import numpy as np
import pytest

from players.mcts.selection import puct, puct_scores, uct, uct_scores
from players.mcts.tree import Node


def node_with(prior, visits, values, value=0.0):
    """A node with these statistics, kept as Node.expand keeps them (arrays on wide nodes)."""
    node = Node("s", 0)
    node.expand(list(range(len(prior))), prior, value)
    kind = np.array if isinstance(node.N, np.ndarray) else list
    node.N = kind([float(v) for v in visits])
    node.W = kind([float(v) for v in values])
    node.total = float(sum(visits))
    return node


def test_puct_scores_follow_the_formula():
    node = node_with([0.7, 0.3], [3, 1], [1.5, -1.0])
    c = 2.0
    expected = [1.5 / 3 + c * 0.7 * math.sqrt(4) / 4, -1.0 + c * 0.3 * math.sqrt(4) / 2]
    assert np.allclose(puct_scores(node, c_puct=c), expected)


def test_puct_unvisited_edges_use_first_play_urgency():
    node = node_with([0.5, 0.5], [0, 0], [0, 0], value=0.4)
    assert np.allclose(puct_scores(node, c_puct=1.0, fpu_reduction=0.1), [0.8, 0.8])
    assert puct(node, c_puct=1.0, fpu_reduction=0.1) == 0      # ties go to the first edge


def test_uct_scores_follow_the_formula_and_unvisited_come_first():
    node = node_with([0.5] * 3, [2, 6, 0], [1.0, -3.0, 0.0])
    scores = uct_scores(node, c=1.0)
    assert scores[0] == pytest.approx((0.5 + 1) / 2 + math.sqrt(math.log(8) / 2))
    assert scores[1] == pytest.approx((-0.5 + 1) / 2 + math.sqrt(math.log(8) / 6))
    assert scores[2] == math.inf
    assert uct(node, c=1.0) == 2


@pytest.mark.parametrize("as_lists", [False, True])
@pytest.mark.parametrize("rule, scores", [(puct, puct_scores), (uct, uct_scores)])
def test_each_rule_picks_the_argmax_of_its_scores(rule, scores, as_lists):
    rng = np.random.default_rng(7)
    for _ in range(200):
        k = int(rng.integers(2, 6)) if rng.random() < 0.5 else int(rng.integers(30, 90))
        visits = rng.integers(0 if rule is puct else 1, 5, k).tolist()
        if rule is uct and rng.random() < 0.2:
            visits[int(rng.integers(k))] = 0
        values = (rng.uniform(-1, 1, k) * visits).tolist()
        node = node_with(rng.dirichlet(np.ones(k)).tolist(), visits, values, rng.uniform(-1, 1))
        if as_lists:        # statistics set by hand as lists work on wide nodes too
            node.N, node.W, node.prior = list(node.N), list(node.W), list(node.prior)
        before = (list(node.N), list(node.W))
        assert rule(node) == int(np.argmax(scores(node)))
        assert (list(node.N), list(node.W)) == before


def test_exploration_constant_changes_the_uct_choice():
    node = node_with([0.5, 0.5], [10, 1], [6.0, 0.0])
    assert uct(node, c=0.1) == 0
    assert uct(node, c=3.0) == 1
