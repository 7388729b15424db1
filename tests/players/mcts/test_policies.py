"""Policies around the search: noise, the final choice, visit policies, AlphaZero and UCT policies."""

import numpy as np
import pytest

from players.mcts.evaluators import RolloutEvaluator
from players.mcts.policies import (
    PuctSettings,
    add_dirichlet_noise,
    alphazero_policy,
    best_by_value,
    best_by_visits,
    summarize,
    uct_policy,
    visit_policy,
)
from players.mcts.tree import Node, Tree
from tests.players.toys import Nim


def uniform(states):
    n = len(states)
    return np.full((n, 2), 0.5), np.zeros(n)


@pytest.mark.parametrize("edges", [2, 82])
def test_dirichlet_noise_keeps_a_distribution(edges):
    node = Node("s", 0)
    prior = [0.9, 0.1] if edges == 2 else (np.arange(edges) + 1.0) / sum(range(1, edges + 1))
    node.expand(list(range(edges)), prior, 0.0)
    kind = type(node.prior)
    add_dirichlet_noise(node, 0.3, 0.25, np.random.default_rng(5))
    assert type(node.prior) is kind and len(node.prior) == edges
    assert sum(node.prior) == pytest.approx(1) and not np.allclose(node.prior, prior)
    assert min(node.prior) >= 0


def test_no_noise_at_epsilon_zero():
    node = Node("s", 0)
    node.expand([0, 1], [0.9, 0.1], 0.0)
    add_dirichlet_noise(node, 0.3, 0.0, np.random.default_rng(5))
    assert node.prior == [0.9, 0.1]


def test_visit_policy_temperature():
    visits = np.array([3.0, 1.0, 0.0])
    assert visit_policy(visits, 0).tolist() == [1, 0, 0]
    assert np.allclose(visit_policy(visits, 1.0), [0.75, 0.25, 0])
    assert np.allclose(visit_policy(visits, 0.5), [0.9, 0.1, 0])
    # Temperature 0 follows the final choice: ties between the most visited go by value.
    assert visit_policy(np.array([2.0, 2.0]), 0, q=np.array([-0.5, 0.5])).tolist() == [0, 1]
    with pytest.raises(ValueError):
        visit_policy(np.zeros(2))


def test_final_choices():
    assert best_by_visits(np.array([3, 5, 5]), np.array([0.9, 0.1, 0.2])) == 2
    assert best_by_value(np.array([1, 50, 40]), np.array([0.9, 0.1, 0.2])) == 2


def test_summarize_reports_the_root():
    tree = Tree(Nim(), (7, 0))
    tree.root.expand([0, 1], [0.5, 0.5], 0.0)
    tree.root.N, tree.root.W, tree.root.total = [3.0, 1.0], [1.5, -1.0], 4.0
    result = summarize(tree, 4, "visits")
    assert result.best_action == 0 and result.visit_counts.tolist() == [3, 1]
    assert result.root_value == pytest.approx(0.125) and result.simulations == 4
    assert summarize(tree, 4, "value").best_action == 0
    with pytest.raises(ValueError):
        summarize(tree, 4, "luck")


def test_alphazero_policy_counts_kept_visits_towards_the_budget():
    tree = Tree(Nim(), (7, 0))
    settings = PuctSettings(c_puct=1.0)
    first = alphazero_policy([tree], uniform, settings, num_simulations=50,
                             rng=np.random.default_rng(0))[0]
    assert first.result.simulations == 50 and first.action == 0
    assert first.weights.tolist() == [1.0, 0.0]
    tree.advance(first.action)
    kept = tree.root.total
    again = alphazero_policy([tree], uniform, settings, num_simulations=50,
                             rng=np.random.default_rng(0))[0]
    assert kept > 0 and again.result.simulations == 50 - kept
    assert again.result.visit_counts.sum() == 50


def test_alphazero_policy_samples_with_temperature_and_noise():
    settings = PuctSettings(dirichlet_epsilon=0.5, dirichlet_alpha=0.3)
    actions = set()
    for seed in range(20):
        tree = Tree(Nim(), (30, 0))
        out = alphazero_policy([tree], uniform, settings, num_simulations=8,
                               rng=np.random.default_rng(seed), temperatures=[1.0])[0]
        assert out.weights.sum() == pytest.approx(1)
        actions.add(out.action)
    assert actions == {0, 1}


def test_uct_policy_finds_the_winning_move():
    game = Nim(8)
    tree = Tree(game, (8, 0))
    result = uct_policy(tree, RolloutEvaluator(game, seed=1), num_simulations=500,
                        rng=np.random.default_rng(1), c=1.0)
    assert result.best_action == 1 and result.simulations == 500 and result.root_value > 0
