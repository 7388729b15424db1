"""In-process GTP channels for tests: a scripted transport, and a channel onto a programmed engine."""

from __future__ import annotations

from typing import Callable

from ringmaster.gtp.controller import GtpChannelClosed, GtpTimeout
from ringmaster.gtp.engine import GtpEngine, GtpError

FAIL = object()


class ScriptedChannel:
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
        self._pending: object = None

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        line = " ".join((command,) + tuple(arguments))
        self.sent.append(line)
        if not self.script:
            raise AssertionError(f"unexpected command {line!r}")
        expected, response = self.script.pop(0)
        if expected != line:
            raise AssertionError(f"expected {expected!r}, got {line!r}")
        self._pending = response

    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        self.timeouts.append(timeout)
        response, self._pending = self._pending, None
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


class EngineChannel:
    """A channel onto an in-process GtpEngine; engine handlers may raise to simulate failures.

    A handler raising GtpTimeout or GtpChannelClosed makes get_response raise it.
    """

    def __init__(self, engine: GtpEngine) -> None:
        self.engine = engine
        self.log: list[str] = []
        self._response: tuple[bool, str] | Exception | None = None
        self.closed = False

    def send_command(self, command: str, arguments: tuple[str, ...]) -> None:
        self.log.append(" ".join((command,) + tuple(arguments)))
        try:
            is_failure, text, _ = self.engine.run_command(command, list(arguments))
            self._response = (is_failure, text)
        except (GtpTimeout, GtpChannelClosed) as exc:
            self._response = exc

    def get_response(self, timeout: float | None) -> tuple[bool, str]:
        response, self._response = self._response, None
        if isinstance(response, Exception):
            raise response
        return response

    def close(self, timeout: float) -> float | None:
        self.closed = True
        return 1.25

    def kill(self) -> None:
        self.closed = True


def programmed_engine(moves: list[str], *, name: str = "programmed",
                      extra: dict[str, Callable] | None = None) -> GtpEngine:
    """An engine whose genmove answers come from a list (then 'pass').

    A list item may be a callable (called with no arguments) to fail or misbehave.
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
    if extra:
        engine.add_commands(extra)
    return engine


def raiser(exc: Exception) -> Callable:
    def fail(*args):
        raise exc
    return fail


def gtp_failure(message: str) -> Callable:
    return raiser(GtpError(message))
