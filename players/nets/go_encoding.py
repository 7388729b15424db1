"""Go for the network: planes (own stones, opponent stones, legal points, black-to-move) from players.games.go states."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from players.nets.encoding import BoardEncoder


def make_go_game(size: int, komi: float = 7.5):
    """The search-side Go game the pipeline and the network engine use (area scoring, simple ko).

    It is players.games.go.GoGame except for what our own search considers:
    it never fills one of its own single-point eyes, and it passes only when
    the opponent has just passed or no other move is left. Without that,
    early self-play collapses: a barely trained net passes, the game ends at
    once and komi decides it. apply() is unchanged, so opponents (and the
    referee) may still play any legal move, passes included.
    """
    from players.games.go import GoGame

    class GoSensible(GoGame):
        def legal_actions(self, state):
            actions = super().legal_actions(state)
            if len(actions) <= 1:
                return actions
            n, width = self.size, self.size + 2
            board = state.board
            empty = board == 0
            friendly = (board == state.colour) | (board == 3)
            eye = np.zeros_like(empty)
            eye[width:-width] = (empty[width:-width] & friendly[width - 1:-width - 1]
                                 & friendly[width + 1:-width + 1] & friendly[:-2 * width]
                                 & friendly[2 * width:])
            eyes = {int((p // width - 1) * n + p % width - 1) for p in np.flatnonzero(eye)}
            sensible = [a for a in actions if a != self.pass_action and a not in eyes]
            if state.passes > 0:
                return sensible + [self.pass_action]
            return sensible or [self.pass_action]

    return GoSensible(size, komi)


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
