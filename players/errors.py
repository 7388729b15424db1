"""The errors a user can act on: one line naming the setting or file, and an exit status per kind.

Each `python -m players NAME` command catches only PlayersError; anything else
(a bug) ends the command with Python's traceback and exit status 1.
docs/engines.md ('Exit statuses') lists the statuses.
"""

from __future__ import annotations

import argparse
import math
import sys

EXIT_MISSING_PACKAGE = 1   # a package of the engines extra (torch, numba) isn't installed
EXIT_USAGE = 2             # a bad option or setting (argparse's own status)
EXIT_CHECKPOINT = 3        # a network checkpoint (--model) that can't be used
EXIT_RUN_DIR = 4           # a training run's directory that can't be used or resumed
EXIT_SERVER = 5            # the shared inference server couldn't be reached


class PlayersError(Exception):
    """A problem the user can fix; a command shows it as one line, never as a traceback.

    Public attributes:
      exit_code -- the command's exit status for this kind of error
    """

    exit_code = EXIT_USAGE


class UsageError(PlayersError, ValueError):
    """A bad option or setting, or a combination of them the command refuses."""

    exit_code = EXIT_USAGE


class CheckpointError(PlayersError, ValueError):
    """A file that isn't a network checkpoint the command can use; the message names the file."""

    exit_code = EXIT_CHECKPOINT


class RunDirError(PlayersError, ValueError):
    """A training run's directory, or one of its files, that is missing, corrupt or not a run's."""

    exit_code = EXIT_RUN_DIR


class ServerError(PlayersError, RuntimeError):
    """The shared inference server couldn't be reached or started."""

    exit_code = EXIT_SERVER


def refuse(command: str, error: PlayersError) -> int:
    """Print error as command's one line on stderr; return its exit status."""
    print(f"{command}: {error}", file=sys.stderr)
    return error.exit_code


def nonfinite_refusal(parser: argparse.ArgumentParser, options: argparse.Namespace) -> str | None:
    """'--NAME must be a finite number, not nan' for the first float option given nan or inf, or None
    (float() takes 'nan' and 'inf', which no search constant or budget means)."""
    for action in parser._actions:
        value = getattr(options, action.dest, None)
        if action.type is float and isinstance(value, float) and not math.isfinite(value):
            return f"{max(action.option_strings, key=len)} must be a finite number, not {value}"
    return None
