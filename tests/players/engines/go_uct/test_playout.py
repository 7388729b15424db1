"""The numba playouts play moves the referee accepts, score as it does, never fill own eyes."""

import numpy as np
import pytest
from sgfmill import boards

from players.engines.go_uct import patterns, playout
from players.engines.go_uct.groups import load_board, new_workspace
from players.engines.go_uct.last_good_reply import no_replies
from players.engines.go_uct.rng import new_rng_state
from players.engines.go_uct.tactics import CAPTURE_LEFT
from players.games import go_board
from players.games.go import GoGame, state_from_diagram
from ringmaster.rules.go import GoRules


def sgfmill_area_score(board, size):
    """sgfmill's area score of a padded numba board (an implementation independent of ours), or
    None where a group has no liberty: sgfmill takes such a group off, ours counts its stones."""
    points = {go_board.BLACK: [], go_board.WHITE: []}
    for action in range(size * size):
        value = int(board[go_board.point_of(size, action)])
        if value in points:
            points[value].append((action // size, action % size))
    position = boards.Board(size)
    legal = position.apply_setup(points[go_board.BLACK], points[go_board.WHITE], [])
    return position.area_score() if legal else None


def is_self_capture(rules, colour, move):
    trial = rules.board.copy()
    trial.play(move[0], move[1], colour)
    return trial.get(*move) is None


@pytest.mark.parametrize("heavy", [False, True])
@pytest.mark.parametrize("size", [5, 9, 13])
def test_playouts_play_legal_moves_and_score_like_referee(heavy, size):
    table = patterns.default_table()
    rng_state = new_rng_state(size + heavy)
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
    rng_state = new_rng_state(7)
    for heavy in (False, True):
        for _ in range(20):
            _, moves = playout.playout_recorded(
                state.board, size, go_board.BLACK, -1, -1, 0, len(record), heavy,
                patterns.default_table(), rng_state, record)
            blacks = set(record[:moves:2].tolist())
            assert not blacks & eyes


def touching_empties(board, n):
    width = n + 2
    return any(board[p] == go_board.EMPTY and board[p + d] == go_board.EMPTY
               for p in range(width * width) for d in (1, width) if p + d < width * width)


def random_boards(size, seed, count, empty_shares):
    """count padded boards of random stones and empty points (groups may lack liberties)."""
    rng = np.random.default_rng(seed)
    board = GoGame(size).initial_state().board
    inside = board != go_board.BORDER
    for _ in range(count):
        empty_share = rng.choice(empty_shares)
        values = rng.choice([go_board.EMPTY, go_board.BLACK, go_board.WHITE], size=board.shape,
                            p=[empty_share, (1 - empty_share) / 2, (1 - empty_share) / 2])
        yield np.where(inside, values, board).astype(board.dtype)


@pytest.mark.parametrize("size", [2, 5, 9])
def test_single_point_score_is_area_score_where_no_empty_points_touch(size):
    exact_seen = 0
    for trial_board in random_boards(size, size, 400, [0.1, 0.25, 0.5]):
        score, exact = playout.single_point_score(trial_board, size)
        assert exact == (not touching_empties(trial_board, size))
        if exact:
            exact_seen += 1
            assert score == go_board.area_score(trial_board, size)
    assert exact_seen >= 20


@pytest.mark.parametrize("size", [2, 5, 9])
def test_final_score_and_area_score_agree_with_sgfmill_and_leave_the_workspace_as_it_was(size):
    work = new_workspace(size)
    checked = 0
    for trial_board in random_boards(size, 10 + size, 200, [0.1, 0.4, 0.8]):
        load_board(work, trial_board, size)
        before = [array.copy() for array in work[:10]]
        score = go_board.area_score(trial_board, size)
        assert playout.final_score(work, size) == score
        assert all(np.array_equal(a, b) for a, b in zip(before, work[:10]))
        expected = sgfmill_area_score(trial_board, size)
        if expected is not None:
            assert score == expected
            checked += 1
    assert checked >= 20


# White's E5 is in atari at E4 beside Black's last move F5; White then played A9.
LEFT_IN_ATARI = """
O . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . X O X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def first_moves_after(diagram, tactics, mine=(4, 5), seeds=20):
    """Black's first playout move after its own move at mine (row, col; F5) and White's A9,
    as the tree leaves them in the record."""
    n = 9
    state = state_from_diagram(diagram)
    work = new_workspace(n)
    own = go_board.point_of(n, mine[0] * n + mine[1])
    a9 = go_board.point_of(n, 8 * n)
    firsts = []
    for seed in range(seeds):
        record = np.zeros(4 * n * n, dtype=np.int32)
        record[:2] = own, a9
        load_board(work, state.board, n)
        playout.continue_playout(work, n, go_board.BLACK, -1, a9, 0, len(record), True,
                                 patterns.default_table(), new_rng_state(seed), record, 2,
                                 no_replies(), tactics)
        firsts.append(int(record[2]))
    return firsts


def test_heavy_playouts_capture_a_group_left_in_atari_beside_their_own_last_move():
    e4 = go_board.point_of(9, 3 * 9 + 4)
    assert set(first_moves_after(LEFT_IN_ATARI, CAPTURE_LEFT)) == {e4}
    assert len(set(first_moves_after(LEFT_IN_ATARI, 0))) > 1
    # Not where Black's own last move (J1) is away from the group in atari.
    assert len(set(first_moves_after(LEFT_IN_ATARI, CAPTURE_LEFT, mine=(0, 8)))) > 1
