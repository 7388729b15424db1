"""The eight symmetries of a square board, and a game's fingerprint that is the same under each."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

SYMMETRIES = 8
"""Symmetry k flips the rows if k & 1, the columns if k & 2, then swaps rows and columns if k & 4."""

Point = tuple[int, int]


def transform(point: Point, symmetry: int, size: int) -> Point:
    """Where symmetry (0 to 7; 0 is the identity) takes a (row, col) point of a size x size board."""
    row, col = point
    if symmetry & 1:
        row = size - 1 - row
    if symmetry & 2:
        col = size - 1 - col
    if symmetry & 4:
        row, col = col, row
    return row, col


def _text(size: int, start: Iterable[tuple[str, Point]],
          moves: Sequence[tuple[str, Point | None]], symmetry: int) -> str:
    stones = sorted(f"{colour}{r},{c}" for colour, point in start
                    for r, c in [transform(point, symmetry, size)])
    played = [colour + ("-" if move is None else "{},{}".format(*transform(move, symmetry, size)))
              for colour, move in moves]
    return f"{size}|{' '.join(stones)}|{' '.join(played)}"


def fingerprint(size: int, start: Iterable[tuple[str, Point]],
                moves: Sequence[tuple[str, Point | None]]) -> str:
    """A short hash of a game: its starting stones ((colour, point): set-up, handicap, or the
    rules' own start) and its moves ((colour, point or None for a pass)), the same for every
    image of the game under the board's symmetries and different (but for a hash collision,
    1 in 2**64) for any two games that aren't images of each other."""
    start = list(start)
    text = min(_text(size, start, moves, k) for k in range(SYMMETRIES))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]
