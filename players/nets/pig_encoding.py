"""Pig for the network: a feature vector from the mover's point of view, as [B, F, 1, 1] planes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class PigEncoder:
    """Features of a Pig state for an MLP: scores, turn total, what holding gives, scaled by the target.

    Planes are [B, F, 1, 1] so that the network side keeps one layout;
    net_kind 'mlp' asks the pipeline for the seed's SimpleNet-like MLP.
    A chance state (a die in the air) has both actions marked legal; its
    priors are not used.

    Public attributes:
      game, size (1), num_planes (F), num_actions (2), net_kind ('mlp')
    """

    num_planes = 8
    net_kind = "mlp"

    def __init__(self, game) -> None:
        self.game = game
        self.size = 1
        self.num_actions = game.num_actions

    def encode(self, states: Sequence) -> np.ndarray:
        target = float(self.game.target)
        rows = np.zeros((len(states), self.num_planes), dtype=np.float32)
        for k, s in enumerate(states):
            mine, theirs = s.scores[s.to_play], s.scores[1 - s.to_play]
            total = s.turn_total
            rows[k] = (mine / target, theirs / target, total / target, (mine + total) / target,
                       (theirs - mine) / target, float(mine + total >= target), float(s.rolling),
                       min(s.turns, 200) / 200.0)
        return rows.reshape(len(states), self.num_planes, 1, 1)

    def legal_mask(self, states: Sequence) -> np.ndarray:
        mask = np.zeros((len(states), self.num_actions), dtype=bool)
        for k, s in enumerate(states):
            if s.rolling:
                mask[k, :] = True
            else:
                mask[k, self.game.legal_actions(s)] = True
        return mask
