"""Go rules for the referee, on sgfmill's board: simple ko, self-capture allowed, area scoring."""

from __future__ import annotations

from sgfmill import boards

from ringmaster.rules.base import Colour, Rules
from ringmaster.rules.handicap import fixed_handicap_limit, fixed_handicap_points


class GoRules(Rules):
    """Go as Gomill referees it.

    Occupied points and simple-ko recaptures are illegal; self-capture is
    allowed; there is no superko. Two consecutive passes end the game.
    """

    game_name = "go"
    sgf_game_number = 1
    players_may_score = True
    supports_handicap = True
    usual_komi_is_fractional = True
    has_dead_stones = True
    rules_summary = ("simple ko, no superko, self-capture allowed, two passes end the game, "
                     "area scoring")

    def __init__(self, board_size: int) -> None:
        super().__init__(board_size)
        self.board = boards.Board(board_size)
        self.ko_point: tuple[int, int] | None = None
        self.consecutive_passes = 0
        self._positions = {self._position()}   # every whole-board position so far (superko)
        self._last_move_disputable = False

    @classmethod
    def board_size_error(cls, board_size: int) -> str | None:
        if board_size < 2:
            return "too small"
        if board_size > 25:
            return "too large"
        return None

    @classmethod
    def handicap_error(cls, board_size: int, stones: int, style: str) -> str | None:
        if style == "fixed":
            if stones > fixed_handicap_limit(board_size):
                return f"fixed handicap out of range for board size {board_size}"
        elif stones >= board_size * board_size:
            return f"free handicap out of range for board size {board_size}"
        return None

    def fixed_handicap_points(self, stones: int) -> list[tuple[int, int]]:
        return fixed_handicap_points(stones, self.board_size)

    def set_handicap(self, points: list[tuple[int, int]]) -> None:
        self.board.apply_setup(points, [], [])
        self.stones_placed += len(points)
        self._positions.add(self._position())

    def _position(self) -> frozenset:
        return frozenset(self.board.list_occupied_points())

    def check_move(self, colour: Colour, move) -> str | None:
        if move is None:
            return None
        row, col = move
        if self.board.get(row, col) is not None:
            return f"attempted move to occupied point {self.format_move(move)}"
        if move == self.ko_point:
            return f"attempted move to ko-forbidden point {self.format_move(move)}"
        return None

    def goes_on_after(self, colour: Colour, move) -> bool:
        return move is not None   # only a second pass ends the game; no pass is forced

    def play(self, colour: Colour, move) -> None:
        if move is None:
            self.consecutive_passes += 1
            self.ko_point = None
            self._last_move_disputable = False
            return
        self.consecutive_passes = 0
        self.ko_point = self.board.play(move[0], move[1], colour)
        self.stones_placed += 1
        position = self._position()
        self_capture = self.board.get(move[0], move[1]) is None
        self._last_move_disputable = self_capture or position in self._positions
        self._positions.add(position)

    def rulesets_differ_on_last_move(self) -> bool:
        """True after a self-capture (most rulesets forbid it) or a move that repeats an earlier
        whole-board position (superko forbids it); every ruleset allows a pass, or a placement
        on an empty point that is neither a simple-ko recapture nor one of those."""
        return self._last_move_disputable

    def is_over(self) -> bool:
        return self.consecutive_passes >= 2

    def area_score(self) -> float:
        return float(self.board.area_score())

    def area_score_without(self, dead: set[tuple[int, int]]) -> float:
        board = self.board.copy()
        board.apply_setup([], [], dead)
        return float(board.area_score())

    def board_rows(self) -> list[list[str | None]]:
        return [[self.board.get(r, c) for c in range(self.board_size)]
                for r in range(self.board_size)]
