"""Go for search: immutable positions with simple ko, optional self-capture and area scoring with komi."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from players.games import go_board
from players.games.board import BoardGame

_COLOURS = {go_board.BLACK: "b", go_board.WHITE: "w"}


@dataclass(frozen=True, eq=False)
class GoState:
    """One Go position.

    Public attributes:
      board   -- padded int8 board (see go_board); never modified once built
      colour  -- go_board.BLACK or go_board.WHITE, the player to move
      ko      -- the padded point forbidden by simple ko, or -1
      passes  -- consecutive passes just played
      last    -- padded point of the previous move, or -1 for a pass or none
      moves   -- moves played since the start
    """

    board: np.ndarray
    colour: int
    ko: int = -1
    passes: int = 0
    last: int = -1
    moves: int = 0


class GoGame(BoardGame):
    """Go on an n x n board, as the referee plays it (simple ko, two passes end).

    Actions are row * n + col (row 0 at the bottom, as sgfmill) and n * n for
    pass. legal_actions() leaves out self-capture unless allow_suicide is set,
    but apply() accepts any move the referee accepts, self-capture included.
    A game also ends after max_moves moves, scored as it stands. Under GTP
    either colour may move at any time, and play goes on past the end: the
    controller decides when the game is over.

    Public attributes:
      size, komi, allow_suicide, max_moves
    """

    name = "go"
    kind = "go"
    board_sizes = range(2, 26)

    def __init__(self, size: int = 9, komi: float = 7.5, *, allow_suicide: bool = False,
                 max_moves: int | None = None) -> None:
        if size not in self.board_sizes:
            raise ValueError(f"board size {size} out of range (2-25)")
        self.size = size
        self.komi = komi
        self.allow_suicide = allow_suicide
        self.max_moves = 3 * size * size if max_moves is None else max_moves
        self.num_actions = size * size + 1
        self.pass_action = size * size

    supports_handicap = True

    def initial_state(self) -> GoState:
        return GoState(go_board.empty_board(self.size), go_board.BLACK)

    def with_handicap(self, state: GoState, actions: list[int]) -> GoState:
        board = state.board.copy()
        for action in actions:
            if not 0 <= action < self.pass_action:
                raise ValueError(f"no point {action}")
            point = go_board.point_of(self.size, action)
            if board[point] != go_board.EMPTY:
                raise ValueError("point taken")
            board[point] = go_board.BLACK
        return GoState(board, go_board.WHITE, moves=state.moves)

    def to_play(self, state: GoState) -> int:
        return 0 if state.colour == go_board.BLACK else 1

    def legal_mask(self, state: GoState) -> np.ndarray:
        """Legal actions as a bool array of num_actions entries."""
        return go_board.legal_mask(state.board, self.size, state.colour, state.ko,
                                   self.allow_suicide)

    def legal_actions(self, state: GoState) -> list[int]:
        if self.is_terminal(state):
            return []
        return np.flatnonzero(self.legal_mask(state)).tolist()

    def is_legal(self, state: GoState, action: int) -> bool:
        """True if the referee would accept action (self-capture is accepted)."""
        if action == self.pass_action:
            return True
        if not 0 <= action < self.pass_action:
            return False
        point = go_board.point_of(self.size, action)
        return state.board[point] == go_board.EMPTY and point != state.ko

    def apply(self, state: GoState, action: int) -> GoState:
        if action == self.pass_action:
            return GoState(state.board, 3 - state.colour, -1, state.passes + 1, -1,
                           state.moves + 1)
        if not self.is_legal(state, action):
            raise ValueError(f"illegal action {action}")
        board = state.board.copy()
        point = go_board.point_of(self.size, action)
        ko = go_board.play_point(board, self.size, point, state.colour)
        return GoState(board, 3 - state.colour, ko, 0, point, state.moves + 1)

    def is_terminal(self, state: GoState) -> bool:
        return state.passes >= 2 or state.moves >= self.max_moves

    def area_score(self, state: GoState) -> float:
        """Black's area minus White's, without komi."""
        return float(go_board.area_score(state.board, self.size))

    def terminal_value(self, state: GoState) -> float:
        margin = self.area_score(state) - self.komi
        black_value = 1.0 if margin > 0 else -1.0 if margin < 0 else 0.0
        return black_value if state.colour == go_board.BLACK else -black_value

    def stone_at(self, state: GoState, action: int) -> int:
        """EMPTY, BLACK or WHITE at an action's point."""
        return int(state.board[go_board.point_of(self.size, action)])

    def colour_at(self, state: GoState, action: int) -> str | None:
        return _COLOURS.get(self.stone_at(state, action))

    def score(self, state: GoState) -> float:
        return self.area_score(state)

    def empty_points(self, state: GoState) -> int:
        return int((state.board == go_board.EMPTY).sum())

    def can_continue(self, state: GoState) -> bool:
        return True

    def turn_for(self, state: GoState, player: int) -> tuple[list[int], GoState]:
        """The current position with player to move: no move is forced, either colour may move."""
        colour = go_board.BLACK if player == 0 else go_board.WHITE
        if state.colour == colour:
            return [], state
        return [], GoState(state.board, colour, -1, state.passes, -1, state.moves)


def state_from_diagram(diagram: str, colour: str = "b", *, passes: int = 0) -> GoState:
    """A position from a diagram: one line per row, top row first, 'X' black, 'O' white, '.' empty.

    Stones are placed as drawn, without captures (sgfmill's interpret_diagram
    reads its own rendering, with coordinates, and captures as it plays).
    Raises ValueError if the diagram is not square or holds another symbol.
    """
    rows = [line.split() for line in diagram.strip().splitlines()]
    n = len(rows)
    if any(len(row) != n for row in rows):
        raise ValueError("diagram must be square")
    board = go_board.empty_board(n)
    stones = {"X": go_board.BLACK, "O": go_board.WHITE, ".": go_board.EMPTY}
    for i, row in enumerate(rows):
        for col, symbol in enumerate(row):
            if symbol not in stones:
                raise ValueError(f"diagram row {i + 1}: {symbol!r} is no point (expected X, O or .)")
            board[go_board.point_of(n, (n - 1 - i) * n + col)] = stones[symbol]
    to_move = go_board.BLACK if colour == "b" else go_board.WHITE
    return GoState(board, to_move, passes=passes)
