"""`python -m players othello-mcts`: GTP Othello engine, UCT with random rollouts (players.mcts)."""

from __future__ import annotations

import random
import sys

import numpy as np

from players.engines import gtp_adapter
from players.engines.random_othello import OTHELLO_EXAMPLE, make_engine
from players.errors import nonfinite_refusal
from players.games.othello import Othello, OthelloState
from players.mcts import RolloutEvaluator, Tree, uct_policy
from ringmaster.gtp.engine import run_gtp_session


class RolloutOthello(gtp_adapter.MoveGenerator):
    """Chooses by UCT search (no priors) whose leaves are valued by one random rollout.

    It searches for --seconds or the clock's budget, whichever is less, and
    for at most playouts rollouts.
    """

    def __init__(self, seed: int | None, *, seconds: float | None, playouts: int, c: float) -> None:
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.seconds = seconds
        self.playouts = playouts
        self.c = c
        self._evaluate: RolloutEvaluator | None = None

    def evaluator(self, game: Othello) -> RolloutEvaluator:
        """Uniform priors; each state valued by one random rollout (the game's own, fast one)."""
        if self._evaluate is None or self._evaluate.game is not game:
            self._evaluate = RolloutEvaluator(game, seed=self.rng.randrange(1 << 31),
                                              rollout=game.random_rollout)
        return self._evaluate

    def __call__(self, game: Othello, state: OthelloState, *, cleanup: bool,
                 seconds: float | None) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        limit = self.seconds
        if seconds is not None:
            limit = seconds if limit is None else min(limit, seconds)
        result = uct_policy(Tree(game, state), self.evaluator(game), num_simulations=self.playouts,
                            rng=self.np_rng, c=self.c, seconds=limit)
        return result.best_action


def main(argv: list[str] | None = None) -> int:
    parser = gtp_adapter.engine_parser("othello-mcts", __doc__.splitlines()[0], OTHELLO_EXAMPLE)
    parser.add_argument("--seconds", type=float, default=None,
                        help="search time per move (default: none, --playouts alone limits)")
    parser.add_argument("--playouts", type=int, default=None,
                        help="rollouts per move "
                             "(default 1000; the most, when --seconds also limits)")
    parser.add_argument("--c", type=float, default=0.7, help="UCT exploration constant")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the system)")
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    refusal = (nonfinite_refusal(parser, options)
               or gtp_adapter.budget_refusal(options.playouts, options.seconds))
    if refusal:
        print(f"othello-mcts: {refusal}", file=sys.stderr)
        return 2
    if options.playouts is None:
        options.playouts = 10**9 if options.seconds is not None else 1000
    player = RolloutOthello(options.seed, seconds=options.seconds, playouts=options.playouts,
                            c=options.c)
    run_gtp_session(make_engine(player, "mcts-othello"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
