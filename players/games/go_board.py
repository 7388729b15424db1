"""Numba kernels for Go positions in the search tree: play, legality and area score.

A position is a padded int8 array of (n + 2) ** 2 points: EMPTY, BLACK, WHITE
or BORDER, with point (row, col) at (row + 1) * (n + 2) + col + 1. Rows count
from the bottom, as in sgfmill. These kernels use flood fills; the playouts
in players/engines/go_uct/ keep incremental group data instead (groups.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3


def empty_board(n: int) -> np.ndarray:
    """A padded board of side n with no stones."""
    width = n + 2
    board = np.full(width * width, BORDER, dtype=np.int8)
    for row in range(n):
        start = (row + 1) * width + 1
        board[start:start + n] = EMPTY
    return board


@njit(cache=True, nogil=True)
def point_of(n, action):
    """The padded point of action row * n + col."""
    return (action // n + 1) * (n + 2) + action % n + 1


@njit(cache=True, nogil=True)
def action_of(n, point):
    """The action (row * n + col) of a padded point."""
    width = n + 2
    return (point // width - 1) * n + point % width - 1


@njit(cache=True, nogil=True)
def _group_liberty_other_than(board, width, start, excluded, stack, mark, stamp):
    """True if the group at start has a liberty other than the point excluded."""
    colour = board[start]
    top = 0
    stack[top] = start
    top += 1
    mark[start] = stamp
    while top:
        top -= 1
        p = stack[top]
        for d in (1, -1, width, -width):
            q = p + d
            v = board[q]
            if v == EMPTY:
                if q != excluded:
                    return True
            elif v == colour and mark[q] != stamp:
                mark[q] = stamp
                stack[top] = q
                top += 1
    return False


@njit(cache=True, nogil=True)
def _remove_group(board, width, start, stack):
    """Remove the group at start; returns the number of stones removed."""
    colour = board[start]
    board[start] = EMPTY
    top = 0
    stack[top] = start
    top += 1
    count = 0
    while top:
        top -= 1
        p = stack[top]
        count += 1
        for d in (1, -1, width, -width):
            q = p + d
            if board[q] == colour:
                board[q] = EMPTY
                stack[top] = q
                top += 1
    return count


@njit(cache=True, nogil=True)
def play_point(board, n, point, colour):
    """Play colour at an empty point, in place, as sgfmill does (self-capture allowed).

    Returns the new simple-ko point, or -1 if there is none.
    """
    width = n + 2
    stack = np.empty(width * width, dtype=np.int32)
    mark = np.zeros(width * width, dtype=np.int32)
    other = 3 - colour
    board[point] = colour
    captured = 0
    captured_point = -1
    stamp = 0
    for d in (1, -1, width, -width):
        q = point + d
        if board[q] == other:
            stamp += 1
            if not _group_liberty_other_than(board, width, q, -1, stack, mark, stamp):
                captured += _remove_group(board, width, q, stack)
                captured_point = q
    stamp += 1
    if not _group_liberty_other_than(board, width, point, -1, stack, mark, stamp):
        _remove_group(board, width, point, stack)
        return -1
    if captured != 1:
        return -1
    liberties = 0
    for d in (1, -1, width, -width):
        v = board[point + d]
        if v == colour:
            return -1
        if v == EMPTY:
            liberties += 1
    return captured_point if liberties == 1 else -1


@njit(cache=True, nogil=True)
def is_suicide(board, n, point, colour):
    """True if colour playing at the empty point would capture nothing and die."""
    width = n + 2
    stack = np.empty(width * width, dtype=np.int32)
    mark = np.zeros(width * width, dtype=np.int32)
    stamp = 0
    for d in (1, -1, width, -width):
        q = point + d
        v = board[q]
        if v == EMPTY:
            return False
        if v == colour or v == 3 - colour:
            stamp += 1
            alive = _group_liberty_other_than(board, width, q, point, stack, mark, stamp)
            if v == colour and alive:
                return False
            if v != colour and not alive:
                return False
    return True


@njit(cache=True, nogil=True)
def legal_mask(board, n, colour, ko_point, allow_suicide):
    """Legal actions as a bool array of n * n + 1 entries (the last is pass)."""
    mask = np.zeros(n * n + 1, dtype=np.bool_)
    mask[n * n] = True
    for action in range(n * n):
        p = point_of(n, action)
        if board[p] != EMPTY or p == ko_point:
            continue
        if not allow_suicide and is_suicide(board, n, p, colour):
            continue
        mask[action] = True
    return mask


@njit(cache=True, nogil=True, _nrt=False)
def marked_area_score(board, n, mark, stack):
    """area_score with the caller's scratch, allocating nothing: mark is -1 at every empty point on
    entry and again on exit (the flood fill marks the points it reaches -2, then sets them back);
    stack holds at least (n + 2)^2 points."""
    width = n + 2
    score = 0
    for p in range(width * width):
        v = board[p]
        if v == BLACK:
            score += 1
        elif v == WHITE:
            score -= 1
        elif v == EMPTY and mark[p] == -1:
            mark[p] = -2
            stack[0] = p
            top = 1
            count = 0
            borders = 0  # bit 1: black seen, bit 2: white seen
            while top:
                top -= 1
                q = stack[top]
                count += 1
                for d in (1, -1, width, -width):
                    r = q + d
                    w = board[r]
                    if w == EMPTY:
                        if mark[r] == -1:
                            mark[r] = -2
                            stack[top] = r
                            top += 1
                    elif w == BLACK:
                        borders |= 1
                    elif w == WHITE:
                        borders |= 2
            if borders == 1:
                score += count
            elif borders == 2:
                score -= count
    for p in range(width * width):
        if mark[p] == -2:
            mark[p] = -1
    return score


@njit(cache=True, nogil=True)
def area_score(board, n):
    """Black's area minus White's: stones, plus empty regions bordered by one colour only."""
    size = (n + 2) * (n + 2)
    return marked_area_score(board, n, np.full(size, -1, dtype=np.int32), np.empty(size, dtype=np.int32))


@njit(cache=True, nogil=True)
def is_own_eye(board, n, point, colour):
    """True if the empty point is colour's eye: all neighbours colour or edge, diagonals mostly too."""
    width = n + 2
    at_edge = 0
    for d in (1, -1, width, -width):
        v = board[point + d]
        if v == BORDER:
            at_edge = 1
        elif v != colour:
            return False
    bad = 0
    for d in (width + 1, width - 1, -width + 1, -width - 1):
        if board[point + d] == 3 - colour:
            bad += 1
    return bad + at_edge < 2


@njit(cache=True, nogil=True)
def sensible_mask(board, n, colour, ko_point):
    """Legal actions that neither self-capture nor fill colour's own eye; pass is always in."""
    mask = legal_mask(board, n, colour, ko_point, False)
    for action in range(n * n):
        if mask[action] and is_own_eye(board, n, point_of(n, action), colour):
            mask[action] = False
    return mask
