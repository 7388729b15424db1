"""Chance rules: the sampled-outcome rule, and seed 001's four modes on tiny games with exact values."""

import functools

import numpy as np
import pytest

from players.games.go import GoGame
from players.games.pig import Pig
from players.mcts.chance import (
    CHANCE_MODES,
    SAMPLED,
    ExpectedOutcomes,
    Expectimax,
    HiddenChance,
    ProgressiveWidening,
    chance_rule,
    expectation,
    game_for_mode,
    prior_stats,
)
from players.mcts.search import search
from players.mcts.selection import uct
from players.mcts.tree import ChanceNode, Tree
from tests.players.toys import BiasedCoin, Nim, TwoDiceSum, sum_probability


def test_sampled_outcomes_follow_the_probabilities():
    node = ChanceNode("s", 0, [(10, 0.2), (11, 0.5), (12, 0.3)])
    rng = np.random.default_rng(1)
    counts = np.bincount([SAMPLED.select(node, rng) for _ in range(20000)], minlength=3)
    assert np.allclose(counts / counts.sum(), [0.2, 0.5, 0.3], atol=0.015)


def test_sampled_outcome_passes_the_value_up_unchanged():
    node = ChanceNode("s", 0, [(0, 0.5), (1, 0.5)])
    assert SAMPLED.backed_value(node, 1, -0.25) == pytest.approx(-0.25)


# --- the four modes of seed 001 ---------------------------------------------------------

def zero_evaluator(states):
    return None, np.zeros(len(states))


def run_mode(game, mode, simulations, seed=0, c=3.0):
    tree = Tree(game_for_mode(game, mode, seed), game.initial_state())
    search([tree], zero_evaluator, functools.partial(uct, c=c), num_simulations=simulations,
           rng=np.random.default_rng(seed), chance=chance_rule(mode))
    return tree


def edge_q(tree):
    root = tree.root
    return {a: root.W[i] / root.N[i] for i, a in enumerate(root.actions)}


def chance_value(tree, action):
    root = tree.root
    node = root.children[root.actions.index(action)]
    assert node.expected == pytest.approx(expectation(node))
    return node.expected


@pytest.mark.parametrize("mode", CHANCE_MODES)
def test_each_mode_finds_the_exact_values_of_the_two_dice_bets(mode):
    game = TwoDiceSum((5, 8, 10))
    tree = run_mode(game, mode, 3000, c=20.0)
    q = edge_q(tree)
    if mode == "hidden":
        for action in range(3):
            assert q[action] == pytest.approx(game.value(action), abs=0.08)
    else:
        # The chance node's value is the expectation over the outcomes' means.
        for action in range(3):
            assert chance_value(tree, action) == pytest.approx(game.value(action), abs=0.04)
        assert q[0] == pytest.approx(game.value(0), abs=0.05)
    assert max(q, key=q.get) == 0


@pytest.mark.parametrize("mode", CHANCE_MODES)
def test_each_mode_finds_the_exact_value_of_a_call_on_a_biased_coin(mode):
    game = BiasedCoin(0.7)
    q = edge_q(run_mode(game, mode, 1500, seed=3))
    assert q[0] == pytest.approx(game.value(0), abs=0.06)
    assert q[1] == pytest.approx(game.value(1), abs=0.1)


def test_hidden_mode_has_no_chance_nodes_and_keeps_each_outcome_apart():
    game = TwoDiceSum((5,))
    tree = run_mode(game, "hidden", 400)
    reached = tree.root.children[0]
    assert isinstance(reached, dict)
    assert not any(node.is_chance for node in reached.values())
    assert {state[2] for state in reached} == set(range(2, 13))
    assert not HiddenChance(game).is_chance(("throw", 0))


def test_a_game_has_no_chance_unless_it_says_so():
    assert (Nim().has_chance, Nim().stochastic_apply) == (False, False)
    assert (Pig(20).has_chance, Pig(20).stochastic_apply) == (True, False)


def test_hidden_chance_passes_on_what_a_search_and_an_encoder_ask_and_nothing_else():
    pig = HiddenChance(Pig(20), seed=1)
    assert (pig.name, pig.kind, pig.num_actions, pig.target) == ("pig20", "pig", 2, 20)
    assert pig.has_chance and pig.stochastic_apply
    go = HiddenChance(GoGame(5))
    state = go.initial_state()
    assert (go.kind, go.size) == ("go", 5)
    assert np.array_equal(go.legal_mask(state), go.game.legal_mask(state))
    for game, name in ((pig, "max_turns"), (pig, "winner"), (pig, "size"), (go, "komi"),
                       (go, "with_handicap"), (go, "target")):
        assert not hasattr(game, name), name   # the wrapped game's own: not the search's


def test_prior_virtual_visits_use_the_corrected_formula_not_value_times_probability():
    assert prior_stats(0.6, 2.0) == (pytest.approx(1.2), 2.0)
    node = ChanceNode("s", 0, [(0, 0.2), (1, 0.5), (2, 0.3)])
    rule = ExpectedOutcomes(2.0)
    rule.initialise(node, 0.6)
    assert node.W == [pytest.approx(1.2)] * 3 and node.N == [2.0] * 3
    # The buggy W = V * p * n_virtual would pass up 0.6 * sum(p) * p... != 0.6.
    assert expectation(node) == pytest.approx(0.6) and node.expected == pytest.approx(0.6)
    node.N[1] += 1
    node.W[1] += 0.0
    # outcome 1: (0.6 * 2 + 0) / 3 = 0.4
    assert rule.backed_value(node, 1, 0.0) == pytest.approx(0.2 * 0.6 + 0.5 * 0.4 + 0.3 * 0.6)


def test_the_prior_washes_out_with_real_visits():
    node = ChanceNode("s", 0, [(0, 0.5), (1, 0.5)])
    rule = ExpectedOutcomes(1.0)
    rule.initialise(node, 1.0)
    for _ in range(3):
        node.N[0] += 1
        node.W[0] += -1.0
        passed_up = rule.backed_value(node, 0, -1.0)
    # outcome 0: (1 * 1 + 3 * -1) / 4 = -0.5; outcome 1 still the prior 1.0
    assert passed_up == pytest.approx(0.5 * -0.5 + 0.5 * 1.0) == expectation(node)


def _visit(rule, node, rng, value=0.0):
    i = rule.select(node, rng)
    node.N[i] += 1.0
    node.W[i] += value
    node.total += 1.0
    rule.backed_value(node, i, value)
    return i


@pytest.mark.parametrize("rule", [ExpectedOutcomes(1.0), Expectimax(1.0), ProgressiveWidening(0.5, 1.0)],
                         ids=["sampling", "expectimax", "progressive"])
def test_visits_over_outcomes_converge_to_the_probabilities(rule):
    outcomes = [(t, sum_probability(t)) for t in range(2, 13)]
    node = ChanceNode("s", 0, outcomes)
    rule.initialise(node, 0.0)
    rng = np.random.default_rng(5)
    counts = np.zeros(len(outcomes))
    for _ in range(20000):
        counts[_visit(rule, node, rng)] += 1
    assert np.allclose(counts / counts.sum(), [p for _, p in outcomes], atol=0.01)


def test_expectimax_tracks_the_probabilities_without_randomness():
    node = ChanceNode("s", 0, [(0, 0.25), (1, 0.75)])
    rule = Expectimax(1.0)
    rule.initialise(node, 0.0)
    chosen = [_visit(rule, node, np.random.default_rng(k)) for k in range(8)]
    assert chosen.count(0) == 2 and chosen.count(1) == 6


def test_progressive_widening_expands_most_probable_first_at_square_visit_counts():
    outcomes = [(t, sum_probability(t)) for t in range(2, 13)]
    node = ChanceNode("s", 0, outcomes)
    rule = ProgressiveWidening(0.5, 1.0)
    rule.initialise(node, 0.25)
    rng = np.random.default_rng(0)
    widened_at = []
    for visit in range(1, 40):
        before = node.widened
        _visit(rule, node, rng)
        if node.widened > before:
            widened_at.append(visit)
    assert widened_at == [1, 4, 9, 16, 25, 36]
    assert [node.outcomes[i] for i in node.order[:3]] == [7, 6, 8]
    # Unexpanded outcomes are valued by the prior.
    expanded = node.order[:node.widened]
    expected = sum(node.probs[i] * (node.W[i] / node.N[i] if i in expanded else 0.25)
                   for i in range(len(outcomes)))
    assert expectation(node) == pytest.approx(expected) and node.expected == pytest.approx(expected)


def test_unknown_mode_and_bad_settings_are_refused():
    with pytest.raises(ValueError, match="unknown chance mode"):
        chance_rule("dice")
    with pytest.raises(ValueError):
        ProgressiveWidening(alpha=0.0)
    with pytest.raises(ValueError):
        ExpectedOutcomes(-1.0)
