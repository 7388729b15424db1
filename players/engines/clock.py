"""A GTP clock: what time_settings and time_left said, and the seconds to spend on the next move."""

from __future__ import annotations

from dataclasses import dataclass


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
