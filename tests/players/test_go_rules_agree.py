"""players.games.go and the numba playouts agree with the referee's GoRules over random games."""

import numpy as np
import pytest

from players.engines.go_uct import patterns, playout
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


@pytest.mark.parametrize("heavy", [False, True])
@pytest.mark.parametrize("size", [5, 9, 13])
def test_playouts_play_legal_moves_and_score_like_referee(heavy, size):
    table = patterns.default_table()
    rng_state = playout.new_rng_state(size + heavy)
    game = GoGame(size)
    start = game.initial_state()
    for _ in range(10):
        record = np.zeros(4 * size * size, dtype=np.int32)
        score, moves = playout.playout_recorded(
            start.board, size, go_board.BLACK, -1, -1, 0, len(record), heavy, table,
            rng_state, record)
        assert moves < len(record)  # ended by two passes
        rules = GoRules(size)
        colour = "b"
        for point in record[:moves]:
            move = None if point < 0 else game.action_to_move(go_board.action_of(size, point))
            assert rules.check_move(colour, move) is None
            if move is not None:
                assert not is_self_capture(rules, colour, move)
            rules.play(colour, move)
            colour = "w" if colour == "b" else "b"
        assert rules.is_over()
        assert score == rules.area_score()


def test_playouts_never_fill_own_eyes():
    size = 5
    game = GoGame(size)
    rules = GoRules(size)
    # Black owns the left two columns with eyes at (0, 0) and (2, 0); it is Black's turn.
    for r in range(size):
        rules.board.play(r, 1, "b")
    for r in (1, 3, 4):
        rules.board.play(r, 0, "b")
    state = game.initial_state()
    for r in range(size):
        for c in range(size):
            if rules.board.get(r, c) == "b":
                state = game.apply(state, r * size + c)
                state = game.apply(state, game.pass_action)
    state = game.apply(state, game.pass_action)  # hand the move back to Black
    state = type(state)(state.board, go_board.BLACK)
    record = np.zeros(200, dtype=np.int32)
    eyes = {go_board.point_of(size, 0), go_board.point_of(size, 2 * size)}
    rng_state = playout.new_rng_state(7)
    for heavy in (False, True):
        for _ in range(20):
            _, moves = playout.playout_recorded(
                state.board, size, go_board.BLACK, -1, -1, 0, len(record), heavy,
                patterns.default_table(), rng_state, record)
            blacks = set(record[:moves:2].tolist())
            assert not blacks & eyes
