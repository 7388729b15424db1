"""What the network side needs to know about a game, and the base the encoders share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from players.games.board import BoardGame

# Layout: plane[c, row, col] with row 0 at the bottom, so point p = row * size + col
# is policy index p; the pass is policy index size * size (= num_actions - 1).


class Encoder(Protocol):
    """A game's states as network input.

    Public attributes:
      size, num_planes, num_actions
      net_kind -- the network it feeds: 'resnet' (convolutional, on board planes) or 'mlp'
    """

    size: int
    num_planes: int
    num_actions: int
    net_kind: str

    def encode(self, states: Sequence) -> np.ndarray:
        """Input planes, float32 [B, C, H, W], from the mover's point of view."""

    def legal_mask(self, states: Sequence) -> np.ndarray:
        """Bool [B, A]: True where the action is legal."""


class BoardEncoder:
    """Base of the encoders: the game and its board and action sizes."""

    num_planes = 0
    net_kind = "resnet"

    def __init__(self, game: BoardGame) -> None:
        self.game = game
        self.size = game.size
        self.num_actions = game.num_actions
