"""Simulations per CPU second of the search core under alphazero_policy, with a fake network.

32 trees, 48 simulations a move. The network is replaced by random priors
and values (numpy, nearly free), so the figure is the core's own cost:
Othello 6x6 (narrow nodes, under VECTOR_EDGES edges, the self-play gate's
game) for 20 moves and Go 9x9 (82-edge nodes) for 6. Run with a tree's
code first on the path, alternating trees (one process each):
    cd TREE && PYTHONPATH=TREE nice -n 5 python $REPO/reports/data/issue9_cpu_alphazero.py
"""

from __future__ import annotations

import time

import numpy as np

from players.games import make_game
from players.mcts.policies import PuctSettings, alphazero_policy
from players.mcts.tree import Tree


def rate(name: str, moves: int, trees: int = 32, simulations: int = 48) -> float:
    """Simulations per CPU second over `moves` moves of `trees` self-play games."""
    game = make_game(name)
    rng = np.random.default_rng(1)

    def evaluate(states):
        return (rng.dirichlet(np.ones(game.num_actions), len(states)),
                rng.uniform(-1, 1, len(states)))

    settings = PuctSettings(dirichlet_epsilon=0.25, temperature=1.0)
    games = [Tree(game, game.initial_state()) for _ in range(trees)]
    done, start = 0, time.process_time()
    for _ in range(moves):
        live = [t for t in games if not game.is_terminal(t.state)]
        if not live:
            break
        for tree, output in zip(live, alphazero_policy(live, evaluate, settings,
                                                       num_simulations=simulations, rng=rng)):
            done += output.result.simulations
            tree.advance(output.action)
    return done / (time.process_time() - start)


def main() -> None:
    rate("othello6", 2)  # warm-up
    print(f"othello6 {rate('othello6', 20):.0f} sims/cpu-s | go9 {rate('go9', 6):.0f} sims/cpu-s")


if __name__ == "__main__":
    main()
