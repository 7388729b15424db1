"""The result of one game, as competitions store and report it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


def format_float(value: float) -> str:
    """'2' for 2.0, '2.5' for 2.5."""
    return str(int(value)) if value == int(value) else f"{value:g}"


@dataclass
class GameResult:
    """The outcome of a game between two players.

    Public attributes:
      game_id
      player_b, player_w -- player codes
      winning_colour     -- 'b', 'w' or None (jigo, or no result)
      sgf_result         -- as in SGF RE[]: 'B+3.5', 'W+R', 'B+F', '0', '?', 'Void'
      detail             -- extra words ('forfeit by x: ...', 'hit move limit'), or None
      is_forfeit
      cpu_times          -- {player code: seconds or None}
    """

    game_id: str
    player_b: str
    player_w: str
    winning_colour: str | None
    sgf_result: str
    detail: str | None = None
    is_forfeit: bool = False
    cpu_times: dict[str, float | None] = field(default_factory=dict)

    @property
    def players(self) -> dict[str, str]:
        return {"b": self.player_b, "w": self.player_w}

    @property
    def winning_player(self) -> str | None:
        return None if self.winning_colour is None else self.players[self.winning_colour]

    @property
    def losing_player(self) -> str | None:
        if self.winning_colour is None:
            return None
        return self.players["w" if self.winning_colour == "b" else "b"]

    @property
    def is_jigo(self) -> bool:
        return self.sgf_result == "0"

    @property
    def is_unknown(self) -> bool:
        return self.winning_colour is None and not self.is_jigo

    def describe(self) -> str:
        """One line: 'a beat b B+3.5', 'a vs b jigo', 'a vs b ? (players disagreed)'."""
        if self.winning_colour is not None:
            text = f"{self.winning_player} beat {self.losing_player} {self.sgf_result}"
        elif self.is_jigo:
            text = f"{self.player_b} vs {self.player_w} jigo"
        else:
            text = f"{self.player_b} vs {self.player_w} {self.sgf_result}"
        if self.detail:
            text += f" ({self.detail})"
        return text

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        return cls(**data)


def result_from_score(score: float) -> tuple[str | None, str]:
    """(winning colour, SGF result) for a score of Black minus White, komi included."""
    if score > 0:
        return "b", f"B+{format_float(score)}"
    if score < 0:
        return "w", f"W+{format_float(-score)}"
    return None, "0"
