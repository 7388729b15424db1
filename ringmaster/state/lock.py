"""The competition's lock: held by one run at a time, dropped by the system when its process dies."""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import socket
import sys
from typing import IO

from ringmaster.errors import LockError
from ringmaster.files import storage_error

SOCKET_PREFIX = b"\0ringmaster-lock/"
"""The start of the lock's abstract Unix socket's name (Linux): a NUL, so no file, then a hash."""


def socket_name(pathname: str) -> bytes | None:
    """The abstract socket's name for the lock whose file is pathname (Linux), else None.

    It names the directory by its device and inode, and the file by its name in
    it: every spelling of the path (relative, through a symlink or a bind mount)
    gives the same name, and renaming the directory doesn't change it. Raises
    StorageError if the directory can't be looked at.
    """
    if not sys.platform.startswith("linux"):
        return None
    directory = os.path.dirname(os.path.abspath(pathname))
    try:
        st = os.stat(directory)
    except OSError as exc:
        raise storage_error(exc, directory, "look at") from None
    key = f"{st.st_dev}:{st.st_ino}:{os.path.basename(pathname)}"
    return SOCKET_PREFIX + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:48].encode()


def _is_bound(name: bytes) -> bool:
    """Whether a process holds name (a datagram socket connects to it only then); binding it
    to find out would refuse a run that starts meanwhile."""
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    except OSError:
        return False
    try:
        sock.connect(name)
    except OSError:   # ECONNREFUSED: no one holds it
        return False
    finally:
        sock.close()
    return True


def _bind(name: bytes) -> socket.socket | None:
    """A socket bound to name; None if Unix sockets can't be made here (the flock then stands
    alone). Raises LockError if another process holds the name."""
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    except OSError:
        return None
    try:
        sock.bind(name)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise LockError("competition is already running") from None
        return None
    return sock


class CompetitionLock:
    """An exclusive lock on a competition, held while a run is going on.

    Two locks, both needed: an flock on the file (FILE.log), which works on every
    platform and between the machines sharing a network file system, and, on
    Linux, an abstract Unix socket bound to a name derived from the file's
    directory and name (socket_name), which no file operation can touch: with the
    file deleted or renamed under a run (log rotation, a tidy-up), a second run
    would make a new file and flock it, but can't bind the name. The operating
    system drops both when the process dies, however it dies.
    """

    def __init__(self, pathname: str) -> None:
        self.pathname = pathname
        self._file: IO[str] | None = None
        self._socket: socket.socket | None = None

    def acquire(self) -> None:
        """Raises LockError if another process holds the lock, StorageError if it can't be made."""
        name = socket_name(self.pathname)
        sock = _bind(name) if name is not None else None
        try:
            f = open(self.pathname, "a")
        except OSError as exc:
            if sock is not None:
                sock.close()
            raise storage_error(exc, self.pathname, "open") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            if sock is not None:
                sock.close()
            raise LockError("competition is already running") from None
        self._file = f
        self._socket = sock

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def is_held_elsewhere(self) -> bool:
        """Whether another process holds the lock (needs only read access to the file)."""
        name = socket_name(self.pathname)
        if name is not None and _is_bound(name):
            return True
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
