"""Go on sgfmill's boards in plain Python: quick to start, for engines that need no speed."""

from __future__ import annotations

from dataclasses import dataclass

from sgfmill import boards

from players.games.board import BoardGame


@dataclass(frozen=True, eq=False)
class LightGoState:
    """One Go position.

    Public attributes:
      board   -- an sgfmill Board; never modified once in a state
      colour  -- 'b' or 'w', the player to move
      ko      -- the (row, col) forbidden by simple ko, or None
      passes  -- consecutive passes just played
      moves   -- moves played since the start
    """

    board: boards.Board
    colour: str
    ko: tuple[int, int] | None = None
    passes: int = 0
    moves: int = 0


class LightGo(BoardGame):
    """Go as the referee plays it: simple ko, self-capture allowed, two passes end, area scoring.

    The same rules as players.games.go.GoGame, but with no numba to load, so
    an engine on it answers at once. Under GTP either colour may move at any
    time, and play goes on past the end.

    Public attributes:
      size, komi
    """

    name = "go-light"
    kind = "go-light"
    board_sizes = range(2, 26)

    def __init__(self, size: int = 19, komi: float = 0.0) -> None:
        if size not in self.board_sizes:
            raise ValueError(f"board size {size} out of range (2-25)")
        self.size = size
        self.komi = komi
        self.num_actions = size * size + 1
        self.pass_action = size * size

    supports_handicap = True

    def initial_state(self) -> LightGoState:
        return LightGoState(boards.Board(self.size), "b")

    def with_handicap(self, state: LightGoState, actions: list[int]) -> LightGoState:
        board = state.board.copy()
        for action in actions:
            if not 0 <= action < self.pass_action:
                raise ValueError(f"no point {action}")
            row, col = self.action_to_move(action)
            if board.get(row, col) is not None:
                raise ValueError("point taken")
            board.play(row, col, "b")
        return LightGoState(board, "w", moves=state.moves)

    def to_play(self, state: LightGoState) -> int:
        return "bw".index(state.colour)

    def is_legal(self, state: LightGoState, action: int) -> bool:
        if action == self.pass_action:
            return True
        if not 0 <= action < self.pass_action:
            return False
        move = self.action_to_move(action)
        return state.board.get(*move) is None and move != state.ko

    def legal_actions(self, state: LightGoState) -> list[int]:
        if self.is_terminal(state):
            return []
        return [a for a in range(self.num_actions) if self.is_legal(state, a)]

    def apply(self, state: LightGoState, action: int) -> LightGoState:
        other = "w" if state.colour == "b" else "b"
        if action == self.pass_action:
            return LightGoState(state.board, other, None, state.passes + 1, state.moves + 1)
        if not self.is_legal(state, action):
            raise ValueError(f"illegal action {action}")
        board = state.board.copy()
        ko = board.play(*self.action_to_move(action), state.colour)
        return LightGoState(board, other, ko, 0, state.moves + 1)

    def is_self_capture(self, state: LightGoState, action: int) -> bool:
        """True if the mover's stone at action would be captured at once."""
        board = state.board.copy()
        row, col = self.action_to_move(action)
        board.play(row, col, state.colour)
        return board.get(row, col) is None

    def is_terminal(self, state: LightGoState) -> bool:
        return state.passes >= 2

    def terminal_value(self, state: LightGoState) -> float:
        margin = self.score(state) - self.komi
        black_value = float((margin > 0) - (margin < 0))
        return black_value if state.colour == "b" else -black_value

    def score(self, state: LightGoState) -> float:
        return float(state.board.area_score())

    def colour_at(self, state: LightGoState, action: int) -> str | None:
        return state.board.get(*self.action_to_move(action))

    def empty_points(self, state: LightGoState) -> int:
        return self.size * self.size - len(state.board.list_occupied_points())

    def can_continue(self, state: LightGoState) -> bool:
        return True

    def turn_for(self, state: LightGoState, player: int) -> tuple[list[int], LightGoState]:
        """The current position with player to move: no move is forced, either colour may move."""
        colour = "bw"[player]
        if state.colour == colour:
            return [], state
        return [], LightGoState(state.board, colour, None, state.passes, state.moves)
