"""`python -m players random`: a GTP Go engine that plays uniformly random sensible moves.

It never fills one of its own single-point eyes, never self-captures and
respects simple ko, so its games end by two passes. It plays on
players.games.go_light (no numba), so it starts at once: tests and the
control files that must work with nothing else installed use it.
"""

from __future__ import annotations

import os
import random

from players.engines import gtp_adapter
from players.games.go_light import LightGo, LightGoState
from ringmaster.gtp.engine import GtpEngine, run_gtp_session


class RandomGo(gtp_adapter.MoveGenerator):
    """A random point that is legal, not self-capture and not the mover's own eye; else pass."""

    def __init__(self, seed: int | None) -> None:
        # With a seed, each game (told by the ringmaster's environment) gets its own
        # reproducible sequence.
        game_id = os.environ.get("RINGMASTER_GAME_ID", "")
        self.rng = random.Random(None if seed is None else f"{seed}/{game_id}")

    def __call__(self, game: LightGo, state: LightGoState, *, cleanup: bool,
                 seconds: float | None) -> int:
        points = [a for a in range(game.pass_action) if game.colour_at(state, a) is None]
        self.rng.shuffle(points)
        for action in points:
            if (game.is_legal(state, action) and not _is_own_eye(game, state, action)
                    and not game.is_self_capture(state, action)):
                return action
        return game.pass_action


def _is_own_eye(game: LightGo, state: LightGoState, action: int) -> bool:
    row, col = game.action_to_move(action)
    return all(state.board.get(r, c) == state.colour
               for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
               if 0 <= r < game.size and 0 <= c < game.size)


def make_engine(seed: int | None = None) -> GtpEngine:
    """The random Go engine (19x19 and komi 0 until told otherwise)."""
    engine, _ = gtp_adapter.make_engine("random", "1.0", RandomGo(seed),
                            lambda size, komi: LightGo(size, komi), size=19)
    return engine


def main(argv: list[str]) -> int:
    parser = gtp_adapter.engine_parser("random", __doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the system)")
    options = parser.parse_args(argv)
    run_gtp_session(make_engine(options.seed))
    return 0
