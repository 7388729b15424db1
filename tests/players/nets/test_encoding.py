"""The encoders: each game's states as network planes and legal masks (no torch needed)."""

from __future__ import annotations

import numpy as np
import pytest

from players.games import make_game
from players.games.othello import Othello
from players.games.positions import random_states
from players.nets.encoding import encoder_for
from players.nets.symmetries import NUM_SYMMETRIES, transform_example, transform_planes


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


def test_go_encoder():
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


def test_encoder_for_refuses_a_game_without_one():
    class Draughts(Othello):
        kind = "draughts"
    with pytest.raises(ValueError, match="no encoder for 'draughts' games"):
        encoder_for(Draughts(6))


def test_each_encoder_names_the_network_it_feeds():
    assert encoder_for(Othello(6)).net_kind == "resnet"
    assert encoder_for(make_game("go", size=5)).net_kind == "resnet"
    assert encoder_for(make_game("pig")).net_kind == "mlp"
