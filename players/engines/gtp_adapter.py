"""Stateful Go GTP adapter: board size, komi, moves, undo, scoring and clocks around a move generator."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from sgfmill import common

from players.games import go_board
from players.games.go import GoGame, GoState
from ringmaster.gtp.engine import GtpEngine, GtpError, board_game_commands
from ringmaster.gtp.engine import parse_colour as parse_gtp_colour

MIN_SIZE, MAX_SIZE = 5, 19
RESIGN = "resign"


class MoveGenerator(Protocol):
    def __call__(self, game: GoGame, state: GoState, *, cleanup: bool,
                 seconds: float | None) -> int | str:
        """Return an action of game, or RESIGN."""


@dataclass
class Clock:
    """What time_settings and time_left told us, for one colour.

    Public attributes:
      main_time, byo_yomi_time, byo_yomi_stones -- from time_settings (seconds)
      time_left, stones_left                    -- from time_left (None if never sent)
    """

    main_time: float = 0.0
    byo_yomi_time: float = 0.0
    byo_yomi_stones: int = 0
    time_left: float | None = None
    stones_left: int = 0

    def budget(self, empty_points: int) -> float | None:
        """Seconds to spend on the next move, or None if there is no clock."""
        if self.byo_yomi_time <= 0 and self.main_time <= 0:
            return None
        if self.byo_yomi_time > 0 and self.byo_yomi_stones == 0 and self.main_time <= 0:
            return None  # "no time limits" in GTP
        left = self.main_time if self.time_left is None else self.time_left
        if self.stones_left > 0:
            return max(0.05, 0.9 * left / self.stones_left - 0.1)
        moves_to_go = max(10.0, empty_points / 2.0)
        share = left / moves_to_go
        if self.byo_yomi_stones > 0:
            share += 0.9 * self.byo_yomi_time / self.byo_yomi_stones
        return max(0.05, 0.9 * share - 0.1)


@dataclass
class GoGtpState:
    """The game as the controller has told it to us.

    Public attributes:
      size, komi, game, history (states, the last is current), clocks (by colour)
    """

    size: int = 19
    komi: float = 7.5
    history: list[GoState] = field(default_factory=list)
    clocks: dict[int, Clock] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.game = GoGame(self.size, self.komi, allow_suicide=False,
                           max_moves=10 * self.size * self.size)
        self.history = [self.game.initial_state()]

    @property
    def state(self) -> GoState:
        return self.history[-1]

    def state_for(self, colour: int) -> GoState:
        """The current position with colour to move (GTP allows any colour to move)."""
        state = self.state
        if state.colour == colour:
            return state
        return GoState(state.board, colour, -1, state.passes, -1, state.moves)


_COLOURS = {"b": go_board.BLACK, "w": go_board.WHITE}


def parse_colour(word: str) -> int:
    """A GTP colour argument as BLACK or WHITE. Raises GtpError if it isn't one."""
    return _COLOURS[parse_gtp_colour(word)]


def parse_vertex(word: str, size: int):
    try:
        return common.move_from_vertex(word, size)
    except ValueError:
        raise GtpError("invalid vertex") from None


def _number(args: list[str], index: int, kind: Callable, what: str):
    try:
        value = kind(args[index])
    except (IndexError, ValueError):
        raise GtpError(f"{what} needs a number") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise GtpError(f"{what} needs a finite number")
    return value


def add_go_commands(engine: GtpEngine, generate: MoveGenerator,
                    board: GoGtpState | None = None) -> GoGtpState:
    """Add the Go game commands to engine, generating moves with generate.

    Returns the state the commands share.
    """
    board = board or GoGtpState()

    def set_size(size: int) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(size)
        board.size = size
        board.reset()

    def set_komi(value: float) -> None:
        board.komi = value
        board.game.komi = value

    def play(colour: str, vertex: str) -> None:
        move = parse_vertex(vertex, board.size)
        game = board.game
        state = board.state_for(_COLOURS[colour])
        action = game.move_to_action(move)
        if not game.is_legal(state, action):
            raise GtpError("illegal move")
        board.history.append(game.apply(state, action))

    def genmove(colour: str, cleanup: bool = False) -> str:
        mover = _COLOURS[colour]
        state = board.state_for(mover)
        empty = int((state.board == go_board.EMPTY).sum())
        seconds = board.clocks.get(mover, Clock()).budget(empty)
        choice = generate(board.game, state, cleanup=cleanup, seconds=seconds)
        if choice == RESIGN:
            return RESIGN
        board.history.append(board.game.apply(state, choice))
        return common.format_vertex(board.game.action_to_move(choice))

    def genmove_cleanup(args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("kgs-genmove_cleanup needs a colour")
        return genmove(parse_gtp_colour(args[0]), cleanup=True)

    def undo(args: list[str]) -> None:
        if len(board.history) <= 1:
            raise GtpError("cannot undo")
        board.history.pop()

    def final_score(args: list[str]) -> str:
        margin = board.game.area_score(board.state) - board.komi
        if margin == 0:
            return "0"
        return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"

    def time_settings(args: list[str]) -> None:
        if len(args) != 3:
            raise GtpError("time_settings needs three numbers")
        main = _number(args, 0, float, "main time")
        byo = _number(args, 1, float, "byo-yomi time")
        stones = _number(args, 2, int, "byo-yomi stones")
        if main < 0 or byo < 0 or stones < 0:
            raise GtpError("time settings must not be negative")
        board.clocks = {c: Clock(main, byo, stones)
                        for c in (go_board.BLACK, go_board.WHITE)}

    def time_left(args: list[str]) -> None:
        if len(args) != 3:
            raise GtpError("time_left needs a colour, a time and a stone count")
        colour = parse_colour(args[0])
        seconds = _number(args, 1, float, "time")
        stones = _number(args, 2, int, "stones")
        if seconds < 0 or stones < 0:
            raise GtpError("time left must not be negative")
        clock = board.clocks.setdefault(colour, Clock())
        clock.time_left = seconds
        clock.stones_left = stones

    def showboard(args: list[str]) -> str:
        rows = []
        symbols = {go_board.EMPTY: ".", go_board.BLACK: "X", go_board.WHITE: "O"}
        for r in reversed(range(board.size)):
            rows.append(f"{r + 1:2d} " + " ".join(
                symbols[board.game.stone_at(board.state, r * board.size + c)]
                for c in range(board.size)))
        letters = "ABCDEFGHJKLMNOPQRST"[:board.size]
        rows.append("   " + " ".join(letters))
        return "\n" + "\n".join(rows)

    engine.add_commands(board_game_commands(set_size=set_size, clear=board.reset,
                                            set_komi=set_komi, play=play, genmove=genmove))
    engine.add_commands({
        "kgs-genmove_cleanup": genmove_cleanup,
        "undo": undo,
        "final_score": final_score,
        "time_settings": time_settings,
        "time_left": time_left,
        "showboard": showboard,
    })
    return board
