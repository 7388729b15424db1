"""How an engine process is started so that it dies with the process that started it."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
from collections.abc import Callable

# The engine side's contract with the ringmaster. An engine the control file allows
# (Player(..., shared_services=True)) is started with the run's token in
# SERVICE_TOKEN_VARIABLE; a process it starts with SHARED_SERVICE_VARIABLE set to that
# token is a shared service (our inference server), which ends by itself when its last
# client has gone, and which the ringmaster's reaper leaves running. Other engines get
# no token, so no engine can exempt a process of its own.
SHARED_SERVICE_VARIABLE = "RINGMASTER_SHARED_SERVICE"
SERVICE_TOKEN_VARIABLE = "RINGMASTER_SERVICE_TOKEN"

# Files the kernel runs itself: an ELF binary, or a script naming its interpreter.
_EXECUTABLE_MAGIC = (b"\x7fELF", b"#!")

_setpriv: str | None | bool = False   # False: not looked for yet


def set_parent_death_signal() -> None:
    """In a child process: be killed when the process that started it dies (Linux only)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def setpriv_path() -> str | None:
    """util-linux's setpriv if it has --pdeathsig (looked for once a process), else None."""
    global _setpriv
    if _setpriv is False:
        found = shutil.which("setpriv", path=os.defpath + ":/usr/bin:/bin")
        _setpriv = found if found and _has_pdeathsig(found) else None
    return _setpriv if isinstance(_setpriv, str) else None


def _has_pdeathsig(setpriv: str) -> bool:
    try:
        run = subprocess.run([setpriv, "--pdeathsig", "KILL", "--", "/bin/true"],
                             capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return run.returncode == 0


def resolve_executable(program: str, cwd: str | None, env: dict[str, str] | None) -> str | None:
    """The absolute path the kernel would run for program, as subprocess.Popen finds it
    (a name with a slash is relative to cwd; a bare name is looked up on env's PATH),
    if that file is executable and begins as an ELF binary or a '#!' script; else None."""
    if "/" in program:
        candidates = [program]
    else:
        candidates = [os.path.join(directory, program) for directory in os.get_exec_path(env)]
    for candidate in candidates:
        candidate = os.path.join(cwd or os.getcwd(), candidate)   # kept if already absolute
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            try:
                with open(candidate, "rb") as f:
                    start = f.read(4)
            except OSError:
                return None
            return os.path.abspath(candidate) if start.startswith(_EXECUTABLE_MAGIC) else None
    return None


def launch_plan(command: list[str], cwd: str | None, env: dict[str, str] | None
                ) -> tuple[list[str], Callable[[], None] | None]:
    """The argv and preexec_fn that start command with the parent-death signal set.

    Through setpriv when there is one and the program is a file the kernel runs
    itself: subprocess then needs no preexec_fn, so it can use vfork instead of
    copying this process (2.2 ms less an engine, bench/bench_ringmaster.py);
    the engine's argv[0] is then its absolute path. Otherwise the signal is set
    by a preexec_fn in the forked child. Either way no shell is involved:
    setpriv is only given a file that can't fall back to /bin/sh.
    """
    setpriv = setpriv_path()
    if setpriv is not None and command:
        program = resolve_executable(command[0], cwd, env)
        if program is not None:
            return [setpriv, "--pdeathsig", "KILL", "--", program, *command[1:]], None
    return command, set_parent_death_signal


GAMES_DIRECTORIES = ("/usr/games", "/usr/local/games")


def engine_start_error(command: list[str], exc: OSError,
                       games_directories: tuple[str, ...] = GAMES_DIRECTORIES,
                       hint: str | None = None) -> str:
    """A one-line message for an engine that couldn't be started, naming the program.

    hint (the player's missing_hint: how to get or name the program) is given
    in brackets whatever the reason, in place of our own advice: a bare name
    that isn't on PATH but is in a games directory (where Debian puts GNU Go,
    not on root's PATH) gets a hint with its full path, another one not found
    'give the full path, or check PATH'.
    """
    program = command[0] if command else ""
    reason = exc.strerror or str(exc)
    message = f"can't run {program!r}: {reason}"
    if hint is not None:
        return f"{message} ({hint})"
    if isinstance(exc, FileNotFoundError) and os.sep not in program:
        for directory in games_directories:
            if os.access(os.path.join(directory, program), os.X_OK):
                message += (f" (it isn't on PATH, but {directory}/{program} exists: "
                            f"give the full path)")
                break
        else:
            message += " (give the full path, or check PATH)"
    return message
