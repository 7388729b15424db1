"""`python -m players alphazero --model PATH`: a GTP engine playing PUCT search with a policy/value network."""

from __future__ import annotations

import argparse
import sys

import numpy as np
from sgfmill import common

from ringmaster.gtp.engine import (
    GtpEngine,
    GtpError,
    board_game_commands,
    run_gtp_session,
)


class AlphaZeroPlayer:
    """Game state, search tree and move choice behind the GTP commands."""

    def __init__(self, game, evaluate, *, playouts: int | None, seconds: float | None,
                 batch: int, c_puct: float, seed: int | None, sample_plies: int = 0) -> None:
        from players.alphazero.puct import PuctConfig, Tree
        self._tree_class = Tree
        self.game = game
        self.size = game.size
        self.evaluate = evaluate
        self.playouts = playouts
        self.seconds = seconds
        self.batch = batch
        self.sample_plies = sample_plies
        self.config = PuctConfig(c_puct=c_puct)
        self.rng = np.random.default_rng(seed)
        self.komi = 0.0
        self.clear()

    def clear(self) -> None:
        self.history = [self.game.initial_state()]
        self.tree = self._tree_class(self.game, self.history[0])

    @property
    def state(self):
        return self.history[-1]

    def action_from_vertex(self, vertex: str) -> int:
        try:
            move = common.move_from_vertex(vertex, self.size)
        except ValueError:
            raise GtpError("invalid vertex") from None
        if move is None:
            return self.game.num_actions - 1
        return move[0] * self.size + move[1]

    def vertex_from_action(self, action: int) -> str:
        if action == self.game.num_actions - 1:
            return "pass"
        return common.format_vertex(divmod(action, self.size))

    def _apply(self, action: int) -> None:
        try:
            state = self.game.apply(self.state, action)
        except ValueError:
            raise GtpError("illegal move") from None
        self.history.append(state)
        self.tree.advance(action)

    def _bring_to_move(self, player: int) -> None:
        """Let the other player pass if it is its turn and it has no other move."""
        pass_action = self.game.num_actions - 1
        if self.game.to_play(self.state) != player and not self.game.is_terminal(self.state):
            if self.game.legal_actions(self.state) == [pass_action] and self.game.name.startswith("othello"):
                self._apply(pass_action)
            else:
                raise GtpError("illegal move: it is the other colour's turn")

    def play(self, player: int, vertex: str) -> None:
        action = self.action_from_vertex(vertex)
        if self.game.is_terminal(self.state):
            raise GtpError("illegal move: the game is over")
        self._bring_to_move(player)
        if action not in self.game.legal_actions(self.state):
            raise GtpError("illegal move")
        self._apply(action)

    def genmove(self, player: int) -> str:
        from players.alphazero.puct import search_many, search_timed, visit_policy
        if self.game.is_terminal(self.state):
            return "pass"
        self._bring_to_move(player)
        legal = self.game.legal_actions(self.state)
        if len(legal) == 1:
            action = legal[0]
        else:
            if self.seconds:
                search_timed(self.tree, self.evaluate, self.config, seconds=self.seconds,
                             leaves_per_tree=self.batch, max_simulations=self.playouts,
                             rng=self.rng)
            else:
                search_many([self.tree], self.evaluate, self.config,
                            num_simulations=self.playouts or 200,
                            leaves_per_tree=self.batch, rng=self.rng)
            visits = self.tree.visit_counts()
            if len(self.history) - 1 < self.sample_plies:
                action = int(self.rng.choice(len(visits), p=visit_policy(visits, 1.0)))
            else:
                action = int(np.argmax(visits))
        self._apply(action)
        return self.vertex_from_action(action)

    def undo(self) -> None:
        if len(self.history) < 2:
            raise GtpError("cannot undo")
        self.history.pop()
        self.tree = self._tree_class(self.game, self.state)

    def final_score(self) -> str:
        if not hasattr(self.game, "disc_difference"):
            raise GtpError("final_score is not available for this game")
        score = self.game.disc_difference(self.state) - self.komi
        if score == 0:
            return "0"
        return f"B+{score:g}" if score > 0 else f"W+{-score:g}"

    def showboard(self) -> str:
        if not hasattr(self.state, "black_white"):
            raise GtpError("showboard is not available for this game")
        black, white = self.state.black_white()
        lines = []
        for row in reversed(range(self.size)):
            cells = ["#" if black >> (row * self.size + c) & 1 else "o" if white >> (row * self.size + c) & 1
                     else "." for c in range(self.size)]
            lines.append(f"{row + 1:2d} " + " ".join(cells))
        lines.append("   " + " ".join("ABCDEFGHJKLMNOPQRST"[:self.size]))
        return "\n".join(lines)


def make_engine(player: AlphaZeroPlayer) -> GtpEngine:
    engine = GtpEngine("alphazero", "1.0")

    def set_size(size: int) -> None:
        if size != player.size:
            raise GtpError(f"unacceptable size (this network plays {player.size}x{player.size})")
        player.clear()

    def set_komi(komi: float) -> None:
        player.komi = komi

    engine.add_commands(board_game_commands(
        set_size=set_size, clear=player.clear, set_komi=set_komi,
        play=lambda colour, vertex: player.play("bw".index(colour), vertex),
        genmove=lambda colour: player.genmove("bw".index(colour))))
    engine.add_commands({
        "undo": lambda args: player.undo(),
        "final_score": lambda args: player.final_score(),
        "showboard": lambda args: player.showboard(),
    })
    return engine


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m players alphazero", description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="checkpoint file (.pt) from the training pipeline")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, default=None, help="simulations per move (default 200)")
    budget.add_argument("--seconds", type=float, default=None, help="search time per move")
    parser.add_argument("--batch", type=int, default=8, help="leaves evaluated per network call")
    parser.add_argument("--c-puct", type=float, default=1.5)
    parser.add_argument("--server", choices=("auto", "on", "off"), default="auto",
                        help="share one inference server per model and device "
                             "(auto: on for CUDA, off for the CPU)")
    parser.add_argument("--sample-plies", type=int, default=0,
                        help="in the game's first N plies, choose moves in proportion to visits "
                             "(varied games between deterministic players)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--seed", type=int, default=None)
    return parser


def build_player(options: argparse.Namespace) -> AlphaZeroPlayer:
    """Load the network (locally or through the shared server) and make the player."""
    import torch

    from players.games import make_game
    from players.nets.checkpoint import load_checkpoint
    from players.nets.inference import LocalPredictor, StateEvaluator, resolve_device
    torch.set_num_threads(options.threads)
    device = resolve_device(options.device)
    use_server = options.server == "on" or (options.server == "auto" and device.type == "cuda")
    model, meta = load_checkpoint(options.model, "cpu")
    game = make_game(model.config.game)
    if use_server:
        from players.nets.server import connect_or_start
        predictor = connect_or_start(options.model, str(device))
    else:
        predictor = LocalPredictor(model, device)
    evaluator = StateEvaluator(game, predictor)
    return AlphaZeroPlayer(game, evaluator.evaluate, playouts=options.playouts,
                           seconds=options.seconds, batch=options.batch,
                           c_puct=options.c_puct, seed=options.seed,
                           sample_plies=options.sample_plies)


def main(argv: list[str]) -> int:
    options = build_parser().parse_args(argv)
    if options.playouts is not None and options.playouts < 1 or options.batch < 1:
        print("alphazero: --playouts and --batch must be positive", file=sys.stderr)
        return 2
    try:
        player = build_player(options)
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"alphazero: {exc}", file=sys.stderr)
        return 1
    run_gtp_session(make_engine(player))
    return 0
