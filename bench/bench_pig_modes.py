"""Simulations per second of each chance mode on Pig, rollouts and network, beside hidden mode.

Usage: python bench/bench_pig_modes.py [--simulations N] [--positions N] [--rounds N]

Each mode searches the same mid-game Pig positions (decisions of a
Hold20-vs-Hold20 game): one tree at a time with UCT valued by hold-at-20
rollouts, by rollouts where the searcher races and the other holds at 20
(race:hold20, 8 rollouts for a chance node's prior), and by uniformly
random rollouts; and all positions' trees at once with PUCT valued by the
seed's MLP (untrained weights: the speed doesn't depend on them), one
batched network call per round across the trees, as in self-play. The
last column is the mode's speed relative to hidden mode in the same
round, so the ratio holds on a shared machine. Times are this process's
CPU time (time.process_time), so a loaded machine doesn't deflate the rates.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import torch

from players.engines.pig_mcts import rollout_for
from players.games.pig import Pig, hold_at_policy
from players.mcts import PuctSettings, RolloutEvaluator, Tree, alphazero_policy, uct_policy
from players.mcts.chance import CHANCE_MODES, chance_rule, game_for_mode
from players.nets.encoding import encoder_for
from players.nets.inference import LocalPredictor, StateEvaluator
from players.nets.model import NetConfig, make_net


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


def rollout_search_seconds(game: Pig, mode: str, rollout: str, state, k: int, simulations: int) -> float:
    """CPU seconds of one UCT search of state, valued by the named rollouts."""
    tree = Tree(game_for_mode(game, mode, k), state)
    evaluator = RolloutEvaluator(tree.game, seed=k, rollout=rollout_for(rollout, game, state.to_play),
                                 chance_rollouts=8 if ":" in rollout else 1)
    started = time.process_time()
    uct_policy(tree, evaluator, num_simulations=simulations, rng=np.random.default_rng(k), c=1.0,
               chance=chance_rule(mode))
    return time.process_time() - started


def network_search_seconds(game: Pig, mode: str, evaluate, states: list, simulations: int) -> float:
    """CPU seconds of searching every position's tree at once by PUCT, one network call per round."""
    trees = [Tree(game_for_mode(game, mode, k), state) for k, state in enumerate(states)]
    started = time.process_time()
    alphazero_policy(trees, evaluate, PuctSettings(c_puct=1.0), num_simulations=simulations,
                     rng=np.random.default_rng(0), chance=chance_rule(mode))
    return time.process_time() - started


def rates(game: Pig, evaluator: str, evaluate, states: list, simulations: int) -> dict[str, float]:
    """Simulations per second of each mode, the modes taking turns position by position (load evens out)."""
    seconds = dict.fromkeys(CHANCE_MODES, 0.0)
    if evaluator == "network":
        for mode in CHANCE_MODES:
            seconds[mode] += network_search_seconds(game, mode, evaluate, states, simulations)
    else:
        for k, state in enumerate(states):
            for mode in CHANCE_MODES:
                seconds[mode] += rollout_search_seconds(game, mode, evaluator, state, k, simulations)
    return {mode: simulations * len(states) / seconds[mode] for mode in CHANCE_MODES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    torch.set_num_threads(1)
    game = Pig(50)
    states = positions(game, options.positions, 1)
    encoder = encoder_for(game)
    net = make_net(NetConfig("pig50", 1, encoder.num_planes, 2, channels=64, blocks=4, kind="mlp"))
    evaluate = StateEvaluator(game, LocalPredictor(net, "cpu")).evaluate
    print(f"{'mode':12} {'evaluator':12} {'sims/CPU-s':>14} {'vs hidden':>10}")
    for _ in range(options.rounds):
        for evaluator in ("hold20", "race:hold20", "random", "network"):
            measured = rates(game, evaluator, evaluate, states, options.simulations)
            for mode in CHANCE_MODES:
                print(f"{mode:12} {evaluator:12} {measured[mode]:14.0f} "
                      f"{measured[mode] / measured['hidden']:10.2f}", flush=True)


if __name__ == "__main__":
    main()
