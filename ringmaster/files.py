"""The floor every writer stands on: atomic, durable writes, stale temporaries, one-line text."""

from __future__ import annotations

import os
import re
import tempfile
import time

from ringmaster.errors import StorageError

# Temporary files end with this suffix, which no record's name can have: game ids are
# refused if they can't be file names, and every record's name ends in a known extension.
TEMP_SUFFIX = ".ringmaster-tmp"

# C0 but tab, DEL, and C1 (U+0080-U+009F: U+009B is a terminal's CSI, like ESC [).
_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_CONTROL_BUT_NEWLINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escape(match: re.Match) -> str:
    ch = match.group()
    return {"\n": "\\n", "\r": "\\r"}.get(ch, f"\\x{ord(ch):02x}")


def one_line(text: str) -> str:
    """text as one line for a log or history file: control characters become escapes (\\n, \\x1b)."""
    return _CONTROL_CHARACTERS.sub(_escape, text)


def printable(text: str) -> str:
    """text (from an engine) safe for a terminal, keeping its lines: every control character
    but newline and tab becomes an escape (\\x1b, \\x9b)."""
    return _CONTROL_BUT_NEWLINES.sub(_escape, text)


def decodable(name: str) -> str:
    """A file name as text: bytes that weren't UTF-8 (which Python keeps as surrogate escapes,
    and no UTF-8 writer accepts) become U+FFFD. For names that go into records and reports."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def clipped(text: str, limit: int = 500) -> str:
    """text cut to limit characters, saying how long it was (an engine's text kept in the state)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def log_line(text: str) -> str:
    """A line of FILE.log: the local time to the second, then the text on one line."""
    return f"{time.strftime('%Y-%m-%d %H:%M:%S')} {one_line(text)}"


def storage_error(exc: OSError, pathname: str, action: str = "write") -> StorageError:
    """A one-line StorageError naming the file and the system's reason."""
    return StorageError(f"can't {action} {pathname}: {exc.strerror or exc}")


def temp_prefix(pathname: str) -> str:
    """The name prefix of write_atomically()'s temporary files for pathname."""
    return f".{os.path.basename(pathname)}."


def remove_stale_temporaries(directory: str, prefix: str = ".") -> None:
    """Delete temporary files a killed write_atomically() left in directory."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    for name in names:
        if name.startswith(prefix) and name.endswith(TEMP_SUFFIX):
            try:
                os.remove(os.path.join(directory, name))
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(pathname: str, data: bytes, durable: bool = True) -> None:
    """Write a file so that it either appears whole or not at all, and survives a power cut.

    durable False skips the two fsyncs, for files rebuilt from the state (the
    report, FILE.html): after a power cut such a file may be its old
    version, never a torn one. The file gets the mode the umask gives a new
    file. Raises StorageError
    naming the file if it can't be written (disk full, read-only directory);
    the file is then as it was.
    """
    directory = os.path.dirname(pathname) or "."
    try:
        os.makedirs(directory, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=directory, prefix=temp_prefix(pathname),
                                    suffix=TEMP_SUFFIX)
    except OSError as exc:
        raise storage_error(exc, pathname) from None
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o666 & ~_umask())
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(temp, pathname)
    except BaseException as exc:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise storage_error(exc, pathname) from None
        raise
    if not durable:
        return
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def make_durable(pathname: str) -> None:
    """fsync a file that was written without (write_atomically(durable=False)), and its
    directory, so that it and its name survive a power cut. Raises StorageError."""
    for path in (pathname, os.path.dirname(pathname) or "."):
        _fsync(path, pathname)


def commit_file(attempt: str, pathname: str, synced: bool) -> None:
    """Rename attempt to pathname (replacing any file there), durably: the file fsynced
    unless synced says its writer did, and the directory fsynced. Raises StorageError."""
    try:
        os.replace(attempt, pathname)
    except OSError as exc:
        raise storage_error(exc, pathname) from None
    if synced:
        _fsync(os.path.dirname(pathname) or ".", pathname)
    else:
        make_durable(pathname)


def _fsync(path: str, named: str) -> None:
    """fsync a file or directory. Raises StorageError naming named."""
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise storage_error(exc, named, "sync") from None
