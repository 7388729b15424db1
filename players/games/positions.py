"""Positions from random play, for tests and benchmarks that need many varied states of a game."""

from __future__ import annotations

import numpy as np

from players.games.base import Game


def random_states(game: Game, count: int, seed: int = 0) -> list:
    """count states met in uniformly random games (from the start; a new game after each end).

    The same game and seed give the same states.
    """
    rng = np.random.default_rng(seed)
    states, state = [], game.initial_state()
    while len(states) < count:
        if game.is_terminal(state):
            state = game.initial_state()
        states.append(state)
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    return states
