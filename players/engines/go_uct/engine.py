"""`python -m players mcts`: GTP Go engine, UCT with rollouts; every search setting is an option."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from players.engines import gtp_adapter
from players.engines.clock import Clock
from players.engines.go_uct.search import ENGINES, MODES, SearchConfig, make_searcher
from players.engines.go_uct.uct import UctParams
from players.engines.gtp_adapter import RESIGN
from players.engines.time_plan import LagMeter, MovePlan, StopRule, plan_move
from players.errors import PlayersError, UsageError, nonfinite_refusal, refuse
from players.games import go_board
from players.games.go import GoGame, GoState
from ringmaster.gtp.engine import GtpEngine, run_gtp_session

VERSION = "1.0"
BOARD_SIZES = range(5, 20)
PRIOR_OPTIONS = (
    ("capture", "capture (1 + half the captured group's size, at most 4, a group)"),
    ("escape", "atari escape (an own group in atari extended to two empty points)"),
    ("self_atari", "bad self-atari (a loss)"),
    ("pattern", "3x3 shape"),
    ("edge", "first-line penalty (a loss: 1 on the first line, 0.5 on the second, "
     "no stone within 2 points)"),
    ("atari", "atari (per opponent group with two liberties reduced to one)"),
    ("near", "distance to the last move ((4 - d) / 3 within Manhattan distance 3)"),
    ("ladder", "running from atari into a ladder that catches (a penalty)"),
    ("shape", "learnt 3x3 shape (players/engines/go_uct/shapes_pachi.txt: log2 of how much "
     "likelier Pachi picks a point with that neighbourhood, -3 to 3; below 0 a loss)"),
)
"""The heuristic priors' factors, each --prior-NAME (UctParams.prior_NAME, its default)."""
PLAYOUT_SWITCHES = (
    ("ladders", True, "heavy playouts read ladders and don't run from atari into one that "
     "catches (+113 Elo head to head, reports/mcts_vs_pachi.md)"),
    ("ladder_chase", False, "heavy playouts atari the last move's group where a ladder then "
     "catches it"),
    ("capture_left", False, "heavy playouts capture a group left in atari beside the mover's "
     "own last move"),
    ("lgrf", False, "playouts play the last good reply to the last move, learnt from the "
     "search's own simulations (LGRF-1)"),
)
"""The fast engine's playout knowledge, each switched by --NAME / --no-NAME (UctParams.NAME)."""

ENGINE_DEFAULTS = {
    "fast": {"c": UctParams.c, "time_manage": True, "time_extend": 2.0, "time_early": True},
    "generic": {"c": 0.7, "time_manage": False, "time_extend": 0.0, "time_early": False},
}
"""The settings whose default depends on --engine: the fast engine's search constants were
tuned by SPSA against Pachi and its time management beat the engine without it
(reports/mcts_vs_pachi.md, sections 5, 10 and 11); the generic engine has neither."""


def build_parser() -> argparse.ArgumentParser:
    parser = gtp_adapter.engine_parser(
        "mcts", "GTP Go engine: UCT search with random rollouts (needs numba: "
        "pip install -e '.[engines]').")
    add = parser.add_argument
    add("--playouts", type=int, default=2000,
        help="playouts per move (the most, when --seconds or a clock also limits)")
    add("--seconds", type=float, default=None,
        help="seconds per move at most (default: none, --playouts or a clock limits)")
    add("--engine", choices=ENGINES, default="fast",
        help="fast: numba tree with RAVE and priors; generic: the game-independent search")
    add("--c", type=float, default=None,
        help=f"UCT exploration constant (default {ENGINE_DEFAULTS['fast']['c']} fast, "
             f"{ENGINE_DEFAULTS['generic']['c']} generic)")
    add("--rave", type=float, default=UctParams.rave_equiv,
        help="RAVE equivalence parameter, fast engine (0: no RAVE)")
    add("--expand-after", type=int, default=UctParams.expand_after,
        help="visits before a node is made (fast)")
    add("--prior-even", type=float, default=UctParams.prior_even,
        help="even prior visits per move (fast)")
    add("--prior-weight", type=float, default=UctParams.prior_weight,
        help="prior visits a heuristic adds at factor 1 (fast; each factor below, 0 turns "
             "that heuristic off)")
    for name, what in PRIOR_OPTIONS:
        add(f"--prior-{name.replace('_', '-')}", type=float,
            default=getattr(UctParams, f"prior_{name}"), metavar="F",
            help=f"factor of the {what} prior (fast)")
    add("--reuse", action=argparse.BooleanOptionalAction, default=True,
        help="keep the subtree of the position reached from the last search (fast)")
    for name, default, what in PLAYOUT_SWITCHES:
        add(f"--{name.replace('_', '-')}", action=argparse.BooleanOptionalAction,
            default=default, help=f"{what} (fast)")
    add("--mode", choices=MODES, default="serial", help="parallel mode")
    add("--threads", type=int, default=1,
        help="search threads; the generic engine's root mode uses processes")
    add("--leaf-playouts", type=int, default=0,
        help="playouts per leaf in leaf mode (default: threads)")
    add("--batch", type=int, default=0, help="leaves per batch in tree mode (default 4*threads)")
    add("--virtual-loss", type=float, default=1.0, help="virtual loss in tree mode")
    add("--policy", choices=("light", "heavy"), default="heavy", help="playout policy")
    add("--final", choices=("visits", "value"), default="visits",
        help="choose the most visited move or the best winning rate")
    add("--allocation", choices=("divisor", "remainder"), default=None,
        help="spread tree-mode batches across root moves with this method "
             "(default: none, not spread)")
    add("--divisor", type=int, default=4, help="allocation divisor")
    add("--biased", action="store_true", help="bias the allocation by root visits")
    add("--resign", type=float, default=0.1,
        help="resign when the estimated winning rate falls below this (0 never resigns)")
    add("--time-manage", action=argparse.BooleanOptionalAction, default=None,
        help="spend a clock's main time like Pachi: moves to go from the empty points, the "
             "lag measured from the clock, the time checked every 64 playouts (fast; "
             "default: on with the fast engine)")
    add("--time-extend", type=float, default=None, metavar="RATIO",
        help="under a clock, think past the budget (up to --time-max of it) while the most "
             "visited move has fewer than RATIO times the runner-up's visits or isn't the "
             "best by value (fast; 0 never extends; default: 2 with the fast engine, else 0)")
    add("--time-max", type=float, default=2.0,
        help="the most a move extended by --time-extend may take, in budgets")
    add("--time-early", action=argparse.BooleanOptionalAction, default=None,
        help="stop when the runner-up can't catch the leader's visits in the playouts the "
             "time (or --playouts) left allows (fast; default: on with the fast engine)")
    add("--seed", type=int, default=None, help="random seed (default: from the system)")
    return parser


def with_engine_defaults(options: argparse.Namespace) -> argparse.Namespace:
    """A copy of options with each setting of ENGINE_DEFAULTS left unnamed (None) given
    its engine's default."""
    filled = argparse.Namespace(**vars(options))
    for name, value in ENGINE_DEFAULTS[options.engine].items():
        if getattr(filled, name) is None:
            setattr(filled, name, value)
    return filled


class MctsGenerator(gtp_adapter.MoveGenerator):
    """The move generator: search, then pass, resign or play the best move.

    It passes at once when the opponent has just passed and the position as
    it stands wins on area count; cleanup (kgs-genmove_cleanup) never passes
    while another move has been searched.
    """

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options = with_engine_defaults(options)
        seed = options.seed if options.seed is not None else int(
            np.random.SeedSequence().entropy % (1 << 31))
        heavy = options.policy == "heavy"
        uct = UctParams(c=options.c, rave_equiv=options.rave, expand_after=options.expand_after,
                        prior_even=options.prior_even, prior_weight=options.prior_weight,
                        heavy=heavy, reuse=options.reuse,
                        **{name: getattr(options, name) for name, _, _ in PLAYOUT_SWITCHES},
                        **{f"prior_{name}": getattr(options, f"prior_{name}")
                           for name, _ in PRIOR_OPTIONS})
        try:
            self.config = SearchConfig(
                engine=options.engine, uct=uct, c=options.c, mode=options.mode,
                threads=options.threads, leaf_playouts=options.leaf_playouts, batch=options.batch,
                virtual_loss=options.virtual_loss, heavy=heavy,
                final_choice=options.final, allocation=options.allocation,
                divisor=options.divisor, biased=options.biased, seed=seed)
        except ValueError as exc:   # options the search refuses together (--engine fast --mode leaf)
            raise UsageError(str(exc)) from None
        self._searcher = None
        self._key: tuple | None = None
        self.meters = {0: LagMeter(), 1: LagMeter()}   # by colour: a clock each
        self._plan: MovePlan | None = None

    def close(self) -> None:
        """Stop the searcher's threads and processes."""
        if self._searcher is not None:
            self._searcher.close()

    def prepare(self, game: GoGame, state: GoState) -> None:
        """Build the searcher for this board and search once (numba loads its code), so that
        the first genmove under a clock doesn't pay for either."""
        for meter in self.meters.values():
            meter.reset()
        if (game.size, game.komi) != self._key:
            self.searcher(game).search(state, 1, None)

    @property
    def manages_time(self) -> bool:
        """Whether any time-management option is on (each needs the fast engine)."""
        o = self.options
        return o.time_manage or o.time_extend > 1.0 or o.time_early

    def budget(self, clock: Clock, game: GoGame, state: GoState) -> float | None:
        """The move's soft budget; its plan (soft and hard) is kept for the search."""
        o = self.options
        meter = self.meters[game.to_play(state)]
        meter.observe(clock)
        self._plan = plan_move(clock, game.empty_points(state), game.size * game.size,
                               meter.lag(), manage=o.time_manage,
                               extend_ratio=o.time_max if o.time_extend > 1.0 else 0.0)
        return None if self._plan is None else self._plan.soft

    def searcher(self, game: GoGame):
        key = (game.size, game.komi)
        if key != self._key:
            self.close()
            self._searcher = make_searcher(GoGame(game.size, game.komi,
                                                  max_moves=game.max_moves), self.config)
            self._key = key
        return self._searcher

    def __call__(self, game: GoGame, state: GoState, *, cleanup: bool,
                 seconds: float | None) -> int | str:
        sign = 1.0 if state.colour == go_board.BLACK else -1.0
        opponent_passed = state.passes >= 1 and not cleanup
        if opponent_passed and sign * (game.area_score(state) - game.komi) > 0:
            return game.pass_action
        plan, self._plan = self._plan, None
        limit = self.options.seconds
        if seconds is not None:
            limit = seconds if limit is None else min(limit, seconds)
        playouts = self.options.playouts
        if self.manages_time:
            result = self._managed_search(game, state, limit, plan)
        else:
            result = self.searcher(game).search(state, playouts, limit)
        win_rate = (result.root_value + 1.0) / 2.0
        if win_rate < self.options.resign and state.moves >= game.size:
            return RESIGN
        action = result.best_action
        if cleanup and action == game.pass_action:
            visits = result.visit_counts.copy()
            visits[game.pass_action] = 0
            if visits.max() > 0:
                action = int(np.argmax(visits))
        return action

    def _managed_search(self, game: GoGame, state: GoState, limit: float | None,
                        plan: MovePlan | None):
        """The search under a StopRule: soft limit, hard one (the plan's, else the same) and
        the options' extension and early stop; its seconds go to the lag meter."""
        o = self.options
        hard = limit
        if plan is not None and limit is not None:
            hard = plan.hard if o.seconds is None else min(plan.hard, o.seconds)
        rule = StopRule(limit, hard, o.playouts, extend_ratio=o.time_extend,
                        early=o.time_early, lookahead=o.time_manage,
                        chunk=64 if o.time_manage else 250)
        started = time.monotonic()
        result = self.searcher(game).search(state, o.playouts, hard, stop=rule,
                                            chunk=rule.chunk)
        self.meters[game.to_play(state)].searched(time.monotonic() - started)
        return result


def new_go(size: int, komi: float) -> GoGame:
    """The adapter's game factory: Go as the referee plays it, long games allowed."""
    return GoGame(size, komi, allow_suicide=False, max_moves=10 * size * size)


def make_engine(options: argparse.Namespace) -> tuple[GtpEngine, MctsGenerator]:
    """The GTP engine for options, and its move generator (to close when done).

    It plays 19x19 with komi 7.5 until told otherwise.
    """
    generator = MctsGenerator(options)
    engine, _ = gtp_adapter.make_engine("ringmaster-mcts", VERSION, generator, new_go,
                                        size=19, komi=7.5, sizes=BOARD_SIZES)
    return engine, generator


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    refusal = nonfinite_refusal(parser, options)
    if options.playouts < 1 or options.threads < 1:
        refusal = "--playouts and --threads must be at least 1"
    if options.c is not None and options.c < 0:
        refusal = f"--c must be at least 0, not {options.c:g}"
    if refusal:
        print(f"mcts: {refusal}", file=sys.stderr)
        return 2
    refusal = gtp_adapter.budget_refusal(None, options.seconds)
    if refusal:
        print(f"mcts: {refusal}", file=sys.stderr)
        return 2
    negative = [f"--prior-{name.replace('_', '-')}" for name, _ in PRIOR_OPTIONS
                if not getattr(options, f"prior_{name}") >= 0]
    if negative or not (options.prior_weight >= 0 and options.prior_even >= 0):
        print(f"mcts: {', '.join(negative) or '--prior-weight and --prior-even'} must not be "
              "negative", file=sys.stderr)
        return 2
    switched = [f"--{name.replace('_', '-')}" for name, default, _ in PLAYOUT_SWITCHES
                if getattr(options, name) and not default]
    if options.engine != "fast" and (options.time_manage or options.time_early
                                     or (options.time_extend or 0) > 0 or switched):
        named = ", ".join(["--time-manage", "--time-extend", "--time-early", *switched])
        print(f"mcts: {named} need --engine fast", file=sys.stderr)
        return 2
    options = with_engine_defaults(options)
    if not (options.time_extend == 0 or options.time_extend > 1) or not options.time_max >= 1:
        print("mcts: --time-extend must be 0 or above 1, --time-max at least 1",
              file=sys.stderr)
        return 2
    try:
        engine, generator = make_engine(options)
    except PlayersError as exc:
        return refuse("mcts", exc)
    try:
        run_gtp_session(engine)
    finally:
        generator.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
