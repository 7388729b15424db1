"""Root parallelism: independent searches of one position merged at the root."""

import numpy as np
import pytest

from players.mcts.parallel import merge_results
from players.mcts.policies import SearchResult


def test_merge_results_adds_visits_and_weights_values():
    a = SearchResult(np.array([3.0, 1.0, 0.0]), np.array([0.5, -1.0, 0.0]), 0.2, 0, 4)
    b = SearchResult(np.array([1.0, 5.0, 0.0]), np.array([-0.5, 0.2, 0.0]), 0.0, 1, 6)
    merged = merge_results([a, b])
    assert merged.visit_counts.tolist() == [4.0, 6.0, 0.0]
    assert merged.q_values == pytest.approx([0.25, (-1.0 + 1.0) / 6, 0.0])
    assert merged.best_action == 1
    assert merged.simulations == 10
    assert merged.root_value == pytest.approx(0.08)
    with pytest.raises(ValueError):
        merge_results([])
