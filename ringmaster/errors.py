"""The ringmaster's error hierarchy: one base class, one subclass per kind of failure."""

from __future__ import annotations


class RingmasterError(Exception):
    """A problem the user can fix; shown as one line, never as a traceback."""


class ControlFileError(RingmasterError):
    """The control file is missing, can't be parsed, or has a bad setting.

    Public attributes:
      line -- the control file's line the problem is on, if known
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class CompetitionError(RingmasterError):
    """The competition's state can't be used with the control file."""


class StateFileError(RingmasterError):
    """The state file is unreadable, corrupt or from an incompatible version."""


class JobFailed(Exception):
    """A game could not be played (a void game); the message says why."""
