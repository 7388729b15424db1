"""What FILE.log says of the runs before this one: whether the last one ended, or was killed."""

from __future__ import annotations

import os
import re

RUN_ENDED = "run ended"
"""The last line every run writes to the log, however it stops (but kill -9 or a power cut)."""

# A run's first line, and the lines that end one (older logs have no 'run ended' line, nor
# timestamps). An engine's stderr line can't match: its label follows the time.
_MARKER = re.compile(rb"^(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d )?"
                     rb"run (started at (?P<when>\S+ \S+)|finished at |interrupted at |ended$)")
_CHUNK = 1 << 16


def _lines_backwards(path: str):
    """The file's lines, last first (bytes, without their newlines)."""
    with open(path, "rb") as f:
        position = f.seek(0, os.SEEK_END)
        rest = b""
        while position > 0:
            step = min(_CHUNK, position)
            position -= step
            f.seek(position)
            lines = (f.read(step) + rest).split(b"\n")
            rest = lines[0]
            yield from reversed(lines[1:])
        yield rest


def unfinished_run(log_path: str) -> str | None:
    """When the last run logged in log_path started, if it never wrote that it ended; else None.

    A run killed with kill -9, by a power cut or by a crash of the machine leaves
    its 'run started' line as the last of its kind.
    """
    try:
        for line in _lines_backwards(log_path):
            match = _MARKER.match(line)
            if match:
                when = match.group("when")
                return None if when is None else when.decode("ascii", "replace")
    except OSError:
        return None
    return None


def unfinished_run_warning(when: str) -> str:
    return (f"the previous run (started at {when}) did not end: it was killed (kill -9, a power cut "
            "or a crash); the games it had in progress will be replayed")
