"""Chance rules: how a search picks a chance node's outcome and what value the node passes up.

Seed 001's four modes are choices here: 'hidden' (HiddenChance: the game
draws chance inside apply, so the tree has no chance nodes), 'sampling'
(ExpectedOutcomes), 'progressive' (ProgressiveWidening) and 'expectimax'
(Expectimax). The last three evaluate each chance node once when first
reached, start each outcome's statistics from that prior value with virtual
visits (W = V_prior * n_virtual, N = n_virtual) and pass up the expectation
sum_i p_i * W_i / N_i.
"""

from __future__ import annotations

import math
import random
from typing import Protocol

import numpy as np

from players.games.base import Game
from players.mcts.tree import ChanceNode

CHANCE_MODES = ("hidden", "sampling", "progressive", "expectimax")


class ChanceRule(Protocol):
    """What the search asks of a chance node on the way down and on the way up.

    needs_value: True if a chance node is evaluated (as a leaf) before its
    first descent; initialise(node, value) is then called with the value.
    """

    needs_value: bool

    def select(self, node: ChanceNode, rng: np.random.Generator) -> int:
        """The index of the outcome to descend into."""

    def backed_value(self, node: ChanceNode, index: int, value: float) -> float:
        """The value (for node.to_play) to pass up, once outcome index's statistics include value."""

    def initialise(self, node: ChanceNode, value: float) -> None:
        """Take the evaluator's value of a newly reached chance node (for node.to_play)."""


def _sample(probs: list[float], rng: np.random.Generator) -> int:
    x = rng.random()
    for i in range(len(probs) - 1):
        x -= probs[i]
        if x < 0.0:
            return i
    return len(probs) - 1


class SampledOutcome:
    """Each visit samples one outcome by its probability and passes its value up unchanged.

    Edge means converge to the expectation because outcomes are visited in
    proportion to their probabilities. Chance nodes are not evaluated.
    """

    needs_value = False

    def select(self, node: ChanceNode, rng: np.random.Generator) -> int:
        return _sample(node.probs, rng)

    def backed_value(self, node: ChanceNode, index: int, value: float) -> float:
        return value

    def initialise(self, node: ChanceNode, value: float) -> None:
        node.value = value


SAMPLED = SampledOutcome()


def prior_stats(value: float, virtual_visits: float) -> tuple[float, float]:
    """(W, N) of an outcome before any real visit: the prior value counted virtual_visits times.

    The seed's corrected formula: W = V_prior * n_virtual, N = n_virtual, so
    that after k samples the mean is (V_prior * n_virtual + sum) / (n_virtual + k).
    """
    return value * virtual_visits, virtual_visits


def _mean(node: ChanceNode, i: int) -> float:
    n = node.N[i]
    return node.W[i] / n if n > 0 else node.value


def expectation(node: ChanceNode) -> float:
    """sum p_i * W_i / N_i over the expanded outcomes (order[:widened]), p_i * V_prior elsewhere."""
    expanded = set(node.order[:node.widened]) if node.order else set(range(node.widened))
    return sum(p * (_mean(node, i) if i in expanded else node.value) for i, p in enumerate(node.probs))


def _update_expected(node: ChanceNode, index: int, value: float) -> float:
    """node.expected after outcome index's statistics took in value (one real visit), in O(1)."""
    n, w = node.N[index], node.W[index]
    before = (w - value) / (n - 1.0) if n > 1.0 else node.value
    node.expected += node.probs[index] * (w / n - before)
    return node.expected


class ExpectedOutcomes:
    """'sampling': one outcome sampled per visit; the value passed up is the expectation over all outcomes.

    Every outcome starts from the chance node's evaluated value with
    virtual_visits virtual visits; the node passes up sum_i p_i * W_i / N_i.

    Public attributes:
      virtual_visits -- the prior's weight in visits (prior_virtual_visits)
    """

    needs_value = True

    def __init__(self, virtual_visits: float = 1.0) -> None:
        if virtual_visits < 0:
            raise ValueError("prior_virtual_visits must not be negative")
        self.virtual_visits = virtual_visits

    def initialise(self, node: ChanceNode, value: float) -> None:
        node.value = value
        w, n = prior_stats(value, self.virtual_visits)
        node.W = [w] * len(node.outcomes)
        node.N = [n] * len(node.outcomes)
        node.widened = len(node.outcomes)
        node.expected = value

    def select(self, node: ChanceNode, rng: np.random.Generator) -> int:
        return _sample(node.probs, rng)

    def backed_value(self, node: ChanceNode, index: int, value: float) -> float:
        return _update_expected(node, index, value)


class Expectimax(ExpectedOutcomes):
    """'expectimax': all outcomes expanded at once, the most under-visited one chosen, expectation passed up.

    Selection is by visit deficit, argmax of p_i - n_i / n (real visits), so
    the visits track the probabilities without randomness.
    """

    def select(self, node: ChanceNode, rng: np.random.Generator) -> int:
        probs, N = node.probs, node.N
        total = node.total
        if total <= 0:
            return max(range(len(probs)), key=probs.__getitem__)
        virtual = self.virtual_visits
        best, best_i = -math.inf, 0
        for i in range(len(probs)):
            deficit = probs[i] - (N[i] - virtual) / total
            if deficit > best:
                best, best_i = deficit, i
        return best_i


class ProgressiveWidening:
    """'progressive': outcomes expanded one at a time, most probable first, the rest valued by the prior.

    On a visit that makes the node's real visits n, a new outcome is expanded
    (and descended into) when floor(n ** alpha) > the number expanded, so
    with alpha 0.5 at visits 1, 4, 9, 16, 25, 36. Otherwise the expanded
    outcome with the largest p_i / sum(p_expanded) - n_i / n_expanded is
    chosen. An expanded outcome starts from the prior with virtual_visits
    virtual visits; the value passed up is sum over expanded outcomes of
    p_i * W_i / N_i plus, for the others, p_i * V_prior.

    Public attributes:
      alpha, virtual_visits
    """

    needs_value = True

    def __init__(self, alpha: float = 0.5, virtual_visits: float = 1.0) -> None:
        if not 0 < alpha <= 1:
            raise ValueError("progressive_widening_alpha must be in (0, 1]")
        if virtual_visits < 0:
            raise ValueError("prior_virtual_visits must not be negative")
        self.alpha = alpha
        self.virtual_visits = virtual_visits

    def initialise(self, node: ChanceNode, value: float) -> None:
        node.value = value
        node.order = sorted(range(len(node.probs)), key=lambda i: -node.probs[i])
        node.widened = 0
        node.expected = value

    def select(self, node: ChanceNode, rng: np.random.Generator) -> int:
        visits = node.total + 1.0
        order = node.order
        if node.widened < len(order) and math.floor(visits ** self.alpha + 1e-9) > node.widened:
            i = order[node.widened]
            node.W[i], node.N[i] = prior_stats(node.value, self.virtual_visits)
            node.widened += 1
            return i
        probs, N = node.probs, node.N
        expanded = order[:node.widened]
        p_total = sum(probs[i] for i in expanded)
        real_total = node.total
        virtual = self.virtual_visits
        best, best_i = -math.inf, expanded[0]
        for i in expanded:
            deficit = probs[i] / p_total - ((N[i] - virtual) / real_total if real_total > 0 else 0.0)
            if deficit > best:
                best, best_i = deficit, i
        return best_i

    def backed_value(self, node: ChanceNode, index: int, value: float) -> float:
        return _update_expected(node, index, value)


class HiddenChance(Game):
    """'hidden': a game whose chance outcomes are drawn inside apply(), so a search sees no chance states.

    The same action may lead to different states (stochastic_apply), and an
    edge's mean value averages whatever outcomes came up (seed 001's
    "standard" MCTS). Everything else is the wrapped game's: the Game
    methods, and what a network encoder (players.nets.encoding) asks of a
    game: its size, target and legal_mask, where the wrapped game has them.

    Public attributes:
      game -- the wrapped game
    """

    stochastic_apply = True

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.name = game.name
        self.kind = game.kind
        self.num_actions = game.num_actions
        self.has_chance = game.has_chance
        self.rng = random.Random(seed)

    @property
    def size(self) -> int:
        """A board game's side (AttributeError for a game with no board)."""
        return self.game.size

    @property
    def target(self) -> int:
        """Pig's target (AttributeError for another game)."""
        return self.game.target

    def legal_mask(self, state) -> np.ndarray:
        """Go's legal actions as a bool array (AttributeError for a game without legal_mask)."""
        return self.game.legal_mask(state)

    def initial_state(self):
        return self.game.initial_state()

    def to_play(self, state) -> int:
        return self.game.to_play(state)

    def legal_actions(self, state) -> list[int]:
        return self.game.legal_actions(state)

    def apply(self, state, action: int):
        game = self.game
        state = game.apply(state, action)
        while game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            draw = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            state = game.apply(state, draw)
        return state

    def is_terminal(self, state) -> bool:
        return self.game.is_terminal(state)

    def terminal_value(self, state) -> float:
        return self.game.terminal_value(state)

    def is_chance(self, state) -> bool:
        return False


def chance_rule(mode: str, *, alpha: float = 0.5, virtual_visits: float = 1.0) -> ChanceRule:
    """The chance rule of a mode ('hidden' has no chance nodes and uses SAMPLED for any it meets).

    Raises ValueError for an unknown mode or a bad setting.
    """
    if mode == "hidden":
        return SAMPLED
    if mode == "sampling":
        return ExpectedOutcomes(virtual_visits)
    if mode == "expectimax":
        return Expectimax(virtual_visits)
    if mode == "progressive":
        return ProgressiveWidening(alpha, virtual_visits)
    raise ValueError(f"unknown chance mode {mode!r} (expected one of {', '.join(CHANCE_MODES)})")


def game_for_mode(game: Game, mode: str, seed: int | None = None) -> Game:
    """The game as a search in this mode sees it: HiddenChance(game) for 'hidden', else game itself."""
    return HiddenChance(game, seed) if mode == "hidden" else game
