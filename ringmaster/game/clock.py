"""Time controls and their arithmetic: periods and increments, what is left, when a side has lost."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

FORMS = ("'absolute MAIN', 'canadian MAIN PERIOD STONES', 'byoyomi MAIN PERIOD PERIODS', "
         "'fischer MAIN INCREMENT', 'per_move SECONDS' or 'none' (seconds as numbers)")
"""The forms a time_control setting takes, for error messages."""

DEFAULT_TIME_MARGIN = 0.25
"""Seconds an engine may overrun its clock before it loses on time (see docs/control-files.md)."""

NONE = "none"


@dataclass(frozen=True)
class TimeControl:
    """One side's time control.

    Public attributes:
      kind      -- 'absolute', 'canadian', 'byoyomi', 'fischer' or 'per_move'
      main      -- main time (fischer: the time the clock starts with)
      period    -- an overtime period (canadian, byoyomi), or per_move's seconds a move
      stones    -- canadian: stones to play in each period (per_move: 1)
      periods   -- byoyomi: how many periods
      increment -- fischer: seconds added after each move
    """

    kind: str
    main: float = 0.0
    period: float = 0.0
    stones: int = 0
    periods: int = 0
    increment: float = 0.0

    @property
    def is_canadian(self) -> bool:
        """Canadian overtime: periods of so many stones (per_move is canadian 0 SECONDS 1)."""
        return self.kind in ("canadian", "per_move")

    @property
    def has_overtime(self) -> bool:
        return self.kind in ("canadian", "per_move", "byoyomi")

    def describe(self) -> str:
        """The setting's own words: 'byoyomi 60 10 5'."""
        numbers = {"absolute": (self.main,), "canadian": (self.main, self.period, self.stones),
                   "byoyomi": (self.main, self.period, self.periods),
                   "fischer": (self.main, self.increment), "per_move": (self.period,)}[self.kind]
        return " ".join([self.kind] + [f"{n:g}" for n in numbers])


@dataclass(frozen=True)
class ClockState:
    """What is left on one side's clock between moves.

    Public attributes:
      main_left    -- main time left (fischer: all the time left)
      in_overtime  -- main time is over and the side plays in periods
      period_left  -- canadian: time left in the current period (0 before overtime)
      stones_left  -- canadian: stones still to play in the current period
      periods_left -- byoyomi: periods left
    """

    main_left: float
    in_overtime: bool = False
    period_left: float = 0.0
    stones_left: int = 0
    periods_left: int = 0


def _number(word: str, what: str, *, positive: bool, integer: bool = False) -> float:
    try:
        value = int(word) if integer else float(word)
    except ValueError:
        raise ValueError(f"{what} is {word!r}, not {'a whole number' if integer else 'a number'}") \
            from None
    if not math.isfinite(value):
        raise ValueError(f"{what} must be finite")
    if value < 0 or (positive and value == 0):
        raise ValueError(f"{what} must be {'positive' if positive else 'zero or more'}")
    return value


_ARGUMENTS = {
    "absolute": ("MAIN",), "canadian": ("MAIN", "PERIOD", "STONES"),
    "byoyomi": ("MAIN", "PERIOD", "PERIODS"), "fischer": ("MAIN", "INCREMENT"),
    "per_move": ("SECONDS",),
}


def parse_time_control(text: Any) -> TimeControl | None:
    """The time control a setting names ('absolute 60'), or None for 'none'.

    Raises ValueError saying what is wrong, and the forms (FORMS).
    """
    if not isinstance(text, str):
        raise ValueError(f"must be a string: one of {FORMS}")
    words = text.split()
    if words == [NONE]:
        return None
    if not words or words[0] not in _ARGUMENTS:
        raise ValueError(f"{text!r} is not a time control: use {FORMS}")
    kind, args = words[0], words[1:]
    names = _ARGUMENTS[kind]
    if len(args) != len(names):
        raise ValueError(f"{text!r}: {kind} takes {' '.join(names)}: use {FORMS}")
    try:
        if kind == "absolute":
            return TimeControl(kind, main=_number(args[0], "MAIN", positive=True))
        if kind == "fischer":
            return TimeControl(kind, main=_number(args[0], "MAIN", positive=True),
                               increment=_number(args[1], "INCREMENT", positive=False))
        if kind == "per_move":
            return TimeControl(kind, period=_number(args[0], "SECONDS", positive=True), stones=1)
        main = _number(args[0], "MAIN", positive=False)
        period = _number(args[1], "PERIOD", positive=True)
        count = int(_number(args[2], names[2], positive=True, integer=True))
    except ValueError as exc:
        raise ValueError(f"{text!r}: {exc}; use {FORMS}") from None
    if kind == "canadian":
        return TimeControl(kind, main=main, period=period, stones=count)
    return TimeControl(kind, main=main, period=period, periods=count)


def canonical_time_control(text: Any) -> str:
    """A time_control setting checked and in its own words ('absolute 60'; 'none').

    Raises ValueError as parse_time_control does.
    """
    control = parse_time_control(text)
    return NONE if control is None else control.describe()


def start(control: TimeControl) -> ClockState:
    """The clock at the start of a game: full main time (per_move starts in its periods)."""
    if control.kind == "per_move":
        return ClockState(0.0, True, control.period, control.stones)
    return ClockState(control.main)


def available(control: TimeControl, state: ClockState) -> float:
    """Seconds the side may take over its next move before it is over time (the margin aside)."""
    if control.is_canadian:
        return state.period_left if state.in_overtime else state.main_left + control.period
    if control.kind == "byoyomi":
        periods = state.periods_left if state.in_overtime else control.periods
        return state.main_left + periods * control.period
    return state.main_left


def after_move(control: TimeControl, state: ClockState, elapsed: float,
               margin: float) -> ClockState | None:
    """The clock after a move that took elapsed seconds; None if the side lost on time.

    A side loses when the move took more than available() + margin. A move
    over time by no more than the margin stands, and leaves nothing of what it
    overran (the main time, or the period, is 0). A canadian period starts
    afresh, full, once its stones are played; a move that finishes main time
    and goes on counts as the first stone of the first period. A byo-yomi
    period is kept by a move within it, and each period a move overruns is
    lost. Fischer adds the increment after each move in time.
    """
    if elapsed > available(control, state) + margin:
        return None
    if control.kind in ("absolute", "fischer"):
        left = max(0.0, state.main_left - elapsed)
        return replace(state, main_left=left + control.increment)
    if not state.in_overtime:
        if elapsed <= state.main_left:
            return replace(state, main_left=state.main_left - elapsed)
        elapsed -= state.main_left
        state = ClockState(0.0, True, control.period, control.stones, control.periods)
    if control.is_canadian:
        stones = state.stones_left - 1
        if stones <= 0:
            return replace(state, period_left=control.period, stones_left=control.stones)
        return replace(state, period_left=max(0.0, state.period_left - elapsed), stones_left=stones)
    lost_periods = max(0, math.ceil(elapsed / control.period) - 1)
    return replace(state, periods_left=max(1, state.periods_left - lost_periods))


def time_left(control: TimeControl, state: ClockState) -> tuple[float, int]:
    """(seconds, stones) as GTP's time_left says them, for an engine told the control as it is.

    Main time: its seconds, stones 0. Canadian overtime: the period's time
    and its stones left; byo-yomi overtime: a period's time and the periods
    left (the kgs-time_settings convention). Once main time is spent, the
    first period with its stones or periods: never '0 0' at the end of main
    time.
    """
    if control.has_overtime and (state.in_overtime or state.main_left <= 0):
        if control.kind == "byoyomi":
            return control.period, state.periods_left if state.in_overtime else control.periods
        if state.in_overtime:
            return state.period_left, state.stones_left
        return control.period, control.stones
    return state.main_left, 0


def sgf_time_left(control: TimeControl, state: ClockState) -> tuple[float, int | None]:
    """What SGF's BL/WL and OB/OW record after a move: seconds left, and in overtime the
    stones (canadian) or periods (byo-yomi) left, else None."""
    if control.has_overtime and state.in_overtime:
        seconds, count = time_left(control, state)
        return seconds, count
    return state.main_left, None


def sgf_overtime(control: TimeControl) -> str | None:
    """SGF's OT text for the control's overtime, or None if it has none."""
    if control.is_canadian:
        return f"{control.stones}/{control.period:g} Canadian"
    if control.kind == "byoyomi":
        return f"{control.periods}x{control.period:g} byo-yomi"
    if control.kind == "fischer":
        return f"{control.increment:g} fischer"
    return None


def sgf_main_time(control: TimeControl) -> float:
    """SGF's TM: the main time (0 for per_move)."""
    return 0.0 if control.kind == "per_move" else control.main
