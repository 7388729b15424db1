"""Go for the network: planes of own stones, opponent stones, legal points and black-to-move."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from players.nets.board_encoder import BoardEncoder


class GoEncoder(BoardEncoder):
    """[B, 4, n, n] planes; the colour plane lets the net see which side the komi favours."""

    num_planes = 4

    def encode(self, states: Sequence) -> np.ndarray:
        n = self.size
        out = np.zeros((len(states), 4, n, n), dtype=np.float32)
        for i, s in enumerate(states):
            board = s.board.reshape(n + 2, n + 2)[1:-1, 1:-1]
            mover = s.colour
            out[i, 0] = board == mover
            out[i, 1] = board == 3 - mover
            if not self.game.is_terminal(s):
                out[i, 2] = self.game.legal_mask(s)[:-1].reshape(n, n)
            out[i, 3] = 1.0 if self.game.to_play(s) == 0 else 0.0
        return out

    def legal_mask(self, states: Sequence) -> np.ndarray:
        mask = np.zeros((len(states), self.num_actions), dtype=bool)
        for i, s in enumerate(states):
            if not self.game.is_terminal(s):
                mask[i, self.game.legal_actions(s)] = True
        return mask
