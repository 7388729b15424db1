"""Numba Go playouts: light (random, no own-eye filling) and heavy (captures, atari escape, 3x3 patterns).

Either may first play a last good reply learnt by the search (learn_replies);
heavy ones may read ladders before running from atari or chasing (escape_fails),
and capture what the opponent left in atari.

A playout copies a padded board (see go_board.py) and keeps incremental
groups: a circular stone list per group and, per group, the count, sum and
sum of squares of its pseudo-liberties, which find ataris in O(1) (a group is
in atari when all its pseudo-liberties are the same point). Playouts never
fill a player's own eye and never self-capture, so they end by two passes.

Kernels called once a move or more often are compiled with KERNEL, without
numba's reference counting (NRT). With it, numba atomically increments and
decrements a count for every array argument of every call: perf put 42% of a
light playout's time in NRT_incref/NRT_decref, and light playouts ran 1.7 to
2.1 times faster without it. Such kernels must never allocate an array, so
their scratch space lives in the workspace (new_workspace). The tests run
for every candidate point (playable, the eye, self-atari and pattern tests)
and the move choosers and _place are also inlined by numba (INLINE), since
each call passed every array as seven scalars: 1.1 to 1.3 times faster
playouts. Inlining only pays inside a kernel without NRT: inlined into a
function with it, every array the inlined body touches is counted again
(light playouts ran half as fast). So the playout, scoring included
(final_score), and the search's loop (uct.run_simulations) allocate nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from players.games.go_board import BLACK, BORDER, EMPTY, WHITE, marked_area_score

_MUL = np.uint64(2685821657736338717)
KERNEL = {"cache": True, "nogil": True, "_nrt": False}
LADDER_ESCAPE = 1
"""A flag of the tactics argument: heavy playouts don't run from atari into a lost ladder."""
LADDER_CHASE = 2
"""A flag of the tactics argument: heavy playouts atari the last move's group into a lost one."""
CAPTURE_LEFT = 4
"""A flag of the tactics argument: heavy playouts capture a group left in atari beside the
mover's own last move."""
CHASE_SIZE = 3
"""The most stones a group may have for LADDER_CHASE to read it (reading every group halved
the search's speed; ladders are mostly of a stone or two)."""
INLINE = dict(KERNEL, inline="always")


@njit(**KERNEL)
def rand_below(rng, k):
    """A pseudo-random integer in [0, k) from the xorshift64* state rng[0]."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return np.int64((x * _MUL) >> np.uint64(33)) % k


def new_rng_state(seed: int) -> np.ndarray:
    """A non-zero xorshift64* state for rand_below, from any integer seed."""
    value = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([value or 1], dtype=np.uint64)


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
def _place(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, p, colour):
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


@njit(**INLINE)
def _is_eye(board, width, p, colour):
    at_edge = 0
    for d in (1, -1, width, -width):
        v = board[p + d]
        if v == BORDER:
            at_edge = 1
        elif v != colour:
            return False
    bad = 0
    other = 3 - colour
    for d in (width + 1, width - 1, -width + 1, -width - 1):
        if board[p + d] == other:
            bad += 1
    return bad + at_edge < 2


@njit(**INLINE)
def playable(board, width, gid, libs, lsum, lsq, p, colour, ko):
    """Legal, not suicide and not filling colour's own eye."""
    if p == ko or board[p] != EMPTY:
        return False
    if _is_eye(board, width, p, colour):
        return False
    for d in (1, -1, width, -width):
        v = board[p + d]
        if v == EMPTY:
            return True
        if v == colour:
            if not in_atari(libs, lsum, lsq, gid[p + d]):
                return True
        elif v == 3 - colour:
            if in_atari(libs, lsum, lsq, gid[p + d]):
                return True
    return False


@njit(**INLINE)
def is_bad_self_atari(board, width, gid, nxt, libs, lsum, lsq, p, colour):
    """True if playing p joins stones into a group with one liberty, capturing nothing."""
    first = -1
    joined = False
    for d in (1, -1, width, -width):
        q = p + d
        v = board[q]
        if v == EMPTY:
            if first < 0:
                first = q
            elif q != first:
                return False
        elif v == 3 - colour:
            if in_atari(libs, lsum, lsq, gid[q]):
                return False
        elif v == colour:
            joined = True
    if not joined:
        return False
    for d in (1, -1, width, -width):
        q = p + d
        if board[q] != colour:
            continue
        g = gid[q]
        s = g
        while True:
            for e in (1, -1, width, -width):
                t = s + e
                if board[t] == EMPTY and t != p:
                    if first < 0:
                        first = t
                    elif t != first:
                        return False
            s = nxt[s]
            if s == g:
                break
    return True


@njit(**INLINE)
def _sensible(board, width, gid, nxt, libs, lsum, lsq, p, colour, ko):
    """playable and no bad self-atari: what a heavy playout's chosen moves must be."""
    return playable(board, width, gid, libs, lsum, lsq, p, colour, ko) and \
        not is_bad_self_atari(board, width, gid, nxt, libs, lsum, lsq, p, colour)


@njit(**INLINE)
def _add_captures_beside(board, width, gid, libs, lsum, lsq, s, colour, ko, candidates, count):
    """Add to candidates[:count] the capture of each opponent group in atari beside point s
    (while there is room for 15); returns the new count."""
    for d in (1, -1, width, -width):
        t = s + d
        if board[t] == 3 - colour and in_atari(libs, lsum, lsq, gid[t]) and count < 15:
            lib = lsum[gid[t]] // libs[gid[t]]
            if playable(board, width, gid, libs, lsum, lsq, lib, colour, ko):
                candidates[count] = lib
                count += 1
    return count


@njit(**INLINE)
def _liberties(board, width, p, stack, base):
    """(count, first, second, stones): the group at p's distinct liberties, counted up to 3.

    It floods the board itself, not the incremental groups, so it reads
    positions with stones added since (a ladder being read). Stones are
    marked with their colour + 4 while counted and restored after; stack
    from index base is scratch room for the group's stones, and holds them
    all after (stones of them) when it has at most two liberties.
    """
    colour = board[p]
    mark = colour + 4
    board[p] = mark
    stack[base] = p
    top = base + 1
    i = base
    count = 0
    first = -1
    second = -1
    while i < top and count < 3:
        s = stack[i]
        i += 1
        for d in (1, -1, width, -width):
            t = s + d
            v = board[t]
            if v == colour:
                board[t] = mark
                stack[top] = t
                top += 1
            elif v == EMPTY and t != first and t != second:
                if count == 0:
                    first = t
                elif count == 1:
                    second = t
                count += 1
                if count == 3:
                    break
    for k in range(base, top):
        board[stack[k]] = colour
    return count, first, second, top - base


@njit(cache=True, nogil=True, _nrt=False)
def escape_fails(board, width, p, depth, stack):
    """True if the group at p, in atari with its owner to move, is lost however it runs.

    It is not lost if extending to its liberty leaves it three liberties, or
    captures, or if it can capture a neighbouring group in atari. With one
    liberty after extending, it is lost; with two, the attacker tries an atari
    at each, and it is lost if one of them leaves it lost again (a ladder),
    read up to depth ataris (deeper, it counts as escaped). Captures made by
    the attacker's ataris are not played out. board is changed while reading
    and restored; stack is scratch room for two points per point of the board.
    """
    defender = board[p]
    attacker = 3 - defender
    found, lib, _, size = _liberties(board, width, p, stack, 0)
    if found != 1:
        return False
    # The group's stones stay in stack[:size]; the floods below use the rest.
    # Running first: most groups escape with three liberties, and reading that is cheap.
    board[lib] = defender
    count, first, second, _ = _liberties(board, width, lib, stack, size)
    board[lib] = EMPTY
    if count >= 3:
        return False
    # Running captures, or the group captures a neighbour in atari where it stands.
    for d in (1, -1, width, -width):
        t = lib + d
        if board[t] == attacker and _liberties(board, width, t, stack, size)[0] == 1:
            return False
    for k in range(size):
        for d in (1, -1, width, -width):
            t = stack[k] + d
            if board[t] == attacker and _liberties(board, width, t, stack, size)[0] == 1:
                return False
    lost = count <= 1
    if count == 2 and depth > 0:
        board[lib] = defender
        for atari in (first, second):
            board[atari] = attacker
            if _liberties(board, width, atari, stack, 0)[0] >= 1 and \
                    escape_fails(board, width, lib, depth - 1, stack):
                lost = True
            board[atari] = EMPTY
            if lost:
                break
        board[lib] = EMPTY
    return lost


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
def _tactical_move(board, n, gid, nxt, gsize, libs, lsum, lsq, last, colour, ko, rng,
                   candidates, tactics, stack, mine):
    """A capture of the last move's group or an escape of ours that it put in atari; -1 if none.

    tactics holds flags: LADDER_ESCAPE, an escape (extending to the group's
    liberty, if that gains liberties) only where escape_fails does not read
    it as lost; LADDER_CHASE, an atari on the last move's group, if it has
    two liberties and at most CHASE_SIZE stones, where escape_fails reads it
    as lost (a ladder or a net); CAPTURE_LEFT, with none of these found, a
    capture of an opponent's group in atari beside mine, the mover's own
    last move (-1 for none): an atari the opponent did not answer.
    stack is escape_fails' scratch, candidates scratch for at least 16 points.
    """
    width = n + 2
    other = 3 - colour
    count = 0
    if board[last] == other and in_atari(libs, lsum, lsq, gid[last]):
        lib = lsum[gid[last]] // libs[gid[last]]
        if playable(board, width, gid, libs, lsum, lsq, lib, colour, ko):
            candidates[count] = lib
            count += 1
    elif tactics & LADDER_CHASE and board[last] == other and gsize[gid[last]] <= CHASE_SIZE:
        found, first, second, _ = _liberties(board, width, last, stack, 0)
        if found == 2:
            for atari in (first, second):
                if not _sensible(board, width, gid, nxt, libs, lsum, lsq, atari, colour, ko):
                    continue
                board[atari] = colour
                lost = escape_fails(board, width, last, n, stack)
                board[atari] = EMPTY
                if lost:
                    candidates[count] = atari
                    count += 1
    for d in (1, -1, width, -width):
        q = last + d
        if board[q] != colour or not in_atari(libs, lsum, lsq, gid[q]):
            continue
        g = gid[q]
        # Capture a neighbouring attacker that is itself in atari.
        s = g
        while True:
            count = _add_captures_beside(board, width, gid, libs, lsum, lsq, s, colour, ko,
                                         candidates, count)
            s = nxt[s]
            if s == g:
                break
        # Extend, if that gains liberties.
        lib = lsum[g] // libs[g]
        if count < 15 and _sensible(board, width, gid, nxt, libs, lsum, lsq, lib, colour, ko):
            empty_count = 0
            for e in (1, -1, width, -width):
                if board[lib + e] == EMPTY:
                    empty_count += 1
            if empty_count >= 2 and not (tactics & LADDER_ESCAPE and
                                         escape_fails(board, width, q, n, stack)):
                candidates[count] = lib
                count += 1
    if count == 0 and tactics & CAPTURE_LEFT and mine >= 0:
        count = _add_captures_beside(board, width, gid, libs, lsum, lsq, mine, colour, ko,
                                     candidates, count)
    if count == 0:
        return -1
    return candidates[rand_below(rng, count)]


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
                _sensible(board, width, gid, nxt, libs, lsum, lsq, p, colour, ko):
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


@njit(cache=True, nogil=True)
def new_workspace(n):
    """The arrays one playout needs on an n x n board, to reuse across playouts.

    board, gid (group of each stone: its root point), nxt (circular stone
    lists), gsize, libs, lsum, lsq (pseudo-liberties of each root), empties
    and epos (the empty points and each one's index there), ne (their count),
    then scratch: a stack of two points per point of the board (escape_fails
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
    return _place(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, p, colour)


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
            if r >= 0 and _sensible(board, width, gid, nxt, libs, lsum, lsq, r, colour, ko):
                p = r
        if p < 0 and heavy and last >= 0:
            p = _tactical_move(board, n, gid, nxt, gsize, libs, lsum, lsq, last, colour, ko,
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
            ko = _place(board, n, gid, nxt, gsize, libs, lsum, lsq, empties, epos, ne, p, colour)
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
    last-good-reply table (see learn_replies), or empty for none: a stored
    reply to the last move, if playable and no bad self-atari, is played
    before anything else the policy would choose. With heavy, tactics holds
    the flags LADDER_ESCAPE, LADDER_CHASE and CAPTURE_LEFT (see
    _tactical_move; 0 for none). Returns
    (area score without komi, index after the last move).
    """
    index = _play_on_to_end(work, n, colour, ko, last, passes, max_moves, heavy, patterns, rng,
                            record, start, replies, tactics)
    return final_score(work, n), index


@njit(**INLINE)
def learn_replies(replies, n, record, end, colour, last, black_result):
    """Update a last-good-reply table from one simulation (LGRF-1: Baier and Drake, 2010).

    replies[(c - 1) * (n + 2) ** 2 + q] is colour c's stored reply to the
    move q, -1 for none. record[:end] holds the simulation's moves (-1 for
    a pass), the first by colour, after the move last. Each move by the
    winner is stored as its reply to the move before it; a move by the
    loser that is the stored reply is forgotten. A jigo (black_result 0.5)
    teaches nothing; passes are neither stored nor replied to.
    """
    if black_result == 0.5:
        return
    winner = 1 if black_result > 0.5 else 2
    size = (n + 2) * (n + 2)
    previous = last
    mover = colour
    for j in range(end):
        move = record[j]
        if move >= 0 and previous >= 0:
            k = (mover - 1) * size + previous
            if mover == winner:
                replies[k] = move
            elif replies[k] == move:
                replies[k] = -1
        previous = move
        mover = 3 - mover


def no_replies() -> np.ndarray:
    """The empty last-good-reply table: playouts that learn no replies."""
    return np.empty(0, dtype=np.int32)


def new_replies(n: int) -> np.ndarray:
    """An empty last-good-reply table for an n x n board (see learn_replies)."""
    return np.full(2 * (n + 2) * (n + 2), -1, dtype=np.int32)


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
