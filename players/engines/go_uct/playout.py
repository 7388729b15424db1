"""Numba Go playouts: light (random, no own-eye filling) and heavy (captures, atari escape, 3x3 patterns).

Either may first play a last good reply learnt by the search
(last_good_reply.learn_replies); heavy ones may read ladders before running
from atari or chasing (tactics.escape_fails), and capture what the opponent
left in atari. A playout plays on a workspace of incremental groups (groups.py).
Playouts never fill a player's own eye and never self-capture, so they end by
two passes. The playout, scoring included, allocates nothing: why, in kernels.py.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from players.engines.go_uct.groups import load_board, new_workspace, place
from players.engines.go_uct.kernels import INLINE, KERNEL
from players.engines.go_uct.rng import rand_below
from players.engines.go_uct.tactics import is_bad_self_atari, playable, sensible, tactical_move
from players.games.go_board import BLACK, EMPTY, WHITE, marked_area_score


@njit(**INLINE)
def pattern_code(board, width, p, colour):
    """The 3x3 neighbourhood of p as a base-4 code: 0 empty, 1 own, 2 other, 3 edge."""
    code = 0
    for d in (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1):
        v = board[p + d]
        if v == colour:
            v = 1
        elif v == 3 - colour:
            v = 2
        code = code * 4 + v
    return code


@njit(**INLINE)
def _pattern_move(board, n, gid, nxt, libs, lsum, lsq, last, colour, ko, patterns, rng,
                  candidates):
    """A move matching a 3x3 pattern next to the last move; -1 if none (candidates: scratch, 8+)."""
    width = n + 2
    count = 0
    for d in (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1):
        p = last + d
        if board[p] != EMPTY:
            continue
        if patterns[pattern_code(board, width, p, colour)] and \
                sensible(board, width, gid, nxt, libs, lsum, lsq, p, colour, ko):
            candidates[count] = p
            count += 1
    if count == 0:
        return -1
    return candidates[rand_below(rng, count)]


@njit(**INLINE)
def _random_move(board, n, gid, nxt, libs, lsum, lsq, empties, ne, colour, ko, heavy, rng):
    """A uniformly placed scan for a playable move; -1 (pass) if there is none."""
    width = n + 2
    count = ne[0]
    if count == 0:
        return -1
    i = rand_below(rng, count)
    for _ in range(count):
        p = empties[i]
        i += 1
        if i == count:
            i = 0
        if not playable(board, width, gid, libs, lsum, lsq, p, colour, ko):
            continue
        if heavy and is_bad_self_atari(board, width, gid, nxt, libs, lsum, lsq, p, colour):
            continue
        return p
    return -1


@njit(**KERNEL)
def single_point_score(board, n):
    """(area score, True) when no two empty points touch, else (0, False).

    Then every empty region is one point, counted for the colour of all its
    stone neighbours as area_score counts it, without area_score's arrays: a
    playout that ends by two passes leaves only such points, since a point
    with an empty neighbour is playable unless it is an eye, and an eye has
    no empty neighbour.
    """
    width = n + 2
    score = 0
    for row in range(1, n + 1):
        for p in range(row * width + 1, row * width + n + 1):
            v = board[p]
            if v == BLACK:
                score += 1
            elif v == WHITE:
                score -= 1
            else:
                seen = 0
                for d in (1, -1, width, -width):
                    w = board[p + d]
                    if w == EMPTY:
                        return 0, False
                    if w == BLACK:
                        seen |= 1
                    elif w == WHITE:
                        seen |= 2
                if seen == 1:
                    score += 1
                elif seen == 2:
                    score -= 1
    return score, True


@njit(**KERNEL)
def _play_on_to_end(work, n, colour, ko, last, passes, max_moves, heavy, patterns, rng,
                    record, start, replies, tactics):
    """continue_playout's moves, without reference counting; returns its index after them."""
    board, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, stack, candidates = work
    width = n + 2
    size = width * width
    moves = 0
    index = start
    # The mover's own last move: the tree's, where record holds it.
    before = record[start - 2] if 2 <= start <= record.shape[0] else -1
    while passes < 2 and moves < max_moves:
        p = -1
        if replies.shape[0] > 0 and last >= 0:
            r = replies[(colour - 1) * size + last]
            if r >= 0 and sensible(board, width, gid, nxt, libs, lsum, lsq, r, colour, ko):
                p = r
        if p < 0 and heavy and last >= 0:
            p = tactical_move(board, n, gid, nxt, gsize, libs, lsum, lsq, last, colour, ko,
                               rng, candidates, tactics, stack, before)
            if p < 0:
                p = _pattern_move(board, n, gid, nxt, libs, lsum, lsq, last, colour, ko,
                                  patterns, rng, candidates)
        if p < 0:
            p = _random_move(board, n, gid, nxt, libs, lsum, lsq, empties, ne, colour, ko,
                             heavy, rng)
        if p < 0:
            passes += 1
            ko = -1
        else:
            passes = 0
            ko = place(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, p, colour)
        if index < record.shape[0]:
            record[index] = p
        index += 1
        before = last
        last = p
        colour = 3 - colour
        moves += 1
    return index


@njit(**KERNEL)
def final_score(work, n):
    """area_score of the workspace's board: single_point_score where it is exact, else
    marked_area_score with the workspace's gid (-1 at every empty point) as its marks."""
    board, gid, _, _, _, _, _, _, _, _, stack, _ = work
    score, exact = single_point_score(board, n)
    if exact:
        return score
    return marked_area_score(board, n, gid, stack)


@njit(**KERNEL)
def continue_playout(work, n, colour, ko, last, passes, max_moves, heavy, patterns, rng,
                     record, start, replies, tactics):
    """Play on from the workspace position until two passes or max_moves moves.

    Moves go into record from index start while it has room. replies is a
    last-good-reply table (see last_good_reply.learn_replies), or empty for none: a stored
    reply to the last move, if playable and no bad self-atari, is played
    before anything else the policy would choose. With heavy, tactics holds
    the flags LADDER_ESCAPE, LADDER_CHASE and CAPTURE_LEFT (see
    tactics.tactical_move; 0 for none). Returns
    (area score without komi, index after the last move).
    """
    index = _play_on_to_end(work, n, colour, ko, last, passes, max_moves, heavy, patterns, rng,
                            record, start, replies, tactics)
    return final_score(work, n), index


@njit(cache=True, nogil=True)
def _run_playout(work, board_in, n, colour, ko, last, passes, max_moves, heavy, patterns,
                 rng, record):
    load_board(work, board_in, n)
    return continue_playout(work, n, colour, ko, last, passes, max_moves, heavy, patterns,
                            rng, record, 0, np.empty(0, dtype=np.int32), 0)


@njit(cache=True, nogil=True)
def playout_recorded(board_in, n, colour, ko, last, passes, max_moves, heavy, patterns, rng,
                     record):
    """Play a random game to its end from a padded board, colour to move.

    last is the previous move's point (-1 for a pass or none) and passes the
    number of consecutive passes so far. The points played (-1 for a pass)
    go into record while it has room. Returns (Black's area minus White's
    without komi in the final position, number of moves played).
    """
    return _run_playout(new_workspace(n), board_in, n, colour, ko, last, passes, max_moves,
                        heavy, patterns, rng, record)


@njit(cache=True, nogil=True)
def playout(board_in, n, colour, ko, last, passes, max_moves, heavy, patterns, rng):
    """As playout_recorded, without the record; returns the final area score only."""
    record = np.empty(0, dtype=np.int32)
    score, _ = playout_recorded(board_in, n, colour, ko, last, passes, max_moves, heavy,
                                patterns, rng, record)
    return score


@njit(cache=True, nogil=True)
def playout_many(board_in, n, colour, ko, last, passes, max_moves, heavy, patterns, rng,
                 count, komi):
    """Run count playouts; returns the sum of their results for Black (+1 win, -1 loss, 0 jigo)."""
    work = new_workspace(n)
    record = np.empty(0, dtype=np.int32)
    total = 0
    for _ in range(count):
        score, _ = _run_playout(work, board_in, n, colour, ko, last, passes, max_moves, heavy,
                                patterns, rng, record)
        if score > komi:
            total += 1
        elif score < komi:
            total -= 1
    return total
