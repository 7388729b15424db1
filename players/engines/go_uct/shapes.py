"""Learnt 3x3 shape values: how much likelier a player picks a point with each neighbourhood.

A neighbourhood is playout.pattern_code's: the eight points around an empty
point, each empty, the mover's, the opponent's or off the board. learn()
replays game records (read by sgfmill, played on our own board) and, at every
move of the named player, counts each empty point's neighbourhood as seen and
the played point's as chosen, pooled over the eight rotations and
reflections. A shape's value is log2 of its pick rate over the mean pick
rate, the rate shrunk towards the mean by SHRINK pseudo-points and the value
clipped to +-CLIP: 0 for a shape never seen. The fast engine's shape prior
(priors.SHAPE, --prior-shape) adds it as visits that win (above 0) or lose
(below 0).

Learn a table:
    python -m players.engines.go_uct.shapes --player pachi OUT.txt DIR_OR_SGF...
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np
from sgfmill import sgf

from players.engines.go_uct.playout import pattern_code
from players.games import go_board
from players.games.go import GoGame

CODES = 4 ** 8
SHRINK = 20.0     # pseudo-points at the mean rate added to every shape's counts
CLIP = 3.0        # the largest value either way (8 times likelier or rarer than the mean)
SHIPPED = Path(__file__).with_name("shapes_pachi.txt")

# The neighbour at each code position (bottom row first), as (row, col) offsets from the centre.
_OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _symmetry_orders() -> list[list[int]]:
    """For each of the eight rotations and reflections, where each code position's neighbour
    moves to: order[i] is the position whose digit lands in position i."""
    orders = []
    for rotate in range(4):
        for reflect in (False, True):
            moved = []
            for dr, dc in _OFFSETS:
                for _ in range(rotate):
                    dr, dc = dc, -dr
                if reflect:
                    dc = -dc
                moved.append(_OFFSETS.index((dr, dc)))
            order = [0] * 8
            for source, target in enumerate(moved):
                order[target] = source
            orders.append(order)
    return orders


@lru_cache(maxsize=1)
def canonical() -> np.ndarray:
    """For each code, the smallest code among its eight rotations and reflections."""
    codes = np.arange(CODES)
    digits = (codes[:, None] >> (2 * (7 - np.arange(8)))[None, :]) & 3   # position 0 first
    powers = 4 ** (7 - np.arange(8))
    return np.min([digits[:, order] @ powers for order in _symmetry_orders()], axis=0)


def count(records: Iterable[sgf.Sgf_game], player: str) -> tuple[np.ndarray, np.ndarray, int]:
    """(seen, chosen, moves): per canonical code, how often an empty point had it when the
    player whose PB/PW name contains `player` (case-insensitive) moved, and how often it was
    the point played; moves counts those moves (passes left out)."""
    seen = np.zeros(CODES, np.int64)
    chosen = np.zeros(CODES, np.int64)
    moves = 0
    canon = canonical()
    needle = player.lower()
    for record in records:
        size = record.get_size()
        root = record.get_root()
        ours = {colour for colour, key in (("b", "PB"), ("w", "PW"))
                if root.has_property(key) and needle in root.get(key).lower()}
        if not ours:
            continue
        game = GoGame(size)
        state = game.initial_state()
        width = size + 2
        for node in record.get_main_sequence()[1:]:
            colour, move = node.get_move()
            if colour is None:
                continue
            _, state = game.turn_for(state, 0 if colour == "b" else 1)
            action = game.move_to_action(move)
            if colour in ours and move is not None:
                board = state.board
                mover = state.colour
                empty = np.flatnonzero(board == go_board.EMPTY)
                codes = canon[[pattern_code(board, width, int(p), mover) for p in empty]]
                np.add.at(seen, codes, 1)
                point = go_board.point_of(size, action)
                chosen[canon[pattern_code(board, width, point, mover)]] += 1
                moves += 1
            if not game.is_legal(state, action):
                break   # a record we can't follow further
            state = game.apply(state, action)
    return seen, chosen, moves


def values(seen: np.ndarray, chosen: np.ndarray) -> dict[int, float]:
    """{canonical code: value} for every shape seen: log2 of its shrunk pick rate over the mean."""
    total_seen = seen.sum()
    if total_seen == 0:
        return {}
    mean = chosen.sum() / total_seen
    found = {}
    for code in np.flatnonzero(seen):
        rate = (chosen[code] + SHRINK * mean) / (seen[code] + SHRINK)
        found[int(code)] = max(-CLIP, min(CLIP, math.log2(rate / mean)))
    return found


def table(shapes: dict[int, float]) -> np.ndarray:
    """The value of every code (the engine's lookup): each canonical code's value, 0 if unseen."""
    by_class = np.zeros(CODES, np.float64)
    by_class[list(shapes)] = list(shapes.values())
    return by_class[canonical()]


def write(path: Path, shapes: dict[int, float], source: str) -> None:
    lines = [f"# 3x3 shape values learnt by players.engines.go_uct.shapes: {source}",
             "# canonical code (playout.pattern_code, the smallest of its 8 symmetries), value"]
    lines += [f"{code} {value:.4f}" for code, value in sorted(shapes.items())]
    path.write_text("\n".join(lines) + "\n")


def read(path: Path) -> dict[int, float]:
    """A table written by write(); ValueError naming the line where it is not one."""
    found = {}
    canon = canonical()
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            code_text, value_text = line.split()
            code, value = int(code_text), float(value_text)
            if not 0 <= code < CODES or canon[code] != code or not math.isfinite(value):
                raise ValueError
        except ValueError:
            raise ValueError(f"{path}, line {number}: not 'canonical-code value': {line!r}") from None
        found[code] = value
    return found


@lru_cache(maxsize=1)
def shipped_table() -> np.ndarray:
    """The lookup of the table shipped with the engine (shapes_pachi.txt)."""
    return table(read(SHIPPED))


def _records(paths: list[str]) -> Iterable[sgf.Sgf_game]:
    for name in paths:
        path = Path(name)
        for file in sorted(path.rglob("*.sgf")) if path.is_dir() else [path]:
            yield sgf.Sgf_game.from_bytes(file.read_bytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", required=True, help="part of the PB/PW name to learn from")
    parser.add_argument("out", type=Path)
    parser.add_argument("records", nargs="+", help="SGF files, or folders searched for *.sgf")
    options = parser.parse_args(argv)
    seen, chosen, moves = count(_records(options.records), options.player)
    if moves == 0:
        print(f"shapes: no move by a player named like {options.player!r}", file=sys.stderr)
        return 1
    shapes = values(seen, chosen)
    write(options.out, shapes, f"{moves} moves by '{options.player}', SHRINK {SHRINK}, CLIP {CLIP}")
    print(f"{moves} moves, {len(shapes)} shapes -> {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
