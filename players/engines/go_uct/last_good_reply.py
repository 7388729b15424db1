"""Last-good-reply tables (LGRF-1): replies learnt from the simulations, which playouts play first."""

from __future__ import annotations

import numpy as np
from numba import njit

from players.engines.go_uct.kernels import INLINE


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
