"""Simulations per second of each chance mode on Pig with rollout evaluators, beside hidden mode.

Usage: python bench/bench_pig_modes.py [--simulations N] [--positions N] [--rounds N]

Each mode searches the same mid-game Pig positions (decisions of a
Hold20-vs-Hold20 game) with UCT, valued by hold-at-20 rollouts and by
uniformly random rollouts. The last column is the mode's speed relative to
hidden mode in the same round, so the ratio holds on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from players.engines.pig_mcts import rollout_for
from players.games.pig import Pig, hold_at_policy
from players.mcts import RolloutEvaluator, Tree, uct_policy
from players.mcts.chance import CHANCE_MODES, chance_rule, game_for_mode


def positions(game: Pig, count: int, seed: int) -> list:
    """Decision positions with a choice (turn total > 0) from Hold20 self-play."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while not game.is_terminal(state) and len(found) < count:
            if game.is_chance(state):
                state = game.apply(state, rng.choice(game.chance_outcomes(state))[0])
                continue
            if state.turn_total > 0:
                found.append(state)
            state = game.apply(state, hold_at_policy(game, state, 20))
    return found


def simulations_per_second(game: Pig, mode: str, rollout: str, states: list, simulations: int) -> float:
    rng = np.random.default_rng(0)
    rule = chance_rule(mode)
    started = time.perf_counter()
    for k, state in enumerate(states):
        tree = Tree(game_for_mode(game, mode, k), state)
        evaluator = RolloutEvaluator(tree.game, seed=k, rollout=rollout_for(rollout, game))
        uct_policy(tree, evaluator, num_simulations=simulations, rng=rng, c=1.0, chance=rule)
    return simulations * len(states) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    game = Pig(50)
    states = positions(game, options.positions, 1)
    print(f"{'mode':12} {'rollouts':9} {'simulations/s':>14} {'vs hidden':>10}")
    for _ in range(options.rounds):
        for rollout in ("hold20", "random"):
            rates = {mode: simulations_per_second(game, mode, rollout, states, options.simulations)
                     for mode in CHANCE_MODES}
            for mode in CHANCE_MODES:
                print(f"{mode:12} {rollout:9} {rates[mode]:14.0f} {rates[mode] / rates['hidden']:10.2f}")


if __name__ == "__main__":
    main()
