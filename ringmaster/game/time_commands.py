"""The GTP time commands: which one an engine is told its clock by, and their words for each time control."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ringmaster.game.clock import ClockState, TimeControl, time_left
from ringmaster.gtp.controller import BadGtpResponse, GtpController

KATA = "kata-time_settings"
KGS = "kgs-time_settings"
STANDARD = "time_settings"
TIME_LEFT = "time_left"

PREFERENCE = (KATA, KGS, STANDARD)
"""The settings commands in the order an engine is told its clock by the first it lists."""


@dataclass(frozen=True)
class TimeCommands:
    """How one engine is told its clock.

    Public attributes:
      settings  -- KATA, KGS or STANDARD (None: the engine lists none of them; it is
                   timed all the same, and told nothing)
      time_left -- whether it lists time_left (sent before each genmove)
    """

    settings: str | None
    time_left: bool


def choose_time_commands(knows) -> TimeCommands:
    """The time commands to use, given knows(command) -> bool (from list_commands)."""
    settings = next((command for command in PREFERENCE if knows(command)), None)
    return TimeCommands(settings, settings is not None and knows(TIME_LEFT))


def negotiate(controller: GtpController) -> TimeCommands:
    """Ask an engine which time commands it has (list_commands, once per engine).

    Raises GtpChannelError if the engine fails to answer.
    """
    return choose_time_commands(lambda command: lists_command(controller, command))


def lists_command(controller: GtpController, command: str) -> bool:
    """Whether the engine has a command (through its alias, if it has one): from its
    list_commands, asked once per engine, or known_command where list_commands fails.
    Raises GtpChannelError if the engine fails to answer."""
    listed = listed_commands(controller)
    if listed is None:
        return controller.known_command(command)
    return controller.aliases.get(command, command) in listed


def listed_commands(controller: GtpController) -> frozenset[str] | None:
    """The commands an engine's list_commands names (asked once per engine), None if it fails."""
    if controller.listed_commands is None:
        try:
            listed = controller.do_command("list_commands")
        except BadGtpResponse:
            listed = ""
        controller.listed_commands = frozenset(listed.split())
    return controller.listed_commands or None


def _floor(seconds: float) -> int:
    """Rounded down (but for the last digit of a float's error: 0.1 * 3 is 0.3)."""
    return math.floor(seconds + 1e-9)


def _whole(seconds: float) -> int:
    """Whole seconds, rounded down, for a command that wants integers; at least 1 if positive."""
    return max(1, _floor(seconds)) if seconds > 0 else 0


def _real(seconds: float) -> str:
    """Seconds for kata-time_settings, rounded down to the millisecond."""
    return f"{_floor(max(0.0, seconds) * 1000) / 1000:g}"


def settings_command(command: str, control: TimeControl) -> tuple[str, ...]:
    """The settings command (KATA, KGS or STANDARD) that tells an engine the control.

    kata-time_settings says every form as it is, in seconds to the
    millisecond. The others take whole seconds (rounded down, at least 1 where
    the time isn't 0), and forms they can't say are approximated as gtp2ogs
    does: Fischer as main time less one increment, then canadian periods of
    one increment for one stone; per_move as canadian 0 SECONDS 1; and for
    time_settings, byo-yomi as main time with all periods but the last, then
    canadian periods of one period for one stone.
    """
    c = control
    if command == KATA:
        words = {"absolute": ("absolute", _real(c.main)),
                 "canadian": ("canadian", _real(c.main), _real(c.period), str(c.stones)),
                 "per_move": ("canadian", "0", _real(c.period), "1"),
                 "byoyomi": ("byoyomi", _real(c.main), _real(c.period), str(c.periods)),
                 "fischer": ("fischer", _real(c.main), _real(c.increment))}[c.kind]
        return (KATA, *words)
    main, period, stones = standard_settings(c)
    if command == KGS:
        if c.kind == "byoyomi":
            return (KGS, "byoyomi", str(_whole(c.main)), str(_whole(c.period)), str(c.periods))
        if stones == 0:
            return (KGS, "absolute", str(main))
        return (KGS, "canadian", str(main), str(period), str(stones))
    return (STANDARD, str(main), str(period), str(stones))


def standard_settings(control: TimeControl) -> tuple[int, int, int]:
    """(main, byo-yomi time, byo-yomi stones) for time_settings (see settings_command)."""
    c = control
    if c.kind == "absolute" or (c.kind == "fischer" and c.increment == 0):
        return _whole(c.main), 0, 0
    if c.kind == "fischer":
        return _whole(max(0.0, c.main - c.increment)), _whole(c.increment), 1
    if c.kind == "byoyomi":
        return _whole(c.main + (c.periods - 1) * c.period), _whole(c.period), 1
    return _whole(c.main), _whole(c.period), c.stones


def time_left_command(command: str, control: TimeControl, state: ClockState,
                      colour: str) -> tuple[str, ...]:
    """time_left for colour, as an engine told the control by command understands it.

    Main time: its seconds, stones 0; in a period: its time and its stones
    (byo-yomi told by KGS or KATA: the periods left). Never '0 0' where main
    time gives way to overtime: the full first period instead. Whole seconds
    (rounded down) except for KATA.
    """
    if command == KATA:
        seconds, stones = time_left(control, state)
        return (TIME_LEFT, colour, _real(seconds), str(stones))
    seconds, stones = _told_left(command, control, state)
    if stones == 0 and _floor(seconds) <= 0 and _told_has_overtime(command, control):
        _, period, stones = standard_settings(control)
        if command == KGS and control.kind == "byoyomi":
            period, stones = _whole(control.period), state.periods_left or control.periods
        return (TIME_LEFT, colour, str(period), str(stones))
    return (TIME_LEFT, colour, str(_floor(max(0.0, seconds))), str(stones))


def _told_has_overtime(command: str, control: TimeControl) -> bool:
    return standard_settings(control)[2] > 0 or (command == KGS and control.kind == "byoyomi")


def _told_left(command: str, control: TimeControl, state: ClockState) -> tuple[float, int]:
    """(seconds, stones) for an engine told the control by KGS or STANDARD, before rounding."""
    if control.kind == "fischer" and control.increment > 0:
        # Told main time less one increment, then periods of one increment for one stone.
        over = state.main_left - control.increment
        return (over, 0) if over >= 1 else (state.main_left, 1)
    if control.kind == "byoyomi" and command == STANDARD:
        # Told main time with every period but the last, then one period for one stone.
        periods = state.periods_left if state.in_overtime else control.periods
        seconds = state.main_left + (periods - 1) * control.period
        return (seconds, 0) if seconds >= 1 else (control.period, 1)
    return time_left(control, state)
