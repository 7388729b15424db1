"""The search-side game registry builds each game by name."""

from __future__ import annotations

import pytest

from players.games import make_game


def test_registered_games_build_with_their_action_spaces():
    othello = make_game("othello", size=6)
    assert othello.num_actions == 6 * 6 + 1
    assert len(othello.legal_actions(othello.initial_state())) == 4
    go = make_game("go", size=9)
    assert go.num_actions == 9 * 9 + 1


def test_unknown_game_is_refused():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_game("chess")
