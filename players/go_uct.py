"""The Go engine's fast path: UCT with RAVE and heuristic priors, tree and playouts in numba.

The tree lives in flat arrays: a node owns a contiguous block of edges, one
per sensible move (legal, not self-capture, not filling the mover's own eye)
and pass. A simulation replays the tree moves on a playout workspace (see
go_playout.load_board), expands the child reached when its edge has enough
visits, plays the rest of the game with the playout policy, and backs up the
result: wins on the path, and all-moves-as-first (AMAF) wins on every
sibling edge whose move the same colour played later in the simulation.

Edge value, for the player choosing it: with n, w the visits and wins plus
the prior's virtual visits and wins, and an, aw the AMAF ones,
  beta = an / (an + n + an * n / rave_equiv)
  value = (1 - beta) * w / n + beta * aw / an + c * sqrt(ln(N + 1) / n)
This module is Go-specific; the game-independent search is players.mcts.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from players.games import go_patterns, go_playout
from players.games.go_playout import (
    _KERNEL,
    _is_bad_self_atari,
    _pattern_code,
    _playable,
    continue_playout,
    in_atari,
    load_board,
    new_workspace,
    play_on,
    rand_below,
)

NODE_FIRST, NODE_COUNT = 0, 1


@dataclass(frozen=True)
class UctParams:
    """Parameters of the fast search.

    Public attributes:
      c            -- UCT exploration constant
      rave_equiv   -- RAVE equivalence parameter (0 turns RAVE off)
      expand_after -- visits an edge needs before its child node is made
      prior_even   -- virtual visits (at 50%) every move starts with
      prior_weight -- virtual visits that each heuristic adds (good: wins, bad: losses)
      heavy        -- heavy playouts
    """

    c: float = 0.2
    rave_equiv: float = 3000.0
    expand_after: int = 2
    prior_even: float = 10.0
    prior_weight: float = 20.0
    heavy: bool = True


def new_tree(n: int, max_nodes: int):
    """Empty tree arrays for an n x n board with room for max_nodes nodes."""
    max_edges = max_nodes * (n * n + 1)
    f32 = np.float32
    return (np.zeros(max_nodes, np.int32), np.zeros(max_nodes, np.int32),
            np.zeros(max_nodes, np.float64), np.zeros(max_edges, np.int32),
            np.full(max_edges, -1, np.int32), np.zeros(max_edges, f32),
            np.zeros(max_edges, f32), np.zeros(max_edges, f32), np.zeros(max_edges, f32),
            np.zeros(max_edges, f32), np.zeros(max_edges, f32), np.zeros(2, np.int64))


@njit(**_KERNEL)
def _near_stones(board, n, p, radius):
    width = n + 2
    row, col = p // width, p % width
    for r in range(max(1, row - radius), min(n, row + radius) + 1):
        for c in range(max(1, col - radius), min(n, col + radius) + 1):
            v = board[r * width + c]
            if v == 1 or v == 2:
                return True
    return False


@njit(**_KERNEL)
def _prior(work, n, p, colour, patterns, even, weight):
    """(virtual visits, virtual wins) for colour playing p."""
    board, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, _, _ = work
    width = n + 2
    visits = even
    wins = 0.5 * even
    good = 0.0
    bad = 0.0
    for d in (1, -1, width, -width):
        q = p + d
        v = board[q]
        if v == 3 - colour and in_atari(libs, lsum, lsq, gid[q]):
            good += 1.0 + min(gsize[gid[q]], 4) * 0.5  # capture
        elif v == colour and in_atari(libs, lsum, lsq, gid[q]):
            empty = 0
            for e in (1, -1, width, -width):
                if board[p + e] == 0:
                    empty += 1
            if empty >= 2:
                good += 1.0  # escape from atari
    if _is_bad_self_atari(board, width, gid, nxt, libs, lsum, lsq, p, colour):
        bad += 1.0
    if patterns[_pattern_code(board, width, p, colour)]:
        good += 0.5
    row, col = p // width, p % width
    line = min(row, col, n + 1 - row, n + 1 - col)
    if line <= 2 and not _near_stones(board, n, p, 2):
        bad += 1.0 if line == 1 else 0.5
    visits += weight * (good + bad)
    wins += weight * good
    return visits, wins


@njit(**_KERNEL)
def _expand(tree, work, n, node, colour, ko, patterns, even, weight, rng):
    """Give node one edge per sensible move of colour, and pass; returns False if full."""
    (node_first, node_count, node_n, e_move, e_child, e_n, e_w, e_an, e_aw, e_pn, e_pw,
     meta) = tree
    board, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, _, _ = work
    width = n + 2
    first = meta[1]
    if first + ne[0] + 1 > e_move.shape[0]:
        return False
    k = first
    for i in range(ne[0]):
        p = empties[i]
        if not _playable(board, width, gid, libs, lsum, lsq, p, colour, ko):
            continue
        pv, pw = _prior(work, n, p, colour, patterns, even, weight)
        jitter = rand_below(rng, 1000) * 1e-5
        e_move[k] = p
        e_pn[k] = pv
        e_pw[k] = pw + jitter
        k += 1
    e_move[k] = -1  # pass: a poor prior; exact results decide when it ends the game
    e_pn[k] = even
    e_pw[k] = 0.1 * even
    k += 1
    for e in range(first, k):
        e_child[e] = -1
        e_n[e] = 0.0
        e_w[e] = 0.0
        e_an[e] = 0.0
        e_aw[e] = 0.0
    node_first[node] = first
    node_count[node] = k - first
    node_n[node] = 0.0
    meta[1] = k
    return True


@njit(**_KERNEL)
def _select(tree, node, c, rave_equiv):
    (node_first, node_count, node_n, e_move, e_child, e_n, e_w, e_an, e_aw, e_pn, e_pw,
     meta) = tree
    log_n = math.log(node_n[node] + 1.0)
    best = -1
    best_score = -1e300
    for e in range(node_first[node], node_first[node] + node_count[node]):
        visits = e_n[e] + e_pn[e]
        value = (e_w[e] + e_pw[e]) / visits
        if rave_equiv > 0 and e_an[e] > 0:
            an = e_an[e]
            beta = an / (an + visits + an * visits / rave_equiv)
            value = (1.0 - beta) * value + beta * e_aw[e] / an
        score = value + c * math.sqrt(log_n / visits)
        if score > best_score:
            best_score = score
            best = e
    return best


@njit(cache=True, nogil=True)
def run_simulations(tree, work, root_board, n, root_colour, root_ko, root_last, root_passes,
                    komi, count, c, rave_equiv, expand_after, even, weight, heavy, patterns,
                    max_moves, rng, record, path_nodes, path_edges, first_colour):
    """Run count simulations from the root (node 0, already expanded); returns playouts run."""
    (node_first, node_count, node_n, e_move, e_child, e_n, e_w, e_an, e_aw, e_pn, e_pw,
     meta) = tree
    max_depth = path_nodes.shape[0]
    for _ in range(count):
        load_board(work, root_board, n)
        colour = root_colour
        ko = root_ko
        last = root_last
        passes = root_passes
        node = 0
        depth = 0
        while depth < max_depth:
            e = _select(tree, node, c, rave_equiv)
            path_nodes[depth] = node
            path_edges[depth] = e
            move = e_move[e]
            if move < 0:
                passes += 1
                ko = -1
            else:
                passes = 0
                ko = play_on(work, n, move, colour)
            record[depth] = move
            depth += 1
            last = move
            colour = 3 - colour
            if passes >= 2:
                break
            child = e_child[e]
            if child < 0:
                if e_n[e] + 1 >= expand_after and meta[0] < node_first.shape[0]:
                    child = meta[0]
                    if _expand(tree, work, n, child, colour, ko, patterns, even, weight, rng):
                        meta[0] += 1
                        e_child[e] = child
                break
            node = child
        score, end = continue_playout(work, n, colour, ko, last, passes, max_moves, heavy,
                                      patterns, rng, record, depth)
        end = min(end, record.shape[0])
        black_result = 1.0 if score > komi else 0.0 if score < komi else 0.5
        # Back up wins along the path, then AMAF wins on the siblings.
        for i in range(depth):
            mover = root_colour if i % 2 == 0 else 3 - root_colour
            win = black_result if mover == 1 else 1.0 - black_result
            e = path_edges[i]
            e_n[e] += 1.0
            e_w[e] += win
            node_n[path_nodes[i]] += 1.0
        if rave_equiv > 0:
            first_colour[:] = 0
            for j in range(end - 1, -1, -1):
                mover = root_colour if j % 2 == 0 else 3 - root_colour
                p = record[j]
                if p >= 0:
                    first_colour[p] = mover
                if j < depth:
                    win = black_result if mover == 1 else 1.0 - black_result
                    nd = path_nodes[j]
                    for e in range(node_first[nd], node_first[nd] + node_count[nd]):
                        m = e_move[e]
                        if m >= 0 and first_colour[m] == mover:
                            e_an[e] += 1.0
                            e_aw[e] += win
    return count


class FastUct:
    """Searches Go positions with the numba tree; one instance per board size and komi.

    Public attributes:
      n, komi, params, max_moves
    """

    def __init__(self, n: int, komi: float, params: UctParams, seed: int = 0,
                 max_nodes: int = 40000) -> None:
        self.n = n
        self.komi = komi
        self.params = params
        self.max_moves = 3 * n * n
        self.max_nodes = max_nodes
        self.patterns = go_patterns.default_table()
        self.rng = go_playout.new_rng_state(seed)
        self.work = new_workspace(n)
        self.tree = None
        size = (n + 2) * (n + 2)
        self.record = np.zeros(self.max_moves + 400, np.int32)
        self.path_nodes = np.zeros(300, np.int32)
        self.path_edges = np.zeros(300, np.int32)
        self.first_colour = np.zeros(size, np.int8)

    def search(self, board: np.ndarray, colour: int, ko: int, last: int, passes: int,
               playouts: int, seconds: float | None = None, chunk: int = 250):
        """Search a position; returns (moves, visits, wins) of the root edges.

        moves are padded points, -1 for pass; wins are for colour.
        """
        p = self.params
        nodes = min(self.max_nodes, playouts // max(1, p.expand_after) + 2)
        if self.tree is None or self.tree[0].shape[0] < nodes:
            self.tree = new_tree(self.n, nodes)
        tree = self.tree
        tree[11][:] = 0
        load_board(self.work, board, self.n)
        _expand(tree, self.work, self.n, 0, colour, ko, self.patterns, p.prior_even,
                p.prior_weight, self.rng)
        tree[11][0] = 1
        deadline = None if seconds is None else time.monotonic() + seconds
        done = 0
        while done < playouts:
            step = min(chunk, playouts - done)
            run_simulations(tree, self.work, board, self.n, colour, ko, last, passes,
                            self.komi, step, p.c, p.rave_equiv, p.expand_after,
                            p.prior_even, p.prior_weight, p.heavy, self.patterns,
                            self.max_moves, self.rng, self.record, self.path_nodes,
                            self.path_edges, self.first_colour)
            done += step
            if deadline is not None and time.monotonic() >= deadline:
                break
        first, count = tree[0][0], tree[1][0]
        block = slice(first, first + count)
        return (tree[3][block].copy(), tree[5][block].astype(np.float64),
                tree[6][block].astype(np.float64))
