"""Tests for state encodings and the 8 board symmetries (no torch needed)."""

from __future__ import annotations

import numpy as np
import pytest

from players.games.othello import Othello
from players.nets.encoding import (NUM_SYMMETRIES, encoder_for, inverse_symmetry, policy_permutation,
                                   transform_example, transform_planes)


def random_states(game, count: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    states = []
    state = game.initial_state()
    while len(states) < count:
        if game.is_terminal(state):
            state = game.initial_state()
        states.append(state)
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    return states


def bits_from_plane(plane: np.ndarray) -> int:
    flat = plane.ravel()
    return sum(1 << i for i in range(len(flat)) if flat[i])


def test_othello_planes_round_trip():
    game = Othello(6)
    encoder = encoder_for(game)
    states = random_states(game, 40)
    planes = encoder.encode(states)
    assert planes.shape == (40, 3, 6, 6) and planes.dtype == np.float32
    for state, p in zip(states, planes):
        assert bits_from_plane(p[0]) == state.own
        assert bits_from_plane(p[1]) == state.opp
        assert bits_from_plane(p[2]) == state.moves
        rebuilt = game.make_state(*((bits_from_plane(p[0]), bits_from_plane(p[1]))
                                    if state.to_play == 0 else
                                    (bits_from_plane(p[1]), bits_from_plane(p[0]))), state.to_play)
        assert rebuilt == state


def test_legal_mask_matches_legal_actions():
    game = Othello(4)
    encoder = encoder_for(game)
    states = random_states(game, 60, seed=3)
    mask = encoder.legal_mask(states)
    for state, row in zip(states, mask):
        assert sorted(np.flatnonzero(row).tolist()) == sorted(game.legal_actions(state))
    assert any(row[-1] for row in mask)   # a forced pass occurs in these 4x4 games


def test_symmetries_are_distinct_and_invertible():
    grid = np.arange(36).reshape(6, 6)
    images = {transform_planes(grid, s).tobytes() for s in range(NUM_SYMMETRIES)}
    assert len(images) == 8
    for s in range(NUM_SYMMETRIES):
        back = transform_planes(transform_planes(grid, s), inverse_symmetry(s))
        assert np.array_equal(back, grid)
        perm = policy_permutation(6, s)
        assert sorted(perm.tolist()) == list(range(37)) and perm[-1] == 36


@pytest.mark.parametrize("sym", range(NUM_SYMMETRIES))
def test_symmetry_commutes_with_the_rules(sym):
    """Encoding a transformed position == transforming the encoding, and policies follow planes."""
    game = Othello(6)
    encoder = encoder_for(game)
    for state in random_states(game, 15, seed=sym):
        planes = encoder.encode([state])[0]
        t_planes = transform_planes(planes, sym)
        own, opp = bits_from_plane(t_planes[0]), bits_from_plane(t_planes[1])
        t_state = game._state(own, opp, state.to_play)
        assert np.array_equal(encoder.encode([t_state])[0], t_planes)   # legal plane agrees
        policy = np.zeros(game.num_actions)
        legal = game.legal_actions(state)
        policy[legal] = np.arange(1, len(legal) + 1)
        _, t_policy = transform_example(planes, policy, sym)
        t_mask = encoder.legal_mask([t_state])[0]
        assert np.array_equal(t_policy > 0, t_mask)
        for action in legal:
            if action != game.pass_action:
                one_hot = np.zeros((1, 6, 6))
                one_hot[0].flat[action] = 1
                moved = int(np.flatnonzero(transform_planes(one_hot, sym).ravel())[0])
                assert t_policy[moved] == policy[action]


def test_go_encoder():
    from players.alphazero.games import make_game
    game = make_game("go7")
    encoder = encoder_for(game)
    state = game.apply(game.initial_state(), 3 * 7 + 3)   # black at the centre; white to move
    planes = encoder.encode([state])
    assert planes.shape == (1, 4, 7, 7)
    assert planes[0, 1, 3, 3] == 1 and planes[0, 0].sum() == 0
    assert planes[0, 2, 3, 3] == 0 and planes[0, 3].sum() == 0
    mask = encoder.legal_mask([state])
    assert mask.shape == (1, 50) and not mask[0, 24] and mask[0, :49].sum() == 48
    assert not mask[0, -1]                    # our search doesn't pass early...
    after_pass = game.apply(state, game.pass_action)
    assert encoder.legal_mask([after_pass])[0, -1]   # ...unless the opponent just passed
    assert game.apply(game.initial_state(), game.pass_action).moves == 1   # opponents may pass


def test_go_search_never_fills_its_own_eye():
    from players.alphazero.games import make_game
    game = make_game("go5")
    state = game.initial_state()
    for black, white in ((1, 24), (5, 23)):        # black B1 and A2 make an eye at A1
        state = game.apply(game.apply(state, black), white)
    assert game.to_play(state) == 0
    assert 0 not in game.legal_actions(state)
    assert game.is_legal(state, 0)                 # the rules still allow it
