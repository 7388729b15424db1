"""The referee engine (referee = Player(...)): started when needed, told each move, asked to score."""

from __future__ import annotations

from collections.abc import Callable

from ringmaster.game.scoring import ask_dead_stones, parse_score
from ringmaster.gtp.channel import GtpChannelError
from ringmaster.gtp.controller import BadGtpResponse, GtpController
from ringmaster.rules.base import Colour, Rules

COMMANDS_A_WRITE = 100
"""The most commands sent to the referee engine in one write (a long game's moves): their
answers fit in a pipe's buffer, so that the engine never waits on us while we write."""


class RefereeEngine:
    """A third engine that follows a game and settles what the players can't.

    It is started (by launch, which also greets it) the first time it is asked
    something, then sent the game's set-up commands and, as plays, every stone
    and move the players were told, in order; later questions first send it the
    moves since the last. Its answers are checked like any engine's. Once it
    fails (a crash, a timeout, a refused command), it is asked nothing more in
    this game: each question then returns the failure.

    Public attributes:
      failure -- why it failed, or None
    """

    def __init__(self, launch: Callable[[], GtpController], setup: list[tuple[str, ...]]) -> None:
        self._launch = launch
        self._setup = setup
        self.controller: GtpController | None = None
        self.failure: str | None = None
        self._moves: list[tuple[Colour, str]] = []
        self._sent = 0

    def tell(self, colour: Colour, vertex: str) -> None:
        """A stone or move the players were told (sent with the next question)."""
        self._moves.append((colour, vertex))

    def _fail(self, reason: str) -> str:
        self.failure = reason
        if self.controller is not None:
            self.controller.abandon()
        return reason

    def _catch_up(self) -> str | None:
        """Start the engine if need be and send it the moves it hasn't had; the failure or None."""
        if self.failure is not None:
            return self.failure
        try:
            commands: list[tuple[str, ...]] = []
            if self.controller is None:
                self.controller = self._launch()
                commands += self._setup
            commands += [("play", colour, vertex) for colour, vertex in self._moves[self._sent:]]
            for first in range(0, len(commands), COMMANDS_A_WRITE):
                sent = self.controller.send_commands(*commands[first:first + COMMANDS_A_WRITE])
                for response in self.controller.receive_commands(sent):
                    if isinstance(response, BadGtpResponse):
                        raise response
        except (GtpChannelError, BadGtpResponse) as exc:
            return self._fail(str(exc))
        self._sent = len(self._moves)
        return None

    def dead_stones(self, rules: Rules) -> set[tuple[int, int]] | str:
        """Its final_status_list dead, checked on rules' board, or why it can't say."""
        failure = self._catch_up()
        if failure is not None:
            return failure
        assert self.controller is not None
        answer = ask_dead_stones(self.controller, rules)
        if isinstance(answer, str) and self.controller.channel_is_bad:
            return self._fail(answer)
        return answer

    def final_score(self) -> tuple[Colour | None, float | None, str] | str:
        """Its final_score (winner, margin, its text), or why it can't say."""
        failure = self._catch_up()
        if failure is not None:
            return failure
        assert self.controller is not None
        try:
            if not self.controller.known_command("final_score"):
                return "it has no final_score command"
            text = self.controller.do_command("final_score")
        except BadGtpResponse as exc:
            return str(exc)
        except GtpChannelError as exc:
            return self._fail(str(exc))
        parsed = parse_score(text)
        if parsed is None:
            return f"its final_score is unparsable: {text.strip()[:40]!r}"
        return parsed[0], parsed[1], text.strip()

    def close(self) -> str | None:
        """Quit the engine if it was started; an error closing it, or None."""
        if self.controller is None or self.controller.is_closed:
            return None
        try:
            self.controller.close()
        except GtpChannelError as exc:
            return f"error closing the referee engine: {exc}"
        return None

    def abandon(self) -> None:
        """Kill the engine at once, unless it was closed (the game's stack unwinding)."""
        if self.controller is not None and not self.controller.is_closed:
            self.controller.abandon()
