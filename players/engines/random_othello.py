"""`python -m players random-othello`: a GTP Othello engine playing uniformly random legal moves."""

from __future__ import annotations

import random
import sys

from players.engines import gtp_adapter
from players.games.othello import Othello, OthelloState
from ringmaster.gtp.engine import GtpEngine, run_gtp_session

# The GTP commands --help suggests typing: Othello plays 4x4, 6x6 and 8x8 (8x8 at the start).
OTHELLO_EXAMPLE = "boardsize 8, genmove b, quit"


class RandomOthello(gtp_adapter.MoveGenerator):
    """A uniformly random legal action: 'pass' only when no placement exists."""

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, game: Othello, state: OthelloState, *, cleanup: bool,
                 seconds: float | None) -> int:
        return self.rng.choice(game.legal_actions(state))


def new_othello(size: int, komi: float) -> Othello:
    """The adapter's game factory for Othello (komi only shifts final_score)."""
    return Othello(size)


def make_engine(generate: gtp_adapter.MoveGenerator, name: str) -> GtpEngine:
    """A GTP Othello engine playing generate's moves (8x8 until told otherwise)."""
    engine, _ = gtp_adapter.make_engine(name, "1.0", generate, new_othello, size=8)
    return engine


def main(argv: list[str] | None = None) -> int:
    parser = gtp_adapter.engine_parser("random-othello", __doc__.splitlines()[0], OTHELLO_EXAMPLE)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the system)")
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    run_gtp_session(make_engine(RandomOthello(options.seed), "random-othello"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
