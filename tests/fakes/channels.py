"""In-process GTP channels for tests: scripted, and onto programmed and fake engines."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from ringmaster.game.job import PlayerSpec
from ringmaster.gtp.channel import (
    Channel,
    GtpChannelClosed,
    GtpChannelError,
    GtpProtocolError,
    GtpTimeout,
)
from ringmaster.gtp.engine import GtpEngine, GtpError
from tests.fakes.fake_commands import FAKE_ENGINE
from tests.fakes.fake_engine import make_engine, parse

FAIL = object()


class ScriptedChannel(Channel):
    """Expects commands in order and gives scripted responses.

    script: [(command line, (is_failure, text))]; a response may instead be an
    exception instance to raise from get_response().
    """

    def __init__(self, script: list[tuple[str, object]]) -> None:
        self.script = list(script)
        self.sent: list[str] = []
        self.timeouts: list[float | None] = []
        self.closed = False
        self.killed = False
        self._pending: list[object] = []   # responses not yet read, in order

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        line = " ".join((command,) + tuple(arguments))
        self.sent.append(line)
        if not self.script:
            raise AssertionError(f"unexpected command {line!r}")
        expected, response = self.script.pop(0)
        if expected != line:
            raise AssertionError(f"expected {expected!r}, got {line!r}")
        self._pending.append(response)

    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        self.timeouts.append(timeout)
        response = self._pending.pop(0) if self._pending else None
        if isinstance(response, Exception):
            raise response
        return response

    def close(self, timeout: float) -> float | None:
        self.closed = True
        return 0.5

    def kill(self) -> None:
        self.killed = True

    def assert_done(self) -> None:
        assert not self.script, f"commands not sent: {self.script}"


class EngineChannel(Channel):
    """A channel onto an in-process GtpEngine; engine handlers may raise to simulate failures.

    A handler raising a GtpChannelError (GtpTimeout, GtpChannelClosed,
    GtpProtocolError...) makes get_response raise it. first_error, if given,
    is raised by the first get_response instead (an engine speaking GMP).
    """

    def __init__(self, engine: GtpEngine, first_error: GtpChannelError | None = None) -> None:
        self.engine = engine
        self.log: list[str] = []
        self._responses: list[tuple[bool, str] | Exception] = []   # not yet read, in order
        self._first_error = first_error
        self.closed = False

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        self.log.append(" ".join((command,) + tuple(arguments)))
        if self._first_error is not None:
            self._responses.append(self._first_error)
            self._first_error = None
            return
        try:
            is_failure, text, _ = self.engine.run_command(command, list(arguments))
            self._responses.append((is_failure, text))
        except GtpChannelError as exc:
            self._responses.append(exc)

    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        response = self._responses.pop(0) if self._responses else None
        if isinstance(response, Exception):
            raise response
        return response

    def close(self, timeout: float) -> float | None:
        self.closed = True
        return 1.25

    def kill(self) -> None:
        self.closed = True


def programmed_engine(moves: list[str], *, name: str = "programmed",
                      extra: dict[str, Callable] | None = None, dead: str | None = "") -> GtpEngine:
    """An engine whose genmove answers come from a list (then 'pass').

    A list item may be a callable (called with no arguments) to fail or misbehave.
    It answers 'final_status_list dead' with dead (by default no stone), or doesn't
    know the command if dead is None.
    """
    engine = GtpEngine(name, "1.0")
    queue = list(moves)

    def genmove(args: list[str]) -> str:
        if not queue:
            return "pass"
        item = queue.pop(0)
        return item() if callable(item) else item

    engine.add_commands({
        "boardsize": lambda args: None, "clear_board": lambda args: None,
        "komi": lambda args: None, "play": lambda args: None, "genmove": genmove,
    })
    if dead is not None:
        engine.add_command("final_status_list", lambda args: dead)
    if extra:
        engine.add_commands(extra)
    return engine


def raiser(exc: Exception) -> Callable:
    def fail(*args):
        raise exc
    return fail


def gtp_failure(message: str) -> Callable:
    return raiser(GtpError(message))


class _ExitedAtStart(Exception):
    pass


class VirtualTime:
    """A monotonic clock that moves only when an in-process fake engine thinks (--think).

    The virtual_time fixture (conftest) makes the ringmaster's clock read it,
    so that a test of losses on time depends on no real timing.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


VIRTUAL_TIME: VirtualTime | None = None
"""The virtual clock in-process fake engines think on (set by the virtual_time fixture);
None: they sleep."""


class InProcessMisbehaviour:
    """How the fake engine misbehaves in-process: the channel errors a subprocess's would cause."""

    def __init__(self, stderr: str | Callable[[str], None]) -> None:
        self._stderr = stderr
        self.first_error: GtpChannelError | None = None

    def think(self, seconds: float) -> None:
        if VIRTUAL_TIME is not None:
            VIRTUAL_TIME.sleep(seconds)
        else:
            time.sleep(seconds)

    def exit_at_start(self) -> None:
        raise _ExitedAtStart

    def crash(self) -> None:
        raise GtpChannelClosed("engine has closed the response channel")

    def hang(self) -> None:
        raise GtpTimeout("timed out waiting for a response")

    def garbage(self) -> None:
        raise GtpProtocolError(
            "no success/failure indication from engine: first line is `this is not GTP`")

    def gmp(self) -> None:
        self.first_error = GtpProtocolError("engine appears to be speaking GMP, not GTP!")

    def spawn_child(self) -> None:
        raise AssertionError("--spawn-child needs a real process: use SubprocessChannel")

    def escape_child(self, pid_file: str) -> None:
        raise AssertionError("--escape-child needs a real process: use SubprocessChannel")

    def answer_and_exit(self, is_failure: bool, text: str) -> None:
        raise AssertionError("--exit-after needs a real process: use SubprocessChannel")

    def answer_again_late(self, is_failure: bool, text: str) -> None:
        raise AssertionError("--answer-twice-on needs a real process: use SubprocessChannel")

    def stderr(self, text: str) -> None:
        if callable(self._stderr):
            self._stderr(text)


class ClosedChannel(Channel):
    """A channel onto an engine that exited before answering anything."""

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        pass

    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        raise GtpChannelClosed("engine has closed the response channel")

    def close(self, timeout: float) -> float | None:
        return None

    def kill(self) -> None:
        pass


def is_fake_engine_command(command: list[str] | tuple[str, ...]) -> bool:
    return list(command[:2]) == [sys.executable, FAKE_ENGINE]


def fake_engine_channel(spec: PlayerSpec, env: dict[str, str],
                        stderr: str | Callable[[str], None]) -> EngineChannel | ClosedChannel:
    """A channel factory running fake_engine_command() players in-process: no subprocess.

    Raises AssertionError for any other command, so that a test using it
    can't start a process by mistake.
    """
    if not is_fake_engine_command(spec.command):
        raise AssertionError(f"not a fake engine command: {spec.command}")
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        raise GtpChannelError(f"bad working directory: {spec.cwd}")
    misbehave = InProcessMisbehaviour(stderr)
    try:
        engine = make_engine(parse(list(spec.command[2:])), misbehave, env)
    except _ExitedAtStart:
        return ClosedChannel()
    return EngineChannel(engine, misbehave.first_error)


def recording_factory(events: list, fail_launch: str | None = None):
    """fake_engine_channel, recording each launch, command and close in events, in order;
    launching the player fail_launch raises GtpChannelError instead."""
    def factory(spec, env, stderr):
        if spec.code == fail_launch:
            raise GtpChannelError("no such engine")
        channel = fake_engine_channel(spec, env, stderr)
        events.append(("launch", spec.code))
        send, close, kill = channel.send_command, channel.close, channel.kill

        def recording_send(command, arguments):
            events.append((spec.code, command))
            send(command, arguments)

        def recording_close(timeout):
            events.append(("close", spec.code))
            return close(timeout)

        def recording_kill():
            events.append(("kill", spec.code))
            kill()

        channel.send_command, channel.close, channel.kill = \
            recording_send, recording_close, recording_kill
        return channel
    return factory
