"""The state file (versioned JSON, FILE.status) and the history file that must agree with it."""

from __future__ import annotations

import json
import os
from typing import Any

from ringmaster.errors import GomillStateFile, StateFileDamaged, StateFileError
from ringmaster.files import storage_error, write_atomically
from ringmaster.state.encoding import EncodedJson

STATE_FORMAT = "ringmaster-state"


STATE_VERSION = 1


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
        raise GomillStateFile(f"state file {name} is a Gomill pickle, which ringmaster can't read")
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StateFileDamaged(f"state file {name} is corrupt: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != STATE_FORMAT:
        raise StateFileDamaged(f"state file {name} is not a ringmaster state file")
    if document.get("version") != STATE_VERSION:
        raise StateFileError(f"state file {name} has incompatible version "
                             f"{document.get('version')!r} (expected {STATE_VERSION})")
    return document


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
        if actual > 0:   # cut mid-line: end that line, so that the next game's starts its own
            with open(pathname, "rb+") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")
    except OSError as exc:
        raise storage_error(exc, pathname) from None
    return (f"history file {os.path.basename(pathname)} is shorter than the state expects "
            f"({actual} bytes, expected {size}); it was edited or truncated, and its missing "
            "lines are not rebuilt (the state and `ringmaster show` hold every game)")
