"""The fast Go search's tree statistics, the pattern table and the playout RNG."""

import numpy as np
import pytest

from players.engines.go_uct import patterns, playout
from players.engines.go_uct.rng import new_rng_state, rand_below
from players.engines.go_uct.search import SearchConfig, make_searcher
from players.engines.go_uct.tactics import CAPTURE_LEFT, LADDER_CHASE, LADDER_ESCAPE
from players.engines.go_uct.uct import (
    FastUct,
    UctParams,
    _select,
    allocation_slices,
    copy_subtree,
    new_tree,
)
from players.games import go_board
from players.games.go import GoGame, state_from_diagram

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


def most_visited_grandchild(tree):
    """(our move, reply, grandchild node) along the most visited expanded edges from the root."""
    node_first, node_count, node_n, e_move, e_child, e_n = tree[:6]

    def best_edge(node):
        edges = [e for e in range(node_first[node], node_first[node] + node_count[node])
                 if e_child[e] >= 0 and node_count[e_child[e]] > 0]
        return max(edges, key=lambda e: e_n[e])
    e1 = best_edge(0)
    e2 = best_edge(e_child[e1])
    return int(e_move[e1]), int(e_move[e2]), int(e_child[e2])


def position_after(state, moves):
    board = state.board.copy()
    colour, ko = state.colour, state.ko
    for move in moves:
        ko = go_board.play_point(board, 7, move, colour) if move >= 0 else -1
        colour = 3 - colour
    return board, colour, ko


@pytest.mark.parametrize("threads", [1, 2])
def test_search_two_moves_on_starts_from_the_kept_subtree(threads):
    state = state_from_diagram(POSITION)
    uct = FastUct(7, 0.5, UctParams(), seed=3, threads=threads)
    uct.search(state.board, state.colour, state.ko, state.last, state.passes, 3000)
    ours, reply, node = most_visited_grandchild(uct.tree)
    kept_visits = uct.tree[2][node]
    kept_moves = {int(uct.tree[3][e]) for e in range(uct.tree[0][node],
                                                      uct.tree[0][node] + uct.tree[1][node])}
    board, colour, ko = position_after(state, [ours, reply])
    moves, visits, _ = uct.search(board, colour, ko, reply, 0, 500)
    uct.close()
    assert kept_visits > 0 and uct.reused == kept_visits
    assert set(moves.tolist()) == kept_moves
    assert abs(visits.sum() - (kept_visits + 500)) <= 5  # a lost update or two with threads


def test_no_reuse_for_other_positions_or_when_turned_off():
    state = state_from_diagram(POSITION)
    uct = FastUct(7, 0.5, UctParams(), seed=3)
    off = FastUct(7, 0.5, UctParams(reuse=False), seed=3)
    for searcher in (uct, off):
        searcher.search(state.board, state.colour, state.ko, state.last, state.passes, 2000)
    ours, reply, _ = most_visited_grandchild(uct.tree)
    board, colour, ko = position_after(state, [ours, reply])
    _, visits, _ = off.search(board, colour, ko, reply, 0, 400)
    assert off.reused == 0 and visits.sum() == 400
    # The same position again, or the right board reached by a different last move, is new.
    _, visits, _ = uct.search(state.board, state.colour, state.ko, state.last, state.passes, 400)
    assert uct.reused == 0 and visits.sum() == 400
    uct.search(state.board, state.colour, state.ko, state.last, state.passes, 2000)
    ours, reply, _ = most_visited_grandchild(uct.tree)
    board, colour, ko = position_after(state, [ours, reply])
    other = next(m for m in uct.tree[3][:uct.tree[1][0]] if m >= 0 and m not in (ours, reply))
    _, visits, _ = uct.search(board, colour, ko, int(other), 0, 400)
    assert uct.reused == 0 and visits.sum() == 400


def test_searcher_counts_only_the_simulations_it_ran():
    game = GoGame(7, 0.5)
    state = state_from_diagram(POSITION)
    searcher = make_searcher(game, SearchConfig(engine="fast", seed=2))
    first = searcher.search(state, 2000)
    ours, reply, node = most_visited_grandchild(searcher.trees[0].tree)
    kept = searcher.trees[0].tree[2][node]
    for point in (ours, reply):
        state = game.apply(state, go_board.action_of(7, point))
    second = searcher.search(state, 300)
    searcher.close()
    assert first.simulations == 2000
    assert second.simulations == 300 and second.visit_counts.sum() == 300 + kept


def test_edges_without_prior_visits_are_tried_first():
    state = state_from_diagram(POSITION)
    uct = FastUct(7, 0.5, UctParams(prior_even=0.0, prior_weight=0.0, rave_equiv=0.0), seed=1)
    moves, visits, _ = uct.search(state.board, state.colour, state.ko, state.last,
                                  state.passes, 300)
    assert visits.sum() == 300 and (visits >= 1).all()


def reference_select(tree, node, c, rave_equiv):
    """The edge the module docstring's formula picks: first untried, else first best."""
    first, count, node_n = int(tree[0][node]), int(tree[1][node]), float(tree[2][node])
    e_n, e_w, e_an, e_aw, e_pn, e_pw, e_vl = (tree[i].astype(np.float64) for i in range(5, 12))
    best, best_score = -1, -np.inf
    for e in range(first, first + count):
        visits = e_n[e] + e_pn[e] + max(e_vl[e], 0.0)
        if visits <= 0:
            return e
        value = (e_w[e] + e_pw[e]) / visits
        if rave_equiv > 0 and e_an[e] > 0:
            beta = e_an[e] / (e_an[e] + visits + e_an[e] * visits / rave_equiv)
            value = (1 - beta) * value + beta * e_aw[e] / e_an[e]
        score = value + c * np.sqrt(np.log(node_n + 1) / visits)
        if score > best_score:
            best, best_score = e, score
    return best


@pytest.mark.parametrize("rave", [0.0, 3000.0])
def test_select_follows_the_formula_on_random_statistics(rave):
    rng = np.random.default_rng(int(rave))
    tree = new_tree(9, 3)
    scores = np.zeros(82)
    for trial in range(300):
        count = int(rng.integers(1, 83))
        node = trial % 3
        first = node * 82
        tree[0][node], tree[1][node] = first, count
        block = slice(first, first + count)
        visits = rng.integers(0, 50, count) * (rng.random(count) < 0.9)
        tree[5][block] = visits
        tree[6][block] = rng.random(count) * visits
        tree[7][block] = rng.integers(0, 200, count) * (rng.random(count) < 0.7)
        tree[8][block] = rng.random(count) * tree[7][block]
        tree[9][block] = rng.choice([0.0, 10.0, 30.0], count, p=[0.05, 0.8, 0.15])
        tree[10][block] = rng.random(count) * tree[9][block]
        tree[11][block] = rng.choice([-1.0, 0.0, 0.0, 1.0, 2.0], count)
        tree[2][node] = tree[5][block].sum() + rng.integers(0, 3)
        c = float(rng.choice([0.0, 0.2, 1.0]))
        assert _select(tree, node, c, rave, scores) == reference_select(tree, node, c, rave)


def test_copy_subtree_stops_at_the_room_it_is_given():
    state = state_from_diagram(POSITION)
    uct = FastUct(7, 0.5, UctParams(), seed=8)
    uct.search(state.board, state.colour, state.ko, state.last, state.passes, 1500)
    dst = new_tree(7, uct.tree[0].shape[0])
    nodes, edges = copy_subtree(uct.tree, dst, 0, np.empty(3, np.int32))
    assert nodes == 3
    assert sorted(dst[4][:edges][dst[4][:edges] >= 0].tolist()) == [1, 2]
    assert dst[1][0] == uct.tree[1][0]


def test_copy_subtree_renumbers_breadth_first_and_keeps_statistics():
    state = state_from_diagram(POSITION)
    uct = FastUct(7, 0.5, UctParams(), seed=8)
    uct.search(state.board, state.colour, state.ko, state.last, state.passes, 1500)
    src = uct.tree
    _, _, node = most_visited_grandchild(src)
    dst = new_tree(7, src[0].shape[0])
    nodes, edges = copy_subtree(src, dst, node, np.empty(dst[0].shape[0], np.int32))

    def walk(tree, root):
        """Visits and (move, visits, wins) of every edge, depth first in move order."""
        first, count, node_n, move, child, e_n, e_w = tree[:7]
        out = [float(node_n[root])]
        for e in sorted(range(first[root], first[root] + count[root]), key=lambda e: move[e]):
            out.append((int(move[e]), float(e_n[e]), float(e_w[e])))
            if child[e] >= 0 and count[child[e]] > 0:
                out.append(walk(tree, child[e]))
        return out
    assert walk(dst, 0) == walk(src, node)
    assert edges == dst[1][:nodes].sum()
    assert nodes > 1 and (dst[4][:edges] < nodes).all()


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_allocation_slices_are_disjoint_and_leave_the_root_alone(workers):
    slices = allocation_slices(100, 2600, 1, 26, workers)
    assert slices[0][0] == 1 and slices[0][2] == 26
    nodes = [set(range(a[0], a[1])) for a in slices]
    edges = [set(range(a[2], a[3])) for a in slices]
    assert set().union(*nodes) == set(range(1, 100))
    assert set().union(*edges) == set(range(26, 2600))
    assert sum(map(len, nodes)) == 99 and sum(map(len, edges)) == 2600 - 26


def test_patterns_match_in_every_orientation_and_colour():
    table = patterns.compile_patterns((("XOX", "...", "???"),))

    def code_after(stones, colour=go_board.BLACK):
        board = go_board.empty_board(5)
        for (row, col), stone in stones.items():
            board[go_board.point_of(5, row * 5 + col)] = stone
        return playout.pattern_code(board, 7, go_board.point_of(5, 2 * 5 + 2), colour)

    b, w = go_board.BLACK, go_board.WHITE
    above = {(3, 1): b, (3, 2): w, (3, 3): b}       # the pattern's top row, as drawn
    left = {(1, 1): b, (2, 1): w, (3, 1): b}        # rotated to the left column
    assert table[code_after(above)]
    assert table[code_after(left)]
    assert table[code_after({(3, 1): w, (3, 2): b, (3, 3): w})]  # colours swapped
    assert not table[code_after({(3, 1): b, (3, 2): b, (3, 3): b})]
    with pytest.raises(ValueError):
        patterns.compile_patterns((("...", ".X.", "..."),))


def test_rand_below_is_uniform():
    rng = new_rng_state(5)
    draws = np.bincount([rand_below(rng, 6) for _ in range(6000)], minlength=6)
    assert draws.min() > 880 and draws.max() < 1120


def test_a_stop_rule_is_asked_after_each_chunk_and_ends_the_search():
    state = state_from_diagram(POSITION)
    uct = FastUct(7, 0.5, UctParams(heavy=False), seed=4)
    asked = []

    def stop(elapsed, played, visits, wins):
        asked.append((played, visits.sum()))
        return played >= 150

    moves, visits, wins = uct.search(state.board, state.colour, state.ko, state.last,
                                     state.passes, 10_000, None, 50, stop)
    assert [played for played, _ in asked] == [50, 100, 150]
    assert [total for _, total in asked] == [50, 100, 150]   # the root's edges as they grow
    assert visits.sum() == 150


def test_the_search_hands_its_playout_tactics_on_as_flags():
    assert FastUct(7, 7.5, UctParams()).tactics == LADDER_ESCAPE
    both = UctParams(ladders=False, ladder_chase=True, capture_left=True)
    assert FastUct(7, 7.5, both).tactics == LADDER_CHASE | CAPTURE_LEFT
