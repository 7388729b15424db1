"""Games on a square board, whose actions are its points and a pass: what our GTP adapter asks."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Collection

from players.games.base import Game

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class BoardGame(Game):
    """A Game on a size x size board, played by black (player 0) and white (player 1).

    Action row * size + col is the point (row, col), row 0 at the bottom as in
    sgfmill, so GTP vertices map directly; size * size is the pass.

    Public attributes:
      kind         -- the game's family ('go', 'othello'), whatever its size or variant
      size         -- the board's side
      pass_action  -- size * size
      board_sizes  -- the sides the game can be played on
      symbols      -- what a rendered board shows for 'b', 'w' and an empty point (None)
      supports_handicap -- with_handicap() places handicap stones (Go)
    """

    size: int = 0
    pass_action: int = 0
    board_sizes: Collection[int] = ()
    symbols: dict[str | None, str] = {"b": "X", "w": "O", None: "."}
    supports_handicap: bool = False

    def with_handicap(self, state, actions: list[int]):
        """The position with black stones on actions' points and White to move (a handicap).

        Raises ValueError if the game has no handicap or a point is taken or off the board.
        """
        raise ValueError("this game has no handicap")

    @abstractmethod
    def colour_at(self, state, action: int) -> str | None:
        """'b' or 'w' for the stone or disc at an action's point, None if it is empty."""

    @abstractmethod
    def empty_points(self, state) -> int:
        """The number of empty points."""

    @abstractmethod
    def score(self, state) -> float:
        """Black's count minus White's, without komi (area in Go, discs in Othello)."""

    def action_to_move(self, action: int) -> tuple[int, int] | None:
        """The sgfmill (row, col) of an action, None for pass."""
        if action == self.pass_action:
            return None
        return divmod(action, self.size)

    def move_to_action(self, move: tuple[int, int] | None) -> int:
        """The action of an sgfmill (row, col) move, None for pass."""
        if move is None:
            return self.pass_action
        row, col = move
        return row * self.size + col

    def is_legal(self, state, action: int) -> bool:
        """True if an opponent or a controller may play action (what the referee accepts)."""
        return action in self.legal_actions(state)

    def can_continue(self, state) -> bool:
        """True while moves may still be played (Go leaves the end to the controller)."""
        return not self.is_terminal(state)

    def turn_for(self, state, player: int) -> tuple[list[int], object]:
        """The moves forced on the other side before player moves, and the state then.

        When it is the other side's turn and its only action is the pass, that
        pass is forced: returns ([pass_action], the state after it).

        Raises ValueError if player may not move now.
        """
        if self.to_play(state) == player:
            return [], state
        if self.legal_actions(state) == [self.pass_action]:
            return [self.pass_action], self.apply(state, self.pass_action)
        raise ValueError("it is the other colour's turn")


    def final_score(self, state, komi: float) -> str:
        """The result as GTP's final_score gives it: 'B+3.5', 'W+1', '0'."""
        margin = self.score(state) - komi
        if margin == 0:
            return "0"
        return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"

    def render(self, state) -> str:
        """The board as text, top row first, with coordinates."""
        n = self.size
        rows = [f"{r + 1:2d} " + " ".join(self.symbols[self.colour_at(state, r * n + c)]
                                          for c in range(n))
                for r in reversed(range(n))]
        rows.append("   " + " ".join(COLUMNS[:n]))
        return "\n".join(rows)
