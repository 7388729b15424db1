"""The playouts' tests of a point and their tactics: own eyes, bad self-ataris, ladders, the tactical move."""

from __future__ import annotations

from numba import njit

from players.engines.go_uct.groups import in_atari
from players.engines.go_uct.kernels import INLINE
from players.engines.go_uct.rng import rand_below
from players.games.go_board import BORDER, EMPTY

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
def sensible(board, width, gid, nxt, libs, lsum, lsq, p, colour, ko):
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
def tactical_move(board, n, gid, nxt, gsize, libs, lsum, lsq, last, colour, ko, rng,
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
                if not sensible(board, width, gid, nxt, libs, lsum, lsq, atari, colour, ko):
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
        if count < 15 and sensible(board, width, gid, nxt, libs, lsum, lsq, lib, colour, ko):
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
