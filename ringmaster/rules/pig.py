"""Pig rules for the referee: roll or hold, the referee's die, a target score and a turn limit."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from sgfmill.common import opponent_of

from ringmaster.rules.base import Colour, Rules
from ringmaster.settings import Setting, interpret_positive_int

ROLL = "roll"
HOLD = "hold"


class PigRules(Rules):
    """One game of Pig as the referee tracks it; no board (board_size is unused).

    Black moves first. The player to move answers 'roll' or 'hold'; the
    referee throws the die after a roll: a 1 ends the turn with nothing
    banked, any other face adds to the turn total. 'hold' banks the turn
    total and ends the turn, and is legal only with a turn total above 0
    (every turn starts with a roll). A player who banks `target` points has
    won; after `max_turns` turns the game ends with no result.

    Public attributes:
      target, max_turns, scores {'b', 'w'}, turn_total, to_move, turns (turns ended)
    """

    game_name = "pig"
    sgf_game_number = 0
    players_may_score = False
    supports_handicap = False
    rules_summary = "the ringmaster throws the die; hold only with a turn total above 0"
    uses_board = False
    moves_label = "moves (each roll and each hold)"
    has_clock = False
    option_settings = (Setting("pig_target", interpret_positive_int, default=50),
                       Setting("pig_max_turns", interpret_positive_int, default=200))
    default_options = MappingProxyType({s.name: s.default for s in option_settings})

    def __init__(self, board_size: int | None = None, *, target: int = 50, max_turns: int = 200) -> None:
        self.board_size = board_size or 0
        self.target = target
        self.max_turns = max_turns
        self.scores = {"b": 0, "w": 0}
        self.turn_total = 0
        self.to_move: Colour = "b"
        self.turns = 0

    @classmethod
    def from_options(cls, options: dict) -> PigRules:
        """Rules for a game with these settings (pig_target, pig_max_turns; defaults for the rest)."""
        merged = {**cls.default_options, **options}
        return cls(target=merged["pig_target"], max_turns=merged["pig_max_turns"])

    @classmethod
    def setup_commands(cls, board_size: int, komi: float,
                       options: Mapping[str, Any]) -> list[tuple[str, ...]]:
        merged = {**cls.default_options, **options}
        return [("pig-target", str(merged["pig_target"])), ("clear_board",)]

    @classmethod
    def setting_details(cls, board_size: int, komi: float, options: Mapping[str, Any]) -> list[str]:
        merged = {**cls.default_options, **options}
        return [f"target: {merged['pig_target']}",
                f"turn limit: {merged['pig_max_turns']} (no result when hit)", "black moves first"]

    def parse_move(self, vertex: str) -> str:
        """'roll' or 'hold' (any case). Raises ValueError for anything else."""
        word = vertex.strip().lower()
        if word not in (ROLL, HOLD):
            raise ValueError(f"not roll or hold: {vertex[:40]}")
        return word

    def format_move(self, move) -> str:
        return move

    def check_move(self, colour: Colour, move) -> str | None:
        if colour != self.to_move:
            return "moved out of turn"
        if move == HOLD and self.turn_total == 0:
            return "held with a turn total of 0 (a turn starts with a roll)"
        return None

    def play(self, colour: Colour, move) -> None:
        """Play a hold (a roll is played by throw())."""
        if move == HOLD:
            self.scores[colour] += self.turn_total
            self._end_turn()

    def throw(self, face: int) -> None:
        """The die the referee threw after the player to move rolled."""
        if face == 1:
            self._end_turn()
        else:
            self.turn_total += face

    def _end_turn(self) -> None:
        self.turn_total = 0
        self.turns += 1
        if not self.is_over():
            self.to_move = opponent_of(self.to_move)

    def winner(self) -> Colour | None:
        for colour in ("b", "w"):
            if self.scores[colour] >= self.target:
                return colour
        return None

    def hit_turn_limit(self) -> bool:
        return self.winner() is None and self.turns >= self.max_turns

    def is_over(self) -> bool:
        return self.winner() is not None or self.turns >= self.max_turns

    def area_score(self) -> float:
        """Black's banked points minus White's."""
        return float(self.scores["b"] - self.scores["w"])
