"""The fast Go search's tree statistics, the pattern table, the playout RNG and the move clock."""

import numpy as np
import pytest

from players.games import go_board, go_patterns, go_playout
from players.games.go import GoGame, state_from_diagram
from players.go_gtp import Clock
from players.go_uct import FastUct, UctParams, allocation_slices

POSITION = """
. . . . . . .
. . X . . . .
. . X O . . .
. . . O . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


@pytest.mark.parametrize("rave", [0.0, 3000.0])
def test_root_edges_and_statistics(rave):
    state = state_from_diagram(POSITION)
    uct = FastUct(7, 0.5, UctParams(rave_equiv=rave, heavy=False), seed=4)
    moves, visits, wins = uct.search(state.board, state.colour, state.ko, state.last,
                                     state.passes, 700)
    sensible = go_board.sensible_mask(state.board, 7, state.colour, state.ko)
    expected = {go_board.point_of(7, a) for a in np.flatnonzero(sensible[:-1])} | {-1}
    assert set(moves.tolist()) == expected
    assert visits.sum() == 700
    assert (wins >= 0).all() and (wins <= visits).all()
    # Node 0 (the root) counts every simulation.
    assert uct.tree[2][0] == 700


def test_search_is_reproducible_with_a_seed():
    state = GoGame(7).initial_state()
    runs = [FastUct(7, 7.5, UctParams(), seed=9).search(state.board, state.colour, -1, -1, 0,
                                                         300) for _ in range(2)]
    assert np.array_equal(runs[0][1], runs[1][1])


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_allocation_slices_are_disjoint_and_leave_the_root_alone(workers):
    slices = allocation_slices(100, 2600, 26, workers)
    assert slices[0][0] == 1 and slices[0][2] == 26
    nodes = [set(range(a[0], a[1])) for a in slices]
    edges = [set(range(a[2], a[3])) for a in slices]
    assert set().union(*nodes) == set(range(1, 100))
    assert set().union(*edges) == set(range(26, 2600))
    assert sum(map(len, nodes)) == 99 and sum(map(len, edges)) == 2600 - 26


def test_patterns_match_in_every_orientation_and_colour():
    table = go_patterns.compile_patterns((("XOX", "...", "???"),))

    def code_after(stones, colour=go_board.BLACK):
        board = go_board.empty_board(5)
        for (row, col), stone in stones.items():
            board[go_board.point_of(5, row * 5 + col)] = stone
        return go_playout._pattern_code(board, 7, go_board.point_of(5, 2 * 5 + 2), colour)

    b, w = go_board.BLACK, go_board.WHITE
    above = {(3, 1): b, (3, 2): w, (3, 3): b}       # the pattern's top row, as drawn
    left = {(1, 1): b, (2, 1): w, (3, 1): b}        # rotated to the left column
    assert table[code_after(above)]
    assert table[code_after(left)]
    assert table[code_after({(3, 1): w, (3, 2): b, (3, 3): w})]  # colours swapped
    assert not table[code_after({(3, 1): b, (3, 2): b, (3, 3): b})]
    with pytest.raises(ValueError):
        go_patterns.compile_patterns((("...", ".X.", "..."),))


def test_rand_below_is_uniform():
    rng = go_playout.new_rng_state(5)
    draws = np.bincount([go_playout.rand_below(rng, 6) for _ in range(6000)], minlength=6)
    assert draws.min() > 880 and draws.max() < 1120


def test_clock_budgets():
    assert Clock().budget(81) is None
    assert Clock(0, 10, 0).budget(81) is None  # GTP: no time limit
    byo = Clock(0, 30, 5, time_left=20, stones_left=4)
    assert byo.budget(81) == pytest.approx(0.9 * 20 / 4 - 0.1)
    main = Clock(300, 0, 0, time_left=100)
    assert main.budget(80) == pytest.approx(0.9 * 100 / 40 - 0.1)
    assert Clock(300, 0, 0, time_left=0.01).budget(80) == pytest.approx(0.05)
