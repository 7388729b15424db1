"""Policies composed around the search: root noise, the final move choice, and the AlphaZero and UCT policies.

The search (players.mcts.search) only grows trees. A policy prepares the
roots (expansion, Dirichlet noise), chooses the selection rule, runs the
search, and turns the root's visits into a move and a training target.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from players.mcts.chance import SAMPLED, ChanceRule
from players.mcts.search import Evaluate, RootAllocation, expand_roots, search
from players.mcts.selection import puct, uct
from players.mcts.tree import Node, Tree


@dataclass(frozen=True)
class SearchResult:
    """What a search found at the root.

    Public attributes:
      visit_counts -- visits of each action [num_actions] (0 for unexpanded or illegal)
      q_values     -- mean value of each action for the root player [num_actions], 0 if unvisited
      root_value   -- mean value of the root's simulations for the root player
      best_action  -- the chosen action
      simulations  -- simulations run in this search (kept ones not included)
    """

    visit_counts: np.ndarray
    q_values: np.ndarray
    root_value: float
    best_action: int
    simulations: int


def add_dirichlet_noise(node: Node, alpha: float, epsilon: float,
                        rng: np.random.Generator) -> None:
    """Mix Dirichlet(alpha) noise into an expanded node's priors: (1 - epsilon) * p + epsilon * noise."""
    if epsilon <= 0 or not node.expanded or len(node.actions) < 2:
        return
    noise = rng.dirichlet(np.full(len(node.actions), alpha))
    if isinstance(node.prior, np.ndarray):
        node.prior = (1.0 - epsilon) * node.prior + epsilon * noise
    else:
        node.prior = [(1.0 - epsilon) * p + epsilon * x
                      for p, x in zip(node.prior, noise.tolist())]


def best_by_visits(visits: np.ndarray, q: np.ndarray) -> int:
    """The most visited action, ties broken by mean value, then by the lowest index."""
    visits = np.asarray(visits)
    top = np.flatnonzero(visits == visits.max())
    return int(top[np.argmax(np.asarray(q)[top])])


def best_by_value(visits: np.ndarray, q: np.ndarray, min_share: float = 0.1) -> int:
    """The action with the best mean value among those with at least min_share of the top visits."""
    visits = np.asarray(visits, dtype=np.float64)
    eligible = visits >= max(1.0, min_share * visits.max())
    if not eligible.any():
        return best_by_visits(visits, q)
    return int(np.argmax(np.where(eligible, q, -np.inf)))


FINAL_CHOICES = {"visits": best_by_visits, "value": best_by_value}


def visit_policy(visits: np.ndarray, temperature: float = 1.0,
                 q: np.ndarray | None = None) -> np.ndarray:
    """Visit counts as a distribution proportional to N^(1/temperature).

    Temperature 0 puts all the weight on best_by_visits(visits, q) (without
    q, the first most visited action). Raises ValueError if there are no
    visits.
    """
    counts = np.asarray(visits, dtype=np.float64)
    if counts.sum() <= 0:
        raise ValueError("no visits")
    if temperature <= 0:
        policy = np.zeros_like(counts)
        policy[best_by_visits(counts, np.zeros_like(counts) if q is None else q)] = 1.0
        return policy
    policy = (counts / counts.max()) ** (1.0 / temperature)
    return policy / policy.sum()


def summarize(tree: Tree, simulations: int, final_choice: str = "visits") -> SearchResult:
    """The root's statistics as a SearchResult, best_action chosen by final_choice.

    Raises ValueError for an unknown final_choice.
    """
    try:
        choose = FINAL_CHOICES[final_choice]
    except KeyError:
        raise ValueError(f"unknown final_choice {final_choice!r}") from None
    visits, q = tree.visit_counts(), tree.q_values()
    root = tree.root
    if visits.sum() > 0:
        best = choose(visits, q)
    else:
        best = root.actions[int(np.argmax(root.prior))]
    return SearchResult(visits, q, float(root.q_value()), int(best), int(simulations))


@dataclass(frozen=True)
class PuctSettings:
    """The AlphaZero policy's settings.

    Public attributes:
      c_puct            -- exploration weight of the prior
      fpu_reduction     -- unvisited edges are valued at the node's value minus this
      virtual_loss      -- visits lost per descent in progress
      leaves_per_tree   -- descents per tree per round (batch size of one search)
      dirichlet_alpha   -- root noise concentration
      dirichlet_epsilon -- root noise weight (0: no noise, as in play)
      temperature       -- 0 plays the most visited move; > 0 samples N^(1/T)
    """

    c_puct: float = 1.5
    fpu_reduction: float = 0.0
    virtual_loss: float = 1.0
    leaves_per_tree: int = 1
    dirichlet_alpha: float = 0.5
    dirichlet_epsilon: float = 0.0
    temperature: float = 0.0


@dataclass(frozen=True)
class PolicyOutput:
    """One tree's move after a policy ran.

    Public attributes:
      action  -- the move to play
      weights -- the root's visit distribution [num_actions] (a training target)
      result  -- the full SearchResult
    """

    action: int
    weights: np.ndarray
    result: SearchResult


def alphazero_policy(trees: Sequence[Tree], evaluate: Evaluate, settings: PuctSettings, *,
                     num_simulations: int, rng: np.random.Generator,
                     seconds: float | None = None, temperatures: Sequence[float] | None = None,
                     chance: ChanceRule = SAMPLED) -> list[PolicyOutput]:
    """PUCT search of every tree to num_simulations root visits, kept visits included; noise at the roots.

    Each root is expanded, noised (settings.dirichlet_epsilon > 0), then
    searched with PUCT in one batch across trees. seconds bounds the time
    (at least one round). temperatures, one per tree, override
    settings.temperature. Every root must be a decision state that is not
    terminal.
    """
    expand_roots(trees, evaluate)
    for tree in trees:
        add_dirichlet_noise(tree.root, settings.dirichlet_alpha, settings.dirichlet_epsilon, rng)
    budgets = [max(0, num_simulations - int(round(t.root.total))) for t in trees]
    if not any(budgets):
        budgets = [1] * len(trees)
    deadline = None if seconds is None else time.monotonic() + seconds
    select = functools.partial(puct, c_puct=settings.c_puct,
                               fpu_reduction=settings.fpu_reduction)
    run = search(trees, evaluate, select, num_simulations=budgets, rng=rng,
                 leaves_per_tree=settings.leaves_per_tree, virtual_loss=settings.virtual_loss,
                 chance=chance, deadline=deadline)
    outputs = []
    for k, tree in enumerate(trees):
        result = summarize(tree, run[k])
        temperature = settings.temperature if temperatures is None else temperatures[k]
        weights = visit_policy(result.visit_counts, temperature, result.q_values)
        action = int(rng.choice(len(weights), p=weights)) if temperature > 0 else result.best_action
        outputs.append(PolicyOutput(action, weights, result))
    return outputs


def uct_policy(tree: Tree, evaluate: Evaluate, *, num_simulations: int,
               rng: np.random.Generator, c: float = 1.4, leaves_per_tree: int = 1,
               virtual_loss: float = 1.0, seconds: float | None = None,
               final_choice: str = "visits", root_allocation: RootAllocation | None = None,
               chance: ChanceRule = SAMPLED) -> SearchResult:
    """UCT search (edges in random order, so ties break at random) for num_simulations more simulations.

    Suits rollout evaluators. seconds bounds the time (at least one round);
    root_allocation spreads each round's descents over the root's edges.
    """
    deadline = None if seconds is None else time.monotonic() + seconds
    run = search([tree], evaluate, functools.partial(uct, c=c), num_simulations=num_simulations,
                 rng=rng, leaves_per_tree=leaves_per_tree, virtual_loss=virtual_loss,
                 chance=chance, deadline=deadline, root_allocation=root_allocation, shuffle=True)
    return summarize(tree, run[0], final_choice)

