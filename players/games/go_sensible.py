"""Go as the network's search plays it: never filling its own eyes, never passing early."""

from __future__ import annotations

import numpy as np

from players.games.go import GoGame, GoState


class GoSensible(GoGame):
    """Go whose searchable moves leave out what a sensible player never plays.

    legal_actions() never fills one of the mover's own single-point eyes, and
    offers the pass only when the opponent has just passed or no other move
    is left. Without that, early self-play collapses: a barely trained net
    passes, the game ends at once and komi decides it. apply() is GoGame's,
    so opponents (and the referee) may still play any legal move, passes
    included.
    """

    def legal_actions(self, state: GoState) -> list[int]:
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
