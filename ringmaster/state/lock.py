"""The competition's lock: held by one run at a time, dropped by the system when its process dies."""

from __future__ import annotations

import fcntl

from ringmaster.errors import LockError
from ringmaster.files import storage_error


class CompetitionLock:
    """An exclusive lock on a competition, held while a run is going on.

    The operating system drops it when the process dies, however it dies.
    """

    def __init__(self, pathname: str) -> None:
        self.pathname = pathname
        self._file = None

    def acquire(self) -> None:
        """Raises LockError if another process holds the lock, StorageError if it can't be made."""
        try:
            f = open(self.pathname, "a")
        except OSError as exc:
            raise storage_error(exc, self.pathname, "open") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise LockError("competition is already running") from None
        self._file = f

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None

    def is_held_elsewhere(self) -> bool:
        """Whether another process holds the lock (needs only read access to the file)."""
        try:
            f = open(self.pathname, "rb")
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise storage_error(exc, self.pathname, "open") from None
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            f.close()
        return False
