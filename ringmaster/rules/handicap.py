"""The GTP standard layout of fixed handicap stones (Go)."""

from __future__ import annotations


def fixed_handicap_limit(board_size: int) -> int:
    """The largest fixed handicap GTP defines for a board size (0: none)."""
    if board_size <= 7:
        return 0
    return 4 if board_size % 2 == 0 else 9


def fixed_handicap_points(stones: int, board_size: int) -> list[tuple[int, int]]:
    """The points (row, col) of GTP's fixed handicap layout.

    Raises ValueError if the board size doesn't allow that many stones.
    """
    limit = fixed_handicap_limit(board_size)
    if not 2 <= stones <= limit:
        raise ValueError(f"fixed handicap {stones} out of range for board size {board_size}")
    edge = 3 if board_size >= 13 else 2
    lo, hi, mid = edge, board_size - 1 - edge, board_size // 2
    points = [(hi, hi), (lo, lo)]
    if stones >= 3:
        points.append((hi, lo))
    if stones >= 4:
        points.append((lo, hi))
    if stones >= 6:
        points += [(mid, lo), (mid, hi)]
    if stones >= 8:
        points += [(hi, mid), (lo, mid)]
    if stones % 2 == 1 and stones >= 5:   # the centre goes with 5, 7 and 9, not 3
        points.append((mid, mid))
    return points
