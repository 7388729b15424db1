"""`python -m players alphazero --model PATH`: GTP engine, PUCT search with a policy/value net."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import numpy as np

from players.engines import gtp_adapter
from players.errors import PlayersError, UsageError, nonfinite_refusal, refuse
from players.games import make_game
from players.games.board import BoardGame
from players.mcts import PolicyOutput, PuctSettings, Tree, alphazero_policy
from ringmaster.gtp.engine import GtpEngine, run_gtp_session

DEFAULT_PLAYOUTS = 200
UNLIMITED = 10**9   # simulations, when only time limits a search
NO_MOVE_LIMIT = sys.maxsize   # Go's moves under GTP: the controller ends the game


class AlphaZeroGenerator(gtp_adapter.MoveGenerator):
    """PUCT search with the network, keeping the tree from move to move.

    Each move searches --playouts simulations (default 200), or for --seconds;
    under a clock, for the clock's budget (at most --seconds), with --playouts
    as the most simulations. In the game's first sample_plies plies it chooses
    in proportion to visits, later the most visited move.
    """

    def __init__(self, evaluate: Callable, *, playouts: int | None, seconds: float | None,
                 batch: int, c_puct: float, seed: int | None, sample_plies: int = 0) -> None:
        self.evaluate = evaluate
        self.playouts = playouts
        self.seconds = seconds
        self.sample_plies = sample_plies
        self.settings = PuctSettings(c_puct=c_puct, leaves_per_tree=batch)
        self.rng = np.random.default_rng(seed)
        self.tree = None
        self.plies = 0

    def set_position(self, game: BoardGame, state, plies: int) -> None:
        self.tree = Tree(game, state)
        self.plies = plies

    def played(self, action: int) -> None:
        self.tree.advance(action)
        self.plies += 1

    def __call__(self, game: BoardGame, state, *, cleanup: bool, seconds: float | None) -> int:
        legal = game.legal_actions(state)
        if not legal:
            return game.pass_action
        if len(legal) == 1:
            return legal[0]
        limit = self.seconds
        if seconds is not None:
            limit = seconds if limit is None else min(limit, seconds)
        return self.search(limit).action

    def search(self, seconds: float | None) -> PolicyOutput:
        """Search the tree for seconds (None: the playouts); the move chosen and the root's visits."""
        if self.playouts is not None:
            budget = self.playouts
        else:
            budget = DEFAULT_PLAYOUTS if seconds is None else UNLIMITED
        temperature = 1.0 if self.plies < self.sample_plies else 0.0
        return alphazero_policy([self.tree], self.evaluate, self.settings,
                                num_simulations=budget, rng=self.rng, seconds=seconds,
                                temperatures=[temperature])[0]


def gtp_game(game_name: str) -> BoardGame:
    """The network's game as the GTP engine plays it: Go without a move limit of its own.

    The registry's Go ends a game after 3 n^2 moves (75 on 5x5), which cuts
    self-play games short; past it legal_actions() is empty, so an engine
    playing that game would pass for ever while the controller, whose
    move_limit (1000 by default) decides when a game ends, plays on.
    """
    game = make_game(game_name)
    if game.kind == "go":
        game = make_game(game_name, max_moves=NO_MOVE_LIMIT)
    return game


def make_engine(generator: AlphaZeroGenerator,
                game_name: str) -> tuple[GtpEngine, gtp_adapter.GtpAdapter]:
    """The GTP engine playing generator's moves in the network's game, and its adapter.

    It plays the network's one board size.

    The search plays the game as the network was trained (in Go, with its
    komi, but no move limit: see gtp_game); the controller's komi counts in
    final_score.
    """
    size = gtp_game(game_name).size
    return gtp_adapter.make_engine("alphazero", "1.0", generator,
                                   lambda size, komi: gtp_game(game_name),
                                   size=size, sizes=(size,))


def build_parser() -> argparse.ArgumentParser:
    parser = gtp_adapter.engine_parser("alphazero", __doc__.splitlines()[0],
                                       "genmove b, showboard, quit")
    parser.add_argument("--model", required=True,
                        help="checkpoint file (.pt) from the training pipeline")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, default=None,
                        help=f"simulations per move (default {DEFAULT_PLAYOUTS}; "
                             "the most, under a clock)")
    budget.add_argument("--seconds", type=float, default=None,
                        help="search time per move (the most, under a clock; default: none, "
                             "--playouts limits)")
    parser.add_argument("--batch", type=int, default=8, help="leaves evaluated per network call")
    parser.add_argument("--c-puct", type=float, default=1.5,
                        help="PUCT exploration constant: how much the prior steers the search")
    parser.add_argument("--server", choices=("auto", "on", "off"), default="auto",
                        help="share one inference server per model and device "
                             "(auto: on for CUDA, off for the CPU)")
    parser.add_argument("--sample-plies", type=int, default=0,
                        help="in the game's first N plies, choose moves in proportion to visits "
                             "(varied games between deterministic players)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the system)")
    return parser


def build_engine(options: argparse.Namespace) -> tuple[GtpEngine, gtp_adapter.GtpAdapter]:
    """Load the network (locally or through the shared server); the engine and its adapter.

    Raises UsageError for --device, CheckpointError for --model, ServerError
    if the shared server can't be reached.
    """
    from players.nets.checkpoint import load_checkpoint
    from players.nets.inference import LocalPredictor, StateEvaluator, resolve_device, set_threads
    set_threads(options.threads)
    device = resolve_device(options.device)
    use_server = options.server == "on" or (options.server == "auto" and device.type == "cuda")
    model, meta = load_checkpoint(options.model, "cpu", kinds=("othello", "go"), user="alphazero")
    game = gtp_game(model.config.game)
    if use_server:
        from players.nets.server import connect_or_start
        predictor = connect_or_start(options.model, str(device), threads=options.threads)
    else:
        predictor = LocalPredictor(model, device)
    evaluator = StateEvaluator(game, predictor)
    generator = AlphaZeroGenerator(evaluator.evaluate, playouts=options.playouts,
                                   seconds=options.seconds, batch=options.batch,
                                   c_puct=options.c_puct, seed=options.seed,
                                   sample_plies=options.sample_plies)
    return make_engine(generator, model.config.game)


def main(argv: list[str]) -> int:
    parser = build_parser()
    options = parser.parse_args(argv)
    refusal = (nonfinite_refusal(parser, options)
               or gtp_adapter.budget_refusal(options.playouts, options.seconds))
    if options.batch < 1:
        refusal = f"--batch must be at least 1, not {options.batch}"
    if options.threads < 1:
        refusal = f"--threads must be at least 1, not {options.threads}"
    try:
        if refusal:
            raise UsageError(refusal)
        engine, _ = build_engine(options)
    except PlayersError as exc:
        return refuse("alphazero", exc)
    run_gtp_session(engine)
    return 0
