"""The last-good-reply table (LGRF-1): what a simulation teaches it and how playouts use it."""

import numpy as np
import pytest

from players.engines.go_uct import patterns, playout
from players.engines.go_uct.groups import load_board, new_workspace
from players.engines.go_uct.last_good_reply import learn_replies, new_replies, no_replies
from players.engines.go_uct.rng import new_rng_state
from players.engines.go_uct.uct import FastUct, UctParams
from players.games import go_board
from players.games.go import GoGame, state_from_diagram

N = 5
SIZE = (N + 2) * (N + 2)


def point(row, col):
    """The padded point of row (0 at the bottom, as state_from_diagram numbers them), col."""
    return go_board.point_of(N, row * N + col)


def reply_index(colour, move):
    return (colour - 1) * SIZE + move


A, B, C, D, E = point(0, 0), point(1, 1), point(2, 2), point(3, 3), point(4, 4)
LAST = point(0, 4)
# Black plays A (after White's LAST), White B, Black C, White passes, Black D.
RECORD = np.array([A, B, C, -1, D, 0, 0], dtype=np.int32)


def test_the_winner_s_moves_become_its_replies():
    replies = new_replies(N)
    learn_replies(replies, N, RECORD, 5, go_board.BLACK, LAST, 1.0)
    stored = {i: int(r) for i, r in enumerate(replies) if r >= 0}
    # Black's D followed a pass: a pass is never replied to. White lost: nothing stored.
    assert stored == {reply_index(go_board.BLACK, LAST): A, reply_index(go_board.BLACK, B): C}


def test_the_loser_s_move_is_forgotten_only_where_it_is_the_stored_reply():
    replies = new_replies(N)
    replies[reply_index(go_board.WHITE, A)] = B   # White's B, as played: forgotten
    replies[reply_index(go_board.WHITE, C)] = E   # White passed after C: kept
    replies[reply_index(go_board.WHITE, LAST)] = E  # not a reply White played: kept
    learn_replies(replies, N, RECORD, 5, go_board.BLACK, LAST, 1.0)
    assert replies[reply_index(go_board.WHITE, A)] == -1
    assert replies[reply_index(go_board.WHITE, C)] == E
    assert replies[reply_index(go_board.WHITE, LAST)] == E


def test_white_wins_store_white_s_replies_and_only_record_up_to_end_counts():
    replies = new_replies(N)
    replies[reply_index(go_board.BLACK, LAST)] = A   # Black's A, as played: forgotten
    replies[reply_index(go_board.BLACK, B)] = C      # Black's C comes after end: kept
    learn_replies(replies, N, RECORD, 2, go_board.BLACK, LAST, 0.0)
    assert {i: int(r) for i, r in enumerate(replies) if r >= 0} == {
        reply_index(go_board.WHITE, A): B, reply_index(go_board.BLACK, B): C}


def test_a_jigo_teaches_nothing():
    replies = new_replies(N)
    replies[reply_index(go_board.WHITE, A)] = B
    before = replies.copy()
    learn_replies(replies, N, RECORD, 5, go_board.BLACK, LAST, 0.5)
    assert np.array_equal(replies, before)


def first_playout_move(board, colour, last, replies, heavy, seed):
    work = new_workspace(N)
    load_board(work, board, N)
    record = np.zeros(4 * N * N, dtype=np.int32)
    playout.continue_playout(work, N, colour, -1, last, 0, len(record), heavy,
                             patterns.default_table(), new_rng_state(seed), record, 0,
                             replies, 0)
    return int(record[0])


@pytest.mark.parametrize("heavy", [False, True])
def test_a_stored_reply_to_the_last_move_is_played_first(heavy):
    state = state_from_diagram("""
        . . . . .
        . . . . .
        . . X . .
        . . . . .
        . . . . .
        """)
    replies = new_replies(N)
    replies[reply_index(go_board.WHITE, C)] = E
    firsts = {first_playout_move(state.board, go_board.WHITE, C, replies, heavy, seed)
              for seed in range(20)}
    assert firsts == {E}
    # Without the table, or replying to another move, the first move varies.
    assert len({first_playout_move(state.board, go_board.WHITE, C, no_replies(), heavy,
                                   seed) for seed in range(20)}) > 1
    assert len({first_playout_move(state.board, go_board.WHITE, A, replies, heavy, seed)
                for seed in range(20)}) > 1


@pytest.mark.parametrize("heavy", [False, True])
def test_a_stored_reply_that_is_occupied_or_a_self_atari_is_not_played(heavy):
    # E (the upper right corner) joins White's stone below it into a group with one
    # liberty, capturing nothing; D is Black's stone.
    state = state_from_diagram("""
        . . . X .
        . . . X O
        . . X . .
        . . . . .
        . . . . .
        """)
    for reply in (D, E):
        replies = new_replies(N)
        replies[reply_index(go_board.WHITE, C)] = reply
        firsts = {first_playout_move(state.board, go_board.WHITE, C, replies, heavy, seed)
                  for seed in range(20)}
        assert len(firsts) > 1   # the reply is not forced
        if heavy or reply == D:  # (light playouts play a self-atari at random)
            assert reply not in firsts


def test_a_search_with_lgrf_learns_replies_on_the_board():
    state = GoGame(7).initial_state()
    uct = FastUct(7, 7.5, UctParams(lgrf=True), seed=5)
    moves, visits, _ = uct.search(state.board, state.colour, -1, -1, 0, 400)
    assert visits.sum() == 400
    stored = uct.replies[uct.replies >= 0]
    assert len(stored) > 20
    board = GoGame(7).initial_state().board
    assert all(board[p] == go_board.EMPTY for p in stored)  # points on the board
    assert FastUct(7, 7.5, UctParams(), seed=5).replies.shape == (0,)
