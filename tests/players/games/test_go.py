"""players.games.go agrees with the referee's GoRules over random games."""

import numpy as np
import pytest

from players.games import go_board
from players.games.go import GoGame
from ringmaster.rules.go import GoRules

COLOURS = {go_board.BLACK: "b", go_board.WHITE: "w"}


def board_rows(game, state):
    names = {go_board.EMPTY: None, go_board.BLACK: "b", go_board.WHITE: "w"}
    return [[names[game.stone_at(state, r * game.size + c)] for c in range(game.size)]
            for r in range(game.size)]


def is_self_capture(rules, colour, move):
    trial = rules.board.copy()
    trial.play(move[0], move[1], colour)
    return trial.get(*move) is None


@pytest.mark.parametrize("size, seed", [(5, 0), (5, 1), (7, 2), (9, 3), (9, 4)])
def test_random_games_agree_with_referee(size, seed):
    rng = np.random.default_rng(seed)
    game = GoGame(size, komi=0.5, max_moves=10 * size * size)
    state = game.initial_state()
    rules = GoRules(size)
    points = [(r, c) for r in range(size) for c in range(size)]
    while not rules.is_over() and state.moves < 4 * size * size:
        colour = COLOURS[state.colour]
        referee_legal = [rules.check_move(colour, m) is None for m in points]
        ours = [game.is_legal(state, game.move_to_action(m)) for m in points]
        assert ours == referee_legal
        generated = set(game.legal_actions(state))
        expected = {game.move_to_action(m) for m, ok in zip(points, referee_legal)
                    if ok and not is_self_capture(rules, colour, m)}
        assert generated == expected | {game.pass_action}
        # Mostly stones, sometimes a self-capture, occasionally a pass.
        candidates = [m for m, ok in zip(points, referee_legal) if ok]
        roll = rng.random()
        if not candidates or roll < 0.03:
            move = None
        else:
            move = candidates[rng.integers(len(candidates))]
        rules.play(colour, move)
        state = game.apply(state, game.move_to_action(move))
        assert board_rows(game, state) == rules.board_rows()
        referee_ko = -1 if rules.ko_point is None else go_board.point_of(
            size, game.move_to_action(rules.ko_point))
        assert state.ko == referee_ko
        assert game.area_score(state) == rules.area_score()
    assert game.is_terminal(state) == rules.is_over()
