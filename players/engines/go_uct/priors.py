"""Heuristic priors for the fast Go search's new edges: one numba feature each, weighted apart.

A move's prior is a number of virtual visits and wins its edge starts with:
prior_even visits at 50% for every move, then for each heuristic its weight
times its feature, as visits that win (a good heuristic) or lose (a bad one).
The features of colour playing the empty point p, in FEATURES order:

  capture     -- per distinct adjacent opponent group in atari, 1 + 0.5 * min(its size, 4)
  escape      -- 1 if p extends an own adjacent group in atari to at least two empty neighbours
  self_atari  -- 1 if p joins stones into a group with one liberty, capturing nothing (bad)
  pattern     -- 1 if p's 3x3 neighbourhood matches a shape of patterns.PATTERNS
  edge        -- 1 on the first line, 0.5 on the second, when no stone is within 2 points
                 (rows and columns) of p: an early move on the edge (bad)
  atari       -- per distinct adjacent opponent group with exactly two liberties, 1 (p puts
                 it in atari), unless p is itself a bad self-atari
  near        -- (4 - d) / 3 where d <= 3 is the Manhattan distance from the last move
  ladder      -- 1 if p extends an own adjacent group in atari that is lost however it runs
                 (tactics.escape_fails: a ladder that catches it, or too few liberties) (bad)
  shape       -- the learnt value of p's 3x3 neighbourhood (shapes: log2 of how much likelier
                 a strong player picks it than the mean point, -3 to 3): visits that win above
                 0, visits that lose below
"""

from __future__ import annotations

import numpy as np
from numba import njit

from players.engines.go_uct.groups import in_atari
from players.engines.go_uct.kernels import INLINE, KERNEL
from players.engines.go_uct.playout import pattern_code
from players.engines.go_uct.tactics import escape_fails, is_bad_self_atari

FEATURES = ("capture", "escape", "self_atari", "pattern", "edge", "atari", "near", "ladder",
            "shape")
CAPTURE, ESCAPE, SELF_ATARI, PATTERN, EDGE, ATARI, NEAR, LADDER, SHAPE = range(len(FEATURES))


def weights(scale: float, factors: dict[str, float]) -> np.ndarray:
    """The weight of each feature in FEATURES order: scale (prior visits) times its factor."""
    unknown = set(factors) - set(FEATURES)
    if unknown:
        raise ValueError(f"unknown prior features: {sorted(unknown)}")
    return np.array([scale * factors.get(name, 0.0) for name in FEATURES], np.float64)


@njit(**KERNEL)
def _stone_near(board, n, p, radius):
    """True if a stone lies within radius rows and columns of p."""
    width = n + 2
    row, col = p // width, p % width
    for r in range(max(1, row - radius), min(n, row + radius) + 1):
        for c in range(max(1, col - radius), min(n, col + radius) + 1):
            v = board[r * width + c]
            if v == 1 or v == 2:
                return True
    return False


@njit(**KERNEL)
def _has_two_liberties(board, width, nxt, g):
    """True if group g (its root point) has exactly two distinct liberties."""
    first = -1
    second = -1
    s = g
    while True:
        for d in (1, -1, width, -width):
            t = s + d
            if board[t] == 0 and t != first and t != second:
                if first < 0:
                    first = t
                elif second < 0:
                    second = t
                else:
                    return False
        s = nxt[s]
        if s == g:
            break
    return second >= 0


@njit(**INLINE)
def features(work, n, p, colour, last, patterns, shapes, out):
    """Fill out[len(FEATURES)] with the features of colour playing the empty point p.

    work is a playout workspace holding the position (see groups.load_board);
    last is the previous move's point, -1 for a pass or none; patterns is
    patterns.default_table(), shapes the value of each neighbourhood code
    (shapes.shipped_table(), or zeros).
    """
    board, gid, nxt, gsize, libs, lsum, lsq, _, _, _, stack, _ = work
    width = n + 2
    other = 3 - colour
    for i in range(out.shape[0]):
        out[i] = 0.0
    seen0 = -1
    seen1 = -1
    seen2 = -1
    empty = 0
    for d in (1, -1, width, -width):
        if board[p + d] == 0:
            empty += 1
    self_atari = is_bad_self_atari(board, width, gid, nxt, libs, lsum, lsq, p, colour)
    for d in (1, -1, width, -width):
        q = p + d
        v = board[q]
        if v != 1 and v != 2:
            continue
        g = gid[q]
        if g == seen0 or g == seen1 or g == seen2:
            continue
        if seen0 < 0:
            seen0 = g
        elif seen1 < 0:
            seen1 = g
        else:
            seen2 = g
        if v == other:
            if in_atari(libs, lsum, lsq, g):
                out[CAPTURE] += 1.0 + min(gsize[g], 4) * 0.5
            elif not self_atari and _has_two_liberties(board, width, nxt, g):
                out[ATARI] += 1.0
        elif in_atari(libs, lsum, lsq, g):
            if empty >= 2:
                out[ESCAPE] = 1.0
            if out[LADDER] == 0.0 and escape_fails(board, width, q, n, stack):
                out[LADDER] = 1.0
    if self_atari:
        out[SELF_ATARI] = 1.0
    code = pattern_code(board, width, p, colour)
    if patterns[code]:
        out[PATTERN] = 1.0
    out[SHAPE] = shapes[code]
    row, col = p // width, p % width
    line = min(row, col, n + 1 - row, n + 1 - col)
    if line <= 2 and not _stone_near(board, n, p, 2):
        out[EDGE] = 1.0 if line == 1 else 0.5
    if last >= 0:
        distance = abs(row - last // width) + abs(col - last % width)
        if distance <= 3:
            out[NEAR] = (4.0 - distance) / 3.0


@njit(**INLINE)
def prior(work, n, p, colour, last, patterns, shapes, even, weight, scratch):
    """(virtual visits, virtual wins) of colour playing p; weight holds each feature's weight.

    scratch is room for len(FEATURES) numbers.
    """
    features(work, n, p, colour, last, patterns, shapes, scratch)
    visits = even
    wins = 0.5 * even
    for i in range(scratch.shape[0]):
        amount = weight[i] * scratch[i]
        if amount < 0.0:    # a shape below the mean: visits that lose
            visits -= amount
            continue
        visits += amount
        if i != SELF_ATARI and i != EDGE and i != LADDER:
            wins += amount
    return visits, wins
