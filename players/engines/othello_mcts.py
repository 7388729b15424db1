"""`python -m players othello-mcts`: a GTP Othello engine, UCT with random rollouts on the players.mcts search core."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from players.engines.random_othello import RandomOthello, make_engine
from players.mcts import RolloutEvaluator, Tree, uct_policy
from ringmaster.gtp.engine import run_gtp_session


class RolloutOthello(RandomOthello):
    """Chooses by UCT search (no priors) whose leaves are valued by one random rollout."""

    def __init__(self, seed: int | None, *, seconds: float | None, playouts: int, c: float) -> None:
        super().__init__(seed)
        self.np_rng = np.random.default_rng(seed)
        self.seconds = seconds
        self.playouts = playouts
        self.c = c

    def evaluate(self, states) -> tuple[None, list[float]]:
        """Uniform priors; each state valued by one random rollout (the game's own, fast one)."""
        return RolloutEvaluator(self.game, rollout=self.game.random_rollout)(states)

    def choose_action(self) -> int:
        legal = self.game.legal_actions(self.state)
        if len(legal) == 1:
            return legal[0]
        result = uct_policy(Tree(self.game, self.state), self.evaluate,
                            num_simulations=self.playouts, rng=self.np_rng, c=self.c,
                            seconds=self.seconds)
        return result.best_action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players othello-mcts", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=None, help="search time per move")
    parser.add_argument("--playouts", type=int, default=None,
                        help="rollouts per move (default 1000; the most, when --seconds also limits)")
    parser.add_argument("--c", type=float, default=0.7, help="UCT exploration constant")
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if options.playouts is None:
        options.playouts = 10**9 if options.seconds is not None else 1000
    player = RolloutOthello(options.seed, seconds=options.seconds, playouts=options.playouts, c=options.c)
    run_gtp_session(make_engine(player=player, name="mcts-othello"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
