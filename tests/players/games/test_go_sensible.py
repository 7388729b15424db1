"""The Go variant the network searches: no filling its own eyes, no pass before it is sensible."""

from __future__ import annotations

from players.games import make_game


def test_go_search_never_fills_its_own_eye():
    game = make_game("go5")
    state = game.initial_state()
    for black, white in ((1, 24), (5, 23)):        # black B1 and A2 make an eye at A1
        state = game.apply(game.apply(state, black), white)
    assert game.to_play(state) == 0
    assert 0 not in game.legal_actions(state)
    assert game.is_legal(state, 0)                 # the rules still allow it


def test_search_passes_only_after_a_pass_or_when_nothing_else_is_left():
    game = make_game("go5")
    state = game.initial_state()
    assert game.pass_action not in game.legal_actions(state)
    assert game.pass_action in game.legal_actions(game.apply(state, game.pass_action))
