"""The state on disk: a snapshot (FILE.status) and a journal of the saves since (FILE.journal)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from ringmaster.errors import StateFileDamaged, StateFileError
from ringmaster.files import storage_error, write_atomically
from ringmaster.state.encoding import EncodedArray
from ringmaster.state.state_file import dumps_state, read_state, write_state

JOURNAL_FORMAT = "ringmaster-journal"
JOURNAL_VERSION = 1

# The journal is folded into a new snapshot once it is larger than the snapshot and
# than this: each save then costs a line, and the snapshots' cost spread over the
# saves between them stays about the same as one line's, however long the run.
MIN_FOLD_BYTES = 1 << 20

Path = tuple[str, ...]


def _arrays(document: dict[str, Any], path: Path = ()) -> Iterator[tuple[Path, EncodedArray]]:
    """Each EncodedArray that is a value of a dict in document, with its path of keys."""
    for key, value in document.items():
        if isinstance(value, EncodedArray):
            yield path + (key,), value
        elif isinstance(value, dict):
            yield from _arrays(value, path + (key,))


def _without_arrays(document: dict[str, Any]) -> dict[str, Any]:
    """document with None in place of each EncodedArray (the dicts above them copied)."""
    return {key: None if isinstance(value, EncodedArray)
            else _without_arrays(value) if isinstance(value, dict) else value
            for key, value in document.items()}


def _parent(document: dict[str, Any], path: list[str]) -> dict[str, Any]:
    for key in path[:-1]:
        document = document[key]
        if not isinstance(document, dict):
            raise TypeError("not an object")
    return document


class DoesNotFit(ValueError):
    """A journal line appends to an array that the document it is applied to lacks.

    kind: the error's name as the journal's messages give it (KeyError, TypeError);
    where: the path, as far as the document has it, then the key it lacks.
    """

    def __init__(self, kind: str, where: str) -> None:
        super().__init__(where)
        self.kind = kind
        self.where = where


def _array_at(document: dict[str, Any], path: list[str]) -> list:
    """The array at path in document. Raises DoesNotFit."""
    value: Any = document
    for depth, key in enumerate(path):
        if not isinstance(value, dict):
            raise DoesNotFit("TypeError", ".".join(path[:depth]) + " is not an object")
        if key not in value:
            raise DoesNotFit("KeyError", "no " + ".".join(path[:depth + 1]))
        value = value[key]
    if not isinstance(value, list):
        raise DoesNotFit("TypeError", ".".join(path) + " is not an array")
    return value


def apply_line(document: dict[str, Any], entry: Any) -> dict[str, Any]:
    """The state after one journal line: its 'set' part whole, each array in 'append'
    being the same array of document extended by the line's items (in place, once
    the whole line is found to fit).

    Raises KeyError, TypeError or ValueError if the line doesn't fit document,
    which is then unchanged: DoesNotFit if document lacks an array it appends to.
    """
    state, appends = entry["set"], entry["append"]
    if not isinstance(state, dict) or not isinstance(appends, list):
        raise TypeError("not a journal line")
    moves = []
    for path, items in appends:
        if not (isinstance(path, list) and path and all(isinstance(k, str) for k in path)
                and isinstance(items, list)):
            raise TypeError("bad append")
        before = _array_at(document, path)
        moves.append((_parent(state, path), path[-1], before, items))
    for parent, key, before, items in moves:
        before.extend(items)
        parent[key] = before
    return state


def read_journaled_state(status: str, journal: str) -> dict[str, Any]:
    """The state: the snapshot with the journal's lines applied in turn.

    A journal written for another snapshot (left by a run killed while it
    folded the journal in) is ignored, as are the lines from the first that
    can't be read or applied, if no good line follows (the last save, cut
    short by a kill or a power cut: its game isn't counted, and will be played
    again). A reader that meets a journal of another snapshot while a run
    folds it in reads the snapshot again. Raises StateFileError naming the
    file if either can't be read or used; StateFileDamaged if the journal's
    header can't be read (it is written atomically, so no kill leaves it so,
    and ignoring the journal would lose the games it counts).
    """
    for _ in range(5):
        document = read_state(status)
        ident = document.pop("journal", None)
        if ident is None:
            return document
        lines = _journal_lines(journal, ident)
        if lines is not None:
            return _applied(document, lines, os.path.basename(journal), os.path.basename(status))
        again = read_state(status).get("journal")
        if again == ident:   # a journal of another snapshot for good, or none: the snapshot stands
            return document
    return document


def _journal_lines(journal: str, ident: str) -> list[bytes] | None:
    """The journal's lines after its header, or None if it isn't the journal of snapshot ident.

    Raises StateFileError if it can't be read or is from a newer ringmaster.
    """
    name = os.path.basename(journal)
    try:
        with open(journal, "rb") as f:
            lines = f.read().split(b"\n")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StateFileError(f"can't read journal file {name}: {exc.strerror}") from None
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if (len(lines) < 2 or not isinstance(header, dict) or header.get("format") != JOURNAL_FORMAT
            or not isinstance(header.get("snapshot"), str)):
        # Its header is written whole or not at all (write_atomically): it was damaged since.
        raise StateFileDamaged(f"journal file {name} is corrupt: its first line is not a "
                               "journal header")
    if header.get("snapshot") != ident:
        return None
    if header.get("version") != JOURNAL_VERSION:
        raise StateFileError(f"journal file {name} has incompatible version "
                             f"{header.get('version')!r} (expected {JOURNAL_VERSION})")
    return lines[1:]


def _applied(document: dict[str, Any], lines: list[bytes], name: str,
             status_name: str) -> dict[str, Any]:
    kept = {key: document[key] for key in ("format", "version") if key in document}
    bad: tuple[int, str] | None = None
    applied = 0
    # The text after the last newline is a line whose write never completed.
    for number, raw in enumerate(lines[:-1], start=2):
        try:
            entry = json.loads(raw)
            if bad is None:
                # Each line is numbered (from 1; journals before the numbers have none):
                # a line present twice is applied once, and a line missing ends the journal.
                if isinstance(entry, dict) and "n" in entry:
                    if not isinstance(entry["n"], int) or isinstance(entry["n"], bool):
                        raise TypeError("bad line number")
                    if entry["n"] <= applied:
                        continue
                    if entry["n"] != applied + 1:
                        raise ValueError(f"line {applied + 1} missing")
                try:
                    document = apply_line(document, entry)
                except DoesNotFit as exc:
                    if applied == 0:
                        # The first save is appended to the very snapshot it followed,
                        # which had every array it appends to: the snapshot is at fault.
                        raise StateFileDamaged(
                            f"state file {status_name} is malformed: {exc.where} (which "
                            f"{name} appends to)") from None
                    raise
                applied += 1
            elif isinstance(entry, dict) and "set" in entry:
                # A good line after a bad one: no kill or power cut leaves that.
                raise StateFileDamaged(f"journal file {name} is corrupt at line {bad[0]}: "
                                       f"{bad[1]}")
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            if bad is None:
                bad = number, exc.kind if isinstance(exc, DoesNotFit) else type(exc).__name__
    return {**document, **kept}


class StateStore:
    """Saves a competition's state after each result, in time that doesn't grow with the run.

    The state holds every game played. Rewriting it whole after each result
    cost more as a run went on (23 ms a save at 10,000 games), and creating
    the new file costs more than writing a little. So a save appends one line
    to FILE.journal, fsynced: the state's small part whole, and the records
    each growing array (an EncodedArray, from EncodedList) gained since the
    last save. The whole state is written as the snapshot FILE.status (and a
    new journal begun) at the first save of a run, when an array changed
    other than by growing, when the journal outgrows the snapshot, and when
    the run ends (close()), which removes the journal: a run that ends
    leaves FILE.status alone, as it was before journals.

    A save is complete once its line (or snapshot) is on disk; a run killed
    in the middle of one leaves the state as the save before.
    """

    def __init__(self, status: str, journal: str) -> None:
        self.status = status
        self.journal = journal
        self._fd: int | None = None
        self._known: dict[Path, tuple[object, int, int]] = {}
        self._journal_bytes = 0
        self._snapshot_bytes = 0
        self._lines = 0   # lines in the journal after its header
        self._failed = False

    def exists(self) -> bool:
        return os.path.exists(self.status)

    def read(self) -> dict[str, Any]:
        """The state document. Raises StateFileError."""
        return read_journaled_state(self.status, self.journal)

    def save(self, state: dict[str, Any]) -> None:
        """Record state durably. Raises StorageError naming the file if it can't be written."""
        arrays = dict(_arrays(state))
        if self._fd is not None and self._known.keys() == arrays.keys() and all(
                self._known[path][:2] == (array.source, array.generation)
                and self._known[path][2] <= array.count for path, array in arrays.items()):
            line = dumps_state({
                "n": self._lines + 1,
                "set": _without_arrays(state),
                "append": [[list(path), array.added_since(self._known[path][2])]
                           for path, array in arrays.items()],
            }).encode("utf-8") + b"\n"
            if self._journal_bytes + len(line) <= max(self._snapshot_bytes, MIN_FOLD_BYTES):
                self._append(line)
                self._lines += 1
                self._remember(arrays)
                return
        self._snapshot(state, arrays, journal=True)

    def close(self) -> None:
        """End the run's saving: fold the journal into the snapshot and remove it, so
        that FILE.status alone holds the state. This run's journal or one a killed
        run left (a run that finds its competition complete saves nothing, and
        would leave it). What is folded is read back from the two files, so that it
        is the state as last saved, whatever happened to the state in memory since
        (an interrupt in the middle of recording a result). Nothing is written if
        there is no journal, or if the last save failed (the journal then holds
        every save that completed). Raises StorageError, or StateFileError if the
        files can't be read back (they are left as they are)."""
        self._close_fd()
        if self._failed or not os.path.exists(self.journal):
            return
        self._snapshot(self.read(), {}, journal=False)
        try:
            os.remove(self.journal)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise storage_error(exc, self.journal, "remove") from None

    def _append(self, line: bytes) -> None:
        assert self._fd is not None
        try:
            written = os.write(self._fd, line)
            if written != len(line):
                raise OSError(0, "short write (disk full?)")
            os.fsync(self._fd)
        except OSError as exc:
            self._failed = True
            try:   # leave no part of a line for the next one to follow
                os.ftruncate(self._fd, self._journal_bytes)
            except OSError:
                pass
            self._close_fd()
            raise storage_error(exc, self.journal) from None
        self._journal_bytes += len(line)
        self._failed = False

    def _snapshot(self, state: dict[str, Any], arrays: dict[Path, EncodedArray],
                  journal: bool) -> None:
        self._close_fd()
        ident = os.urandom(8).hex() if journal else None
        state = {key: value for key, value in state.items()
                 if key not in ("format", "version", "journal")}
        try:
            self._snapshot_bytes = write_state(self.status, {**state, "journal": ident}
                                               if journal else state)
        except BaseException:
            self._failed = True
            raise
        self._failed = False
        if not journal:
            return
        header = json.dumps({"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION,
                             "snapshot": ident}).encode("utf-8") + b"\n"
        # If this fails, the snapshot stands and the next save makes another.
        write_atomically(self.journal, header)
        try:
            self._fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise storage_error(exc, self.journal, "open") from None
        self._journal_bytes = len(header)
        self._lines = 0
        self._remember(arrays)

    def _remember(self, arrays: dict[Path, EncodedArray]) -> None:
        self._known = {path: (array.source, array.generation, array.count)
                       for path, array in arrays.items()}

    def _close_fd(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None
