"""`python -m players random`: a GTP Go engine that plays uniformly random sensible moves.

It never fills one of its own single-point eyes, never self-captures and
respects simple ko, so its games end by two passes. Used by tests and by the
control files that must work with nothing else installed.
"""

from __future__ import annotations

import argparse
import os
import random

from sgfmill import boards, common

from ringmaster.gtp.engine import (
    GtpEngine,
    GtpError,
    board_game_commands,
    run_gtp_session,
)


class RandomGo:
    """Game state and move choice for the random player."""

    def __init__(self, seed: int | None) -> None:
        # With a seed, each game (told by the ringmaster's environment) gets its own
        # reproducible sequence.
        game_id = os.environ.get("RINGMASTER_GAME_ID", "")
        self.rng = random.Random(None if seed is None else f"{seed}/{game_id}")
        self.size = 19
        self.komi = 0.0
        self.clear()

    def clear(self) -> None:
        self.board = boards.Board(self.size)
        self.ko_point = None

    def play(self, colour: str, move) -> None:
        if move is None:
            self.ko_point = None
            return
        row, col = move
        if self.board.get(row, col) is not None:
            raise GtpError("illegal move")
        self.ko_point = self.board.play(row, col, colour)

    def _is_own_eye(self, colour: str, row: int, col: int) -> bool:
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < self.size and 0 <= c < self.size:
                if self.board.get(r, c) != colour:
                    return False
        return True

    def _is_self_capture(self, colour: str, row: int, col: int) -> bool:
        trial = self.board.copy()
        trial.play(row, col, colour)
        return trial.get(row, col) is None

    def choose(self, colour: str):
        empties = [(r, c) for r in range(self.size) for c in range(self.size)
                   if self.board.get(r, c) is None]
        self.rng.shuffle(empties)
        for row, col in empties:
            if (row, col) == self.ko_point or self._is_own_eye(colour, row, col):
                continue
            if self._is_self_capture(colour, row, col):
                continue
            return row, col
        return None


def make_engine(seed: int | None = None) -> GtpEngine:
    state = RandomGo(seed)
    engine = GtpEngine("random", "1.0")

    def set_size(size: int) -> None:
        if not 2 <= size <= 25:
            raise ValueError(size)
        state.size = size
        state.clear()

    def set_komi(komi: float) -> None:
        state.komi = komi

    def play(colour: str, vertex: str) -> None:
        try:
            move = common.move_from_vertex(vertex, state.size)
        except ValueError:
            raise GtpError("invalid vertex") from None
        state.play(colour, move)

    def genmove(colour: str) -> str:
        move = state.choose(colour)
        state.play(colour, move)
        return common.format_vertex(move)

    def final_score(args: list[str]) -> str:
        score = state.board.area_score() - state.komi
        if score == 0:
            return "0"
        return f"B+{score:g}" if score > 0 else f"W+{-score:g}"

    engine.add_commands(board_game_commands(set_size=set_size, clear=state.clear,
                                            set_komi=set_komi, play=play, genmove=genmove))
    engine.add_command("final_score", final_score)
    return engine


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m players random",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="random seed")
    options = parser.parse_args(argv)
    run_gtp_session(make_engine(options.seed))
    return 0
