"""The GTP standard layout of fixed handicap stones."""

from __future__ import annotations


def fixed_handicap_points(stones: int, board_size: int) -> list[tuple[int, int]]:
    """The points (row, col) of GTP's fixed handicap layout.

    Raises ValueError if the board size doesn't allow that many stones.
    """
    limit = 0 if board_size <= 7 else 4 if board_size % 2 == 0 else 9
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
    if stones % 2 == 1:
        points.append((mid, mid))
    return points
