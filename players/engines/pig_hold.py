"""`python -m players pig-hold --hold-at N`: the 'hold at N' Pig player over GTP (Hold20 is --hold-at 20)."""

from __future__ import annotations

import sys

from players.engines import gtp_adapter
from players.games.pig import Pig, PigState, hold_at_policy
from ringmaster.gtp.engine import GtpEngine, GtpError, run_gtp_session

PIG_EXAMPLE = "clear_board, pig-target 50, reg_genmove b, play b roll 4, quit"


class HoldAt(gtp_adapter.MoveGenerator):
    """Holds when the turn total reaches hold_at or when holding wins; rolls otherwise."""

    def __init__(self, hold_at: int) -> None:
        self.hold_at = hold_at

    def __call__(self, game: Pig, state: PigState, *, cleanup: bool, seconds: float | None) -> int:
        return hold_at_policy(game, state, self.hold_at)


def make_pig_engine(generate: gtp_adapter.MoveGenerator, name: str, max_turns: int = 200,
                    only_target: int | None = None) -> tuple[GtpEngine, gtp_adapter.ChanceGameAdapter]:
    """A GTP Pig engine playing generate's decisions (target 50 until pig-target says otherwise).

    only_target: the one target it plays (a network's, trained on it and fed scores scaled by
    it); pig-target refuses any other.
    """
    adapter = gtp_adapter.ChanceGameAdapter(generate, Pig(only_target or 50, max_turns))
    engine = GtpEngine(name, "1.0")
    engine.add_commands(adapter.commands())

    def pig_target(args: list[str]) -> None:
        if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()) or int(args[0]) < 1:
            raise GtpError("pig-target needs a positive integer")
        if only_target is not None and int(args[0]) != only_target:
            raise GtpError(f"this engine's network plays target {only_target} only")
        adapter.set_game(Pig(int(args[0]), max_turns))

    engine.add_command("pig-target", pig_target)
    return engine, adapter


def main(argv: list[str] | None = None) -> int:
    parser = gtp_adapter.engine_parser("pig-hold", __doc__.splitlines()[0], PIG_EXAMPLE)
    parser.add_argument("--hold-at", type=int, default=20,
                        help="turn total to hold at (also holds when holding wins)")
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if options.hold_at < 1:
        parser.error("--hold-at must be at least 1")
    engine, _ = make_pig_engine(HoldAt(options.hold_at), f"pig-hold{options.hold_at}")
    run_gtp_session(engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
