"""Othello rules for the referee: flips, a pass only when forced, game end when neither side can place."""

from __future__ import annotations

from sgfmill.common import opponent_of

from ringmaster.rules.base import Colour, Rules

_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


class OthelloRules(Rules):
    """Othello on an even board from 4x4 to 16x16.

    Moves are GTP vertices, as for Go (row 0 at the bottom). The start
    position has White on D4 and E5 and Black on D5 and E4 (for 8x8; the
    four centre points on other sizes). A placement must turn over at least
    one opposing disc; 'pass' is legal only for a player with no placement,
    and such a pass is forced (the referee plays it for the player). The
    game is over when neither player can place a disc.
    """

    game_name = "othello"
    sgf_game_number = 2
    rules_summary = "a pass only when no move flips, the game ends when neither side can place"
    players_may_score = False
    supports_handicap = False

    def __init__(self, board_size: int) -> None:
        super().__init__(board_size)
        m = board_size // 2
        self.board: list[list[Colour | None]] = [[None] * board_size for _ in range(board_size)]
        self.board[m - 1][m - 1] = self.board[m][m] = "w"
        self.board[m - 1][m] = self.board[m][m - 1] = "b"

    @classmethod
    def board_size_error(cls, board_size: int) -> str | None:
        if board_size % 2 or not 4 <= board_size <= 16:
            return "out of range for othello (even, 4-16)"
        return None

    def flips(self, colour: Colour, move: tuple[int, int]) -> list[tuple[int, int]]:
        """The discs a placement by colour at move would turn over (empty if none)."""
        row, col = move
        other = opponent_of(colour)
        flipped: list[tuple[int, int]] = []
        n = self.board_size
        for dr, dc in _DIRECTIONS:
            line = []
            r, c = row + dr, col + dc
            while 0 <= r < n and 0 <= c < n and self.board[r][c] == other:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < n and 0 <= c < n and self.board[r][c] == colour:
                flipped += line
        return flipped

    def legal_placements(self, colour: Colour) -> list[tuple[int, int]]:
        """Every point where colour may place a disc now."""
        n = self.board_size
        return [(r, c) for r in range(n) for c in range(n)
                if self.board[r][c] is None and self.flips(colour, (r, c))]

    def pass_is_forced(self, colour: Colour) -> bool:
        return not self.legal_placements(colour) and not self.is_over()

    def check_move(self, colour: Colour, move) -> str | None:
        if move is None:
            if self.legal_placements(colour):
                return "passed although a placement was available"
            return None
        if self.board[move[0]][move[1]] is not None:
            return f"attempted move to occupied point {self.format_move(move)}"
        if not self.flips(colour, move):
            return f"attempted move that turns over no disc at {self.format_move(move)}"
        return None

    def play(self, colour: Colour, move) -> None:
        if move is None:
            return
        for r, c in self.flips(colour, move):
            self.board[r][c] = colour
        self.board[move[0]][move[1]] = colour

    def is_over(self) -> bool:
        return not self.legal_placements("b") and not self.legal_placements("w")

    def area_score(self) -> float:
        """Black's discs minus White's."""
        flat = [p for row in self.board for p in row]
        return float(flat.count("b") - flat.count("w"))

    def board_rows(self) -> list[list[str | None]]:
        return [list(row) for row in self.board]
