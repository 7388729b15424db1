"""The Go engine's fast path: UCT with RAVE and heuristic priors, tree and playouts in numba.

The tree lives in flat arrays: a node owns a contiguous block of edges, one
per sensible move (legal, not self-capture, not filling the mover's own eye)
and pass. A simulation replays the tree moves on a playout workspace (see
groups.load_board), expands the child reached when its edge has enough
visits, plays the rest of the game with the playout policy, and backs up the
result: wins on the path, and all-moves-as-first (AMAF) wins on every
sibling edge whose move the same colour played later in the simulation.

Edge value, for the player choosing it: with n, w the visits and wins plus
the prior's virtual visits and wins, and an, aw the AMAF ones,
  beta = an / (an + n + an * n / rave_equiv)
  value = (1 - beta) * w / n + beta * aw / an + c * sqrt(ln(N + 1) / n)
Tree parallelism: several threads run simulations on one tree at once,
without locks (the kernels release the GIL). Each thread makes nodes and
edges only in its own slice of the arrays, so allocation needs no lock; a
virtual loss (visits without wins, kept apart from the real visits and taken
back at backup) steers the threads apart. The path's visits, wins and virtual
loss are added atomically (atomics.atomic_add), so none is lost however the
threads are preempted; the AMAF statistics of the siblings, many per
simulation, are added plainly, and a rare lost AMAF update is accepted, as in
lock-free parallel MCTS (Enzenberger and Mueller, 2009). A node is published
by storing its edge count before the parent edge's child link, which x86's
store order makes visible in that order to other threads.
This module is Go-specific; the game-independent search is players.mcts.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from numba import njit

from players.engines.go_uct import patterns, priors, shapes
from players.engines.go_uct.atomics import atomic_add
from players.engines.go_uct.groups import load_board, new_workspace, play_on
from players.engines.go_uct.kernels import INLINE, KERNEL
from players.engines.go_uct.last_good_reply import learn_replies, new_replies, no_replies
from players.engines.go_uct.playout import continue_playout
from players.engines.go_uct.rng import new_rng_state, rand_below
from players.engines.go_uct.tactics import CAPTURE_LEFT, LADDER_CHASE, LADDER_ESCAPE, playable
from players.games import go_board


@dataclass(frozen=True)
class UctParams:
    """Parameters of the fast search.

    Public attributes:
      c            -- UCT exploration constant
      rave_equiv   -- RAVE equivalence parameter (0 turns RAVE off)
      expand_after -- visits an edge needs before its child node is made
      prior_even   -- virtual visits (at 50%) every move starts with
      prior_weight -- virtual visits that a heuristic's feature of 1 adds at factor 1
                      (good: wins, bad: losses)
      prior_capture, prior_escape, prior_self_atari, prior_pattern, prior_edge,
      prior_atari, prior_near, prior_ladder
                   -- each heuristic's factor (0 turns it off; see players.engines.go_uct.priors)
      heavy        -- heavy playouts
      reuse        -- start from the subtree kept from the last search, when it applies
      lgrf         -- playouts play the last good reply to the last move, learnt from
                      the simulations (LGRF-1; kept from search to search)
      ladders      -- heavy playouts don't run from atari into a ladder that catches
      ladder_chase -- heavy playouts atari the last move's group where a ladder catches it
      capture_left -- heavy playouts capture a group left in atari beside their own last move
    """

    c: float = 0.0334
    rave_equiv: float = 591.2
    expand_after: int = 2
    prior_even: float = 14.41
    prior_weight: float = 27.79
    prior_capture: float = 1.0
    prior_escape: float = 1.0
    prior_self_atari: float = 1.0
    prior_pattern: float = 0.8104
    prior_edge: float = 1.215
    prior_atari: float = 0.065
    prior_near: float = 1.165
    prior_ladder: float = 0.0
    prior_shape: float = 0.3
    heavy: bool = True
    reuse: bool = True
    lgrf: bool = False
    ladders: bool = True
    ladder_chase: bool = False
    capture_left: bool = False

    def prior_factors(self) -> dict[str, float]:
        """{feature: factor} for priors.weights."""
        return {name: getattr(self, "prior_" + name) for name in priors.FEATURES}


def new_tree(n: int, max_nodes: int):
    """Empty tree arrays for an n x n board with room for max_nodes nodes.

    (node_first, node_count, node_n, e_move, e_child, e_n, e_w, e_an, e_aw,
    e_pn, e_pw, e_vl): per node its first edge, edge count and visits; per edge
    its move, child node, visits, wins, AMAF visits and wins, prior visits and
    wins, and the virtual loss of the simulations now passing through it.
    """
    max_edges = max_nodes * (n * n + 1)
    f32 = np.float32
    return (np.zeros(max_nodes, np.int32), np.zeros(max_nodes, np.int32),
            np.zeros(max_nodes, np.float64), np.zeros(max_edges, np.int32),
            np.full(max_edges, -1, np.int32), np.zeros(max_edges, f32),
            np.zeros(max_edges, f32), np.zeros(max_edges, f32), np.zeros(max_edges, f32),
            np.zeros(max_edges, f32), np.zeros(max_edges, f32), np.zeros(max_edges, f32))


def allocation_slices(max_nodes: int, max_edges: int, used_nodes: int, used_edges: int,
                      workers: int):
    """Per worker, [next node, end node, next edge, end edge] of its own slice of the tree.

    The first used_nodes nodes and used_edges edges (the root, and any subtree
    kept from the last search) are taken; the rest is shared out evenly.
    """
    slices = []
    for i in range(workers):
        node_lo = used_nodes + (max_nodes - used_nodes) * i // workers
        node_hi = used_nodes + (max_nodes - used_nodes) * (i + 1) // workers
        edge_lo = used_edges + (max_edges - used_edges) * i // workers
        edge_hi = used_edges + (max_edges - used_edges) * (i + 1) // workers
        slices.append(np.array([node_lo, node_hi, edge_lo, edge_hi], np.int64))
    return slices


@njit(**KERNEL)
def copy_subtree(src, dst, root, order):
    """Copy src's subtree under node root into dst, root first as node 0; returns (nodes, edges).

    Nodes are numbered breadth first; order (scratch, one entry per dst node)
    maps them back to src. Children that don't fit in dst are dropped.
    """
    s_first, s_count, s_n, s_move, s_child, s_en, s_ew, s_an, s_aw, s_pn, s_pw, _ = src
    d_first, d_count, d_n, d_move, d_child, d_en, d_ew, d_an, d_aw, d_pn, d_pw, d_vl = dst
    capacity = min(order.shape[0], d_first.shape[0])
    order[0] = root
    nodes = 1
    edges = 0
    head = 0
    while head < nodes:
        s = order[head]
        first = edges
        for e in range(s_first[s], s_first[s] + s_count[s]):
            d_move[edges] = s_move[e]
            d_en[edges] = s_en[e]
            d_ew[edges] = s_ew[e]
            d_an[edges] = s_an[e]
            d_aw[edges] = s_aw[e]
            d_pn[edges] = s_pn[e]
            d_pw[edges] = s_pw[e]
            d_vl[edges] = 0.0
            child = s_child[e]
            if child >= 0 and s_count[child] > 0 and nodes < capacity:
                order[nodes] = child
                d_child[edges] = nodes
                nodes += 1
            else:
                d_child[edges] = -1
            edges += 1
        d_first[head] = first
        d_n[head] = s_n[s]
        d_count[head] = edges - first
        head += 1
    return nodes, edges


@njit(**KERNEL)
def _expand(tree, work, n, node, colour, ko, last, patterns, shapes, even, weight, scratch, rng,
            alloc):
    """Give node one edge per sensible move of colour, and pass; returns False if full.

    The edges come from alloc's slice ([next node, end node, next edge, end edge]);
    last is the move that led to node; weight and scratch are priors.prior's.
    """
    node_first, node_count, node_n, e_move, e_child, e_n, e_w, e_an, e_aw, e_pn, e_pw, e_vl = tree
    board, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, _, _ = work
    width = n + 2
    first = alloc[2]
    if first + ne[0] + 1 > alloc[3]:
        return False
    k = first
    for i in range(ne[0]):
        p = empties[i]
        if not playable(board, width, gid, libs, lsum, lsq, p, colour, ko):
            continue
        pv, pw = priors.prior(work, n, p, colour, last, patterns, shapes, even, weight, scratch)
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
        e_vl[e] = 0.0
    node_first[node] = first
    node_n[node] = 0.0
    node_count[node] = k - first  # last: another thread treats a node with no edges as a leaf
    alloc[2] = k
    return True


@njit(error_model="numpy", **INLINE)
def _select(tree, node, c, rave_equiv, scores):
    """The edge of node to follow; -1 only if node has no edges.

    An edge with no visits, real or prior, comes first. The virtual loss
    counts as visits without wins; it is clamped at zero, since a race between
    threads can lose an update of it. scores is scratch room for one number
    per edge: scoring every edge first, with no branch, and choosing after
    lets the compiler score four edges at once; the choice is the same.
    """
    node_first, node_count, node_n, e_move, e_child, e_n, e_w, e_an, e_aw, e_pn, e_pw, e_vl = tree
    log_n = math.log(node_n[node] + 1.0)
    first = node_first[node]
    count = node_count[node]
    rave = rave_equiv > 0
    for i in range(count):
        e = first + i
        visits = np.float64(e_n[e]) + e_pn[e] + max(e_vl[e], 0.0)
        value = (np.float64(e_w[e]) + e_pw[e]) / visits
        an = np.float64(e_an[e])
        beta = an / (an + visits + an * visits / rave_equiv)
        mixed = (1.0 - beta) * value + beta * e_aw[e] / an
        value = mixed if rave and an > 0 else value
        score = value + c * math.sqrt(log_n / visits)
        scores[i] = score if visits > 0.0 else np.inf
    best = -1
    best_score = -1e300
    for i in range(count):
        if scores[i] > best_score:
            best_score = scores[i]
            best = i
    return first + best if best >= 0 else -1


@njit(error_model="numpy", **KERNEL)
def run_simulations(tree, work, root_board, n, root_colour, root_ko, root_last, root_passes,
                    komi, count, c, rave_equiv, expand_after, even, weight, heavy, patterns,
                    shapes, max_moves, rng, record, path_nodes, path_edges, first_colour, alloc,
                    vloss, scratch, scores, replies, tactics):
    """Run count simulations from the root (node 0, already expanded); returns playouts run.

    New nodes and edges come from alloc's slice; vloss is the virtual loss
    each edge on the path carries until its simulation is backed up (0 when
    one thread searches); weight is each prior feature's weight (priors.weights),
    shapes the shape prior's table (priors.features),
    scratch room for the features, scores room for one number per edge;
    replies the last-good-reply table the playouts use and every simulation
    updates (last_good_reply.learn_replies), or empty for none; tactics the heavy
    playouts' flags (playout.continue_playout).
    """
    node_first, node_count, node_n, e_move, e_child, e_n, e_w, e_an, e_aw, e_pn, e_pw, e_vl = tree
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
            e = _select(tree, node, c, rave_equiv, scores)
            if e < 0:
                break
            if vloss > 0:
                atomic_add(e_vl, e, vloss)
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
                if e_n[e] + 1 >= expand_after and alloc[0] < alloc[1]:
                    child = alloc[0]
                    if _expand(tree, work, n, child, colour, ko, move, patterns, shapes, even, weight,
                               scratch, rng, alloc):
                        alloc[0] += 1
                        e_child[e] = child
                break
            if node_count[child] == 0:
                break  # another thread is still making it
            node = child
        score, end = continue_playout(work, n, colour, ko, last, passes, max_moves, heavy,
                                      patterns, rng, record, depth, replies, tactics)
        end = min(end, record.shape[0])
        black_result = 1.0 if score > komi else 0.0 if score < komi else 0.5
        if replies.shape[0] > 0:
            learn_replies(replies, n, record, end, root_colour, root_last, black_result)
        # Back up wins along the path (taking the virtual loss back), then AMAF wins.
        for i in range(depth):
            mover = root_colour if i % 2 == 0 else 3 - root_colour
            win = black_result if mover == 1 else 1.0 - black_result
            e = path_edges[i]
            if vloss > 0:  # other threads update the path too: no update may be lost
                atomic_add(e_n, e, 1.0)
                atomic_add(e_vl, e, -vloss)
                atomic_add(e_w, e, win)
                atomic_add(node_n, path_nodes[i], 1.0)
            else:
                e_n[e] += 1.0
                e_w[e] += win
                node_n[path_nodes[i]] += 1.0
        if rave_equiv > 0:
            for q in range(first_colour.shape[0]):
                first_colour[q] = 0
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


class _Worker:
    """One searching thread's own arrays: playout workspace, path, record and random state."""

    def __init__(self, n: int, max_moves: int, seed: int) -> None:
        self.work = new_workspace(n)
        self.rng = new_rng_state(seed)
        self.record = np.zeros(max_moves + 400, np.int32)
        self.path_nodes = np.zeros(300, np.int32)
        self.path_edges = np.zeros(300, np.int32)
        self.first_colour = np.zeros((n + 2) * (n + 2), np.int8)
        self.features = np.zeros(len(priors.FEATURES), np.float64)
        self.scores = np.zeros(n * n + 1, np.float64)


class FastUct:
    """Searches Go positions with the numba tree; one instance per board size and komi.

    With threads > 1 the threads share the tree (tree parallelism) and each
    simulation carries a virtual loss of virtual_loss visits. With params.reuse, a
    search of the position two moves (ours and the reply) after the last
    search's root starts from the subtree the last search grew there.

    Public attributes:
      n, komi, params, max_moves, threads, virtual_loss
      reused -- root visits the last search started with (0 when nothing was kept)
    """

    def __init__(self, n: int, komi: float, params: UctParams, seed: int = 0,
                 max_nodes: int = 40000, threads: int = 1, virtual_loss: float = 1.0) -> None:
        self.n = n
        self.komi = komi
        self.params = params
        self.max_moves = 3 * n * n
        self.max_nodes = max_nodes
        self.threads = threads
        self.virtual_loss = virtual_loss if threads > 1 else 0.0
        self.reused = 0.0
        self.patterns = patterns.default_table()
        # The learnt shapes are read only when their prior is on.
        self.shapes = (shapes.shipped_table() if params.prior_shape
                       else np.zeros(shapes.CODES, np.float64))
        self.weights = priors.weights(params.prior_weight, params.prior_factors())
        self.workers = [_Worker(n, self.max_moves, seed * 7919 + i) for i in range(threads)]
        # One table that all threads share, as the tree is: a lost update is a lost reply.
        self.replies = new_replies(n) if params.lgrf else no_replies()
        self.tactics = (LADDER_ESCAPE * params.ladders
                        + LADDER_CHASE * params.ladder_chase
                        + CAPTURE_LEFT * params.capture_left)
        self.tree = None
        self._spare = None
        self._root: tuple | None = None  # (board, colour, passes) of the last root
        self._pool = ThreadPoolExecutor(threads) if threads > 1 else None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _kept_node(self, board: np.ndarray, colour: int, ko: int, last: int,
                   passes: int) -> int:
        """The last tree's node for this position two moves on, or -1."""
        if self._root is None or self.tree is None:
            return -1
        old_board, old_colour, old_passes = self._root
        if colour != old_colour:
            return -1
        node_first, node_count, _, e_move, e_child = self.tree[:5]
        for e1 in range(node_first[0], node_first[0] + node_count[0]):
            c1 = e_child[e1]
            if c1 < 0 or node_count[c1] == 0:
                continue
            for e2 in range(node_first[c1], node_first[c1] + node_count[c1]):
                c2 = e_child[e2]
                if e_move[e2] != last or c2 < 0 or node_count[c2] == 0:
                    continue
                trial = old_board.copy()
                reached_ko, reached_passes = -1, old_passes
                for move, mover in ((e_move[e1], old_colour), (last, 3 - old_colour)):
                    if move < 0:
                        reached_ko, reached_passes = -1, reached_passes + 1
                    else:
                        reached_ko, reached_passes = go_board.play_point(
                            trial, self.n, move, mover), 0
                if (reached_ko == ko and reached_passes == passes
                        and np.array_equal(trial, board)):
                    return int(c2)
        return -1

    def search(self, board: np.ndarray, colour: int, ko: int, last: int, passes: int,
               playouts: int, seconds: float | None = None, chunk: int = 250, stop=None):
        """Search a position; returns (moves, visits, wins) of the root edges.

        moves are padded points, -1 for pass; wins are for colour. stop, if
        given, replaces the playouts and seconds limits: after each chunk of a
        thread's playouts, stop(seconds elapsed, playouts run by all threads,
        root edges' visits, their wins) says whether to end (see
        players.engines.time_plan.StopRule); each thread asks it on its own.
        """
        p = self.params
        nodes = min(self.max_nodes, playouts // max(1, p.expand_after) + 2 * self.threads)
        kept = self._kept_node(board, colour, ko, last, passes) if p.reuse else -1
        if kept > 0:
            size = max(nodes, self.tree[0].shape[0])
            if self._spare is None or self._spare[0].shape[0] < size:
                self._spare = new_tree(self.n, size)
            spare = self._spare
            spare[1][:] = 0
            # Keep at most half the tree, or what the new playouts leave free.
            room = max(size - nodes, size // 2)
            used_nodes, used_edges = copy_subtree(self.tree, spare, kept,
                                                  np.empty(room, np.int32))
            self.tree, self._spare = spare, self.tree
            tree = self.tree
            self.reused = float(tree[2][0])
        else:
            if self.tree is None or self.tree[0].shape[0] < nodes:
                self.tree = new_tree(self.n, nodes)
            tree = self.tree
            tree[1][:] = 0  # no node has edges until it is expanded again
            root = self.workers[0]
            load_board(root.work, board, self.n)
            whole = np.array([1, tree[0].shape[0], 0, tree[3].shape[0]], np.int64)
            _expand(tree, root.work, self.n, 0, colour, ko, last, self.patterns, self.shapes,
                    p.prior_even, self.weights, root.features, root.rng, whole)
            used_nodes, used_edges = 1, int(whole[2])
            self.reused = 0.0
        self._root = (board.copy(), colour, passes)
        slices = allocation_slices(tree[0].shape[0], tree[3].shape[0], used_nodes,
                                   used_edges, self.threads)
        started = time.monotonic()
        deadline = None if seconds is None else started + seconds
        share = max(1, playouts // self.threads)
        root_edges = slice(tree[0][0], tree[0][0] + tree[1][0])

        def run(worker: _Worker, alloc: np.ndarray) -> None:
            done = 0
            while done < share:
                step = min(chunk, share - done)
                run_simulations(tree, worker.work, board, self.n, colour, ko, last, passes,
                                self.komi, step, p.c, p.rave_equiv, p.expand_after,
                                p.prior_even, self.weights, p.heavy, self.patterns, self.shapes,
                                self.max_moves, worker.rng, worker.record, worker.path_nodes,
                                worker.path_edges, worker.first_colour, alloc,
                                self.virtual_loss, worker.features, worker.scores,
                                self.replies, self.tactics)
                done += step
                if stop is not None:
                    if stop(time.monotonic() - started, done * self.threads,
                            tree[5][root_edges], tree[6][root_edges]):
                        break
                elif deadline is not None and time.monotonic() >= deadline:
                    break

        if self._pool is None:
            run(self.workers[0], slices[0])
        else:
            for future in [self._pool.submit(run, w, a) for w, a in zip(self.workers, slices)]:
                future.result()
        first, count = tree[0][0], tree[1][0]
        block = slice(first, first + count)
        return (tree[3][block].copy(), tree[5][block].astype(np.float64),
                tree[6][block].astype(np.float64))
