"""Chance rules: the sampled-outcome rule draws outcomes by probability and passes values up."""

import numpy as np
import pytest

from players.mcts.chance import SAMPLED
from players.mcts.tree import ChanceNode


def test_sampled_outcomes_follow_the_probabilities():
    node = ChanceNode("s", 0, [(10, 0.2), (11, 0.5), (12, 0.3)])
    rng = np.random.default_rng(1)
    counts = np.bincount([SAMPLED.select(node, rng) for _ in range(20000)], minlength=3)
    assert np.allclose(counts / counts.sum(), [0.2, 0.5, 0.3], atol=0.015)


def test_sampled_outcome_passes_the_value_up_unchanged():
    node = ChanceNode("s", 0, [(0, 0.5), (1, 0.5)])
    assert SAMPLED.backed_value(node, 1, -0.25) == pytest.approx(-0.25)
