"""Controller side of GTP: talk to an engine subprocess with timeouts, and kill it cleanly."""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Protocol, TextIO

# Engines are untrusted: these bound what one of them can make us hold in memory.
MAX_RESPONSE_BYTES = 1_000_000
MAX_STDERR_BYTES_PER_ENGINE = 2_000_000

_USE_DEFAULT = object()


class GtpChannelError(Exception):
    """The conversation with an engine broke down; the channel can't be used again."""


class GtpTransportError(GtpChannelError):
    """Reading from or writing to the engine failed."""


class GtpProtocolError(GtpChannelError):
    """The engine sent something that isn't a GTP response."""


class GtpChannelClosed(GtpChannelError):
    """The engine closed its end (it exited or crashed)."""


class GtpTimeout(GtpChannelError):
    """The engine didn't answer in time; it has been killed."""


class BadGtpResponse(Exception):
    """The engine sent a failure response ('? ...').

    Public attributes:
      command, arguments -- what was sent
      gtp_message        -- the failure text
    """

    def __init__(self, message: str, command: str, arguments: tuple[str, ...],
                 gtp_message: str) -> None:
        super().__init__(message)
        self.command = command
        self.arguments = arguments
        self.gtp_message = gtp_message


def clean_response_line(line: str) -> str:
    """Drop control characters other than tab and newline, CRs included; tabs become spaces."""
    return "".join(ch for ch in line if ch >= " " or ch in "\t\n").replace("\t", " ")


class Channel(Protocol):
    """What a controller needs from a transport (a subprocess, or a scripted fake in tests)."""

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None: ...

    def get_response(self, timeout: float | None) -> tuple[bool, str]: ...

    def close(self, timeout: float) -> float | None: ...

    def kill(self) -> None: ...


def set_parent_death_signal() -> None:
    """In a child process: be killed when the process that started it dies (Linux only)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class SubprocessChannel:
    """A GTP engine running as a subprocess, in its own process group.

    It is started without a shell. A reader thread collects stdout lines so
    that every read can time out; another copies stderr to the given sink.
    Closing or killing the channel kills the engine's whole process group.
    """

    def __init__(self, command: list[str], *, cwd: str | None = None,
                 env: dict[str, str] | None = None,
                 stderr: str | Callable[[str], None] = "discard") -> None:
        """stderr: 'discard', 'inherit', or a function called with each line."""
        if stderr == "discard":
            stderr_arg = subprocess.DEVNULL
        elif stderr == "inherit":
            stderr_arg = None
        else:
            stderr_arg = subprocess.PIPE
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=stderr_arg, cwd=cwd, env=env, close_fds=True,
                start_new_session=True, preexec_fn=set_parent_death_signal)
        except OSError as exc:
            raise GtpTransportError(f"error starting subprocess: {exc.strerror or exc}") from None
        self.pgid = self.process.pid
        self.is_first_response = True
        self.exit_status: int | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stdout_thread = threading.Thread(target=self._read_stdout, daemon=True)
        self._stdout_thread.start()
        self._stderr_thread = None
        if callable(stderr):
            self._stderr_thread = threading.Thread(
                target=self._read_stderr, args=(stderr,), daemon=True)
            self._stderr_thread.start()

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        try:
            while True:
                line = stream.readline(MAX_RESPONSE_BYTES + 1)
                if not line:
                    break
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_stderr(self, sink: Callable[[str], None]) -> None:
        budget = MAX_STDERR_BYTES_PER_ENGINE
        try:
            for raw in iter(lambda: self.process.stderr.readline(65536), b""):
                if budget > 0:
                    budget -= len(raw)
                    sink(raw.decode("utf-8", "replace").rstrip("\n"))
                    if budget <= 0:
                        sink("[further stderr output discarded]")
        except (OSError, ValueError):
            pass

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        line = " ".join((command,) + tuple(arguments)) + "\n"
        try:
            self.process.stdin.write(line.encode("utf-8"))
            self.process.stdin.flush()
        except BrokenPipeError:
            raise GtpChannelClosed("engine has closed the command channel") from None
        except (OSError, ValueError) as exc:
            raise GtpTransportError(f"error sending command: {exc}") from None

    def _next_line(self, deadline: float | None) -> bytes:
        try:
            if deadline is None:
                line = self._lines.get()
            else:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise GtpTimeout("timed out waiting for a response") from None
        if line is None:
            self._lines.put(None)
            raise GtpChannelClosed("engine has closed the response channel")
        return line

    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        """Read one response; returns (is_failure, text).

        Raises GtpTimeout if no complete response arrives within timeout
        seconds (the engine is then killed), GtpChannelClosed on end of file,
        GtpProtocolError on something that isn't a response.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            return self._read_response(deadline)
        except GtpTimeout:
            self.kill()
            raise

    def _read_response(self, deadline: float | None) -> tuple[bool, str]:
        lines: list[str] = []
        size = 0
        while True:
            raw = self._next_line(deadline)
            if self.is_first_response and not lines:
                first = raw[:1]
                if first == b"\x01":
                    raise GtpProtocolError("engine appears to be speaking GMP, not GTP!")
                if first not in (b" ", b"\t", b"\r", b"\n", b"#", b"=", b"?"):
                    raise GtpProtocolError(
                        f"engine isn't speaking GTP: first byte is {first!r}")
            size += len(raw)
            if size > MAX_RESPONSE_BYTES or not raw.endswith(b"\n"):
                raise GtpProtocolError("response too long")
            line = clean_response_line(raw.decode("utf-8", "replace").rstrip("\r\n"))
            if not lines:
                if not line.strip():
                    continue
                lines.append(line)
                if line[0] not in "=?":
                    raise GtpProtocolError(
                        f"no success/failure indication from engine: first line is `{line[:80]}`")
                continue
            if not line.strip():
                break
            lines.append(line)
        self.is_first_response = False
        first = lines[0]
        is_failure = first[0] == "?"
        first = first[1:].lstrip("0123456789")
        text = "\n".join([first.lstrip()] + lines[1:]).rstrip()
        return is_failure, text

    def kill(self) -> None:
        """Kill the engine's whole process group at once."""
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self, timeout: float = 5.0) -> float | None:
        """Wait for the engine to exit (killing it after timeout), then kill its group.

        Returns the CPU time (user + system) the engine process used, if known.
        """
        for stream in (self.process.stdin,):
            try:
                stream.close()
            except OSError:
                pass
        deadline = time.monotonic() + timeout
        rusage = None
        pause = 0.0005
        while True:
            try:
                pid, status, rusage = os.wait4(self.process.pid, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                self.process.returncode = os.waitstatus_to_exitcode(status)
                self.exit_status = self.process.returncode
                break
            if time.monotonic() >= deadline:
                self.kill()
                deadline = time.monotonic() + 5.0
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
        self.kill()  # anything the engine left behind in its group
        self._stdout_thread.join(1.0)
        if self._stderr_thread is not None:
            self._stderr_thread.join(1.0)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if rusage is None:
            return None
        return rusage.ru_utime + rusage.ru_stime


class GtpController:
    """Send commands to one engine and return its responses.

    Every command has a timeout (default_timeout unless given); a channel
    error marks the controller bad, after which every command fails at once.

    Public attributes:
      name        -- used in error messages ('player xxx')
      channel_is_bad
      known_commands_cache
    """

    def __init__(self, channel: Channel, name: str, *,
                 default_timeout: float | None = None,
                 aliases: dict[str, str] | None = None,
                 gtp_log: TextIO | None = None, log_label: str = "") -> None:
        self.channel = channel
        self.name = name
        self.default_timeout = default_timeout
        self.aliases = aliases or {}
        self.gtp_log = gtp_log
        self.log_label = log_label or name
        self.channel_is_bad = False
        self.is_closed = False
        self.known_commands_cache: dict[str, bool] = {}
        self.cpu_time_from_close: float | None = None

    def _log(self, direction: str, text: str) -> None:
        if self.gtp_log is not None:
            self.gtp_log.write(f"{direction} {self.log_label}: {text}\n")
            self.gtp_log.flush()

    def do_command(self, command: str, *arguments: str,
                   timeout: float | None | object = _USE_DEFAULT) -> str:
        """Send a command and return the success response's text.

        Raises BadGtpResponse for a failure response, GtpChannelError (with a
        message naming the command and player) if the channel fails.
        """
        if timeout is _USE_DEFAULT:
            timeout = self.default_timeout
        full = " ".join((command,) + arguments)
        if self.channel_is_bad or self.is_closed:
            raise GtpTransportError(
                f"error sending '{full}' to {self.name}: channel is unusable")
        wire = self.aliases.get(command, command)
        wire_full = " ".join((wire,) + arguments)
        self._log(">>", wire_full)
        try:
            self.channel.send_command(wire, arguments)
        except GtpChannelError as exc:
            self.channel_is_bad = True
            raise type(exc)(f"error sending '{full}' to {self.name}: {exc}") from None
        try:
            is_failure, text = self.channel.get_response(timeout)
        except GtpChannelError as exc:
            self.channel_is_bad = True
            if isinstance(exc, GtpTimeout):
                limit = f" ({timeout:g}s)" if timeout is not None else ""
                message = f"timeout{limit} waiting for response to '{full}' from {self.name}"
            else:
                message = f"error reading response to '{full}' from {self.name}: {exc}"
            self._log("<<", f"[{exc}]")
            raise type(exc)(message) from None
        self._log("<<", ("? " if is_failure else "= ") + text)
        if is_failure:
            raise BadGtpResponse(
                f"failure response from '{full}' to {self.name}: {text}",
                command, arguments, text)
        return text

    def known_command(self, command: str) -> bool:
        """Ask (once) whether the engine knows a command; False on any failure response."""
        if command not in self.known_commands_cache:
            wire = self.aliases.get(command, command)
            try:
                known = self.do_command("known_command", wire).strip().lower() == "true"
            except BadGtpResponse:
                known = False
            self.known_commands_cache[command] = known
        return self.known_commands_cache[command]

    def close(self, quit_timeout: float = 5.0) -> None:
        """Send quit if the channel is usable, then close it (the engine is always killed).

        Raises GtpChannelError if quit fails; the engine is closed anyway.
        """
        if self.is_closed:
            return
        error = None
        try:
            if not self.channel_is_bad:
                try:
                    self.do_command("quit", timeout=quit_timeout)
                except BadGtpResponse:
                    pass
                except GtpChannelError as exc:
                    error = exc
        finally:
            self.is_closed = True
            self.cpu_time_from_close = self.channel.close(quit_timeout)
        if error is not None:
            raise error

    def kill(self) -> None:
        self.channel_is_bad = True
        self.channel.kill()
