"""The game-independent search: backup on hand-built trees, tiny games with known answers, chance nodes."""

from functools import partial

import numpy as np
import pytest

from players.games.base import Game
from players.mcts.search import _backup, search
from players.mcts.selection import puct_score, uct_score
from players.mcts.tree import Node


class Nim(Game):
    """Take 1 or 2 from a pile; whoever takes the last stone wins. State: (pile, to_play)."""

    name = "nim"
    num_actions = 2  # action a takes a + 1

    def __init__(self, pile):
        self.pile = pile

    def initial_state(self):
        return (self.pile, 0)

    def to_play(self, state):
        return state[1]

    def legal_actions(self, state):
        return [a for a in (0, 1) if a + 1 <= state[0]]

    def apply(self, state, action):
        return (state[0] - action - 1, 1 - state[1])

    def is_terminal(self, state):
        return state[0] == 0

    def terminal_value(self, state):
        return -1.0  # the player to move at an empty pile has lost


class Lottery(Game):
    """One choice between two tickets, then a chance draw: ticket a wins with probability P[a]."""

    name = "lottery"
    num_actions = 2
    P = (0.3, 0.7)

    def initial_state(self):
        return ("choose",)

    def to_play(self, state):
        return 0

    def legal_actions(self, state):
        return [0, 1]

    def apply(self, state, action):
        if state[0] == "choose":
            return ("draw", action)
        return ("over", action)  # action is the outcome: 1 win, 0 loss

    def is_terminal(self, state):
        return state[0] == "over"

    def terminal_value(self, state):
        return 1.0 if state[1] == 1 else -1.0

    def is_chance(self, state):
        return state[0] == "draw"

    def chance_outcomes(self, state):
        p = self.P[state[1]]
        return [(1, p), (0, 1.0 - p)]


def rollout_fn(game, rng):
    def evaluate(states):
        results = []
        for state in states:
            player = game.to_play(state)
            while not game.is_terminal(state):
                actions = game.legal_actions(state)
                state = game.apply(state, actions[rng.integers(len(actions))])
            value = game.terminal_value(state)
            results.append((None, value if game.to_play(state) == player else -value))
        return results
    return evaluate


def zero_fn(states):
    return [(None, 0.0) for _ in states]


def test_backup_alternates_perspective():
    root = Node("root", to_play=0)
    root.expand(np.array([0, 1]), np.array([0.5, 0.5]))
    child = Node("child", to_play=1)
    child.expand(np.array([0]), np.array([1.0]))
    leaf = Node("leaf", to_play=0)
    _backup(leaf, [(root, 1), (child, 0)], 1.0, virtual_loss=0.0)
    assert leaf.total_value == 1.0 and leaf.visit_count == 1
    assert child.value_sum[0] == -1.0 and child.visits[0] == 1
    assert root.value_sum.tolist() == [0.0, 1.0]
    assert root.visits.tolist() == [0.0, 1.0]
    assert root.value() == 1.0


def test_backup_removes_virtual_loss():
    root = Node("root", to_play=0)
    root.expand(np.array([0]), np.array([1.0]))
    root.visits[0] += 3.0   # as _descend charges it
    root.value_sum[0] -= 3.0
    leaf = Node("leaf", to_play=1)
    _backup(leaf, [(root, 0)], -0.5, virtual_loss=3.0)
    assert root.visits[0] == 1.0
    assert root.value_sum[0] == pytest.approx(0.5)


@pytest.mark.parametrize("pile, winning_take", [(4, 0), (5, 1), (7, 0), (8, 1)])
@pytest.mark.parametrize("batch_size", [1, 8])
def test_nim_known_answers(pile, winning_take, batch_size):
    game = Nim(pile)
    rng = np.random.default_rng(pile)
    result = search(game, game.initial_state(), evaluate_fn=rollout_fn(game, rng),
                    select_fn=partial(uct_score, c=1.0), num_simulations=600,
                    batch_size=batch_size, rng=rng)
    assert result.best_action == winning_take
    assert result.visit_counts.sum() == pytest.approx(599)  # the first evaluates the root
    assert result.root_value > 0


def test_lost_nim_position_has_negative_value():
    game = Nim(6)
    rng = np.random.default_rng(3)
    result = search(game, game.initial_state(), evaluate_fn=zero_fn,
                    select_fn=partial(uct_score, c=1.0), num_simulations=800, rng=rng)
    assert result.root_value < 0


def test_chance_nodes_average_outcomes():
    game = Lottery()
    rng = np.random.default_rng(5)
    result = search(game, game.initial_state(), evaluate_fn=zero_fn,
                    select_fn=partial(uct_score, c=2.0), num_simulations=3000, rng=rng)
    assert result.best_action == 1
    ticket0 = result.root.children[0]
    assert ticket0.is_chance
    assert set(ticket0.children) == {0, 1}
    # The mean value of each ticket converges on 2p - 1.
    assert result.q_values[1] == pytest.approx(0.4, abs=0.06)
    assert result.q_values[0] == pytest.approx(-0.4, abs=0.2)


def test_zero_priors_get_no_edge_and_priors_guide_puct():
    game = Nim(5)

    def evaluate(states):
        return [(np.array([0.0, 1.0]), 0.0) for _ in states]

    rng = np.random.default_rng(0)
    result = search(game, game.initial_state(), evaluate_fn=evaluate,
                    select_fn=partial(puct_score, c_puct=1.5), num_simulations=50, rng=rng)
    assert result.root.actions.tolist() == [1]
    assert result.visit_counts[0] == 0


def test_root_dirichlet_noise_changes_root_priors():
    game = Nim(9)
    rng = np.random.default_rng(2)
    result = search(game, game.initial_state(), evaluate_fn=zero_fn,
                    select_fn=partial(puct_score, c_puct=1.5), num_simulations=5, rng=rng,
                    root_dirichlet=(0.3, 0.5))
    assert result.root.priors.sum() == pytest.approx(1.0)
    assert not np.allclose(result.root.priors, 0.5)


def test_same_seed_same_search():
    game = Nim(10)
    runs = []
    for _ in range(2):
        rng = np.random.default_rng(11)
        runs.append(search(game, game.initial_state(), evaluate_fn=rollout_fn(game, rng),
                           select_fn=partial(uct_score, c=1.4), num_simulations=200,
                           rng=rng).visit_counts)
    assert np.array_equal(runs[0], runs[1])


def test_tree_reuse_continues_counts():
    game = Nim(7)
    rng = np.random.default_rng(4)
    first = search(game, game.initial_state(), evaluate_fn=zero_fn,
                   select_fn=partial(uct_score, c=1.0), num_simulations=100, rng=rng)
    second = search(game, game.initial_state(), evaluate_fn=zero_fn,
                    select_fn=partial(uct_score, c=1.0), num_simulations=50, rng=rng,
                    root=first.root)
    assert second.visit_counts.sum() == pytest.approx(149)


def test_terminal_root_is_refused():
    game = Nim(0)
    with pytest.raises(ValueError):
        search(game, game.initial_state(), evaluate_fn=zero_fn,
               select_fn=partial(uct_score, c=1.0), num_simulations=10,
               rng=np.random.default_rng(0))


def test_root_allocation_spreads_batches_over_root_edges():
    from players.mcts.allocation import allocation_fn

    game = Nim(9)
    rng = np.random.default_rng(8)
    result = search(game, game.initial_state(), evaluate_fn=zero_fn,
                    select_fn=partial(uct_score, c=1.0), num_simulations=401, batch_size=20,
                    rng=rng, root_allocation_fn=allocation_fn("remainder", 4, False))
    assert result.visit_counts.tolist() == [200, 200]
