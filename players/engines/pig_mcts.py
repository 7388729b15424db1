"""`python -m players pig-mcts`: GTP Pig engine, MCTS in a chance mode of seed 001, rollouts or a network."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from players.engines import gtp_adapter
from players.engines.gtp_adapter import budget_refusal
from players.engines.pig_hold import PIG_EXAMPLE, make_pig_engine
from players.errors import PlayersError, UsageError, nonfinite_refusal, refuse
from players.games.pig import (
    RACE50,
    Pig,
    PigState,
    ThresholdPolicy,
    hold_at_rollout,
    random_pig_rollout,
    threshold_rollout,
)
from players.mcts import PuctSettings, RolloutEvaluator, Tree, alphazero_policy, uct_policy
from players.mcts.chance import CHANCE_MODES, chance_rule, game_for_mode
from players.mcts.evaluators import AfterstateEvaluator
from ringmaster.gtp.engine import run_gtp_session

ARENA = PuctSettings(c_puct=1.0, dirichlet_alpha=1.0, dirichlet_epsilon=0.05, temperature=0.2)


def _threshold_policy(name: str) -> ThresholdPolicy | None:
    if name == "race":
        return RACE50
    if name.startswith("hold") and name[4:].isascii() and name[4:].isdigit() and int(name[4:]) > 0:
        return ThresholdPolicy(int(name[4:]))
    return None


def _policy_pair(spec: str) -> tuple[ThresholdPolicy, ThresholdPolicy]:
    """(mine, theirs) of 'NAME' or 'MINE:THEIRS' (holdN or race). Raises UsageError for another spec."""
    names = spec.split(":")
    policies = [_threshold_policy(name) for name in names]
    if len(names) > 2 or None in policies:
        raise UsageError(f"unknown policy {spec!r} (expected random, holdN, race or MINE:THEIRS)")
    return policies[0], policies[-1]


def rollout_for(spec: str, game: Pig, me: int = 0) -> Callable[[PigState, random.Random], float]:
    """The rollout a spec names, for a search by player me.

    'random' plays both sides at random; 'holdN' and 'race' (keep pace and
    end race, RACE50) play both sides by that rule; 'MINE:THEIRS' plays me by
    MINE and the other player by THEIRS (an opponent model), e.g.
    'race:hold20'. Raises UsageError (a ValueError) for another spec.
    """
    if spec == "random":
        return lambda state, rng: random_pig_rollout(game, state, rng)
    policies = list(_policy_pair(spec))
    mine, theirs = policies
    if mine == theirs and mine.pace is None and mine.race is None:
        return lambda state, rng: hold_at_rollout(game, state, rng, mine.hold_at)
    by_player = (mine, theirs) if me == 0 else (theirs, mine)
    return lambda state, rng: threshold_rollout(game, state, rng, by_player)


class PriorRolloutEvaluator(RolloutEvaluator):
    """Rollout values, and priors that favour a threshold policy's choice by `weight`.

    The searching player's choices follow `mine`, the other's `theirs` (an
    opponent model), as in the rollouts; priors are ignored at chance states.
    """

    def __init__(self, game: Pig, rollout, me: int, mine: ThresholdPolicy, theirs: ThresholdPolicy,
                 weight: float, seed: int | None = None, chance_rollouts: int = 1,
                 rollouts: int = 1) -> None:
        super().__init__(game, seed=seed, rollout=rollout, chance_rollouts=chance_rollouts,
                         rollouts=rollouts)
        self.pig = game if isinstance(game, Pig) else game.game
        self.policies = (mine, theirs) if me == 0 else (theirs, mine)
        self.weight = weight

    def __call__(self, states) -> tuple[np.ndarray, np.ndarray]:
        _, values = super().__call__(states)
        priors = np.full((len(states), 2), 1.0 - self.weight)
        target = self.pig.target
        for k, state in enumerate(states):
            policy = self.policies[state.to_play]
            mine, theirs = state.scores[state.to_play], state.scores[1 - state.to_play]
            priors[k, int(policy.rolls(mine, theirs, state.turn_total, target))] = self.weight
        return priors, values


class PigSearch(gtp_adapter.MoveGenerator):
    """One search per decision, in a chance mode, valued by rollouts (UCT) or by a network (PUCT).

    With a network (evaluate set) the search is the AlphaZero policy with the
    seed's arena settings (c_puct 1.0, Dirichlet 0.05 / 1.0, temperature 0.2).
    Raises UsageError (a ValueError) for settings it can't search with.
    """

    def __init__(self, mode: str, *, playouts: int, seconds: float | None, c: float,
                 rollout: str = "hold20", evaluate=None, alpha: float = 0.5,
                 virtual_visits: float = 1.0, seed: int | None = None,
                 prior: str | None = None, prior_weight: float = 0.8,
                 prior_rollouts: int = 8, leaf_rollouts: int = 1) -> None:
        self.mode = mode
        try:
            self.rule = chance_rule(mode, alpha=alpha, virtual_visits=virtual_visits)
        except ValueError as exc:   # an unknown mode, or a parameter out of its range
            raise UsageError(str(exc)) from None
        self.playouts = playouts
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self.evaluate = evaluate
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        rollout_for(rollout, Pig())
        self.prior = None if prior is None else _policy_pair(prior)
        if not 0.5 <= prior_weight < 1.0:
            raise UsageError("--prior-weight must be at least 0.5 and below 1")
        self.prior_weight = prior_weight
        if prior_rollouts < 1 or leaf_rollouts < 1:
            raise UsageError("--prior-rollouts and --leaf-rollouts must be at least 1")
        self.prior_rollouts = prior_rollouts
        self.leaf_rollouts = leaf_rollouts

    def search_tree(self, game: Pig, state: PigState) -> Tree:
        return Tree(game_for_mode(game, self.mode, self.rng.randrange(1 << 31)), state)

    def __call__(self, game: Pig, state: PigState, *, cleanup: bool, seconds: float | None) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        tree = self.search_tree(game, state)
        if self.evaluate is not None:
            output = alphazero_policy([tree], self.evaluate, ARENA, num_simulations=self.playouts,
                                      rng=self.np_rng, seconds=self.seconds, chance=self.rule)[0]
            return output.action
        rollout = rollout_for(self.rollout, game, state.to_play)
        if self.prior is not None:
            evaluator = PriorRolloutEvaluator(tree.game, rollout, state.to_play, *self.prior,
                                              self.prior_weight, seed=self.rng.randrange(1 << 31),
                                              chance_rollouts=self.prior_rollouts,
                                              rollouts=self.leaf_rollouts)
            settings = PuctSettings(c_puct=self.c)
            return alphazero_policy([tree], evaluator, settings, num_simulations=self.playouts,
                                    rng=self.np_rng, seconds=self.seconds, chance=self.rule)[0].action
        evaluator = RolloutEvaluator(tree.game, seed=self.rng.randrange(1 << 31), rollout=rollout,
                                     chance_rollouts=self.prior_rollouts, rollouts=self.leaf_rollouts)
        result = uct_policy(tree, evaluator, num_simulations=self.playouts, rng=self.np_rng,
                            c=self.c, seconds=self.seconds, chance=self.rule)
        return result.best_action


def network_evaluator(path: str, afterstate_values: bool = False) -> tuple[Any, int]:
    """A batched evaluator for Pig states from a checkpoint (imports torch; one CPU thread), and
    the target its network was trained for (the one it can evaluate: its features are scaled by it).
    Raises CheckpointError if path isn't a Pig network's checkpoint.

    With afterstate_values, chance states are valued through their outcomes
    (AfterstateEvaluator) rather than by the network directly, which was
    trained on decision states only.
    """
    from players.games import make_game
    from players.nets.checkpoint import load_checkpoint
    from players.nets.inference import LocalPredictor, StateEvaluator, set_threads
    set_threads(1)
    model, _ = load_checkpoint(path, kinds=("pig",), user="pig-mcts")
    game = make_game(model.config.game)
    evaluate = StateEvaluator(game, LocalPredictor(model, "cpu")).evaluate
    return (AfterstateEvaluator(game, evaluate) if afterstate_values else evaluate), game.target


def main(argv: list[str] | None = None) -> int:
    parser = gtp_adapter.engine_parser("pig-mcts", __doc__.splitlines()[0], PIG_EXAMPLE)
    parser.add_argument("--chance-mode", choices=CHANCE_MODES, default="progressive",
                        help="how the search treats the die (seed 001's four modes)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--model", default=None,
                        help="network checkpoint (PUCT search; default: none, rollouts)")
    source.add_argument("--rollouts", default="hold20",
                        help="rollout policy for UCT: holdN (default hold20), race, random, "
                             "or MINE:THEIRS such as race:hold20")
    parser.add_argument("--playouts", type=int, default=None,
                        help="simulations per decision (default 1000; the most with --seconds)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="search time per decision (default: none, --playouts alone limits)")
    parser.add_argument("--c", type=float, default=1.0,
                        help="exploration constant (UCT; c_puct with --prior or --model)")
    parser.add_argument("--prior", default=None,
                        help="PUCT with priors favouring a threshold policy's choice: holdN, race or "
                             "MINE:THEIRS (rollout search only; default: none)")
    parser.add_argument("--prior-weight", type=float, default=0.8,
                        help="prior of the policy's choice (default 0.8)")
    parser.add_argument("--prior-rollouts", type=int, default=8,
                        help="rollouts valuing a chance node, the prior of its outcomes (default 8)")
    parser.add_argument("--afterstate-values", action="store_true",
                        help="with --model: value chance states through their outcomes")
    parser.add_argument("--leaf-rollouts", type=int, default=1,
                        help="rollouts valuing a decision leaf (default 1)")
    parser.add_argument("--progressive-widening-alpha", type=float, default=0.5,
                        help="progressive mode: expand another outcome when N^alpha > expanded")
    parser.add_argument("--prior-virtual-visits", type=float, default=1.0,
                        help="sampling and progressive modes: virtual visits of an outcome's prior")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the OS)")
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    refusal = nonfinite_refusal(parser, options) or budget_refusal(options.playouts, options.seconds)
    if options.playouts is None:
        options.playouts = 10**9 if options.seconds is not None else 1000
    try:
        if refusal:
            raise UsageError(refusal)
        evaluate, target = (network_evaluator(options.model, options.afterstate_values)
                            if options.model else (None, None))
        player = PigSearch(options.chance_mode, playouts=options.playouts, seconds=options.seconds,
                           c=options.c, rollout=options.rollouts, evaluate=evaluate,
                           alpha=options.progressive_widening_alpha,
                           virtual_visits=options.prior_virtual_visits, seed=options.seed,
                           prior=options.prior, prior_weight=options.prior_weight,
                           prior_rollouts=options.prior_rollouts, leaf_rollouts=options.leaf_rollouts)
    except PlayersError as exc:
        return refuse("pig-mcts", exc)
    engine, _ = make_pig_engine(player, f"pig-mcts-{options.chance_mode}", only_target=target)
    run_gtp_session(engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
