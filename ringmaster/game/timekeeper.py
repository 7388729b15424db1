"""A game's clocks: what each engine is told, the time each move is charged, losses on time, time used."""

from __future__ import annotations

from dataclasses import dataclass, field
from time import monotonic

from ringmaster.game.clock import (
    ClockState,
    TimeControl,
    after_move,
    available,
    sgf_time_left,
    start,
)
from ringmaster.game.time_commands import TimeCommands, negotiate, settings_command, time_left_command
from ringmaster.gtp.controller import BadGtpResponse, GtpController

DEADLINE_GRACE = 2.0
"""Seconds past an engine's time left and margin after which a genmove with no answer is
given up: the engine is killed and loses on time (see docs/control-files.md)."""

LOST_ON_TIME = "lost on time"
"""The start of the detail of a game lost on time ('lost on time by p1: ...')."""


@dataclass
class ClockUse:
    """One side's use of its clock in a game.

    Public attributes:
      moves   -- moves timed
      total   -- seconds charged, all moves
      longest -- seconds charged for its longest move
      left    -- seconds it could still have taken over its next move (the margin aside)
    """

    moves: int = 0
    total: float = 0.0
    longest: float = 0.0
    left: float = 0.0
    move_times: list[float] = field(default_factory=list)


class GameClock:
    """Both sides' clocks in one game (a side with no time control isn't timed).

    The referee asks before_genmove() for the commands to send with each
    genmove, deadline() for how long to wait for its answer, and charge()s
    the time from writing the genmove to reading its whole answer.

    Public attributes:
      controls -- {colour: TimeControl, or None for a side without a clock}
      margin   -- seconds a move may overrun before its side loses on time
      use      -- {colour: ClockUse} of the timed sides
      warnings -- lines for the run's log (failure responses to time commands)
    """

    def __init__(self, controls: dict[str, TimeControl | None], codes: dict[str, str],
                 margin: float, grace: float = DEADLINE_GRACE) -> None:
        self.controls = controls
        self.codes = codes
        self.margin = margin
        self.grace = grace
        self.states: dict[str, ClockState] = {c: start(control) for c, control in controls.items()
                                              if control is not None}
        self.commands: dict[str, TimeCommands] = {}
        self.use = {c: ClockUse(left=available(controls[c], state))
                    for c, state in self.states.items()}
        self.warnings: list[str] = []

    @staticmethod
    def now() -> float:
        """Monotonic seconds, from which each move's time is measured."""
        return monotonic()

    def is_timed(self, colour: str) -> bool:
        return colour in self.states

    def settings_commands(self, controllers: dict[str, GtpController]) -> dict[str, list[tuple[str, ...]]]:
        """Find out each timed engine's time commands; {colour: the settings command to send
        after the game's set-up}. Raises GtpChannelError if an engine fails to answer."""
        commands: dict[str, list[tuple[str, ...]]] = {}
        for colour, control in self.controls.items():
            if control is None:
                continue
            told = self.commands[colour] = negotiate(controllers[colour])
            commands[colour] = [] if told.settings is None else [settings_command(told.settings, control)]
        return commands

    def note_failures(self, colour: str, controller: GtpController, responses: list) -> None:
        """Log a failure response to a time command, once per engine (not a forfeit)."""
        for response in responses:
            if isinstance(response, BadGtpResponse) and response.command not in controller.warned:
                controller.warned.add(response.command)
                self.warnings.append(f"{response} (the engine is timed all the same; "
                                     "said once per engine)")

    def before_genmove(self, colour: str) -> list[tuple[str, ...]]:
        """The commands to send in the same write as colour's genmove: its time_left, if it has one."""
        told = self.commands.get(colour)
        if told is None or not told.time_left:
            return []
        return [time_left_command(told.settings, self.controls[colour], self.states[colour], colour)]

    def deadline(self, colour: str, started: float) -> float | None:
        """When to give up waiting for colour's genmove written at started (monotonic seconds);
        None if colour isn't timed."""
        state = self.states.get(colour)
        if state is None:
            return None
        return started + available(self.controls[colour], state) + self.margin + self.grace

    def charge(self, colour: str, elapsed: float) -> str | None:
        """Charge colour's move elapsed seconds; the reason if it lost on time, else None."""
        state = self.states.get(colour)
        if state is None:
            return None
        control = self.controls[colour]
        left = available(control, state)
        use = self.use[colour]
        use.moves += 1
        use.total += elapsed
        use.longest = max(use.longest, elapsed)
        use.move_times.append(elapsed)
        after = after_move(control, state, elapsed, self.margin)
        if after is None:
            use.left = 0.0
            return (f"{LOST_ON_TIME} by {self.codes[colour]}: took {elapsed:.2f}s with "
                    f"{left:.2f}s left (margin {self.margin:g}s)")
        self.states[colour] = after
        use.left = available(control, after)
        return None

    def ran_out(self, colour: str) -> str:
        """The reason colour lost on time when its genmove had no answer by the deadline; the
        move counts as taking all the deadline allowed."""
        left = available(self.controls[colour], self.states[colour])
        waited = left + self.margin + self.grace
        use = self.use[colour]
        use.moves += 1
        use.total += waited
        use.longest = max(use.longest, waited)
        use.move_times.append(waited)
        use.left = 0.0
        return (f"{LOST_ON_TIME} by {self.codes[colour]}: no answer within {left:.2f}s left, "
                f"margin {self.margin:g}s and grace {self.grace:g}s (the engine was killed)")

    def sgf_mark(self, colour: str) -> tuple[float, int | None] | None:
        """What SGF records of colour's clock after its move: (BL/WL, OB/OW or None); None if untimed."""
        state = self.states.get(colour)
        if state is None:
            return None
        return sgf_time_left(self.controls[colour], state)
