"""players.games.go_light agrees with the referee's GoRules over random games."""

import random

import pytest

from players.games.go_light import LightGo
from ringmaster.rules.go import GoRules


@pytest.mark.parametrize("size, seed", [(5, 0), (7, 1), (9, 2)])
def test_random_games_agree_with_referee(size, seed):
    rng = random.Random(seed)
    game = LightGo(size, komi=0.5)
    state = game.initial_state()
    rules = GoRules(size)
    points = [(r, c) for r in range(size) for c in range(size)]
    while not rules.is_over() and state.moves < 4 * size * size:
        colour = "bw"[game.to_play(state)]
        legal = [m for m in points if rules.check_move(colour, m) is None]
        expected = {game.move_to_action(m) for m in legal} | {game.pass_action}
        assert set(game.legal_actions(state)) == expected
        for move in legal:
            trial = rules.board.copy()
            trial.play(move[0], move[1], colour)
            captured = trial.get(*move) is None
            assert game.is_self_capture(state, game.move_to_action(move)) == captured
        move = None if not legal or rng.random() < 0.03 else rng.choice(legal)
        rules.play(colour, move)
        state = game.apply(state, game.move_to_action(move))
        assert [[game.colour_at(state, r * size + c) for c in range(size)] for r in range(size)] \
            == rules.board_rows()
        assert state.ko == rules.ko_point
        assert game.score(state) == rules.area_score()
    assert game.is_terminal(state) == rules.is_over()
    assert game.terminal_value(state) == (1.0 if rules.area_score() > 0.5 else -1.0) * (
        1 if game.to_play(state) == 0 else -1)


def test_either_colour_may_move_and_play_goes_on():
    game = LightGo(5)
    state = game.initial_state()
    forced, white = game.turn_for(state, 1)
    assert forced == [] and game.to_play(white) == 1 and white.board is state.board
    ended = game.apply(game.apply(state, game.pass_action), game.pass_action)
    assert game.is_terminal(ended) and game.can_continue(ended)
