"""Per game: states -> input planes [B, C, H, W], legal masks [B, A], and the board's 8 symmetries."""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

# Layout: plane[c, row, col] with row 0 at the bottom, so point p = row * size + col
# is policy index p; the pass is policy index size * size (= num_actions - 1).


class Encoder(Protocol):
    """What the network side needs to know about a game."""

    size: int
    num_planes: int
    num_actions: int

    def encode(self, states: Sequence) -> np.ndarray:
        """Input planes, float32 [B, C, H, W], from the mover's point of view."""

    def legal_mask(self, states: Sequence) -> np.ndarray:
        """Bool [B, A]: True where the action is legal."""


class BoardEncoder:
    """Base of the encoders: the game and its board and action sizes."""

    num_planes = 0

    def __init__(self, game) -> None:
        self.game = game
        self.size = game.size
        self.num_actions = game.num_actions


def _unpack(bitboards: Sequence[int], num_points: int) -> np.ndarray:
    """Bitboards (python ints of <= 64 bits) -> uint8 [B, num_points]."""
    words = np.array(bitboards, dtype=np.uint64).reshape(-1, 1)
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")
    return bits[:, :num_points]


class OthelloEncoder(BoardEncoder):
    """Planes: the mover's discs, the opponent's discs, the mover's legal placements."""

    num_planes = 3

    def encode(self, states: Sequence) -> np.ndarray:
        n = self.size
        boards = [s.own for s in states] + [s.opp for s in states] + [s.moves for s in states]
        bits = _unpack(boards, n * n).reshape(3, len(states), n, n)
        return np.ascontiguousarray(bits.transpose(1, 0, 2, 3), dtype=np.float32)

    def legal_mask(self, states: Sequence) -> np.ndarray:
        mask = np.zeros((len(states), self.num_actions), dtype=bool)
        if states:
            mask[:, :-1] = _unpack([s.moves for s in states], self.num_actions - 1).astype(bool)
        for i, s in enumerate(states):
            if s.moves == 0 and not s.terminal:
                mask[i, -1] = True
        return mask


class GenericBoardEncoder(BoardEncoder):
    """For games exposing board_planes(state) -> [C, H, W] and legal_actions (e.g. Go)."""

    def __init__(self, game) -> None:
        super().__init__(game)
        self.num_planes = game.num_planes

    def encode(self, states: Sequence) -> np.ndarray:
        return np.stack([self.game.board_planes(s) for s in states]).astype(np.float32)

    def legal_mask(self, states: Sequence) -> np.ndarray:
        mask = np.zeros((len(states), self.num_actions), dtype=bool)
        for i, s in enumerate(states):
            mask[i, self.game.legal_actions(s)] = True
        return mask


def encoder_for(game) -> Encoder:
    """The encoder of a players.games Game."""
    from players.games.othello import Othello
    if isinstance(game, Othello):
        return OthelloEncoder(game)
    if hasattr(game, "board_planes"):
        return GenericBoardEncoder(game)
    from players.nets.go_encoding import GoEncoder  # the Go adapter lives beside us
    return GoEncoder(game)


# -- symmetries ------------------------------------------------------------------

NUM_SYMMETRIES = 8


def transform_planes(planes: np.ndarray, sym: int) -> np.ndarray:
    """Apply symmetry sym (0 = identity) to the last two axes of [..., H, W]."""
    out = np.rot90(planes, k=sym % 4, axes=(-2, -1))
    if sym >= 4:
        out = np.swapaxes(out, -2, -1)
    return out


def policy_permutation(size: int, sym: int) -> np.ndarray:
    """Index array perm [A] with transformed_policy = policy[..., perm] (pass fixed)."""
    grid = np.arange(size * size).reshape(size, size)
    return np.concatenate([transform_planes(grid, sym).ravel(), [size * size]])


def inverse_symmetry(sym: int) -> int:
    """The symmetry that undoes sym."""
    return {1: 3, 3: 1}.get(sym, sym)


def transform_example(planes: np.ndarray, policy: np.ndarray, sym: int) -> tuple[np.ndarray, np.ndarray]:
    """Planes [C, H, W] (or [B, C, H, W]) and policy [A] (or [B, A]) under symmetry sym."""
    size = planes.shape[-1]
    return (np.ascontiguousarray(transform_planes(planes, sym)),
            policy[..., policy_permutation(size, sym)])
