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
