"""A playout's board and its incremental groups: stones placed, groups merged and captured.

A playout copies a padded board (see go_board.py) into a workspace and keeps
incremental groups: a circular stone list per group and, per group, the
count, sum and sum of squares of its pseudo-liberties, which find ataris in
O(1) (a group is in atari when all its pseudo-liberties are the same point).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from players.engines.go_uct.kernels import INLINE, KERNEL
from players.games.go_board import BLACK, EMPTY, WHITE


@njit(**KERNEL)
def _add_empty(empties, epos, ne, p):
    empties[ne[0]] = p
    epos[p] = ne[0]
    ne[0] += 1


@njit(**KERNEL)
def _remove_empty(empties, epos, ne, p):
    i = epos[p]
    ne[0] -= 1
    last = empties[ne[0]]
    empties[i] = last
    epos[last] = i
    epos[p] = -1


@njit(**KERNEL)
def _add_lib(libs, lsum, lsq, g, p):
    libs[g] += 1
    lsum[g] += p
    lsq[g] += p * p


@njit(**KERNEL)
def _remove_lib(libs, lsum, lsq, g, p):
    libs[g] -= 1
    lsum[g] -= p
    lsq[g] -= p * p


@njit(**KERNEL)
def in_atari(libs, lsum, lsq, g):
    """True if group g has exactly one (real) liberty."""
    return libs[g] > 0 and libs[g] * lsq[g] == lsum[g] * lsum[g]


@njit(**KERNEL)
def _init_groups(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, stack):
    width = n + 2
    for row in range(n):
        for col in range(n):
            p = (row + 1) * width + col + 1
            v = board[p]
            if v == EMPTY:
                _add_empty(empties, epos, ne, p)
            elif gid[p] < 0:
                gid[p] = p
                nxt[p] = p
                gsize[p] = 1
                top = 1
                stack[0] = p
                while top:
                    top -= 1
                    s = stack[top]
                    for d in (1, -1, width, -width):
                        q = s + d
                        w = board[q]
                        if w == EMPTY:
                            _add_lib(libs, lsum, lsq, p, q)
                        elif w == v and gid[q] < 0:
                            gid[q] = p
                            nxt[q] = nxt[p]
                            nxt[p] = q
                            gsize[p] += 1
                            stack[top] = q
                            top += 1


@njit(**KERNEL)
def _merge(gid, nxt, gsize, libs, lsum, lsq, a, b):
    if gsize[a] < gsize[b]:
        a, b = b, a
    s = b
    while True:
        gid[s] = a
        s = nxt[s]
        if s == b:
            break
    tmp = nxt[a]
    nxt[a] = nxt[b]
    nxt[b] = tmp
    gsize[a] += gsize[b]
    libs[a] += libs[b]
    lsum[a] += lsum[b]
    lsq[a] += lsq[b]
    return a


@njit(**KERNEL)
def _remove_group(board, width, gid, nxt, libs, lsum, lsq, empties, epos, ne, g):
    s = g
    count = 0
    while True:
        board[s] = EMPTY
        _add_empty(empties, epos, ne, s)
        count += 1
        s = nxt[s]
        if s == g:
            break
    while True:
        for d in (1, -1, width, -width):
            t = s + d
            v = board[t]
            if v == BLACK or v == WHITE:
                _add_lib(libs, lsum, lsq, gid[t], s)
        gid[s] = -1
        s = nxt[s]
        if s == g:
            break
    return count


@njit(**INLINE)
def place(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, p, colour):
    """Play colour at empty p (never a suicide here); returns the new ko point or -1."""
    width = n + 2
    other = 3 - colour
    _remove_empty(empties, epos, ne, p)
    board[p] = colour
    gid[p] = p
    nxt[p] = p
    gsize[p] = 1
    libs[p] = 0
    lsum[p] = 0
    lsq[p] = 0
    for d in (1, -1, width, -width):
        q = p + d
        v = board[q]
        if v == EMPTY:
            _add_lib(libs, lsum, lsq, p, q)
        elif v == BLACK or v == WHITE:
            _remove_lib(libs, lsum, lsq, gid[q], p)
    g = p
    for d in (1, -1, width, -width):
        q = p + d
        if board[q] == colour and gid[q] != g:
            g = _merge(gid, nxt, gsize, libs, lsum, lsq, g, gid[q])
    captured = 0
    captured_point = -1
    for d in (1, -1, width, -width):
        q = p + d
        if board[q] == other and libs[gid[q]] == 0:
            captured += _remove_group(board, width, gid, nxt, libs, lsum, lsq,
                                      empties, epos, ne, gid[q])
            captured_point = q
    if captured == 1 and gsize[g] == 1 and libs[g] == 1:
        return captured_point
    return -1


@njit(cache=True, nogil=True)
def new_workspace(n):
    """The arrays one playout needs on an n x n board, to reuse across playouts.

    board, gid (group of each stone: its root point), nxt (circular stone
    lists), gsize, libs, lsum, lsq (pseudo-liberties of each root), empties
    and epos (the empty points and each one's index there), ne (their count),
    then scratch: a stack of two points per point of the board (tactics.escape_fails
    floods twice into it) and 16 candidate moves.
    """
    size = (n + 2) * (n + 2)
    return (np.empty(size, dtype=np.int8), np.empty(size, dtype=np.int32),
            np.empty(size, dtype=np.int32), np.empty(size, dtype=np.int32),
            np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64), np.empty(n * n, dtype=np.int32),
            np.empty(size, dtype=np.int32), np.empty(1, dtype=np.int64),
            np.empty(2 * size, dtype=np.int32), np.empty(16, dtype=np.int32))


@njit(**KERNEL)
def load_board(work, board_in, n):
    """Set the workspace to the padded board board_in, building its groups."""
    board, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, stack, _ = work
    for p in range(board.shape[0]):
        board[p] = board_in[p]
        gid[p] = -1
        libs[p] = 0
        lsum[p] = 0
        lsq[p] = 0
        epos[p] = -1
    ne[0] = 0
    _init_groups(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, stack)


@njit(**INLINE)
def play_on(work, n, p, colour):
    """Play colour at empty point p (not a suicide) in the workspace; returns the new ko point."""
    board, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, _, _ = work
    return place(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, p, colour)
