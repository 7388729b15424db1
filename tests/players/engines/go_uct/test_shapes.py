"""Learnt shape values: symmetry classes, counts from a record worked by hand, the file, the prior."""

import math

import numpy as np
import pytest
from sgfmill import sgf

from players.engines.go_uct import patterns, playout, priors, shapes
from players.engines.go_uct.groups import load_board, new_workspace
from players.engines.go_uct.priors import FEATURES
from players.games.go import state_from_diagram

POSITION = """
. . . . . .
. X O . . .
. . X O . .
. O . X . .
. . . . O .
. . . . . .
"""


def codes_on(board, n, colour):
    """{(row, col) from the top: canonical code} of every empty point of a padded board."""
    width = n + 2
    canon = shapes.canonical()
    return {(n - 1 - (p // width - 1), p % width - 1):
            int(canon[playout.pattern_code(board, width, p, colour)])
            for p in np.flatnonzero(board == 0)}


def padded(grid):
    n = len(grid)
    board = np.full((n + 2) ** 2, 3, np.int8)
    for r, row in enumerate(grid):          # r from the top; padded rows count from the bottom
        for c, v in enumerate(row):
            board[(n - r) * (n + 2) + c + 1] = v
    return board


@pytest.mark.parametrize("turn", range(8))
def test_a_turned_board_has_the_same_shapes(turn):
    state = state_from_diagram(POSITION)
    n = 6
    grid = [[int(state.board[(n - r) * (n + 2) + c + 1]) for c in range(n)] for r in range(n)]
    turned = np.rot90(np.array(grid), turn % 4)
    if turn >= 4:
        turned = turned[:, ::-1]
    before = codes_on(padded(grid), n, 1)
    after = codes_on(padded(turned.tolist()), n, 1)
    index = np.arange(n * n).reshape(n, n)
    where = np.rot90(index, turn % 4)
    if turn >= 4:
        where = where[:, ::-1]
    for r in range(n):
        for c in range(n):
            old = divmod(int(where[r, c]), n)
            if old in before:
                assert after[(r, c)] == before[old]


def test_canonical_is_the_smallest_of_its_class():
    canon = shapes.canonical()
    assert np.all(canon <= np.arange(shapes.CODES))
    assert np.all(canon[canon] == canon)
    # Colours are not swapped: own and opponent's stones are different shapes.
    own_above = 1 << 2      # code position 6 (the point above) holds 1: own
    assert canon[own_above] != canon[2 << 2]


RECORD = b"(;FF[4]GM[1]SZ[3]PB[Pachi 12.90 (pachi)]PW[other];B[bb];W[aa];B[ab])"


def test_counts_and_values_of_a_record_worked_by_hand():
    record = sgf.Sgf_game.from_bytes(RECORD)
    seen, chosen, moves = shapes.count([record], "PACHI")
    assert moves == 2
    canon = shapes.canonical()
    board = padded([[0] * 3] * 3)
    corner = canon[playout.pattern_code(board, 5, 6, 1)]
    edge = canon[playout.pattern_code(board, 5, 7, 1)]
    centre = canon[playout.pattern_code(board, 5, 12, 1)]
    assert len({corner, edge, centre}) == 3
    # Move 1, the empty board: 4 corners, 4 edges, the centre (played). Move 3, black's
    # second: after B centre, W top-left corner, black plays the left edge's middle.
    assert seen[centre] == 1 and chosen[centre] == 1
    assert seen.sum() == 9 + 7 and chosen.sum() == 2
    values = shapes.values(seen, chosen)
    mean = 2 / 16
    rate = (1 + shapes.SHRINK * mean) / (1 + shapes.SHRINK)
    assert values[int(centre)] == pytest.approx(math.log2(rate / mean))
    rate = (0 + shapes.SHRINK * mean) / (seen[corner] + shapes.SHRINK)
    assert values[int(corner)] == pytest.approx(math.log2(rate / mean))
    assert set(values) == set(np.flatnonzero(seen).tolist())


def test_no_move_by_the_player_counts_nothing():
    record = sgf.Sgf_game.from_bytes(RECORD)
    seen, chosen, moves = shapes.count([record], "gnugo")
    assert moves == 0 and not seen.any() and not chosen.any()


def test_values_are_clipped():
    seen = np.zeros(shapes.CODES, np.int64)
    chosen = np.zeros(shapes.CODES, np.int64)
    seen[0], chosen[0] = 100_000, 0
    seen[1], chosen[1] = 100, 100
    values = shapes.values(seen, chosen)
    assert values[0] == -shapes.CLIP and values[1] == shapes.CLIP


def test_the_file_round_trips_and_bad_lines_are_named(tmp_path):
    path = tmp_path / "shapes.txt"
    shapes.write(path, {0: 1.5, 5: -0.25}, "test")
    assert shapes.read(path) == {0: 1.5, 5: -0.25}
    table = shapes.table({5: -0.25})
    assert table[5] == -0.25 and np.count_nonzero(table) == np.sum(shapes.canonical() == 5)
    path.write_text("# header\n0 1.0\n1 oops\n")
    with pytest.raises(ValueError, match=r"shapes.txt, line 3"):
        shapes.read(path)
    not_canonical = int(np.flatnonzero(shapes.canonical() != np.arange(shapes.CODES))[0])
    path.write_text(f"{not_canonical} 1.0\n")
    with pytest.raises(ValueError, match="line 1"):
        shapes.read(path)


def test_the_shipped_table_reads():
    table = shapes.shipped_table()
    assert table.shape == (shapes.CODES,)
    assert table.min() >= -shapes.CLIP and table.max() <= shapes.CLIP
    assert np.count_nonzero(table) > 1000


def test_the_command_learns_a_table(tmp_path, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "one.sgf").write_bytes(RECORD)
    out = tmp_path / "learnt.txt"
    assert shapes.main(["--player", "pachi", str(out), str(folder)]) == 0
    assert "2 moves" in capsys.readouterr().out
    seen, chosen, _ = shapes.count([sgf.Sgf_game.from_bytes(RECORD)], "pachi")
    learnt = shapes.values(seen, chosen)
    assert shapes.read(out) == pytest.approx({code: round(v, 4) for code, v in learnt.items()})
    assert shapes.main(["--player", "nobody", str(out), str(folder)]) == 1


def test_a_shape_below_the_mean_adds_visits_that_lose():
    state = state_from_diagram(POSITION)
    work = new_workspace(6)
    load_board(work, state.board, 6)
    p = int(np.flatnonzero(state.board == 0)[3])     # an empty point
    code = playout.pattern_code(state.board, 8, p, 1)
    scratch = np.zeros(len(FEATURES))
    for value, wins in ((-2.0, 5.0), (1.5, 5.0 + 15.0)):
        table = np.zeros(shapes.CODES)
        table[code] = value
        weight = priors.weights(10.0, {"shape": 1.0})
        visits, got_wins = priors.prior(work, 6, p, 1, -1, patterns.default_table(), table,
                                        10.0, weight, scratch)
        assert scratch[priors.SHAPE] == value
        assert visits == pytest.approx(10.0 + 10.0 * abs(value))
        assert got_wins == pytest.approx(wins)
