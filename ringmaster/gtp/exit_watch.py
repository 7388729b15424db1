"""Whether an engine process has exited, told without reaping it: a pidfd to poll, or a check."""

from __future__ import annotations

import os

EXIT_CHECK_SECONDS = 0.5
"""Where there are no pidfds (before Linux 5.3): the longest a wait goes between checks."""


class ExitWatch:
    """An engine process's exit, watched from the process that started it.

    fd is a pidfd (readable once the process has exited), or None where the
    system has none: then has_exited() is checked between waits of at most
    EXIT_CHECK_SECONDS. Neither reaps the process, so close() can still wait4
    it for its CPU time.
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.fd: int | None
        try:
            self.fd = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.fd = None

    def has_exited(self) -> bool:
        """Whether the process has exited (a zombie, or reaped since)."""
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True   # reaped already
        except OSError:
            return False

    def close(self) -> None:
        """Close the pidfd (has_exited() still works)."""
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None
