"""Tests for positions from random play."""

from players.games.othello import Othello
from players.games.positions import random_states
from tests.players.toys import Nim


def test_random_states_are_reproducible_and_start_again_after_each_end():
    game = Nim()
    states = random_states(game, 50, seed=4)
    assert states == random_states(game, 50, seed=4) != random_states(game, 50, seed=5)
    assert all(not game.is_terminal(s) for s in states)
    starts = [i for i, s in enumerate(states) if s == game.initial_state()]
    assert starts[0] == 0 and len(starts) > 2        # several games, each from the start


def test_random_states_follow_legal_moves():
    game = Othello(6)
    states = random_states(game, 30, seed=2)
    for before, after in zip(states, states[1:]):
        successors = [game.apply(before, a) for a in game.legal_actions(before)]
        assert after in successors or after == game.initial_state()
