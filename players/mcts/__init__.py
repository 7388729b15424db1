"""One game-independent MCTS core: trees, selection rules, chance rules, the batched search, and policies."""

from players.mcts.chance import SAMPLED, ChanceRule, SampledOutcome
from players.mcts.evaluators import RolloutEvaluator, random_rollout
from players.mcts.policies import (
    PolicyOutput,
    PuctSettings,
    SearchResult,
    add_dirichlet_noise,
    alphazero_policy,
    best_by_value,
    best_by_visits,
    summarize,
    uct_policy,
    visit_policy,
)
from players.mcts.search import expand_roots, run_round, search
from players.mcts.selection import puct, puct_scores, uct, uct_scores
from players.mcts.tree import ChanceNode, Node, Tree, make_node

__all__ = [
    "SAMPLED", "ChanceNode", "ChanceRule", "Node", "PolicyOutput", "PuctSettings",
    "RolloutEvaluator", "SampledOutcome", "SearchResult", "Tree", "add_dirichlet_noise",
    "alphazero_policy", "best_by_value", "best_by_visits", "expand_roots", "make_node", "puct",
    "puct_scores", "random_rollout", "run_round", "search", "summarize", "uct", "uct_policy",
    "uct_scores", "visit_policy",
]
