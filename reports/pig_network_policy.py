"""The exact win rate against Hold20 of a Pig network's raw policy (its most probable action, no search).

Usage: python reports/pig_network_policy.py CHECKPOINT [CHECKPOINT...]

Every position (my score, the other's, my turn total) below the target is
encoded as the engine encodes it (turn 10 of the game), the network's more
probable legal action taken, and the resulting policy evaluated exactly
against Hold20 by value iteration (players.games.pig_exact).
"""

from __future__ import annotations

import sys

import numpy as np
import torch

from players.games.pig import HOLD20, Pig, PigState
from players.games.pig_exact import threshold_policy_array, win_rates
from players.nets.checkpoint import load_checkpoint
from players.nets.encoding import encoder_for


def network_roll_table(path: str, game: Pig) -> np.ndarray:
    """roll[i, j, k]: True where the network's policy prefers rolling (always at k = 0)."""
    n = game.target
    model, _ = load_checkpoint(path)
    encoder = encoder_for(game)
    states = [PigState((i, j), k, 0, 10) for i in range(n) for j in range(n) for k in range(n)]
    with torch.inference_mode():
        logits, _ = model(torch.from_numpy(encoder.encode(states)))
    roll = (logits[:, 1] >= logits[:, 0]).numpy().reshape(n, n, n)
    roll[:, :, 0] = True
    return roll


def main() -> None:
    game = Pig(50)
    hold20 = threshold_policy_array(50, HOLD20)
    for path in sys.argv[1:]:
        first, second = win_rates(50, network_roll_table(path, game), hold20)
        print(f"{path}: first {first:.4f}  second {second:.4f}  mean {(first + second) / 2:.4f}")


if __name__ == "__main__":
    main()
