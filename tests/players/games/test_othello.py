"""Tests for the search-side Othello game, cross-checked against the referee's rules."""

from __future__ import annotations

import random

import pytest

from players.games.othello import Othello
from ringmaster.rules.othello import OthelloRules


def point(game: Othello, vertex: str) -> int:
    col = "ABCDEFGH".index(vertex[0])
    return (int(vertex[1:]) - 1) * game.size + col


def test_start_position():
    game = Othello(8)
    state = game.initial_state()
    assert game.to_play(state) == 0
    assert sorted(game.legal_actions(state)) == sorted(point(game, v) for v in ("D3", "C4", "F5", "E6"))
    assert game.num_actions == 65 and game.pass_action == 64
    assert game.disc_difference(state) == 0


@pytest.mark.parametrize("size", [3, 10, 5])
def test_bad_sizes(size):
    with pytest.raises(ValueError):
        Othello(size)


def test_apply_flips_and_leaves_argument_unchanged():
    game = Othello(8)
    state = game.initial_state()
    after = game.apply(state, point(game, "D3"))
    assert game.to_play(after) == 1
    assert game.disc_difference(after) == 4 - 1
    assert game.disc_difference(state) == 0           # unchanged
    black, white = after.black_white()
    assert black >> point(game, "D4") & 1             # D4 was white, now black


def test_illegal_actions_rejected():
    game = Othello(6)
    state = game.initial_state()
    with pytest.raises(ValueError):
        game.apply(state, 0)                          # flips nothing
    with pytest.raises(ValueError):
        game.apply(state, game.pass_action)           # pass while a placement exists


def test_forced_pass_and_terminal_value():
    game = Othello(4)
    # White everywhere except a black disc at D2 and an empty D1.
    full = (1 << 16) - 1
    black = 1 << point(game, "D2")
    white = full & ~black & ~(1 << point(game, "D1"))
    state = game.make_state(black, white, 0)
    assert game.legal_actions(state) == [game.pass_action]
    assert not game.is_terminal(state)
    state = game.apply(state, game.pass_action)
    assert game.legal_actions(state) == [point(game, "D1")]
    state = game.apply(state, point(game, "D1"))
    assert game.is_terminal(state)
    assert game.legal_actions(state) == []
    assert game.to_play(state) == 0
    assert game.terminal_value(state) == -1.0         # black, to play, lost 0-16


@pytest.mark.parametrize("size", [4, 6, 8])
def test_agrees_with_referee_rules_in_random_games(size):
    game = Othello(size)
    rng = random.Random(size)
    for _ in range(5):
        state = game.initial_state()
        rules = OthelloRules(size)
        while True:
            colour = "bw"[game.to_play(state)]
            expected = sorted(r * size + c for r, c in rules.legal_placements(colour))
            actions = game.legal_actions(state)
            assert game.is_terminal(state) == rules.is_over()
            if game.is_terminal(state):
                break
            assert sorted(a for a in actions if a != game.pass_action) == expected
            action = rng.choice(actions)
            move = None if action == game.pass_action else divmod(action, size)
            assert rules.check_move(colour, move) is None
            rules.play(colour, move)
            state = game.apply(state, action)
            assert game.disc_difference(state) == rules.area_score()
