"""The game registry builds each game by name, plain or sized."""

from __future__ import annotations

import pytest

from players.games import is_game_name, make_game
from players.games.go import GoGame
from players.games.go_sensible import GoSensible
from players.games.othello import Othello


def test_registered_games_build_with_their_action_spaces():
    othello = make_game("othello", size=6)
    assert othello.num_actions == 6 * 6 + 1
    assert len(othello.legal_actions(othello.initial_state())) == 4
    go = make_game("go", size=9)
    assert go.num_actions == 9 * 9 + 1


def test_sized_names_are_the_pipelines_games():
    othello = make_game("othello6")
    assert isinstance(othello, Othello) and othello.size == 6 and othello.kind == "othello"
    go = make_game("go9")
    assert type(go) is GoSensible and go.size == 9 and go.kind == "go"
    assert type(make_game("go", size=9)) is GoGame


def test_unknown_game_is_refused():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_game("chess")
    assert [is_game_name(n) for n in ("go", "go-light", "go9", "pig50", "chess", "chess9", "go-light9")] \
        == [True, True, True, True, False, False, False]
    with pytest.raises(ValueError, match="must be even"):
        make_game("othello7")
    with pytest.raises(ValueError, match="out of range"):
        make_game("go30")
