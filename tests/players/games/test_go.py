"""players.games.go agrees with the referee's GoRules over random games."""

import numpy as np
import pytest

from players.games import go_board
from players.games.go import GoGame, state_from_diagram
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


def test_a_diagram_is_read_as_drawn_and_a_bad_one_is_a_value_error():
    state = state_from_diagram("""
        X O .
        . X .
        . . O
    """, "w", passes=1)
    game = GoGame(3, 0.5)
    drawn = {game.action_to_move(a): state.board[go_board.point_of(3, a)] for a in range(9)}
    assert drawn[(2, 0)] == go_board.BLACK and drawn[(2, 1)] == go_board.WHITE
    assert drawn[(1, 1)] == go_board.BLACK and drawn[(0, 2)] == go_board.WHITE
    assert sum(colour != go_board.EMPTY for colour in drawn.values()) == 4
    assert state.colour == go_board.WHITE and state.passes == 1
    with pytest.raises(ValueError, match="diagram must be square"):
        state_from_diagram(". .\n. .\n. .")
    with pytest.raises(ValueError, match="diagram row 2: '#' is no point"):
        state_from_diagram(". .\n. #")
