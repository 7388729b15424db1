"""The batched search: backup signs, virtual loss, rounds across trees, collisions, known answers."""

import functools

import numpy as np
import pytest

from players.mcts.chance import SAMPLED
from players.mcts.evaluators import RolloutEvaluator
from players.mcts.search import backup, descend, expand, run_round, search
from players.mcts.selection import puct, uct
from players.mcts.tree import Node, Tree
from tests.players.toys import Lottery, Nim

PUCT = functools.partial(puct, c_puct=1.0)
UCT = functools.partial(uct, c=1.0)


class Recorder:
    """Uniform priors and a constant value; records the batch of every call."""

    def __init__(self, num_actions: int, value: float = 0.0) -> None:
        self.num_actions, self.value, self.batches = num_actions, value, []

    def __call__(self, states):
        self.batches.append(list(states))
        n = len(states)
        return np.full((n, self.num_actions), 1.0 / self.num_actions), np.full(n, self.value)


def test_expand_drops_zero_priors_unless_all_are_zero():
    game = Nim()
    node = Node((5, 0), 0)
    expand(game, node, np.array([0.0, 2.0]), 0.1, None)
    assert node.actions == [1] and node.prior == [1.0]
    node = Node((5, 0), 0)
    expand(game, node, np.array([0.0, 0.0]), 0.1, None)
    assert node.actions == [0, 1] and node.prior == [0.5, 0.5]


def test_descend_charges_virtual_loss_and_backup_takes_it_back():
    game = Nim()
    tree = Tree(game, (5, 0))
    tree.root.expand([0, 1], [0.2, 0.8], 0.0)
    path, leaf = descend(tree, PUCT, 2.0, np.random.default_rng(0), SAMPLED)
    assert path == [(tree.root, 1)] and leaf.state == (3, 1)
    assert tree.root.N == [0, 2] and tree.root.W == [0, -2] and tree.root.total == 2
    backup(path, leaf.to_play, -0.5, 2.0, SAMPLED)
    assert tree.root.N == [0, 1] and tree.root.W == [0, pytest.approx(0.5)]
    assert tree.root.total == 1


def test_backup_alternates_sign_by_player():
    a, b = Node("a", 0), Node("b", 1)
    a.expand([0, 1], [0.5, 0.5], 0.0)
    b.expand([0, 1], [0.5, 0.5], 0.0)
    backup([(a, 0), (b, 1)], 0, 0.6, 0.0, SAMPLED)
    assert a.W == [pytest.approx(0.6), 0.0]       # a's mover is the leaf's mover
    assert b.W == [0.0, pytest.approx(-0.6)]
    assert a.N == [1.0, 0.0] and b.total == 1.0


def test_search_leaves_no_virtual_loss_anywhere():
    tree = Tree(Nim(), (7, 0))
    run = search([tree], Recorder(2, 0.25), PUCT, num_simulations=30, leaves_per_tree=4,
                 virtual_loss=3.0, rng=np.random.default_rng(0))
    assert run == [30] and tree.simulations == 30 and sum(tree.root.N) == 30

    def check(node):
        if node.terminal or not node.expanded:
            return
        assert all(n == round(n) for n in node.N)
        assert node.total == pytest.approx(sum(node.N))
        for child, n in zip(node.children, node.N):
            if child is not None and child.expanded and not child.terminal:
                assert n == pytest.approx(sum(child.N) + 1)
            if child is not None:
                check(child)
    check(tree.root)


def test_many_trees_share_one_call_per_round():
    evaluate = Recorder(2)
    trees = [Tree(Nim(), (30, 0)) for _ in range(3)]
    search(trees, evaluate, PUCT, num_simulations=10, rng=np.random.default_rng(2))
    assert len(evaluate.batches) == 11          # the roots' expansion, then one call a round
    assert all(len(batch) == 3 for batch in evaluate.batches)
    assert all(sum(t.root.N) == 10 for t in trees)


def test_collisions_are_taken_back():
    evaluate = Recorder(2)
    tree = Tree(Nim(), (2, 0))
    search([tree], evaluate, PUCT, num_simulations=20, leaves_per_tree=8,
           rng=np.random.default_rng(3))
    assert sum(tree.root.N) == 20
    assert max(len(b) for b in evaluate.batches) <= 2   # the tree has one non-terminal leaf


def test_round_respects_budgets():
    trees = [Tree(Nim(), (30, 0)), Tree(Nim(), (30, 0))]
    evaluate = Recorder(2)
    rng = np.random.default_rng(6)
    search(trees, evaluate, PUCT, num_simulations=1, rng=rng)
    done = run_round(trees, evaluate, PUCT, [2, 0], leaves_per_tree=4, rng=rng)
    assert done == [2, 0]                          # virtual loss sent the two leaves apart
    assert trees[0].root.N == [2, 1] and sum(trees[1].root.N) == 1
    assert len(evaluate.batches[-1]) == 2


@pytest.mark.parametrize("pile, winning_take", [(4, 0), (5, 1), (7, 0), (8, 1)])
@pytest.mark.parametrize("leaves", [1, 8])
def test_nim_known_answers_with_rollouts(pile, winning_take, leaves):
    game = Nim(pile)
    tree = Tree(game, game.initial_state())
    search([tree], RolloutEvaluator(game, seed=pile), UCT, num_simulations=600,
           leaves_per_tree=leaves, rng=np.random.default_rng(pile), shuffle=True)
    assert int(np.argmax(tree.visit_counts())) == winning_take
    assert tree.root.q_value() > 0


def test_nim_known_answer_with_priors_and_a_constant_value():
    tree = Tree(Nim(), (7, 0))
    search([tree], Recorder(2), PUCT, num_simulations=400, rng=np.random.default_rng(1))
    assert int(np.argmax(tree.visit_counts())) == 0     # leave a multiple of 3
    assert tree.root.q_value() > 0.3


def test_lost_position_has_negative_value():
    tree = Tree(Nim(6), (6, 0))
    search([tree], Recorder(2), UCT, num_simulations=800, rng=np.random.default_rng(3))
    assert tree.root.q_value() < 0


def test_chance_nodes_average_outcomes():
    tree = Tree(Lottery(), ("choose",))
    search([tree], Recorder(2), functools.partial(uct, c=2.0), num_simulations=3000,
           rng=np.random.default_rng(5))
    assert int(np.argmax(tree.visit_counts())) == 1
    ticket = tree.root.children[0]
    assert ticket.is_chance and all(child is not None for child in ticket.children)
    # Each outcome is visited in proportion to its probability; each ticket's value is 2p - 1.
    assert ticket.N[0] / ticket.total == pytest.approx(0.3, abs=0.1)
    q = tree.q_values()
    assert q[1] == pytest.approx(0.4, abs=0.06) and q[0] == pytest.approx(-0.4, abs=0.2)


def test_same_seed_same_search():
    runs = []
    for _ in range(2):
        tree = Tree(Nim(10), (10, 0))
        search([tree], RolloutEvaluator(Nim(10), seed=4), UCT, num_simulations=200,
               rng=np.random.default_rng(11), shuffle=True)
        runs.append(tree.visit_counts())
    assert np.array_equal(runs[0], runs[1])


def test_kept_subtree_adds_to_the_counts():
    tree = Tree(Nim(), (7, 0))
    search([tree], Recorder(2), UCT, num_simulations=100, rng=np.random.default_rng(4))
    run = search([tree], Recorder(2), UCT, num_simulations=50, rng=np.random.default_rng(4))
    assert run == [50] and tree.visit_counts().sum() == 150 and tree.simulations == 150


def test_terminal_root_runs_nothing_and_chance_root_is_refused():
    assert search([Tree(Nim(), (0, 0))], Recorder(2), UCT, num_simulations=10,
                  rng=np.random.default_rng(0)) == [0]
    with pytest.raises(ValueError):
        search([Tree(Lottery(), ("draw", 0))], Recorder(2), UCT, num_simulations=10,
               rng=np.random.default_rng(0))


def test_deadline_stops_after_a_round():
    tree = Tree(Nim(30), (30, 0))
    run = search([tree], Recorder(2), UCT, num_simulations=10_000, leaves_per_tree=4,
                 rng=np.random.default_rng(0), deadline=0.0)
    assert 1 <= run[0] <= 4


def test_root_allocation_spreads_rounds_over_root_edges():
    from players.mcts.allocation import allocation_fn

    tree = Tree(Nim(9), (9, 0))
    search([tree], Recorder(2), UCT, num_simulations=400, leaves_per_tree=20,
           rng=np.random.default_rng(8), root_allocation=allocation_fn("remainder", 4, False))
    visits = tree.visit_counts()
    # A descent that meets a leaf waiting for its evaluation is dropped, so the
    # split is even up to those; UCT alone visits the move that wins more.
    assert abs(visits[0] - visits[1]) <= 0.05 * visits.sum()
