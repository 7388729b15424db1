"""The fast search's prior features, against hand-counted values and a flood-fill reference."""

import numpy as np
import pytest

from players.engines.go_uct import patterns, priors, shapes
from players.engines.go_uct.engine import PRIOR_OPTIONS, MctsGenerator, build_parser, make_engine
from players.engines.go_uct.groups import load_board, new_workspace
from players.engines.go_uct.priors import FEATURES
from players.engines.go_uct.uct import FastUct
from players.games import go_board
from players.games.go import GoGame, state_from_diagram

B, W = go_board.BLACK, go_board.WHITE


def point(n, vertex):
    """The padded point of a vertex such as 'C3' (columns A-T without I, rows from the bottom)."""
    col = "ABCDEFGHJKLMNOPQRST".index(vertex[0])
    return go_board.point_of(n, (int(vertex[1:]) - 1) * n + col)


NO_SHAPES = np.zeros(shapes.CODES)   # the shape prior's table has its own tests (test_shapes.py)


def features_of(diagram, vertex, colour=B, last=None):
    state = state_from_diagram(diagram)
    n = int(np.sqrt(len(state.board))) - 2
    work = new_workspace(n)
    load_board(work, state.board, n)
    out = np.zeros(len(FEATURES))
    priors.features(work, n, point(n, vertex), colour, -1 if last is None else point(n, last),
                    patterns.default_table(), NO_SHAPES, out)
    return dict(zip(FEATURES, out.tolist()))


def nonzero(found):
    """The features found, but the pattern's (the pattern table has its own tests)."""
    return {name: value for name, value in found.items() if value and name != "pattern"}


# Rows top (9) to bottom (1); columns A to J.
TACTICS = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . O O . . . .
. . O X X O . . .
. . . . X O . . .
. . . . O . . . .
. . . . . . . . .
"""


def test_capture_counts_each_group_once_with_its_size():
    # D3 is the one liberty of the three black stones D4, E4, E3.
    assert nonzero(features_of(TACTICS, "D3", colour=W)) == {"capture": 1 + 0.5 * 3}


def test_escape_only_to_two_empty_points():
    # Black extends the same group at D3, beside the empty C3 and D2; White's D2 then
    # starts a ladder towards A1 that catches it.
    assert nonzero(features_of(TACTICS, "D3", colour=B)) == {"escape": 1.0, "ladder": 1.0}
    # A4 is in atari at A3, where extending finds only A2 empty: no escape, a self-atari.
    cornered = """
O . . . .
X O . . .
. O . . .
. . . . .
. . . . .
"""
    # No "ladder": A4 can live by capturing A5 (in atari at B5) instead of running.
    assert nonzero(features_of(cornered, "A3")) == {"self_atari": 1.0}


def test_self_atari_is_no_atari():
    # C3 joins B3 (in atari) and keeps C2 alone, capturing nothing.
    diagram = """
. . . . .
. O O . .
O X . O .
. O . . .
. . . . .
"""
    found = features_of(diagram, "C3")
    assert found["self_atari"] == 1.0 and found["atari"] == 0.0 and found["escape"] == 0.0


def test_atari_on_a_group_with_two_liberties():
    # White's D3 has the liberties D4 and E3.
    two = """
. . . . .
. . . . .
. . X O .
. . . X .
. . . . .
"""
    assert features_of(two, "E3")["atari"] == 1.0
    assert features_of(two, "D4")["atari"] == 1.0
    assert features_of(two, "C4")["atari"] == 0.0                # not beside D3
    assert features_of(two, "E3")["self_atari"] == 0.0


def test_edge_penalty_only_far_from_stones():
    empty = ". . . . . . . . .\n" * 9
    assert features_of(empty, "A5")["edge"] == 1.0
    assert features_of(empty, "B5")["edge"] == 0.5
    assert features_of(empty, "C5")["edge"] == 0.0
    near = empty.splitlines()
    near[4] = ". . . X . . . . ."                                     # a stone at D5
    assert features_of("\n".join(near), "B5")["edge"] == 0.0          # two columns away
    assert features_of("\n".join(near), "A5")["edge"] == 1.0          # three away


def test_near_falls_with_manhattan_distance_from_the_last_move():
    board = ". . . . . . . . .\n" * 4 + ". . . . X . . . .\n" + ". . . . . . . . .\n" * 4
    assert features_of(board, "E6", colour=W, last="E5")["near"] == 1.0
    assert features_of(board, "F6", colour=W, last="E5")["near"] == pytest.approx(2 / 3)
    assert features_of(board, "E8", colour=W, last="E5")["near"] == pytest.approx(1 / 3)
    assert features_of(board, "F7", colour=W, last="E5")["near"] == pytest.approx(1 / 3)
    assert features_of(board, "E9", colour=W, last="E5")["near"] == 0.0
    assert features_of(board, "E6", colour=W)["near"] == 0.0          # no last move


def test_pattern_matches_a_hane():
    hane = """
. . . . .
. X O X .
. . . . .
. . . . .
. . . . .
"""
    assert features_of(hane, "C3")["pattern"] == 1.0
    assert features_of(hane, "C2")["pattern"] == 0.0


def liberties(board, n, p):
    """The liberties of the group at p, by flood fill."""
    width = n + 2
    colour, seen, todo, libs = board[p], {p}, [p], set()
    while todo:
        s = todo.pop()
        for d in (1, -1, width, -width):
            q = s + d
            if board[q] == go_board.EMPTY:
                libs.add(q)
            elif board[q] == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen, libs


def lost_running(board, n, q, depth):
    """escape_fails read again with flood fills: is the group at q, in atari with its
    owner to move, lost however it runs (captures and liberties first, then the ladder)?"""
    width = n + 2
    board = board.copy()
    defender = int(board[q])
    attacker = 3 - defender

    def attackers_next_to(points):
        return {t for s in points for t in (s + 1, s - 1, s + width, s - width)
                if board[t] == attacker}

    stones, libs = liberties(board, n, q)
    if any(len(liberties(board, n, t)[1]) == 1 for t in attackers_next_to(stones)):
        return False
    (lib,) = libs
    if any(len(liberties(board, n, t)[1]) == 1 for t in attackers_next_to([lib])):
        return False
    board[lib] = defender
    _, after = liberties(board, n, lib)
    if len(after) != 2 or depth == 0:
        return len(after) <= 1
    for atari in after:
        board[atari] = attacker
        if liberties(board, n, atari)[1] and lost_running(board, n, lib, depth - 1):
            return True
        board[atari] = go_board.EMPTY
    return False


def reference(board, n, p, colour, last):
    """The features as the priors module's docstring defines them, computed with flood fills."""
    width = n + 2
    other = 3 - colour
    found = dict.fromkeys(FEATURES, 0.0)
    neighbours = [p + d for d in (1, -1, width, -width)]
    groups = {}
    for q in neighbours:
        if board[q] in (B, W) and not any(q in stones for stones, _ in groups.values()):
            groups[q] = liberties(board, n, q)
    captures = any(board[q] == other and len(libs) == 1 for q, (_, libs) in groups.items())
    own = [libs for q, (_, libs) in groups.items() if board[q] == colour]
    after = set().union(*own, {q for q in neighbours if board[q] == go_board.EMPTY}) - {p}
    self_atari = bool(own) and not captures and len(after) == 1
    empty = sum(board[q] == go_board.EMPTY for q in neighbours)
    for q, (stones, libs) in groups.items():
        if board[q] == other and len(libs) == 1:
            found["capture"] += 1 + 0.5 * min(len(stones), 4)
        elif board[q] == other and len(libs) == 2 and not self_atari:
            found["atari"] += 1.0
        elif board[q] == colour and len(libs) == 1:
            if empty >= 2:
                found["escape"] = 1.0
            if lost_running(board, n, q, n):
                found["ladder"] = 1.0
    found["self_atari"] = float(self_atari)
    row, col = p // width, p % width
    line = min(row, col, n + 1 - row, n + 1 - col)
    close = any(board[r * width + c] in (B, W)
                for r in range(row - 2, row + 3) for c in range(col - 2, col + 3)
                if 1 <= r <= n and 1 <= c <= n)
    if line <= 2 and not close:
        found["edge"] = 1.0 if line == 1 else 0.5
    if last >= 0:
        d = abs(row - last // width) + abs(col - last % width)
        found["near"] = (4 - d) / 3 if d <= 3 else 0.0
    return found


@pytest.mark.parametrize("seed", range(4))
def test_features_agree_with_the_reference_in_random_positions(seed):
    n = 9
    game = GoGame(n)
    table = patterns.default_table()
    rng = np.random.default_rng(seed)
    work = new_workspace(n)
    out = np.zeros(len(FEATURES))
    checked = 0
    for length in (10, 25, 40, 55):
        state = game.initial_state()
        for _ in range(length):
            choices = np.flatnonzero(
                go_board.sensible_mask(state.board, n, state.colour, state.ko)[:-1])
            if len(choices) == 0:
                break
            state = game.apply(state, int(rng.choice(choices)))
        load_board(work, state.board, n)
        # The tree asks only for the sensible moves (legal, no self-capture or own eye).
        sensible = go_board.sensible_mask(state.board, n, state.colour, state.ko)[:-1]
        for action in np.flatnonzero(sensible):
            p = go_board.point_of(n, int(action))
            priors.features(work, n, p, state.colour, state.last, table, NO_SHAPES, out)
            expected = reference(state.board, n, p, state.colour, state.last)
            got = dict(zip(FEATURES, out.tolist()))
            expected["pattern"] = got["pattern"]  # the pattern table has its own tests
            assert got == pytest.approx(expected), (length, action)
            checked += 1
    assert checked > 100


def test_prior_adds_weighted_features_as_wins_or_losses():
    state = state_from_diagram(TACTICS)
    work = new_workspace(9)
    load_board(work, state.board, 9)
    weight = priors.weights(20.0, {"capture": 1.0, "near": 0.5})
    p = point(9, "D3")
    scratch = np.zeros(len(FEATURES))
    visits, wins = priors.prior(work, 9, p, W, point(9, "E2"), patterns.default_table(),
                                NO_SHAPES, 10.0, weight, scratch)
    capture = 1 + 0.5 * 3
    near = 2 / 3  # E2 to D3: one row and one column
    assert visits == pytest.approx(10 + 20 * capture + 10 * near)
    assert wins == pytest.approx(5 + 20 * capture + 10 * near)
    # A bad feature adds visits only.
    weight = priors.weights(20.0, {"self_atari": 1.0})
    diagram = """
. . . . .
. O O . .
O X . O .
. O . . .
. . . . .
"""
    state = state_from_diagram(diagram)
    work = new_workspace(5)
    load_board(work, state.board, 5)
    visits, wins = priors.prior(work, 5, point(5, "C3"), B, -1, patterns.default_table(),
                                NO_SHAPES, 10.0, weight, scratch)
    assert (visits, wins) == pytest.approx((30.0, 5.0))


def test_weights_refuses_unknown_features():
    assert priors.weights(2.0, {"near": 1.5}).tolist() == [0, 0, 0, 0, 0, 0, 3.0, 0, 0]
    with pytest.raises(ValueError, match="nearby"):
        priors.weights(2.0, {"nearby": 1.0})


def root_priors(argv, state, n=9):
    """The root edges' (move -> prior visits) of the engine built from argv, after one playout."""
    options = build_parser().parse_args(argv + ["--seed", "1"])
    config = MctsGenerator(options).config
    uct = FastUct(n, 7.5, config.uct, seed=1)
    uct.search(state.board, state.colour, state.ko, state.last, state.passes, 1)
    first, count = uct.tree[0][0], uct.tree[1][0]
    return dict(zip(uct.tree[3][first:first + count].tolist(),
                    uct.tree[9][first:first + count].tolist()))


def test_the_engine_options_name_every_feature():
    assert [name for name, _ in PRIOR_OPTIONS] == list(FEATURES)


@pytest.mark.parametrize("name", FEATURES)
def test_each_prior_option_changes_the_root_priors(name):
    game = GoGame(9)
    rng = np.random.default_rng(5)
    option = f"--prior-{name.replace('_', '-')}"
    fired = 0
    for length in (4, 40, 45, 50, 55, 60):  # openings, middle games: each feature fires
        state = game.initial_state()
        for _ in range(length):
            choices = np.flatnonzero(go_board.sensible_mask(state.board, 9, state.colour,
                                                            state.ko)[:-1])
            state = game.apply(state, int(rng.choice(choices)))
        off = root_priors([option, "0"], state)
        on = root_priors([option, "2"], state)
        work = new_workspace(9)
        load_board(work, state.board, 9)
        out = np.zeros(len(FEATURES))
        firing = []
        for move in on:
            if move >= 0:
                priors.features(work, 9, move, state.colour, state.last,
                                patterns.default_table(), shapes.shipped_table(), out)
                if out[FEATURES.index(name)]:
                    firing.append(move)
        assert sorted(m for m in on if on[m] != off[m]) == sorted(firing)
        fired += len(firing)
    assert fired


def test_near_option_answers_close_to_the_last_move():
    engine_options = build_parser().parse_args(
        ["--prior-near", "40", "--playouts", "40", "--seed", "2", "--resign", "0"])
    engine, generator = make_engine(engine_options)
    try:
        for command, args in (("boardsize", ["9"]), ("play", ["b", "C3"])):
            assert not engine.run_command(command, args)[0]
        _, reply, _ = engine.run_command("genmove", ["w"])
    finally:
        generator.close()
    col, row = "ABCDEFGHJ".index(reply[0]), int(reply[1:])
    assert abs(col - 2) + abs(row - 3) <= 3
