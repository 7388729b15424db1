"""Rollout evaluators: values are for the player to move, and average to the game's true value."""

import random

import numpy as np
import pytest

from players.mcts.evaluators import RolloutEvaluator, random_rollout
from tests.players.toys import Lottery, Nim


def test_rollout_result_is_for_the_player_to_move():
    game = Nim()
    # One stone left: the mover takes it and wins, whatever the dice.
    assert random_rollout(game, (1, 0), random.Random(0)) == 1.0
    assert random_rollout(game, (1, 1), random.Random(0)) == 1.0


def test_rollouts_through_chance_states_average_to_the_expectation():
    game = Lottery((0.3, 0.8))
    evaluate = RolloutEvaluator(game, rollouts=4000, seed=2)
    priors, values = evaluate([("draw", 0), ("draw", 1)])
    assert priors is None
    assert values == pytest.approx([-0.4, 0.6], abs=0.05)
    assert evaluate.positions == 2


def test_a_games_own_rollout_replaces_the_generic_one():
    evaluate = RolloutEvaluator(Nim(), rollout=lambda state, rng: 0.5)
    assert np.array_equal(evaluate([(5, 0), (4, 1)])[1], [0.5, 0.5])


def test_chance_states_get_their_own_number_of_rollouts():
    calls = []

    def rollout(state, rng):
        calls.append(state)
        return 1.0

    evaluator = RolloutEvaluator(Lottery(), rollout=rollout, chance_rollouts=5)
    _, values = evaluator([("choose",), ("draw", 0)])
    assert list(values) == [1.0, 1.0] and calls.count(("choose",)) == 1 and calls.count(("draw", 0)) == 5


def test_afterstate_evaluator_values_a_chance_state_by_its_outcomes():
    from players.games.pig import Pig, PigState, die_action
    from players.mcts.evaluators import AfterstateEvaluator

    game = Pig(50, max_turns=100)

    def evaluate(states):
        # The mover's value: its turn total / 10 (so after a 1 the other player, on 0, gets 0).
        return np.full((len(states), 2), 0.5), np.array([s.turn_total / 10.0 for s in states])

    rolling = PigState((0, 0), 4, 0, 3, True)
    priors, values = AfterstateEvaluator(game, evaluate)([PigState((0, 0), 4, 0, 3), rolling])
    expected = sum((4 + face) / 10.0 for face in range(2, 7)) / 6.0  # a 1: the other's 0, seen as -0
    assert values[0] == pytest.approx(0.4) and values[1] == pytest.approx(expected)
    assert priors.shape == (2, 2)
    # An outcome that ends the game (the turn limit) counts its result.
    last = PigState((10, 0), 4, 0, 99, True)
    _, values = AfterstateEvaluator(game, evaluate)([last])
    assert game.is_terminal(game.apply(last, die_action(1)))
    assert values[0] == pytest.approx(sum((4 + face) / 10.0 for face in range(2, 7)) / 6.0)
