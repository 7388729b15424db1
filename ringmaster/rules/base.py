"""The interface between the referee and a game's rules."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from sgfmill import common

from ringmaster.settings import Setting

Colour = str  # 'b' or 'w'


VERTEX = re.compile(r"[A-Za-z][1-9][0-9]?|pass", re.IGNORECASE)
"""GTP's vertex: a letter and a row number (no sign, no leading zero, ASCII digits), or pass."""


def parse_vertex(vertex: str, board_size: int) -> tuple[int, int] | None:
    """A GTP vertex as sgfmill reads it, (row, col) or None for pass, in GTP's own form only:
    sgfmill reads the row with int(), which also takes 'C+5', 'A03' and other scripts' digits
    ('a١'), so an engine's odd vertex passed as a move.

    Raises ValueError if the text isn't a vertex on a board of this size.
    """
    if not VERTEX.fullmatch(vertex):
        raise ValueError(f"not a vertex: {vertex!r}")
    return common.move_from_vertex(vertex, board_size)

class Rules(ABC):
    """One game in progress, as the referee tracks it.

    The referee never trusts an engine: it parses every move with
    parse_move(), asks check_move() whether it is legal, then play()s it.

    The class also holds the game's facts, which the control file is
    checked against before any game starts.

    Public attributes:
      game_name         -- 'go', 'othello', ...
      sgf_game_number   -- the SGF GM[] value
      players_may_score -- whether final_score may be asked of the engines
                           (False: the referee always scores)
      supports_handicap -- whether handicap stones can be given
      rules_summary     -- the rules the referee applies, in a few words (for reports)
      uses_board        -- False for a game without a board (Pig): board_size and
                           komi mean nothing to it
      option_settings   -- the game's own control-file settings (Setting), with
                           their defaults (none for Go and Othello)
      default_options   -- {name: default} of option_settings ({'pig_target': 50, ...})
      usual_komi_is_fractional -- komi is fractional by convention (Go: no jigo), so
                           a tuner refuses an integer komi (a draw counts as a loss)
      has_clock         -- games may be played at a time_control (not Pig: its
                           referee keeps no clock)
      has_dead_stones   -- stones may be left dead on the board when the game ends (Go):
                           the internal scorer has them settled before it counts
      moves_label       -- what a game's moves count, for a plot of game lengths
      board_size        -- side of the (square) board
    """

    game_name: str = ""
    sgf_game_number: int = 1
    players_may_score: bool = False
    supports_handicap: bool = False
    rules_summary: str = ""
    uses_board: bool = True
    option_settings: tuple[Setting, ...] = ()
    default_options: Mapping[str, Any] = MappingProxyType({})
    usual_komi_is_fractional: bool = False
    has_clock: bool = True
    has_dead_stones: bool = False
    moves_label: str = "moves (passes included)"
    stones_placed: int = 0   # set-up stones and placements so far (Go: the most prisoners there can be)

    def __init__(self, board_size: int) -> None:
        reason = self.board_size_error(board_size)
        if reason is not None:
            raise ValueError(f"board size {board_size} {reason}")
        self.board_size = board_size

    @classmethod
    def setup_commands(cls, board_size: int, komi: float,
                       options: Mapping[str, Any]) -> list[tuple[str, ...]]:
        """What each engine is sent before a game (and in its start-up check): each
        command with its arguments. options are the game's own settings (default_options)."""
        return [("boardsize", str(board_size)), ("clear_board",), ("komi", str(float(komi)))]

    @classmethod
    def setting_details(cls, board_size: int, komi: float, options: Mapping[str, Any]) -> list[str]:
        """How a report names the settings the game is played under ('board size: 9', ...)."""
        return [f"board size: {board_size}", f"komi: {komi}"]

    @classmethod
    def board_size_error(cls, board_size: int) -> str | None:
        """None if the game can be played on this board size, else why not."""
        return None

    @classmethod
    def handicap_error(cls, board_size: int, stones: int, style: str) -> str | None:
        """None if this handicap ('fixed' or 'free' style) can be given, else why not."""
        if not cls.supports_handicap:
            return f"handicap not supported for {cls.game_name}"
        return None

    def fixed_handicap_points(self, stones: int) -> list[tuple[int, int]]:
        """The points of the fixed handicap layout.

        Raises ValueError if the board size doesn't allow that many stones.
        """
        raise ValueError(f"handicap not supported for {self.game_name}")

    def set_handicap(self, points: list[tuple[int, int]]) -> None:
        """Place black handicap stones (validated by the caller)."""
        raise ValueError(f"handicap not supported for {self.game_name}")

    def first_player(self) -> Colour:
        """The colour to move first (after any handicap placement)."""
        return "b"

    def parse_move(self, vertex: str):
        """Turn a GTP vertex into a move (None for pass).

        Raises ValueError if the text isn't a vertex on this board.
        """
        return parse_vertex(vertex, self.board_size)

    def format_move(self, move) -> str:
        """Turn a move into a GTP vertex ('pass' for None)."""
        return common.format_vertex(move)

    def pass_is_forced(self, colour: Colour) -> bool:
        """True when the rules leave colour nothing but a pass (Othello with no placement).

        The referee plays such a pass itself: it asks no engine for it and
        tells no engine about it. A pass that is a choice (Go) is never forced.
        """
        return False

    def goes_on_after(self, colour: Colour, move) -> bool:
        """True when, before play(), the rules can tell that after colour's legal move the
        game goes on and the opponent must choose a move (not over, no forced pass).

        The referee then sends the move and the opponent's genmove first, and
        updates its board while the opponent thinks. False (the default) when
        only play() can tell.
        """
        return False

    @abstractmethod
    def check_move(self, colour: Colour, move) -> str | None:
        """Return None if colour may play move now, else the forfeit reason."""

    @abstractmethod
    def play(self, colour: Colour, move) -> None:
        """Play a move that check_move() accepted."""

    def rulesets_differ_on_last_move(self) -> bool:
        """Whether a common ruleset other than ours could forbid the last move played, which our
        rules allowed: then an engine that refuses it as illegal may be honest. False here: these
        rules are the game's only ones."""
        return False

    @abstractmethod
    def is_over(self) -> bool:
        """True when the rules say the game has ended (two passes in Go)."""

    @abstractmethod
    def area_score(self) -> float:
        """Black's points minus White's, before komi."""

    def board_rows(self) -> list[list[str | None]]:
        """The board as rows of 'b', 'w' or None, row 0 at the bottom (for records)."""
        return []

    def area_score_without(self, dead: set[tuple[int, int]]) -> float:
        """Black's points minus White's, before komi, with the dead stones taken off
        (has_dead_stones; other games have none to take off)."""
        return self.area_score()
