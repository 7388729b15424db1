"""UCT and PUCT scores, outcome sampling and final choices on hand-built numbers."""

import math

import numpy as np
import pytest

from players.mcts.selection import (
    add_dirichlet_noise,
    best_by_value,
    best_by_visits,
    puct_score,
    sample_outcome,
    select_edge,
    uct_score,
    visit_policy,
)


def test_uct_score_matches_formula():
    q = np.array([0.5, -0.2])          # win rates 0.75 and 0.4
    visits = np.array([4.0, 10.0])
    scores = uct_score(q, visits, 14.0, np.ones(2), c=1.4)
    expected = [0.75 + 1.4 * math.sqrt(math.log(14) / 4),
                0.4 + 1.4 * math.sqrt(math.log(14) / 10)]
    assert scores == pytest.approx(expected)


def test_uct_unvisited_edges_come_first():
    scores = uct_score(np.array([1.0, 0.0]), np.array([50.0, 0.0]), 50.0, np.ones(2), c=0.1)
    assert select_edge(scores) == 1


def test_uct_exploration_constant_changes_choice():
    q = np.array([0.6, 0.2])
    visits = np.array([100.0, 5.0])
    assert select_edge(uct_score(q, visits, 105.0, np.ones(2), c=0.0)) == 0
    assert select_edge(uct_score(q, visits, 105.0, np.ones(2), c=2.0)) == 1


def test_puct_score_matches_formula():
    q = np.array([0.1, 0.0])
    visits = np.array([3.0, 0.0])
    priors = np.array([0.25, 0.75])
    scores = puct_score(q, visits, 3.0, priors, c_puct=2.0, fpu=-0.5)
    assert scores == pytest.approx([0.1 + 2.0 * 0.25 * math.sqrt(3) / 4,
                                    -0.5 + 2.0 * 0.75 * math.sqrt(3) / 1])


def test_select_edge_breaks_ties_to_first():
    assert select_edge(np.array([1.0, 3.0, 3.0])) == 1


def test_best_by_visits_breaks_ties_by_value():
    assert best_by_visits(np.array([5, 9, 9]), np.array([0.9, 0.1, 0.3])) == 2


def test_best_by_value_ignores_barely_visited_edges():
    visits = np.array([100.0, 1.0, 40.0])
    q = np.array([0.2, 1.0, 0.5])
    assert best_by_value(visits, q) == 2


def test_sample_outcome_frequencies():
    rng = np.random.default_rng(0)
    probs = np.array([0.2, 0.5, 0.3])
    draws = np.bincount([sample_outcome(probs, rng) for _ in range(6000)], minlength=3)
    assert draws / 6000 == pytest.approx(probs, abs=0.03)


def test_visit_policy_temperature():
    counts = np.array([1.0, 3.0, 0.0])
    assert visit_policy(counts, 1.0) == pytest.approx([0.25, 0.75, 0.0])
    assert visit_policy(counts, 0) == pytest.approx([0.0, 1.0, 0.0])
    with pytest.raises(ValueError):
        visit_policy(np.zeros(3))


def test_dirichlet_noise_keeps_a_distribution():
    rng = np.random.default_rng(1)
    mixed = add_dirichlet_noise(np.array([1.0, 0.0, 0.0]), 0.3, 0.25, rng)
    assert mixed.sum() == pytest.approx(1.0)
    assert mixed[0] >= 0.75
    assert mixed[1:].sum() > 0
