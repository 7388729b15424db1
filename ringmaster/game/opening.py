"""An opening of a suite: sent to both engines and played on the referee's board before the first genmove."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ringmaster.errors import JobFailed
from ringmaster.gtp.controller import BadGtpResponse, GtpController
from ringmaster.rules.base import Colour, Rules

Point = tuple[int, int]

COMMANDS_A_WRITE = 100
"""The most play commands sent in one write (answers a pipe's buffer holds)."""


@dataclass(frozen=True)
class Opening:
    """One opening of a suite, checked when the control file was read (competitions/openings.py).

    Public attributes:
      name   -- its file, or 'FILE#N' for the Nth game of a collection (1-based)
      index  -- its place in the suite (0-based)
      setup  -- Black's set-up stones (AB): sent as set_free_handicap, White then moves
      moves  -- ((colour, point or None for a pass), ...) in order, colours alternating
                (an Othello pass is there only where the rules force it)
    """

    name: str
    index: int = 0
    setup: tuple[Point, ...] = ()
    moves: tuple[tuple[Colour, Point | None], ...] = ()

    def first_player(self, rules_first: Colour) -> Colour:
        """Who moves after the opening: the other side to its last move, White after set-up
        stones alone, else the rules' first player."""
        if self.moves:
            return "w" if self.moves[-1][0] == "b" else "b"
        return "w" if self.setup else rules_first


def end_of_opening_comment(opening: Opening) -> str:
    return f"end of the opening {opening.name}"


def _send_all(controllers: dict[Colour, GtpController], commands: list[tuple[str, ...]],
              what: Callable[[int], str]) -> None:
    """Send each engine every command, in writes of COMMANDS_A_WRITE, and read the answers.

    Raises JobFailed naming the engine and what was refused (what(index)).
    """
    for first in range(0, len(commands), COMMANDS_A_WRITE):
        batch = commands[first:first + COMMANDS_A_WRITE]
        sent = {colour: controller.send_commands(*batch) for colour, controller in controllers.items()}
        for colour, controller in controllers.items():
            for index, response in enumerate(controller.receive_commands(sent[colour])):
                if isinstance(response, BadGtpResponse):
                    raise JobFailed(f"{controller.name} refused {what(first + index)}: "
                                    f"{response.gtp_message[:80]}")


def play_opening(controllers: dict[Colour, GtpController], rules: Rules, opening: Opening,
                 tell: Callable[[Colour, str], None] | None = None) -> list:
    """Set up the opening on both engines and on rules' board; tell (the referee engine)
    gets every stone and move the engines get.

    Returns the moves for the record: [(colour, move, comment or None)], the last
    commented as the end of the opening. A pass the rules force (Othello) is played
    on our board only, as the referee plays it. Raises JobFailed if an engine refuses
    a stone or a move, or a move is illegal on our board; GtpChannelError if an engine
    fails.
    """
    if opening.setup:
        vertices = [rules.format_move(point) for point in opening.setup]
        _send_all(controllers, [("set_free_handicap", *vertices)],
                  lambda index: f"the set-up stones of the opening {opening.name}")
        rules.set_handicap(list(opening.setup))
        for vertex in vertices:
            if tell is not None:
                tell("b", vertex)
    commands: list[tuple[str, ...]] = []
    numbers = []
    played: list = []
    for number, (colour, move) in enumerate(opening.moves, 1):
        reason = rules.check_move(colour, move)
        if reason is not None or rules.is_over():
            raise JobFailed(f"the opening {opening.name}, move {number}: "
                            f"{reason or 'the game is over'}")
        if not (move is None and rules.pass_is_forced(colour)):
            vertex = rules.format_move(move)
            commands.append(("play", colour, vertex))
            numbers.append(number)
            if tell is not None:
                tell(colour, vertex)
        rules.play(colour, move)
        played.append((colour, move, None))
    if opening.moves and rules.is_over():
        raise JobFailed(f"the opening {opening.name} ends the game")
    _send_all(controllers, commands, lambda index: f"move {numbers[index]} "
              f"({' '.join(commands[index][1:])}) of the opening {opening.name}")
    if played:
        colour, move, _ = played[-1]
        played[-1] = (colour, move, end_of_opening_comment(opening))
    return played
