"""The ringmaster's errors: one base class, a subclass per kind of failure, each with its exit code."""

from __future__ import annotations

import os
import re
import traceback
from collections.abc import Callable
from typing import Any

# The command line's exit codes (docs/running.md, 'Exit codes'); each error class carries its own.
EXIT_OK = 0
EXIT_USER_ERROR = 1        # a bad control file, state file or command
EXIT_USAGE = 2             # the command line itself is wrong (click's own code)
EXIT_INTERRUPTED = 3       # Ctrl-C, SIGTERM, SIGHUP, or standard output closed
EXIT_INTERNAL_ERROR = 4    # a bug in ringmaster: a traceback is shown
EXIT_CHECKS_FAILED = 5     # a player failed its start-up check
EXIT_HALTED = 6            # the run stopped because of too many void games


class RingmasterError(Exception):
    """A problem the user can fix; shown as one line, never as a traceback.

    Public attributes:
      exit_code -- the command line's exit status for this kind of error
    """

    exit_code = EXIT_USER_ERROR


class ControlFileError(RingmasterError):
    """The control file is missing, can't be parsed, or has a bad setting.

    Public attributes:
      setting -- the top-level setting the problem is in, if known
      line    -- the control file's line the problem is on, if known
      located -- the message already names the file and line ('error in control file ...')
    """

    def __init__(self, message: str, line: int | None = None, *,
                 setting: str | None = None, located: bool = False) -> None:
        super().__init__(message)
        self.line = line
        self.setting = setting
        self.located = located


class CompetitionError(RingmasterError):
    """The competition's state can't be used with the control file."""


class CallbackError(CompetitionError):
    """A function of the control file's (make_candidate, a scale) failed when the ringmaster called it.

    Public attributes:
      line -- the control file's line the message names, or None
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def callback_error(call: str, reason: str, where: tuple[str, int] | None) -> CallbackError:
    """'error in control file x.ctl line 12, in make_candidate(c=0.9): ValueError: boom' for where
    (path, line), or 'error from make_candidate(c=0.9): ...' for a function that isn't the file's."""
    if where is None:
        return CallbackError(f"error from {call}: {reason}")
    path, line = where
    return CallbackError(f"error in control file {os.path.basename(path)} line {line}, in {call}: {reason}",
                         line)


def raised_in_control_file(exc: BaseException) -> tuple[str, int] | None:
    """(path, line) where exc was raised in a control file: the deepest frame of its traceback
    running the control file's code (its own functions included); None if there is none."""
    found = None
    for frame, line in traceback.walk_tb(exc.__traceback__):
        if frame.f_globals.get("__ringmaster_control_file__"):
            found = (frame.f_code.co_filename, line)
    return found


def defined_in_control_file(function: Callable[..., Any]) -> tuple[str, int] | None:
    """(path, line) of a control file's def of function; None for a function defined elsewhere."""
    code = getattr(function, "__code__", None)
    namespace = getattr(function, "__globals__", None) or {}
    if code is None or not namespace.get("__ringmaster_control_file__"):
        return None
    return code.co_filename, code.co_firstlineno


class StateFileError(RingmasterError):
    """The state file is unreadable, corrupt or from an incompatible version."""


class StateFileDamaged(StateFileError):
    """The state file or its journal is damaged (corrupt, malformed, missing), so that the games
    it counted can't be read back: the ringmaster says what to do (restore it, or reset)."""


class GomillStateFile(StateFileError):
    """The state file is a Gomill pickle, which the ringmaster can't read: it says what to do
    (finish the event with Gomill, or reset)."""


class StorageError(RingmasterError):
    """A file couldn't be written or removed (disk full, read-only directory...); nothing was lost."""


class LockError(RingmasterError):
    """Another run holds the competition's lock."""


class NotRunning(RingmasterError):
    """A command that acts on a run going on (stop) found none: nothing was done."""


class UsageError(RingmasterError):
    """The command line itself is wrong."""

    exit_code = EXIT_USAGE


class RunInterrupted(RingmasterError):
    """The run was interrupted (Ctrl-C, SIGTERM, SIGHUP, its output closed); games in progress
    will be replayed."""

    exit_code = EXIT_INTERRUPTED


START_FAILED = "error starting subprocess for "
"""The start of the error of an engine whose program couldn't be started (it wrote no stderr)."""


def failed_check_message(code: str, error: str) -> str:
    """'player X failed startup check: ...', as StartupCheckFailed counts it (_FAILED_PLAYER)."""
    return f"player {code} failed startup check: {error}"


_FAILED_PLAYER = re.compile(r"player (\S+) failed startup check: ")


class StartupCheckFailed(RingmasterError):
    """A player failed its start-up check.

    Public attributes:
      failures -- one 'player X failed startup check: ...' line per failing player
    """

    exit_code = EXIT_CHECKS_FAILED

    def __init__(self, failures: list[str], stderr_shown: bool = False) -> None:
        """stderr_shown: the engines' stderr went to the terminal (the check command), so the
        message doesn't send the user to the check command for it; nor does it when no
        failing engine started (a program not found: it wrote no stderr)."""
        # A player failing on several Dask workers has a line for each: count players.
        players = {match.group(1) for line in failures if (match := _FAILED_PLAYER.search(line))}
        count = len(players) or len(failures)
        started = any(START_FAILED not in line for line in failures)
        hint = " (use the 'check' command to see stderr output)" \
            if started and not stderr_shown else ""
        super().__init__(f"{count} player{'s' if count != 1 else ''} failed the startup check{hint}")
        self.failures = list(failures)


class RunHalted(RingmasterError):
    """The run stopped early because of void games (the state is saved)."""

    exit_code = EXIT_HALTED


class ClusterUnavailable(RingmasterError):
    """Dask isn't installed, or the scheduler can't be reached at the start."""


class ClusterLost(RingmasterError):
    """The scheduler went away during the run; the state is saved and the run can be resumed."""

    exit_code = EXIT_INTERRUPTED


class Interrupt(KeyboardInterrupt):
    """Raised by our handlers of SIGINT, SIGTERM and SIGHUP (a control file's own KeyboardInterrupt
    isn't one)."""


class OutputClosed(Interrupt):
    """Standard output can't be written any more (`run x.ctl | head -2`): the run stops as after
    Ctrl-C. The message says why: 'standard output was closed (Broken pipe)'."""


def describe_user_exception(exc: BaseException) -> str:
    """What a control file's code raised, for a one-line error.

    'ValueError: bad value'; 'KeyboardInterrupt' when there is no message (or
    its __str__ fails); a message of several lines joined with ' / ';
    'it called sys.exit(0)' for SystemExit (a control file only defines settings).
    """
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r}); a control file only defines settings"
    message = " / ".join(line.strip() for line in _exception_text(exc).splitlines() if line.strip())
    name = _type_name(exc)
    return f"{name}: {message}" if message else name


def _type_name(exc: BaseException) -> str:
    """The exception's class name, read past a metaclass that overrides or breaks __name__."""
    return type.__dict__["__name__"].__get__(type(exc))


def _exception_text(exc: BaseException) -> str:
    """str(exc), or '' when the control file's own __str__ raises."""
    try:
        return str(exc)
    except Interrupt:
        raise
    except BaseException:  # noqa: BLE001 (user code may raise anything)
        return ""


class JobFailed(Exception):
    """A game could not be played (a void game); the message says why."""


class InternalError(Exception):
    """A bug in the ringmaster that raised away from this process's traceback (in a game's job,
    on a worker): not a RingmasterError, so the command line shows the traceback it carries and
    exits with EXIT_INTERNAL_ERROR.

    Public attributes:
      traceback -- where the bug raised, as traceback.format_exc() gives it
    """

    exit_code = EXIT_INTERNAL_ERROR

    def __init__(self, message: str, traceback_text: str) -> None:
        super().__init__(message)
        self.traceback = traceback_text
