"""Othello for the network: the mover's discs, the opponent's discs and the mover's placements."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from players.nets.board_encoder import BoardEncoder


def _unpack(bitboards: Sequence[int], num_points: int) -> np.ndarray:
    """Bitboards (python ints of <= 64 bits) -> uint8 [B, num_points]."""
    words = np.array(bitboards, dtype=np.uint64).reshape(-1, 1)
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")
    return bits[:, :num_points]


class OthelloEncoder(BoardEncoder):
    """[B, 3, n, n] planes: the mover's discs, the opponent's, the mover's legal placements."""

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
