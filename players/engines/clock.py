"""A GTP clock: what the time commands said, what is left, and the seconds to spend on the next move."""

from __future__ import annotations

import math
from dataclasses import dataclass

LAG = 0.1
"""Seconds kept back from every budget for what the search doesn't count (the answer's
way back to the controller, choosing the move, a late time check)."""

SHARE = 0.9
"""The part of a move's share of the clock the search may use."""

SMALLEST = 0.05
"""The least budget: a move always gets a little search (absolute time: while what is left
pays for it, move after move)."""

LEAST_SEARCH = 0.001
"""Absolute time with (almost) nothing left: the search's budget (it still runs a moment)."""


@dataclass
class Clock:
    """One colour's clock: what the controller told us of it, and our own account of what is left.

    GTP doesn't oblige a controller to send time_left, so the clock keeps its own
    account: restart() fills it at the start of a game, spend() charges it with
    each of our genmoves as the time system does (main time, then the periods;
    Fischer's increment after each move), and a time_left from the controller
    replaces it (the controller's clock is the one that counts).

    Public attributes:
      main_time, byo_yomi_time, byo_yomi_stones -- as time_settings says them (seconds);
                    kgs-/kata-time_settings fill them too (absolute: no byo-yomi)
      kind        -- 'canadian' (time_settings, absolute and canadian), 'byoyomi',
                     'fischer' or 'none'
      periods     -- byoyomi: how many periods
      increment   -- fischer: seconds added after each move
      time_left, stones_left -- what is left, as time_left says it: the last time_left,
                     less what our genmoves spent since (None: neither told nor started);
                     told: the controller's time_left since our last move, not our account;
                     stones 0 in main time, else the period's stones left, and for byoyomi
                     the periods left (the kgs-time_settings convention)
    """

    main_time: float = 0.0
    byo_yomi_time: float = 0.0
    byo_yomi_stones: int = 0
    time_left: float | None = None
    stones_left: int = 0
    kind: str = "canadian"
    periods: int = 0
    increment: float = 0.0
    told: bool = False   # time_left came from the controller since our last move (not our account)

    @property
    def left(self) -> float:
        """Seconds left on the clock: time_left's, else (never told) the main time."""
        return self.main_time if self.time_left is None else self.time_left

    @property
    def has_overtime(self) -> bool:
        """Whether periods follow the main time (canadian with stones, or byoyomi)."""
        if self.kind == "byoyomi":
            return self.byo_yomi_time > 0 and self.periods > 0
        return self.kind == "canadian" and self.byo_yomi_time > 0 and self.byo_yomi_stones > 0

    def _first_period(self) -> None:
        self.time_left = self.byo_yomi_time
        self.stones_left = self.periods if self.kind == "byoyomi" else self.byo_yomi_stones

    def restart(self) -> None:
        """A new game: all the main time left, or the first period where there is none."""
        self.time_left, self.stones_left = self.main_time, 0
        if self.main_time <= 0 and self.has_overtime:
            self._first_period()

    def spend(self, seconds: float) -> None:
        """Charge one of our moves, which took seconds, as the time system does (as the
        ringmaster's clock does: a move that finishes main time and goes on is a period's
        first stone; a byo-yomi period is kept by a move within it, and each one overrun is
        lost, though never the last; Fischer adds its increment). Never below 0."""
        self.told = False
        if self.kind == "none":
            return
        if self.time_left is None:
            self.restart()
        assert self.time_left is not None
        if self.kind == "fischer":
            self.time_left = max(0.0, self.time_left - seconds) + self.increment
            return
        if self.stones_left <= 0:                      # main time
            if seconds < self.time_left or not self.has_overtime:
                self.time_left = max(0.0, self.time_left - seconds)
                return
            seconds -= self.time_left
            self._first_period()                        # GTP's time_left never says '0 0' here
        if self.kind == "byoyomi":
            lost = max(0, math.ceil(seconds / self.byo_yomi_time) - 1)
            self.stones_left = max(1, self.stones_left - lost)
            self.time_left = self.byo_yomi_time
            return
        self.stones_left -= 1
        if self.stones_left <= 0:
            self._first_period()
        else:
            self.time_left = max(0.0, self.time_left - seconds)

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
        # Absolute time: no floor that what is left can't pay for, move after move.
        return max(LEAST_SEARCH, min(SMALLEST, SHARE * share), SHARE * share - lag)


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
