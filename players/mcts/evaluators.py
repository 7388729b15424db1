"""Evaluators for the search that need no network: random rollouts to the end of the game."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from players.games.base import Game

# rollout(state, rng) -> the result for to_play(state) of one game played out from state.
Rollout = Callable[[object, random.Random], float]


def random_rollout(game: Game, state, rng: random.Random) -> float:
    """Play uniformly random legal actions (chance outcomes by probability) to the end.

    Returns the result for the player to move in state (+1 win, -1 loss, 0 draw).
    """
    player = game.to_play(state)
    while not game.is_terminal(state):
        if game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
    value = game.terminal_value(state)
    return value if game.to_play(state) == player else -value


class RolloutEvaluator:
    """evaluate(states) for the search: uniform priors and the mean of `rollouts` random playouts.

    rollout, if given, replaces random_rollout (a game's own faster one).
    chance_rollouts (default: rollouts) is the number for a chance state,
    whose value the chance rules that start outcomes from a prior use as
    that prior (one rollout is a very noisy prior).

    Public attributes:
      game, rollouts, chance_rollouts, positions (states evaluated so far)
    """

    def __init__(self, game: Game, *, rollouts: int = 1, seed: int | None = None,
                 rollout: Rollout | None = None, chance_rollouts: int | None = None) -> None:
        if rollouts < 1 or (chance_rollouts is not None and chance_rollouts < 1):
            raise ValueError("rollouts must be at least 1")
        self.game = game
        self.rollouts = rollouts
        self.chance_rollouts = rollouts if chance_rollouts is None else chance_rollouts
        self.rng = random.Random(seed)
        self._rollout = rollout or (lambda state, rng: random_rollout(game, state, rng))
        self.positions = 0

    def __call__(self, states: Sequence) -> tuple[None, np.ndarray]:
        values = np.empty(len(states))
        is_chance = self.game.is_chance
        for k, state in enumerate(states):
            count = self.chance_rollouts if is_chance(state) else self.rollouts
            values[k] = sum(self._rollout(state, self.rng) for _ in range(count)) / count
        self.positions += len(states)
        return None, values


class AfterstateEvaluator:
    """Values chance states by the expectation of the wrapped evaluator's values of their outcomes.

    A network trained on decision states has never seen a chance state, so
    its value there is an extrapolation; the chance rules that start
    outcomes from a prior (players.mcts.chance) would then start them from
    it. Here each chance state of a batch is replaced by the states its
    outcomes lead to, evaluated in the same call, and valued
    sum_i p_i * v_i, each v_i seen from the chance state's player (a
    finished game's result where an outcome ends it). A chance state's priors
    are uniform (the search doesn't use them). Decision states pass through.

    Public attributes:
      game, evaluate (the wrapped evaluator)
    """

    def __init__(self, game: Game, evaluate: Callable) -> None:
        self.game = game
        self.evaluate = evaluate

    def __call__(self, states: Sequence) -> tuple[np.ndarray | None, np.ndarray]:
        game = self.game
        batch: list = []
        plans: list = []
        for state in states:
            if not game.is_chance(state):
                plans.append(len(batch))
                batch.append(state)
                continue
            player = game.to_play(state)
            parts = []
            for outcome, p in game.chance_outcomes(state):
                after = game.apply(state, outcome)
                sign = 1.0 if game.to_play(after) == player else -1.0
                if game.is_terminal(after):
                    parts.append((None, p, sign * game.terminal_value(after)))
                else:
                    parts.append((len(batch), p, sign))
                    batch.append(after)
            plans.append(parts)
        priors, values = self.evaluate(batch) if batch else (None, np.empty(0))
        out_values = np.empty(len(states))
        out_priors = None if priors is None else np.empty((len(states), np.shape(priors)[1]))
        for k, plan in enumerate(plans):
            if isinstance(plan, int):
                out_values[k] = values[plan]
                if out_priors is not None:
                    out_priors[k] = priors[plan]
                continue
            # (index, p, factor): factor is the known result when index is None, else the sign.
            out_values[k] = sum(p * (factor if index is None else factor * float(values[index]))
                                for index, p, factor in plan)
            if out_priors is not None:
                out_priors[k] = 1.0 / out_priors.shape[1]
        return out_priors, out_values
