"""Public search API: game-independent MCTS with pluggable selection and evaluation."""

from players.mcts.search import SearchResult, make_node, search
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
from players.mcts.tree import ChanceNode, Node

__all__ = [
    "ChanceNode", "Node", "SearchResult", "add_dirichlet_noise", "best_by_value",
    "best_by_visits", "make_node", "puct_score", "sample_outcome", "search", "select_edge",
    "uct_score", "visit_policy",
]
