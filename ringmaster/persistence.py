"""Durable files: atomic writes, the state file (versioned JSON), the history, the run's lock."""

from __future__ import annotations

import fcntl
import json
import os
import re
import tempfile
from typing import Any

from ringmaster.errors import LockError, StateFileError, StorageError

STATE_FORMAT = "ringmaster-state"
STATE_VERSION = 1


# Temporary files end with this suffix, which no record's name can have: game ids are
# refused if they can't be file names, and every record's name ends in a known extension.
TEMP_SUFFIX = ".ringmaster-tmp"

_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def one_line(text: str) -> str:
    """text as one line for a log or history file: control characters become escapes (\\n, \\x1b)."""
    def escape(match: re.Match) -> str:
        ch = match.group()
        return {"\n": "\\n", "\r": "\\r"}.get(ch, f"\\x{ord(ch):02x}")
    return _CONTROL_CHARACTERS.sub(escape, text)


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
    try:
        for path in (pathname, os.path.dirname(pathname) or "."):
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        raise storage_error(exc, pathname, "sync") from None


class EncodedJson:
    """A value encoded once as the state's JSON (compact, keys sorted), written as it is.

    The state holds every game played and is written after each result, so a
    record that never changes is encoded once (see encoded_json) rather than at
    every write: a save at 2,000 games took 76.9 ms encoding every game, 7.5 ms
    so (bench/bench_state_save.py).
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"EncodedJson({self.text!r})"


def encoded_json(value: Any) -> EncodedJson:
    """value encoded as it would be inside the state file."""
    return EncodedJson(json.dumps(value, sort_keys=True, separators=(",", ":")))


class EncodedOnce:
    """For a record saved in the state many times: encoded() is its to_json() as an
    EncodedJson, computed once; setting any attribute forgets it."""

    changes = 0
    """Counts changes to records already encoded: an EncodedList then starts again."""

    def encoded(self) -> EncodedJson:
        cached = self.__dict__.get("_encoded")
        if cached is None:
            cached = self.__dict__["_encoded"] = encoded_json(self.to_json())  # type: ignore[attr-defined]
        return cached

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.pop("_encoded", None) is not None:
            EncodedOnce.changes += 1
        object.__setattr__(self, name, value)


class EncodedArray(EncodedJson):
    """A JSON array of encoded records, as EncodedList.encode made it: the first count
    texts of source's list, which only ever grows in place. text is joined when it is
    first asked for; the state's journal (state_journal.py) writes only the texts a
    save added, and never asks for it."""

    __slots__ = ("texts", "count", "source", "generation", "_text")

    def __init__(self, texts: list[str], count: int, source: object, generation: int) -> None:
        self.texts = texts
        self.count = count
        self.source = source
        self.generation = generation
        self._text: str | None = None

    @property  # type: ignore[override]
    def text(self) -> str:
        if self._text is None:
            self._text = "[" + ",".join(self.texts[:self.count]) + "]"
        return self._text

    def added_since(self, count: int) -> EncodedJson:
        """The texts after the first count, as a JSON array."""
        return EncodedJson("[" + ",".join(self.texts[count:self.count]) + "]")

    def __repr__(self) -> str:
        return f"EncodedArray({self.count} records)"


class EncodedList:
    """A growing list of EncodedOnce records (the games of a run) as one JSON array.

    encode(records) encodes only the records appended since its last call, so
    that saving the state doesn't visit every game again; it starts again (a
    new generation, so that the journal knows the array wasn't only extended)
    if it is given another list, a shorter one, or one whose last record it
    knew is no longer in its place, or if a record encoded before has changed.
    """

    def __init__(self) -> None:
        self._records: list | None = None
        self._texts: list[str] = []
        self._last: object = None
        self._changes = -1
        self.generation = 0

    def encode(self, records: list) -> EncodedArray:
        known = len(self._texts)
        if (records is not self._records or self._changes != EncodedOnce.changes
                or known > len(records) or (known and records[known - 1] is not self._last)):
            self._records, self._texts, self._changes = records, [], EncodedOnce.changes
            self.generation += 1
            known = 0
        self._texts += [record.encoded().text for record in records[known:]]
        if records:
            self._last = records[-1]
        return EncodedArray(self._texts, len(self._texts), self, self.generation)


def dumps_state(document: Any) -> str:
    """document as the state's JSON text: json.dumps(document, sort_keys=True,
    separators=(",", ":")), with each EncodedJson in it written as its text.

    The document is encoded by json's C encoder with a marker standing for each
    EncodedJson (in the order the encoder meets them), and the texts are then
    put in the markers' places. The marker is new for each call, so no text
    from an engine can pass for one.
    """
    texts: list[str] = []
    marker = f"\0{os.urandom(8).hex()}"   # os.urandom, as secrets does (whose import costs 5 ms)

    def default(value: Any) -> str:
        if isinstance(value, EncodedJson):
            texts.append(value.text)
            return marker
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    data = json.dumps(document, sort_keys=True, separators=(",", ":"), default=default)
    if not texts:
        return data
    parts = data.split(json.dumps(marker))
    if len(parts) != len(texts) + 1:   # pragma: no cover (the marker is unguessable)
        raise AssertionError("state encoding: markers and texts don't match")
    joined = [""] * (2 * len(texts) + 1)
    joined[0::2] = parts
    joined[1::2] = texts
    return "".join(joined)


def write_state(pathname: str, state: dict[str, Any]) -> int:
    """Replace the state file with state, atomically and durably; returns its size in bytes."""
    document = {"format": STATE_FORMAT, "version": STATE_VERSION, **state}
    # Compact separators keep json's fast encoder.
    data = dumps_state(document).encode("utf-8")
    write_atomically(pathname, data)
    return len(data)


def read_state(pathname: str) -> dict[str, Any]:
    """Read a state file written by write_state().

    Raises StateFileError naming the file if it is unreadable, isn't JSON, or
    is from another format or version.
    """
    name = os.path.basename(pathname)
    try:
        with open(pathname, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise StateFileError(f"can't read state file {name}: {exc.strerror}") from None
    if raw.startswith(b"\x80"):
        raise StateFileError(f"state file {name} is a Gomill pickle; ringmaster can't read it")
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StateFileError(f"state file {name} is corrupt: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != STATE_FORMAT:
        raise StateFileError(f"state file {name} is not a ringmaster state file")
    if document.get("version") != STATE_VERSION:
        raise StateFileError(f"state file {name} has incompatible version "
                             f"{document.get('version')!r} (expected {STATE_VERSION})")
    return document


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


def reconcile_history(pathname: str, size: int, tail: str) -> str | None:
    """Make the history file agree with the state after a crash.

    The state records the file's size just after its last result was
    appended, and the text of that append. Lines written for games the state
    doesn't count are cut off; a last append that was lost is redone.
    Returns a warning if the file can't be made to agree, else None. Raises
    StorageError if the file can't be written.
    """
    try:
        actual = os.path.getsize(pathname)
    except FileNotFoundError:
        actual = 0
    if actual == size:
        return None
    try:
        if actual > size:
            with open(pathname, "r+b") as f:
                f.truncate(size)
            return None
        tail_bytes = tail.encode("utf-8")
        if actual == size - len(tail_bytes):
            with open(pathname, "ab") as f:
                f.write(tail_bytes)
            return None
    except OSError as exc:
        raise storage_error(exc, pathname) from None
    return (f"history file {os.path.basename(pathname)} is shorter than the state expects "
            f"({actual} bytes, expected {size}); it was edited or truncated")
