"""3x3 shape patterns for heavy playouts, compiled into a lookup table of neighbourhood codes.

A pattern is three rows, top to bottom, around the empty centre where the
player to move would play. Symbols: X own stone, O the opponent's, . empty,
x not own (empty or opponent), o not the opponent's (empty or own),
# off the board, ? anything. Each pattern is matched in all eight
rotations and reflections and with colours swapped. The codes are those of
playout.pattern_code: the eight neighbours, bottom row first, each
0 empty, 1 own, 2 opponent, 3 edge.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

# Shapes whose centre is usually urgent: hane, cuts and edge blocks.
PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("XOX", "...", "???"),   # hane that surrounds
    ("XO.", "...", "?.?"),   # hane, no cut behind it
    ("XO?", "X..", "x.?"),   # hane under a contact stone
    (".O.", "X..", "..."),   # thin hane
    ("XO?", "O.o", "?o?"),   # cut
    ("?X?", "O.O", "ooo"),   # cut between two stones
    ("?X?", "O.x", "###"),   # block on the edge
    ("XO?", "x.x", "###"),   # hane on the edge
)

_SYMBOLS = {
    "X": (1,), "O": (2,), ".": (0,), "x": (0, 2), "o": (0, 1), "#": (3,),
    "?": (0, 1, 2, 3),
}

# Grid positions (row, col), top row 0, in code order (bottom row first).
_CODE_ORDER = ((2, 0), (2, 1), (2, 2), (1, 0), (1, 2), (0, 0), (0, 1), (0, 2))


def _symmetries(rows: tuple[str, str, str]) -> set[tuple[str, str, str]]:
    grid = [list(r) for r in rows]
    found = set()
    for _ in range(4):
        grid = [list(r) for r in zip(*grid[::-1])]  # rotate 90 degrees
        for g in (grid, [r[::-1] for r in grid]):
            found.add(tuple("".join(r) for r in g))
    return found


def _swap_colours(rows: tuple[str, str, str]) -> tuple[str, str, str]:
    table = str.maketrans("XOxo", "OXox")
    return tuple(r.translate(table) for r in rows)


def _codes(rows: tuple[str, str, str]) -> list[int]:
    choices = [_SYMBOLS[rows[r][c]] for r, c in _CODE_ORDER]
    codes = []
    for values in itertools.product(*choices):
        code = 0
        for v in values:
            code = code * 4 + v
        codes.append(code)
    return codes


def compile_patterns(patterns=PATTERNS) -> np.ndarray:
    """A bool table over the 4 ** 8 neighbourhood codes: True where some pattern matches."""
    table = np.zeros(4 ** 8, dtype=np.bool_)
    for pattern in patterns:
        if pattern[1][1] != ".":
            raise ValueError(f"pattern {pattern} must have an empty centre")
        for variant in _symmetries(pattern) | _symmetries(_swap_colours(pattern)):
            table[_codes(variant)] = True
    return table


@lru_cache(maxsize=1)
def default_table() -> np.ndarray:
    """The compiled table of PATTERNS (built once)."""
    return compile_patterns()
