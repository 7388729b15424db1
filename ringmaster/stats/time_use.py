"""Each player's use of its clock over a run's games: time per move, time left at the end, losses on time."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass
class PlayerTimeUse:
    """One player's clock over its timed games.

    Public attributes:
      player, games (timed games), moves (timed moves), seconds (charged, all moves),
      longest (its longest move), left (seconds left at the end, summed over games),
      time_losses (games it lost on time)
    """

    player: str
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    longest: float = 0.0
    left: float = 0.0
    time_losses: int = 0

    @property
    def mean_move(self) -> float | None:
        return self.seconds / self.moves if self.moves else None

    @property
    def mean_left(self) -> float | None:
        return self.left / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "games": self.games, "moves": self.moves,
                "seconds": self.seconds, "mean_move": self.mean_move, "longest_move": self.longest,
                "mean_left": self.mean_left, "time_losses": self.time_losses}


def time_use(games: Iterable[tuple[str, list[float] | None, bool]]) -> list[PlayerTimeUse]:
    """Each player's time use, in order of first appearance.

    games: one item per side of each game: (player, [moves, seconds, longest
    move, seconds left] or None if that side wasn't timed, whether it lost on
    time).
    """
    players: dict[str, PlayerTimeUse] = {}
    for player, clock, lost in games:
        if clock is None and not lost:
            continue
        use = players.setdefault(player, PlayerTimeUse(player))
        use.time_losses += lost
        if clock is not None:
            moves, seconds, longest, left = clock
            use.games += 1
            use.moves += int(moves)
            use.seconds += seconds
            use.longest = max(use.longest, longest)
            use.left += left
    return list(players.values())


def _seconds(value: float | None) -> str:
    return "--" if value is None else f"{value:.2f}"


def time_use_report(uses: list[PlayerTimeUse]) -> str:
    """The time table ('' if no game was timed: losses on time without a clock are in the faults and
    the matchup tables): a row per player."""
    if not any(u.games for u in uses):
        return ""
    rows = [["player", "games", "moves", "s/move", "longest", "left at end", "lost on time"]]
    rows += [[u.player, str(u.games), str(u.moves), _seconds(u.mean_move), _seconds(u.longest),
              _seconds(u.mean_left), str(u.time_losses)] for u in uses]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]
    return ("Clock (seconds; 'left at end' is the mean over timed games)\n"
            + "\n".join(lines) + "\n")
