"""A GTP clock: what the time commands said, and the seconds to spend on the next move."""

from __future__ import annotations

import math
from dataclasses import dataclass

LAG = 0.1
"""Seconds kept back from every budget for what the search doesn't count (the answer's
way back to the controller, choosing the move, a late time check)."""

SHARE = 0.9
"""The part of a move's share of the clock the search may use."""

SMALLEST = 0.05
"""The least budget: a move always gets a little search."""


@dataclass
class Clock:
    """What the controller told us of one colour's clock.

    Public attributes:
      main_time, byo_yomi_time, byo_yomi_stones -- as time_settings says them (seconds);
                    kgs-/kata-time_settings fill them too (absolute: no byo-yomi)
      kind        -- 'canadian' (time_settings, absolute and canadian), 'byoyomi',
                     'fischer' or 'none'
      periods     -- byoyomi: how many periods
      increment   -- fischer: seconds added after each move
      time_left, stones_left -- from time_left (None if never sent); for byoyomi
                     the stones are the periods left (the kgs-time_settings convention)
    """

    main_time: float = 0.0
    byo_yomi_time: float = 0.0
    byo_yomi_stones: int = 0
    time_left: float | None = None
    stones_left: int = 0
    kind: str = "canadian"
    periods: int = 0
    increment: float = 0.0

    @property
    def left(self) -> float:
        """Seconds left on the clock: time_left's, else (never told) the main time."""
        return self.main_time if self.time_left is None else self.time_left

    def budget(self, empty_points: int, lag: float = LAG) -> float | None:
        """Seconds to spend on the next move, or None if there is no clock; lag is kept back
        for what the search doesn't count (LAG unless measured)."""
        if self.kind == "none":
            return None
        if self.kind == "canadian" and self.byo_yomi_time <= 0 and self.main_time <= 0:
            return None
        if (self.kind == "canadian" and self.byo_yomi_time > 0 and self.byo_yomi_stones == 0
                and self.main_time <= 0):
            return None  # "no time limits" in GTP
        left = self.left
        moves_to_go = max(10.0, empty_points / 2.0)
        if self.kind == "byoyomi":
            # A move within a period never costs one: each move may take most of a period,
            # and main time (while it lasts) is spread over the moves to come.
            period = self.byo_yomi_time
            if self.stones_left > 0:   # in overtime: left is a period
                return max(SMALLEST, SHARE * min(left, period) - lag)
            return max(SMALLEST, SHARE * max(left / moves_to_go, period) - lag)
        if self.kind == "fischer":
            share = left / moves_to_go + SHARE * self.increment
            return max(SMALLEST, min(SHARE * share, left / 2) - lag)
        if self.stones_left > 0:
            return max(SMALLEST, SHARE * left / self.stones_left - lag)
        share = left / moves_to_go
        if self.byo_yomi_stones > 0:
            share += SHARE * self.byo_yomi_time / self.byo_yomi_stones
        return max(SMALLEST, SHARE * share - lag)


def clock_from_settings(words: list[str], *, fischer: bool) -> Clock:
    """The clock kgs-time_settings (fischer false) or kata-time_settings (true) describe.

    words: 'none', 'absolute MAIN', 'canadian MAIN PERIOD STONES', 'byoyomi MAIN
    PERIOD PERIODS', and with fischer 'fischer MAIN INCREMENT' and 'fischer-capped
    MAIN INCREMENT MAINLIMIT MOVELIMIT' (the caps are not kept). Raises ValueError.
    """
    counts = {"none": 0, "absolute": 1, "canadian": 3, "byoyomi": 3}
    if fischer:
        counts.update({"fischer": 2, "fischer-capped": 4})
    if not words or words[0] not in counts:
        raise ValueError(f"unknown time system (one of {', '.join(counts)})")
    kind, args = words[0], words[1:]
    if len(args) != counts[kind]:
        raise ValueError(f"{kind} takes {counts[kind]} numbers")
    numbers = [float(word) for word in args]
    if not all(math.isfinite(n) for n in numbers):
        raise ValueError("time settings must be finite")
    if kind in ("canadian", "byoyomi") and float(int(numbers[2])) != numbers[2]:
        raise ValueError(f"{kind} takes a whole number of {'stones' if kind == 'canadian' else 'periods'}")
    if any(n < 0 for n in numbers[:2]) or (kind in ("canadian", "byoyomi") and numbers[2] < 0):
        raise ValueError("time settings must not be negative")
    if kind == "none":
        return Clock(kind="none")
    if kind == "absolute":
        return Clock(numbers[0])
    if kind == "canadian":
        return Clock(numbers[0], numbers[1], int(numbers[2]))
    if kind == "byoyomi":
        return Clock(numbers[0], numbers[1], kind="byoyomi", periods=int(numbers[2]))
    return Clock(numbers[0], kind="fischer", increment=numbers[1])
