"""The live display: games in progress, results so far, last results and warnings."""

from __future__ import annotations

import errno
import io
import os
import select
import sys
import time
from collections import deque
from typing import Any, TextIO

from ringmaster.errors import OutputClosed, StorageError
from ringmaster.files import storage_error
from ringmaster.stats.timing import progress_line

DELIMITER = "-" * 78


def silence(stream: Any) -> None:
    """Point a stream that can't be written (a pipe whose reader ended, a terminal hung up) at
    /dev/null, so that no later write, nor Python's flush at exit, fails."""
    try:
        fd = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):   # not a real file (a test's capture)
        return
    try:
        os.dup2(devnull, fd)
    except OSError:
        pass
    finally:
        os.close(devnull)


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
"""The errors of a write to a file on a full disk (or over its owner's quota)."""


def _write(stream: TextIO, text: str) -> None:
    """Write text to stream and flush it. A real file's text goes straight to its descriptor,
    whole: one left non-blocking (by some CI runners) that is full (EAGAIN) is waited for, as
    a blocking one would be (Python's buffered layers would lose or repeat part of it)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):   # not a real file (a test's capture)
        stream.write(text)
        stream.flush()
        return
    data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    stream.flush()   # what was written through the stream before, first
    while data:
        try:
            data = data[os.write(fd, data):]
        except BlockingIOError:
            poller = select.poll()
            poller.register(fd, select.POLLOUT)
            poller.poll()


def write_out(stream: TextIO | None, text: str) -> None:
    """Write text to standard output (stream) at once.

    A stream closed when the run started (None: `>&-`) takes nothing, and the run plays on:
    nobody will read it. One that fails is silenced, and raises OutputClosed (the reader
    ended: `run x.ctl | head -2`), or StorageError for a file on a full disk.
    """
    if stream is None:
        return
    try:
        _write(stream, text)
    except OSError as exc:
        silence(stream)
        if exc.errno in DISK_FULL:
            raise storage_error(exc, "standard output") from None
        closed = exc.errno in (errno.EPIPE, errno.EIO)   # the reader ended; the terminal hung up
        raise OutputClosed(f"standard output {'was closed' if closed else 'cannot be written'} "
                           f"({exc.strerror or exc})") from None


def write_err(stream: TextIO | None, text: str) -> None:
    """Write text to standard error at once; if it can't be written (closed when the run
    started, a terminal hung up, a full disk), the run goes on without it: the log has every
    warning."""
    if stream is None:
        return
    try:
        _write(stream, text)
    except OSError:
        silence(stream)


def say(line: str) -> None:
    """A line for the user on standard output (run's start-up checks). Raises OutputClosed
    or StorageError, as write_out()."""
    write_out(sys.stdout, line + "\n")


class Presenter:
    """Shows a run as it goes: redrawn in place on a terminal; otherwise (a file, a pipe)
    one line per finished game and each warning as it comes, and the report once, at the end."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None,
                 min_interval: float = 0.2) -> None:
        # None: closed when the run started (`>&-`, `2>&-`); writes to it are skipped
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        self.is_tty = hasattr(self.out, "isatty") and self.out.isatty()
        self.results: deque[str] = deque(maxlen=6)
        self.warnings: deque[str] = deque(maxlen=4)
        self.unshown_warnings: list[str] = []   # shown only in the display, so far
        self.ringmaster: Any = None
        self.min_interval = min_interval
        self._last_draw = 0.0
        self._last_text = ""
        # standard output found closed (OutputClosed) or on a full disk (StorageError)
        self.closed: OutputClosed | StorageError | None = None

    def _write_out(self, text: str, stream: TextIO | None = None) -> None:
        """Write to standard output (self.out unless given), unless it was found closed; a
        closure is kept for raise_if_closed()."""
        if self.closed is None:
            try:
                write_out(stream if stream is not None else self.out, text)
            except (OutputClosed, StorageError) as exc:
                self.closed = exc

    def raise_if_closed(self, final: bool = False) -> None:
        """Raises OutputClosed or StorageError if standard output was found closed or on a full
        disk. Asked between the loop's deliveries, so that every game finished meanwhile is
        recorded first; and after the final report (final), when only a full disk is an error
        (the reader of a pipe that closed chose to stop; a file lacks what it should hold)."""
        if self.closed is not None and not (final and isinstance(self.closed, OutputClosed)):
            raise self.closed

    def attach(self, ringmaster: Any) -> None:
        self.ringmaster = ringmaster

    def game_finished(self, response: Any, line: str) -> None:
        entry = f"game {response.game_id}: {line}"
        self.results.append(entry)
        if not self.is_tty:
            self._write_out(entry + "\n")

    def warning(self, message: str) -> None:
        self.warnings.append(message)
        if self.is_tty:
            self.unshown_warnings.append(message)
        else:
            write_err(self.err, message + "\n")

    def close(self) -> None:
        """The display is done: repeat below it the warnings that only it showed."""
        if self.unshown_warnings:
            write_err(self.err, "".join(f"warning: {w}\n" for w in self.unshown_warnings))
            self.unshown_warnings = []

    def refresh(self, final: bool = False) -> None:
        if not self.is_tty:
            if final:
                self.draw()   # the report, once
            return
        if final or time.monotonic() - self._last_draw >= self.min_interval:
            self.draw()

    def screen(self) -> str:
        r = self.ringmaster
        out = io.StringIO()
        in_progress = r.games_in_progress
        if r.halt_reason is not None:
            word = "waiting for workers to finish" if in_progress else "halting"
            out.write(f"{word}: {r.halt_reason}\n")
        if in_progress:
            ids = " ".join(sorted(in_progress))
            count = len(in_progress)
            out.write(f"{count} game{'s' if count > 1 else ''} in progress: {ids}\n")
        if r.max_games is not None and r.halt_reason is None:
            out.write(f"will start at most {r.max_games - r.games_started} more games "
                      "in this run\n")
        if r.void_game_count:
            out.write(f"{r.void_game_count} void games; see log file.\n")
        out.write(progress_line(r.reports.progress()) + "\n")
        out.write("\n")
        r.competition.write_screen_report(out)
        if not self.is_tty:   # each result and warning has had its own line
            return out.getvalue()
        if self.results:
            out.write("\n= Results =\n" + "\n".join(self.results) + "\n")
        if self.warnings:
            out.write("\n= Warnings =\n" + "\n".join(self.warnings) + "\n")
        return out.getvalue()

    def draw(self) -> None:
        text = self.screen()
        if self.is_tty:
            if text == self._last_text:
                return
            self._write_out("\x1b[H\x1b[2J" + text)
        else:
            self._write_out(DELIMITER + "\n" + text)
        self._last_text = text
        self._last_draw = time.monotonic()


class QuietPresenter(Presenter):
    """Shows warnings, on stderr, and the results once, when the run ends."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        super().__init__(out=io.StringIO(), err=err)
        self.is_tty = False
        self.final_out = out

    def game_finished(self, response: Any, line: str) -> None:
        pass

    def refresh(self, final: bool = False) -> None:
        if final and self.ringmaster is not None:
            out = io.StringIO()
            self.ringmaster.competition.write_screen_report(out)
            out.write(progress_line(self.ringmaster.reports.progress()) + "\n")
            target = self.final_out if self.final_out is not None else sys.stdout
            if target is not None:   # None: closed when the run started
                self._write_out(out.getvalue(), target)

    def draw(self) -> None:
        pass
