"""Search trees: decision nodes with per-edge statistics, chance nodes with per-outcome statistics."""

from __future__ import annotations

import numpy as np

from players.games.base import Game

# Nodes with at least this many edges keep their statistics in numpy arrays.
VECTOR_EDGES = 32


class Node:
    """A decision node, created when first reached and expanded when first evaluated.

    Edge statistics are aligned with `actions`: Python lists on nodes of
    fewer than VECTOR_EDGES edges (a Python loop over tens of edges beats
    numpy's per-call cost), float64 numpy arrays on wider ones (a Go board's
    82), so that the selection rules score them without converting. Values
    in W are from the point of view of to_play, the player choosing here.

    Public attributes:
      state          -- the game state at this node
      to_play        -- the player to move (0 or 1)
      terminal       -- True if the game is over here
      terminal_value -- the result for to_play if terminal, else 0
      actions        -- legal actions once expanded (None before)
      prior          -- prior probability of each edge (list, or array if wide)
      N              -- visits of each edge (float: virtual loss is added in; list or array)
      W              -- value sum of each edge, for to_play (list or array)
      total          -- sum(N)
      children       -- Node or ChanceNode per edge, None until first reached; for a game
                        whose apply draws chance inside (stochastic_apply), a dict from
                        each state reached to its node
      value          -- the evaluator's value at expansion, for to_play
      pending        -- True while the node waits in a batch for its evaluation
    """

    __slots__ = ("state", "to_play", "terminal", "terminal_value", "actions", "prior", "N", "W",
                 "total", "children", "value", "pending")

    is_chance = False

    def __init__(self, state, to_play: int, terminal: bool = False,
                 terminal_value: float = 0.0) -> None:
        self.state = state
        self.to_play = to_play
        self.terminal = terminal
        self.terminal_value = terminal_value
        self.actions: list[int] | None = None
        self.prior: list[float] | np.ndarray = []
        self.N: list[float] | np.ndarray = []
        self.W: list[float] | np.ndarray = []
        self.total = 0.0
        self.children: list[Node | ChanceNode | None] = []
        self.value = 0.0
        self.pending = False

    @property
    def expanded(self) -> bool:
        return self.actions is not None

    def expand(self, actions: list[int] | np.ndarray, prior: list[float] | np.ndarray,
               value: float, order: list[int] | np.ndarray | None = None) -> None:
        """Create one edge per action with its prior, zero visits, and the node's value.

        order, if given, is a permutation of range(len(actions)): the edges are
        created in that order. Wide nodes keep prior, N and W as numpy arrays.
        """
        k = len(actions)
        if k >= VECTOR_EDGES:
            acts = np.asarray(actions)
            prior_array = np.array(prior, dtype=np.float64)
            if order is not None:
                acts, prior_array = acts[order], prior_array[order]
            self.actions = acts.tolist()
            self.prior = prior_array
            self.N = np.zeros(k)
            self.W = np.zeros(k)
        else:
            acts = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
            prior_list = prior.tolist() if isinstance(prior, np.ndarray) else list(prior)
            if order is not None:
                positions = order.tolist() if isinstance(order, np.ndarray) else order
                acts = [acts[i] for i in positions]
                prior_list = [prior_list[i] for i in positions]
            self.actions = acts
            self.prior = prior_list
            self.N = [0.0] * k
            self.W = [0.0] * k
        self.total = 0.0
        self.children = [None] * k
        self.value = float(value)

    def q_value(self) -> float:
        """Mean backed-up value for to_play (the evaluator's value if unvisited)."""
        if self.total <= 0:
            return self.value
        w = self.W.tolist() if isinstance(self.W, np.ndarray) else self.W
        return sum(w) / self.total


class ChanceNode:
    """A chance node: one edge per outcome, with its probability and statistics.

    Created expanded (the game lists the outcomes). W holds value sums from
    the point of view of to_play, the player to move in the chance state.
    Chance rules that start outcomes from a prior (players.mcts.chance) have
    the node evaluated first (value) and may add virtual visits to N and W;
    total counts real visits only.

    Public attributes:
      state, to_play, outcomes (list of actions), probs, N, W, total,
      children (one per outcome, None until first reached),
      value   -- the evaluator's value of the chance state for to_play, None until evaluated
      widened -- outcomes expanded so far (progressive widening), in `order`
      order   -- outcome indices by descending probability (set by rules that widen)
      expected -- the value the node passes up under rules that pass up an expectation,
                  kept up to date one outcome at a time
      pending -- True while the node waits in a batch for its evaluation
    """

    __slots__ = ("state", "to_play", "outcomes", "probs", "N", "W", "total", "children",
                 "value", "widened", "order", "expected", "pending")

    is_chance = True
    terminal = False
    expanded = True

    def __init__(self, state, to_play: int, outcomes: list[tuple[int, float]]) -> None:
        self.state = state
        self.to_play = to_play
        self.outcomes = [int(o) for o, _ in outcomes]
        self.probs = [float(p) for _, p in outcomes]
        self.N = [0.0] * len(self.outcomes)
        self.W = [0.0] * len(self.outcomes)
        self.total = 0.0
        self.children: list[Node | ChanceNode | None] = [None] * len(self.outcomes)
        self.value: float | None = None
        self.widened = 0
        self.order: list[int] = []
        self.expected = 0.0
        self.pending = False

    @property
    def actions(self) -> list[int]:
        return self.outcomes

    def q_value(self) -> float:
        """Mean backed-up value for to_play (0 if unvisited)."""
        return sum(self.W) / self.total if self.total > 0 else 0.0


def make_node(game: Game, state) -> Node | ChanceNode:
    """A fresh node for state: a chance node if the game says so, else an unexpanded decision node."""
    if game.is_terminal(state):
        return Node(state, game.to_play(state), True, game.terminal_value(state))
    if game.is_chance(state):
        return ChanceNode(state, game.to_play(state), game.chance_outcomes(state))
    return Node(state, game.to_play(state))


class Tree:
    """One search tree: a game, its root, and the simulations run since the root was set.

    Public attributes:
      game, root, simulations
    """

    def __init__(self, game: Game, state) -> None:
        self.game = game
        self.root = make_node(game, state)
        self.simulations = 0

    @property
    def state(self):
        return self.root.state

    def advance(self, action: int) -> None:
        """Make the child reached by action (or chance outcome) the new root, keeping its subtree.

        After an action the tree never tried, or one whose outcome the game
        draws inside apply (stochastic_apply), the new root is a fresh node.
        A chance root can't be searched: advance it by its outcome first.
        """
        root = self.root
        child = None
        if root.expanded and not root.terminal and action in root.actions:
            child = root.children[root.actions.index(action)]
        if child is None or isinstance(child, dict):
            child = make_node(self.game, self.game.apply(root.state, action))
        self.root = child
        self.simulations = 0

    def visit_counts(self) -> np.ndarray:
        """Root visits over all actions [num_actions] (float)."""
        visits = np.zeros(self.game.num_actions)
        if self.root.expanded and not self.root.terminal:
            visits[self.root.actions] = self.root.N
        return visits

    def q_values(self) -> np.ndarray:
        """Mean value of each root action for the root player [num_actions]; 0 where unvisited."""
        q = np.zeros(self.game.num_actions)
        root = self.root
        if root.expanded and not root.terminal:
            n = np.asarray(root.N)
            q[root.actions] = np.where(n > 0, np.asarray(root.W) / np.maximum(n, 1e-300), 0.0)
        return q
