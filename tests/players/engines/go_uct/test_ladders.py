"""Ladder reading (tactics.escape_fails) on hand-read positions, and heavy playouts using it."""

import numpy as np
import pytest

from players.engines.go_uct import patterns, playout, tactics
from players.engines.go_uct.groups import load_board, new_workspace
from players.engines.go_uct.last_good_reply import no_replies
from players.engines.go_uct.rng import new_rng_state
from players.engines.go_uct.tactics import LADDER_CHASE, LADDER_ESCAPE
from players.games import go_board
from players.games.go import state_from_diagram

N = 9

# White's E5 is in atari at E4. Running to E4 leaves two liberties, and Black's ataris
# drive it down and left towards A1: a ladder. Rows top (9) to bottom (1), columns A-J.
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . X O X . . .
. . . . . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def point(vertex):
    col = "ABCDEFGHJ".index(vertex[0])
    return go_board.point_of(N, (int(vertex[1:]) - 1) * N + col)


def with_stones(diagram, **stones):
    """The diagram with stones added: with_stones(LADDER, B2='O')."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    for vertex, stone in stones.items():
        rows[N - int(vertex[1:])]["ABCDEFGHJ".index(vertex[0])] = stone
    return "\n".join(" ".join(row) for row in rows)


def escape_fails(diagram, vertex, depth=N):
    board = state_from_diagram(diagram).board
    before = board.copy()
    stack = np.zeros(2 * (N + 2) ** 2, np.int32)
    lost = tactics.escape_fails(board, N + 2, point(vertex), depth, stack)
    assert np.array_equal(board, before)   # the reading leaves the board as it was
    return lost


def test_a_ladder_catches_the_runner():
    assert escape_fails(LADDER, "E5")


def test_a_ladder_breaker_on_its_path_lets_it_run():
    assert not escape_fails(with_stones(LADDER, B2="O"), "E5")
    assert not escape_fails(with_stones(LADDER, C3="O"), "E5")
    # A stone off the ladder's path breaks nothing.
    assert escape_fails(with_stones(LADDER, H8="O"), "E5")


def test_a_ladder_read_too_shallow_counts_as_escaped():
    assert not escape_fails(LADDER, "E5", depth=2)


def test_a_capture_of_a_chaser_in_atari_is_an_escape():
    # Black's E6 stands in atari at E7 (White at D6 and F6, away from the ladder's path):
    # White captures it rather than run.
    assert not escape_fails(with_stones(LADDER, D6="O", F6="O"), "E5")


def test_three_liberties_after_running_is_an_escape_and_one_is_lost():
    assert not escape_fails(with_stones(LADDER, F4="."), "E5")
    assert escape_fails(with_stones(LADDER, D4="X", F4="X", E3="X", D3="."), "E5")


def first_moves(diagram, heavy, ladders, seeds=20, colour=go_board.WHITE, last="D5"):
    """The first move of playouts for colour, after the move last (Black's D5 atari)."""
    state = state_from_diagram(diagram)
    work = new_workspace(N)
    record = np.zeros(4 * N * N, dtype=np.int32)
    firsts = []
    for seed in range(seeds):
        load_board(work, state.board, N)
        playout.continue_playout(work, N, colour, -1, point(last), 0, len(record),
                                 heavy, patterns.default_table(), new_rng_state(seed),
                                 record, 0, no_replies(), ladders)
        firsts.append(int(record[0]))
    return firsts


def test_heavy_playouts_run_from_atari_unless_a_ladder_catches():
    # Without ladders White always runs to E4; with them the escape is no longer chosen,
    # and E4 comes only as one of the shape moves beside Black's D5 (as D4 does).
    assert set(first_moves(LADDER, True, 0)) == {point("E4")}
    with_reading = first_moves(LADDER, True, LADDER_ESCAPE)
    assert with_reading.count(point("E4")) <= 10 and len(set(with_reading)) >= 2
    # With a breaker on the path, running is still the move.
    assert set(first_moves(with_stones(LADDER, C3="O"), True, LADDER_ESCAPE)) == {
        point("E4")}
    # Chasing alone leaves the escape as it was.
    assert set(first_moves(LADDER, True, LADDER_CHASE)) == {point("E4")}


# White has just played E5, which has two liberties, D5 and E4.
CHASE = with_stones(LADDER, D5=".")


def test_heavy_playouts_chase_the_last_move_into_a_ladder_that_catches():
    def chase(diagram, ladders):
        return first_moves(diagram, True, ladders, colour=go_board.BLACK, last="E5")
    # Black's D5 atari drives White down the ladder; E4 would let it out at D5.
    assert set(chase(CHASE, LADDER_CHASE)) == {point("D5")}
    assert set(chase(CHASE, LADDER_CHASE | LADDER_ESCAPE)) == {point("D5")}
    assert len(set(chase(CHASE, 0))) >= 2
    assert len(set(chase(CHASE, LADDER_ESCAPE))) >= 2
    # With a breaker on the ladder's path there is nothing to chase.
    assert len(set(chase(with_stones(CHASE, C3="O"), LADDER_CHASE))) >= 2


@pytest.mark.parametrize("ladders", [0, LADDER_ESCAPE | LADDER_CHASE])
def test_light_playouts_ignore_the_option(ladders):
    firsts = first_moves(LADDER, False, ladders)
    assert len(set(firsts)) > 5
