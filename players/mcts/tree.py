"""Search-tree nodes: per-edge visit counts, value sums and priors for decisions; sampled outcomes for chance."""

from __future__ import annotations

import numpy as np


class Node:
    """A decision node, created when first reached and expanded when first evaluated.

    Edge statistics are arrays aligned with `actions`; values in value_sum are
    from the point of view of the player to move here (to_play).

    Public attributes:
      state       -- the game state at this node
      to_play     -- the player to move (0 or 1)
      terminal    -- True if the game is over here
      actions     -- legal actions, in the order edges are tried (int array)
      priors      -- prior probability of each edge
      visits      -- visit count of each edge (float, for virtual loss)
      value_sum   -- total value of each edge for to_play
      children    -- dict action -> Node or ChanceNode, built lazily
      visit_count -- simulations that passed through this node
      total_value -- their total value, for to_play
    """

    __slots__ = (
        "actions",
        "children",
        "pending",
        "priors",
        "state",
        "terminal",
        "to_play",
        "total_value",
        "value_sum",
        "visit_count",
        "visits",
    )

    is_chance = False

    def __init__(self, state, to_play: int, terminal: bool = False) -> None:
        self.state = state
        self.to_play = to_play
        self.terminal = terminal
        self.actions: np.ndarray | None = None
        self.priors: np.ndarray | None = None
        self.visits: np.ndarray | None = None
        self.value_sum: np.ndarray | None = None
        self.children: dict[int, Node | ChanceNode] = {}
        self.visit_count = 0
        self.total_value = 0.0
        self.pending = 0

    @property
    def expanded(self) -> bool:
        return self.actions is not None

    def expand(self, actions: np.ndarray, priors: np.ndarray) -> None:
        """Create the edges for actions with their priors (zero visits)."""
        self.actions = np.asarray(actions, dtype=np.int64)
        self.priors = np.asarray(priors, dtype=np.float64)
        self.visits = np.zeros(len(self.actions))
        self.value_sum = np.zeros(len(self.actions))

    def edge_index(self, action: int) -> int:
        """The index of action among the edges.

        Raises ValueError if action is not an edge of this node.
        """
        hits = np.flatnonzero(self.actions == action)
        if len(hits) == 0:
            raise ValueError(f"action {action} is not an edge")
        return int(hits[0])

    def q_values(self, default: float = 0.0) -> np.ndarray:
        """Mean value of each edge for to_play; default where unvisited."""
        q = self.value_sum / np.maximum(self.visits, 1e-300)
        q[self.visits <= 0] = default
        return q

    def value(self) -> float:
        """Mean value of the simulations through this node, for to_play."""
        return self.total_value / self.visit_count if self.visit_count else 0.0


class ChanceNode:
    """A chance node: the outcome is sampled by probability and values pass through unchanged.

    Public attributes:
      state, to_play, outcomes (int array), probs (float array),
      children (dict outcome -> Node or ChanceNode), visit_count, total_value
    """

    __slots__ = (
        "children",
        "outcomes",
        "pending",
        "probs",
        "state",
        "to_play",
        "total_value",
        "visit_count",
    )

    is_chance = True
    terminal = False

    def __init__(self, state, to_play: int, outcomes: list[tuple[int, float]]) -> None:
        self.state = state
        self.to_play = to_play
        self.outcomes = np.array([o for o, _ in outcomes], dtype=np.int64)
        self.probs = np.array([p for _, p in outcomes], dtype=np.float64)
        self.children: dict[int, Node | ChanceNode] = {}
        self.visit_count = 0
        self.total_value = 0.0
        self.pending = 0

    def value(self) -> float:
        return self.total_value / self.visit_count if self.visit_count else 0.0
