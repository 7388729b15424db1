"""Chance rules: how a search picks a chance node's outcome and what value the node passes up."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from players.mcts.tree import ChanceNode


class ChanceRule(Protocol):
    """What the search asks of a chance node on the way down and on the way up."""

    def select(self, node: ChanceNode, rng: np.random.Generator) -> int:
        """The index of the outcome to descend into."""

    def backed_value(self, node: ChanceNode, index: int, value: float) -> float:
        """The value (for node.to_play) to pass up, once outcome index's statistics include value."""


class SampledOutcome:
    """Each visit samples one outcome by its probability and passes its value up unchanged.

    Edge means converge to the expectation because outcomes are visited in
    proportion to their probabilities.
    """

    def select(self, node: ChanceNode, rng: np.random.Generator) -> int:
        x = rng.random()
        probs = node.probs
        for i in range(len(probs) - 1):
            x -= probs[i]
            if x < 0.0:
                return i
        return len(probs) - 1

    def backed_value(self, node: ChanceNode, index: int, value: float) -> float:
        return value


SAMPLED = SampledOutcome()
