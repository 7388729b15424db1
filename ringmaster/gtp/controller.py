"""Controller side of GTP: commands to one engine over a channel, its responses, timeouts and its close."""

from __future__ import annotations

import time
from typing import TextIO

from ringmaster.files import clipped, one_line
from ringmaster.gtp.channel import (
    Channel,
    GtpChannelClosed,
    GtpChannelError,
    GtpProtocolError,
    GtpTimeout,
    GtpTransportError,
)

_USE_DEFAULT = object()

SentCommands = tuple[tuple[str, tuple[str, ...]], ...]
"""Commands sent in one write, each (name, arguments), awaiting their responses."""












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
















class GtpController:
    """Send commands to one engine and return its responses.

    Every command has a timeout (default_timeout unless given); a channel
    error marks the controller bad, after which every command fails at once.

    Public attributes:
      name        -- used in error messages ('player xxx')
      channel_is_bad
      known_commands_cache
      listed_commands -- what list_commands named, once asked (game.time_commands); None before
      warned      -- the one-off warnings already given about this engine (a kept engine
                     keeps them from game to game)
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
        self.listed_commands: frozenset[str] | None = None
        self.warned: set[str] = set()
        self.cpu_time_from_close: float | None = None
        self._quit_sent: bool | GtpChannelError = False   # by send_quit: True, or its error
        self._awaited = 0                     # commands sent whose responses aren't read yet
        self._last_answered: str | None = None   # the last command whose response was read
        self._unusable: str | None = None   # the error that made the channel bad, said again after

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
        self._send([(command, arguments)])
        response = self._receive(command, arguments, timeout)
        if isinstance(response, BadGtpResponse):
            raise response
        return response

    def send_commands(self, *commands: tuple[str, ...]) -> SentCommands:
        """Send commands at once (one write, so the engine wakes once); each is
        (name, *arguments). Read their responses with receive_commands.

        The caller may do other work while the engine answers, but must read
        the responses before this controller is sent anything else. Raises
        GtpChannelError as do_command does.
        """
        sent = tuple((command[0], tuple(command[1:])) for command in commands)
        self._send(list(sent))
        return sent

    def receive_commands(self, sent: SentCommands,
                         deadline: float | None = None) -> list[str | BadGtpResponse]:
        """Read the responses to commands sent by send_commands, each within the default
        timeout, or all by deadline (time.monotonic() seconds) if it is given.

        Returns each response's text, or the BadGtpResponse of a failure
        response (returned, not raised, so that the caller can judge each;
        every response is read whatever the ones before it said). Raises
        GtpChannelError as do_command does, naming the command whose response
        was awaited (GtpTimeout if the deadline passed: the engine is killed).
        """
        if deadline is None:
            return [self._receive(name, arguments, self.default_timeout) for name, arguments in sent]
        return [self._receive(name, arguments, max(0.0, deadline - time.monotonic()))
                for name, arguments in sent]

    def _send(self, commands: list[tuple[str, tuple[str, ...]]]) -> None:
        if self.channel_is_bad or self.is_closed:
            full = " ".join((commands[0][0],) + commands[0][1])
            why = f": {self._unusable}" if self._unusable else ""
            raise GtpTransportError(
                f"error sending '{full}' to {self.name}: channel is unusable{why}")
        if self._awaited == 0 and commands[0][0] != "quit":
            self._check_nothing_unasked()
        aliases = self.aliases
        wire = [(aliases.get(command, command), arguments) for command, arguments in commands] \
            if aliases else commands
        if self.gtp_log is not None:
            for command, arguments in wire:
                self._log(">>", " ".join((command,) + arguments))
        try:
            self.channel.send_commands(wire)
        except GtpChannelError as exc:
            full = " ".join((commands[0][0],) + commands[0][1])
            raise self._broken(type(exc)(f"error sending '{full}' to {self.name}: {exc}")) from None
        self._awaited += len(commands)

    def _check_nothing_unasked(self) -> None:
        """Raise GtpProtocolError if the engine has said something since its last response
        (more responses than commands: the extra would be read as the next command's answer).

        One that comes late, after the next command is sent, is caught by the channel
        (SubprocessChannel matches each answer's id to its command's), unless it has no
        id (the engine echoes none, or not on that answer): then it is read as the next
        command's answer.
        """
        extra = self.channel.unasked_output()
        if not extra or self._last_answered is None:
            return
        first_line = one_line(extra.decode("utf-8", "replace").splitlines()[0])
        raise self._broken(GtpProtocolError(
            f"{self.name} sent output no command asked for after its response to "
            f"'{self._last_answered}' (more responses than commands): {clipped(first_line, 40)!r}"))

    def _broken(self, exc: GtpChannelError) -> GtpChannelError:
        """Mark the channel bad, keeping the first error's message for every later command."""
        self.channel_is_bad = True
        if self._unusable is None:
            self._unusable = str(exc)
        return exc

    def _receive(self, command: str, arguments: tuple[str, ...],
                 timeout: float | None) -> str | BadGtpResponse:
        """The response to command: its text, or the BadGtpResponse of a failure response."""
        self._awaited = max(0, self._awaited - 1)
        try:
            is_failure, text = self.channel.get_response(timeout)
        except GtpChannelError as exc:
            full = " ".join((command,) + arguments)
            if isinstance(exc, GtpTimeout):
                limit = f" ({timeout:g}s)" if timeout is not None else ""
                message = f"timeout{limit} waiting for response to '{full}' from {self.name}"
            else:
                message = f"error reading response to '{full}' from {self.name}: {exc}"
            self._log("<<", f"[{exc}]")
            raise self._broken(type(exc)(message)) from None
        self._last_answered = " ".join((command,) + arguments)
        if self.gtp_log is not None:
            self._log("<<", ("? " if is_failure else "= ") + text)
        if is_failure:
            full = " ".join((command,) + arguments)
            return BadGtpResponse(   # the message is kept (a forfeit's reason): not 1 MB of it
                f"failure response from '{full}' to {self.name}: {clipped(text)}",
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

    def send_quit(self) -> None:
        """Send quit now and leave its response to close(), so that engines closed
        together exit together: send each its quit, then close each.

        Does nothing if the channel is unusable or quit was sent; an error
        sending is raised by close().
        """
        if self.is_closed or self.channel_is_bad or self._quit_sent:
            return
        try:
            self._send([("quit", ())])
            self._quit_sent = True
        except GtpChannelError as exc:
            self._quit_sent = exc

    def close(self, quit_timeout: float = 5.0) -> None:
        """Send quit if the channel is usable (unless send_quit did), read its response,
        then close the channel (the engine is always killed).

        Raises GtpChannelError if quit fails; the engine is closed anyway. An engine that
        exits in answer to quit, closing its channel without a response, has done what quit
        asks: that is no error (GTP wants a response, but nothing depends on it).
        """
        if self.is_closed:
            return
        if not self.channel_is_bad:
            self.send_quit()
        error = self._quit_sent if isinstance(self._quit_sent, GtpChannelError) else None
        try:
            if error is None and not self.channel_is_bad:
                try:
                    self._receive("quit", (), quit_timeout)   # a failure response is fine
                except GtpChannelClosed:
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

    def abandon(self) -> None:
        """Kill the engine and close its channel at once, without quit: for an engine
        given up on. The channel is closed once only (not again after close())."""
        self.kill()
        if not self.is_closed:
            self.is_closed = True
            self.channel.close(0)
