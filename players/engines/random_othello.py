"""`python -m players random-othello`: a GTP Othello engine playing uniformly random legal moves."""

from __future__ import annotations

import argparse
import random
import sys

from sgfmill import common

from players.games.othello import Othello
from ringmaster.gtp.engine import (
    GtpEngine,
    GtpError,
    board_game_commands,
    run_gtp_session,
)


class RandomOthello:
    """Game state and move choice; 'pass' only when no placement exists."""

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.game = Othello(8)
        self.komi = 0.0
        self.clear()

    def clear(self) -> None:
        self.state = self.game.initial_state()

    def resize(self, size: int) -> None:
        self.game = Othello(size)
        self.clear()

    def _to_move(self, player: int) -> None:
        game, state = self.game, self.state
        if game.to_play(state) != player and not game.is_terminal(state):
            if state.moves:
                raise GtpError("illegal move: it is the other colour's turn")
            self.state = game.apply(state, game.pass_action)   # the other side had to pass

    def play(self, player: int, vertex: str) -> None:
        try:
            move = common.move_from_vertex(vertex, self.game.size)
        except ValueError:
            raise GtpError("invalid vertex") from None
        if self.game.is_terminal(self.state):
            raise GtpError("illegal move: the game is over")
        self._to_move(player)
        action = self.game.pass_action if move is None else move[0] * self.game.size + move[1]
        if action not in self.game.legal_actions(self.state):
            raise GtpError("illegal move")
        self.state = self.game.apply(self.state, action)

    def choose_action(self) -> int:
        """The action to play now (subclasses search instead)."""
        return self.rng.choice(self.game.legal_actions(self.state))

    def genmove(self, player: int) -> str:
        if self.game.is_terminal(self.state):
            return "pass"
        self._to_move(player)
        action = self.choose_action()
        self.state = self.game.apply(self.state, action)
        if action == self.game.pass_action:
            return "pass"
        return common.format_vertex(divmod(action, self.game.size))


def make_engine(seed: int | None = None, player: RandomOthello | None = None,
                name: str = "random-othello") -> GtpEngine:
    """The GTP engine around player (default: a RandomOthello)."""
    player = player or RandomOthello(seed)
    engine = GtpEngine(name, "1.0")

    def set_komi(komi: float) -> None:
        player.komi = komi

    def final_score(args: list[str]) -> str:
        score = player.game.disc_difference(player.state) - player.komi
        return "0" if score == 0 else f"B+{score:g}" if score > 0 else f"W+{-score:g}"

    engine.add_commands(board_game_commands(
        set_size=player.resize, clear=player.clear, set_komi=set_komi,
        play=lambda colour, vertex: player.play("bw".index(colour), vertex),
        genmove=lambda colour: player.genmove("bw".index(colour))))
    engine.add_command("final_score", final_score)
    return engine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players random-othello",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    run_gtp_session(make_engine(options.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
