"""Engine side of GTP: a command registry and the line loop that serves it."""

from __future__ import annotations

import io
import math
import re
import sys
import traceback
from collections.abc import Callable, Iterable
from typing import TextIO

Handler = Callable[[list[str]], "str | None"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class GtpError(Exception):
    """A command failed; the message is sent as the failure response."""


class GtpFatalError(GtpError):
    """A command failed and the engine must end the session afterwards."""


class GtpQuit(Exception):
    """Raised by a handler to end the session after a success response."""


class GtpEngine:
    """A GTP engine: named handlers behind the standard administrative commands.

    Handlers take the list of arguments and return the response text (or None
    for an empty success). They raise GtpError for a failure response.

    The engine provides protocol_version, name, version, known_command,
    list_commands and quit; add_command() adds or replaces the others.
    """

    def __init__(self, name: str, version: str) -> None:
        self.name = name
        self.version = version
        self._handlers: dict[str, Handler] = {}
        self.add_commands({
            "protocol_version": lambda args: "2",
            "name": lambda args: self.name,
            "version": lambda args: self.version,
            "known_command": self._known_command,
            "list_commands": lambda args: "\n".join(sorted(self._handlers)),
            "quit": self._quit,
        })

    def add_command(self, name: str, handler: Handler) -> None:
        self._handlers[name] = handler

    def add_commands(self, handlers: dict[str, Handler]) -> None:
        self._handlers.update(handlers)

    def commands(self) -> list[str]:
        return sorted(self._handlers)

    def _known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("wrong number of arguments")
        return "true" if args[0] in self._handlers else "false"

    def _quit(self, args: list[str]) -> None:
        raise GtpQuit

    def run_command(self, command: str, args: list[str]) -> tuple[bool, str, bool]:
        """Run one command.

        Returns (is_failure, response text, end_session).
        """
        handler = self._handlers.get(command)
        if handler is None:
            return True, "unknown command", False
        try:
            response = handler(args)
        except GtpQuit:
            return False, "", True
        except GtpFatalError as exc:
            return True, str(exc), True
        except GtpError as exc:
            return True, str(exc), False
        return False, "" if response is None else str(response), False


def parse_colour(word: str) -> str:
    """A GTP colour argument as 'b' or 'w'. Raises GtpError if it isn't one."""
    colour = {"b": "b", "black": "b", "w": "w", "white": "w"}.get(word.lower())
    if colour is None:
        raise GtpError("invalid color")
    return colour


def board_game_commands(*, set_size: Callable[[int], None], clear: Callable[[], None],
                        set_komi: Callable[[float], None],
                        play: Callable[[str, str], None],
                        genmove: Callable[[str], str]) -> dict[str, Handler]:
    """Handlers for boardsize, clear_board, komi, play and genmove, with GTP's argument checks.

    The callbacks get clean values: a size, a komi, a colour ('b' or 'w') and a
    vertex string. set_size may raise ValueError for a size it can't play (the
    response is 'unacceptable size'); any callback may raise GtpError.
    """
    def boardsize(args: list[str]) -> None:
        try:
            size = int(args[0])
        except (IndexError, ValueError):
            raise GtpError("boardsize needs an integer") from None
        try:
            set_size(size)
        except ValueError:
            raise GtpError("unacceptable size") from None

    def komi(args: list[str]) -> None:
        try:
            value = float(args[0])
        except (IndexError, ValueError):
            raise GtpError("komi needs a number") from None
        if not math.isfinite(value):
            raise GtpError("komi needs a finite number")
        set_komi(value)

    def play_command(args: list[str]) -> None:
        if len(args) != 2:
            raise GtpError("play needs a colour and a vertex")
        play(parse_colour(args[0]), args[1])

    def genmove_command(args: list[str]) -> str:
        if len(args) != 1:
            raise GtpError("genmove needs a colour")
        return genmove(parse_colour(args[0]))

    return {"boardsize": boardsize, "clear_board": lambda args: clear(), "komi": komi,
            "play": play_command, "genmove": genmove_command}


def parse_command_line(line: str) -> tuple[str | None, str, list[str]] | None:
    """Split a raw GTP command line into (id, command, args).

    Follows the GTP preprocessing rules: control characters are dropped, tabs
    become spaces, '#' starts a comment. Returns None for an empty line.
    """
    line = line.split("#", 1)[0].replace("\t", " ")
    words = _CONTROL.sub("", line).split()
    if not words:
        return None
    command_id = None
    if words[0].isascii() and words[0].isdigit():   # not '²' or '٣', which int() refuses
        command_id = words.pop(0)
        if not words:
            return None
    return command_id, words[0], words[1:]


def format_response(command_id: str | None, is_failure: bool, text: str) -> str:
    """Format a response as it goes on the wire, with its terminating blank line."""
    prefix = ("?" if is_failure else "=") + (command_id or "")
    text = text.strip("\n").replace("\n\n", "\n \n")
    return f"{prefix} {text}\n\n" if text else f"{prefix}\n\n"


def run_gtp_session(engine: GtpEngine, stdin: TextIO | None = None,
                    stdout: TextIO | None = None, stderr: TextIO | None = None) -> None:
    """Serve GTP commands from stdin until quit or end of input. Bytes that aren't UTF-8 are
    read as U+FFFD whatever the locale, so that they get a failure response, not a crash.

    A bug in a handler gets the failure response 'internal error: ...' and its traceback on
    stderr (the ringmaster keeps it in its log), and the session goes on.
    """
    if stdin is None:
        stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdout = stdout or sys.stdout
    for line in _lines(stdin):
        parsed = parse_command_line(line)
        if parsed is None:
            continue
        command_id, command, args = parsed
        try:
            is_failure, text, end = engine.run_command(command, args)
        except Exception as exc:   # a bug in a handler: the engine answers '?' and goes on
            is_failure, end = True, False
            text = f"internal error: {type(exc).__name__}: {exc} (traceback on stderr)".replace("\n", " ")
            _report_bug(" ".join([command, *args]), stderr or sys.stderr)
        stdout.write(format_response(command_id, is_failure, text))
        stdout.flush()
        if end:
            return


def _report_bug(command: str, stderr: TextIO) -> None:
    """The traceback of the exception being handled, under the command that raised it."""
    try:
        stderr.write(f"internal error in GTP command: {command}\n{traceback.format_exc()}")
        stderr.flush()
    except (OSError, ValueError):   # stderr closed or gone: the failure response still goes
        pass


def _lines(stream: TextIO) -> Iterable[str]:
    while True:
        line = stream.readline()
        if not line:
            return
        yield line
