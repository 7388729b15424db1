"""The transport under a GTP controller: an engine subprocess's pipes, read with timeouts, and its end."""

from __future__ import annotations

import math
import os
import re
import select
import signal
import subprocess
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable

from ringmaster.files import clipped, one_line
from ringmaster.gtp.exit_watch import EXIT_CHECK_SECONDS, ExitWatch
from ringmaster.gtp.launch import engine_start_error, launch_plan

# Engines are untrusted: these bound what one of them can make us hold in memory.
MAX_RESPONSE_BYTES = 1_000_000


MAX_STDERR_BYTES_PER_ENGINE = 2_000_000


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


def clean_response_line(line: str) -> str:
    """Drop control characters other than tab and newline, CRs included; tabs become spaces."""
    if line.isprintable():
        return line   # the usual line (checked in C): nothing to drop
    return "".join(ch for ch in line if ch >= " " or ch in "\t\n").replace("\t", " ")


class Channel(ABC):
    """What a controller needs from a transport (a subprocess, or a fake in tests).

    Every channel subclasses it: the first four methods are its own; the
    rest have defaults for a channel with no process or pipes of its own.
    """

    @abstractmethod
    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        """Send one command."""

    @abstractmethod
    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        """Read the next response: (is_failure, text)."""

    @abstractmethod
    def close(self, timeout: float) -> float | None:
        """End the conversation; returns the engine's CPU seconds, if known."""

    @abstractmethod
    def kill(self) -> None:
        """Kill the engine at once."""

    def send_commands(self, commands: list[tuple[str, tuple[str, ...]]]) -> None:
        """Send commands (their responses are read in turn); by default one at a time."""
        for command, arguments in commands:
            self.send_command(command, arguments)

    def unasked_output(self) -> bytes:
        """What the engine has said since its last response (by default nothing)."""
        return b""

    def is_idle(self) -> bool:
        """Whether the engine can be kept for another game (by default it can)."""
        return True

    def set_stderr_sink(self, sink: Callable[[str], None] | None) -> None:
        """Send stderr lines to another function from now on (by default: no stderr to send)."""
        return None

    def process_cpu_time(self) -> float | None:
        """CPU seconds the engine has used so far (by default unknown: None)."""
        return None

    def pid(self) -> int | None:
        """The engine's process id (by default none: an in-process engine)."""
        return None


def _drop_line(line: str) -> None:
    pass


class SubprocessChannel(Channel):
    """A GTP engine running as a subprocess, in its own process group.

    It is started without a shell, in a new session, with the parent-death
    signal set (gtp.launch: through setpriv where it can). Its stdout (and
    stderr, when a sink takes it) is read with poll() on non-blocking pipes in
    the calling thread, so every read can time out, no thread holds anything
    that closing needs, and neither reading nor closing waits for a descendant
    that keeps the pipes open: once the engine process has exited, stdout ends
    with what it holds then (an escaped child's copy of the pipe brings no end
    of file). stderr is drained whenever a response is awaited, and once more
    when the channel closes. Closing or killing the channel kills the engine's
    process group.

    Each command goes with an id ('7 genmove b'), which GTP has the engine echo
    in its answer ('=7 C3'), so that an answer is matched to its command: an
    answer with another id (compared as numbers: '=07' is 7's) is a second
    answer to an earlier command, written after its next command was sent, or
    an answer to no command, a GtpProtocolError naming what it was, never taken
    for the awaited command's. An answer without an id is taken for the awaited
    command's, in order (engines echo ids on some answers only: none on quit's,
    or on a failure's). An engine that writes the id after a space ('= 1 2',
    print('=', id, text)), as its first answer shows, has it taken off each
    answer that starts with the awaited id. An engine whose first answer has
    no id is sent none from then on; if that answer is a failure (the engine
    took the id for the command's name), its command is sent again without
    one, when it was sent alone (the controller's first command,
    protocol_version, is). send_ids false: no command is sent with an id (an
    engine that can't take them: the player's gtp_ids setting).
    """

    def __init__(self, command: list[str], *, cwd: str | None = None,
                 env: dict[str, str] | None = None,
                 stderr: str | Callable[[str], None] = "discard",
                 missing_hint: str | None = None, send_ids: bool = True) -> None:
        """stderr: 'discard', 'inherit', or a function called with each line; missing_hint:
        said if the program can't be started (launch.engine_start_error); send_ids: false
        for an engine that can't take command ids."""
        if stderr == "discard":
            stderr_arg = subprocess.DEVNULL
        elif stderr == "inherit":
            stderr_arg = None
        else:
            stderr_arg = subprocess.PIPE
        argv, preexec_fn = launch_plan(command, cwd, env)
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=stderr_arg, cwd=cwd, env=env, close_fds=True,
                start_new_session=True, preexec_fn=preexec_fn)
        except OSError as exc:
            raise GtpTransportError(engine_start_error(command, exc, hint=missing_hint)) from None
        self.pgid = self.process.pid
        self.is_first_response = True
        self.exit_status: int | None = None
        # Whether commands go with ids and answers are matched by them (None: until the first answer).
        self.echoes_ids: bool | None = None if send_ids else False
        self._spaced_ids = False   # the engine writes '= 7 C3' for '=7 C3'
        self._next_id = 1
        self._awaited: deque[tuple[int, str]] = deque()   # (id, line) of commands not yet answered
        self._answered: deque[tuple[int, str]] = deque(maxlen=16)   # the last answered, to name
        self._stdin_fd = self.process.stdin.fileno()
        self._stdout_fd: int | None = self.process.stdout.fileno()
        os.set_blocking(self._stdout_fd, False)
        self._stdout_buffer = b""
        self._stdout_eof = False
        self._closed_message = "engine has closed the response channel"
        self._exit = ExitWatch(self.process.pid)
        self._engine_exited = False
        self._stderr_fd: int | None = None
        self._stderr_sink: Callable[[str], None] | None = None
        self._stderr_buffer = b""
        self._stderr_budget = MAX_STDERR_BYTES_PER_ENGINE
        self._poller = select.poll()
        self._poller.register(self._stdout_fd, select.POLLIN)
        if self._exit.fd is not None:
            self._poller.register(self._exit.fd, select.POLLIN)
        if callable(stderr):
            self._stderr_fd = self.process.stderr.fileno()
            os.set_blocking(self._stderr_fd, False)
            self._stderr_sink = stderr
            self._poller.register(self._stderr_fd, select.POLLIN)

    def set_stderr_sink(self, sink: Callable[[str], None] | None) -> None:
        """Send stderr lines to another function from now on (None: drop them).

        For an engine kept between games; does nothing for an engine whose
        stderr isn't piped.
        """
        if self._stderr_fd is not None:
            if self._stderr_sink is not None:
                self._drain_stderr(time.monotonic() + 0.05)
            self._stderr_sink = sink if sink is not None else _drop_line

    def pid(self) -> int | None:
        """The engine process's id."""
        return self.process.pid

    def process_cpu_time(self) -> float | None:
        """CPU seconds (user + system) the engine process has used so far (Linux), or None."""
        try:
            with open(f"/proc/{self.process.pid}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rfind(b")") + 2:].split()
            ticks = int(fields[11]) + int(fields[12])
            return ticks / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def is_idle(self) -> bool:
        """Whether the engine is running and has said nothing since its last response
        (read now, without waiting): an engine between games must be."""
        if not self.is_running() or self._stdout_buffer or self._stdout_eof:
            return False
        self._read_what_is_there()
        return not (self._stdout_buffer or self._stdout_eof) and self.is_running()

    def unasked_output(self) -> bytes:
        """What the engine has written to stdout since its last response, blank lines aside
        (read now, without waiting): with no command outstanding, it should be nothing."""
        if not self._stdout_eof:
            self._read_what_is_there()
        return self._stdout_buffer.strip()

    def _read_what_is_there(self) -> None:
        """Read what stdout holds now into the buffer, without waiting."""
        if self._stdout_fd is not None:
            ready = select.poll()
            ready.register(self._stdout_fd, select.POLLIN)
            if ready.poll(0):
                self._read_stdout()

    def is_running(self) -> bool:
        """Whether the engine process hasn't exited."""
        return self.exit_status is None and self.process.poll() is None

    # stderr

    def _read_stderr(self) -> bool:
        """Pass on what stderr has now; returns False at end of file (or on an error)."""
        try:
            data = os.read(self._stderr_fd, 65536)
        except BlockingIOError:
            return True
        except OSError:
            data = b""
        if not data:
            self._stop_stderr()
            return False
        if self._stderr_budget > 0:
            self._stderr_buffer += data
            *lines, self._stderr_buffer = self._stderr_buffer.split(b"\n")
            if len(self._stderr_buffer) > 65536:
                lines.append(self._stderr_buffer)
                self._stderr_buffer = b""
            for raw in lines:
                self._emit_stderr(raw)
        return True

    def _emit_stderr(self, raw: bytes) -> None:
        if self._stderr_budget <= 0:
            return
        self._stderr_budget -= len(raw) + 1
        self._stderr_sink(one_line(raw.decode("utf-8", "replace").rstrip("\r")))
        if self._stderr_budget <= 0:
            self._stderr_sink("[further stderr output discarded]")

    def _stop_stderr(self) -> None:
        if self._stderr_fd is None:
            return
        if self._stderr_buffer:
            self._emit_stderr(self._stderr_buffer)
            self._stderr_buffer = b""
        try:
            self._poller.unregister(self._stderr_fd)
        except (KeyError, ValueError):
            pass
        self._stderr_fd = None

    def _drain_stderr(self, deadline: float) -> None:
        """Read stderr until it has nothing more to give now, or the deadline passes."""
        while self._stderr_fd is not None and time.monotonic() < deadline:
            if not self._stderr_ready(0) or not self._read_stderr():
                break

    def _stderr_ready(self, seconds: float) -> bool:
        poller = select.poll()   # not select(): it fails on descriptors past 1023
        poller.register(self._stderr_fd, select.POLLIN)
        return bool(poller.poll(math.ceil(seconds * 1000)))

    # stdout

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        self.send_commands([(command, arguments)])

    def send_commands(self, commands: list[tuple[str, tuple[str, ...]]]) -> None:
        """Send commands in one write (their responses are read in turn), each with an id
        unless the engine echoes none."""
        lines = [" ".join((command, *arguments)) for command, arguments in commands]
        if self.echoes_ids is not False:
            ids = range(self._next_id, self._next_id + len(lines))
            self._next_id += len(lines)
            self._awaited.extend(zip(ids, lines))
            data = "".join([f"{n} {line}\n" for n, line in zip(ids, lines)]).encode("utf-8")
        else:
            data = "".join([line + "\n" for line in lines]).encode("utf-8")
        try:
            while data:   # one write a command (the pipe is blocking): no buffer to flush
                data = data[os.write(self._stdin_fd, data):]
        except BrokenPipeError:
            raise GtpChannelClosed("engine has closed the command channel") from None
        except (OSError, ValueError) as exc:
            raise GtpTransportError(f"error sending command: {exc}") from None

    def _take_line(self) -> bytes | None:
        """A complete line from the buffer (or an over-long piece, or the rest at EOF)."""
        buffer = self._stdout_buffer
        end = buffer.find(b"\n", 0, MAX_RESPONSE_BYTES + 1)
        if end >= 0:
            self._stdout_buffer = buffer[end + 1:]
            return buffer[:end + 1]
        if len(buffer) > MAX_RESPONSE_BYTES or (self._stdout_eof and buffer):
            self._stdout_buffer = b""
            return buffer[:MAX_RESPONSE_BYTES + 1]
        return None

    def _next_line(self, deadline: float | None) -> bytes:
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._stdout_eof:
                raise GtpChannelClosed(self._closed_message)
            self._wait_for_output(deadline)

    def _wait_for_output(self, deadline: float | None) -> None:
        """Wait until stdout or stderr has something (or is closed) and read it.

        Once the engine has exited, stdout is read without waiting, and ends
        when it has nothing more now (all the engine wrote is in the pipe
        by then). Raises GtpTimeout if the deadline passes first.
        """
        exited = self._engine_exited   # before this poll: then stdout holds all it will
        if exited:
            wait_ms = 0
        elif deadline is None:
            wait_ms = -1
        else:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise GtpTimeout("timed out waiting for a response")
            wait_ms = max(1, math.ceil(remaining * 1000))
        if self._exit.fd is None and not exited:
            check_ms = math.ceil(EXIT_CHECK_SECONDS * 1000)
            wait_ms = check_ms if wait_ms < 0 else min(wait_ms, check_ms)
        try:
            events = self._poller.poll(wait_ms)
        except InterruptedError:  # pragma: no cover (PEP 475 retries)
            return
        stdout_ready = False
        for fd, _ in events:
            if fd == self._stdout_fd:
                stdout_ready = True
                self._read_stdout()
            elif fd == self._stderr_fd:
                self._read_stderr()
            elif fd == self._exit.fd:
                self._note_exit()
        if self._exit.fd is None and not exited and self._exit.has_exited():
            self._note_exit()
        if exited and not stdout_ready and not self._stdout_eof:
            self._end_stdout("engine has exited, and a process it started holds its output open")

    def _note_exit(self) -> None:
        """The engine process has exited: stdout is read from now on without waiting."""
        self._engine_exited = True
        if self._exit.fd is not None:
            try:
                self._poller.unregister(self._exit.fd)
            except (KeyError, ValueError):
                pass

    def _end_stdout(self, message: str | None = None) -> None:
        """No more responses: end of file, or the engine's exit (message says which)."""
        self._stdout_eof = True
        if message is not None:
            self._closed_message = message
        try:
            self._poller.unregister(self._stdout_fd)
        except (KeyError, ValueError):
            pass

    def _read_stdout(self) -> None:
        try:
            data = os.read(self._stdout_fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            self._stdout_buffer += data
        else:
            self._end_stdout()

    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        """Read one response; returns (is_failure, text).

        Raises GtpTimeout if no complete response arrives within timeout
        seconds (the engine is then killed), GtpChannelClosed on end of file,
        GtpProtocolError on something that isn't a response, or that has the id
        of another command than the first awaited.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            is_failure, text, response_id = self._read_response(deadline)
            awaited = self._awaited
            if awaited:
                if response_id:
                    return self._match_id(is_failure, text, response_id)
                return self._in_order(is_failure, text, deadline)
            return is_failure, text
        except GtpTimeout:
            self.kill()
            raise

    def _match_id(self, is_failure: bool, text: str, response_id: str) -> tuple[bool, str]:
        """The answer to the first command awaited if the response has its id; else raises
        GtpProtocolError for a second answer to an earlier command, or an answer to none."""
        awaited, line = self._awaited.popleft()
        number = _id_number(response_id)
        if number == awaited:   # the usual answer: its command's id
            self._answered.append((awaited, line))
            self.echoes_ids = True
            return is_failure, text
        first_line = text.partition("\n")[0]
        written = repr(clipped(f"{'?' if is_failure else '='}{response_id} {first_line}".rstrip(), 40))
        earlier = next((sent for sent_id, sent in self._answered if sent_id == number), None)
        if earlier is not None:
            raise GtpProtocolError(f"engine sent a second answer to '{earlier}': {written}")
        raise GtpProtocolError(f"engine sent an answer to no command (not with the id of "
                               f"'{clipped(line, 40)}', the command awaited): {written}")

    def _in_order(self, is_failure: bool, text: str, deadline: float | None) -> tuple[bool, str]:
        """The answer to the first command awaited, whose id the response lacks (see the
        class's docstring): the id after a space taken off, or the command asked again."""
        awaited, line = self._awaited.popleft()
        spaced = _SPACED_ID.match(text)
        if spaced is not None and _id_number(spaced.group(1)) == awaited and (
                self._spaced_ids or (self.echoes_ids is None and text[spaced.end():].strip())):
            self._spaced_ids = self.echoes_ids = True   # '= 1 2' (first) or '= 7' (later)
            self._answered.append((awaited, line))
            return is_failure, text[spaced.end():]
        if self.echoes_ids is None:   # the first answer: it echoes no ids
            self.echoes_ids = False
            alone = not self._awaited
            self._awaited.clear()
            if is_failure and alone:   # perhaps the id was taken for the command: again without
                self.send_commands([(line, ())])
                return self._read_response(deadline)[:2]
            return is_failure, text
        self._answered.append((awaited, line))
        return is_failure, text

    def _read_response(self, deadline: float | None) -> tuple[bool, str, str]:
        # The usual response ('=' or '?', one printable line, a blank line) is taken
        # whole from the buffer; anything else goes to _read_response_lines, which
        # reads the usual response to the same result, only slower.
        while not self.is_first_response:
            usual = self._take_usual_response()
            if usual is not None:
                return usual
            if self._stdout_eof or self._stdout_buffer:
                break   # something else (or a part of a response), or the channel closed
            self._wait_for_output(deadline)   # nothing yet
        return self._read_response_lines(deadline)

    def _take_usual_response(self) -> tuple[bool, str, str] | None:
        """(is_failure, text, id) of the usual response if the buffer starts with one whole,
        else None; the id is its digits ('' for none)."""
        buffer = self._stdout_buffer
        end = buffer.find(b"\n", 0, MAX_RESPONSE_BYTES - 1)   # both lines within the limit
        if end < 1 or buffer[end + 1:end + 2] != b"\n" or buffer[0] not in b"=?":
            return None
        line = buffer[:end].decode("utf-8", "replace")
        if not line.isprintable():   # a CR, a tab or a control character: the general reader
            return None
        self._stdout_buffer = buffer[end + 2:]
        rest = line[1:]
        text = rest.lstrip("0123456789")
        return line[0] == "?", text.strip(), rest[:len(rest) - len(text)]

    def _read_response_lines(self, deadline: float | None) -> tuple[bool, str, str]:
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
        rest = first[1:]
        first = rest.lstrip("0123456789")
        text = "\n".join([first.lstrip()] + lines[1:]).rstrip()
        return is_failure, text, rest[:len(rest) - len(first)]

    def kill(self) -> None:
        """Kill the engine's whole process group at once."""
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self, timeout: float = 5.0) -> float | None:
        """Wait for the engine to exit (killing it after timeout), then kill its group.

        Never waits for anything but the engine itself: a descendant that
        keeps its pipes open doesn't hold this up. Returns the CPU time (user
        + system) the engine process used, if known.
        """
        try:
            self.process.stdin.close()
        except OSError:
            pass
        deadline = time.monotonic() + timeout
        rusage = None
        pause = 0.0005
        exited = _exit_poller(self._exit.fd)
        try:
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
                if exited is not None:
                    self._wait_for_exit(exited, deadline)
                else:
                    self._pause(pause)
                    pause = min(pause * 2, 0.02)
        finally:
            self._exit.close()
        self.kill()  # anything the engine left behind in its group
        self._drain_stderr(time.monotonic() + 0.5)
        self._stop_stderr()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if rusage is None:
            return None
        return rusage.ru_utime + rusage.ru_stime

    def _wait_for_exit(self, poller: select.poll, deadline: float) -> None:
        """Wait until the engine exits (its pidfd is readable) or the deadline passes,
        passing on stderr meanwhile (an engine blocked writing it can then exit)."""
        if self._stderr_fd is not None:
            poller.register(self._stderr_fd, select.POLLIN)
        try:
            wait_ms = max(1, math.ceil((deadline - time.monotonic()) * 1000))
            for fd, _event in poller.poll(wait_ms):
                if fd == self._stderr_fd:
                    self._read_stderr()
        finally:
            if self._stderr_fd is not None:
                try:
                    poller.unregister(self._stderr_fd)
                except (KeyError, ValueError):
                    pass

    def _pause(self, seconds: float) -> None:
        """Sleep, passing on stderr meanwhile (an engine blocked writing it can then exit)."""
        if self._stderr_fd is None:
            time.sleep(seconds)
        elif self._stderr_ready(seconds):
            self._read_stderr()


_SPACED_ID = re.compile(r"([0-9]+)(?:[ \t]+|(?=\n)|\Z)")
"""An id written after a space, at the start of a response's text ('= 1 2' gives '1 2')."""


def _id_number(digits: str) -> int | None:
    """A response's id as a number ('07' is 7); None for one longer than any id sent."""
    return int(digits) if len(digits) <= 18 else None


def _exit_poller(pidfd: int | None) -> select.poll | None:
    """A poll object watching the engine's pidfd (readable once it has exited).

    None where the system has no pidfds (before Linux 5.3): closing then
    checks for the exit with a pause between checks.
    """
    if pidfd is None:
        return None
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    return poller
