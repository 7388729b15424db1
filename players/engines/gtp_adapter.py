"""One GTP front end for our engines: a game, its history and clocks, around a generator."""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Collection

from sgfmill import common

from players.engines.clock import Clock, clock_from_settings
from players.games.base import Game
from players.games.board import BoardGame
from ringmaster.gtp.engine import GtpEngine, GtpError, board_game_commands, parse_colour
from ringmaster.rules.base import parse_vertex
from ringmaster.rules.handicap import fixed_handicap_limit, fixed_handicap_points

RESIGN = "resign"

GameFactory = Callable[[int, float], BoardGame]


class MoveGenerator:
    """Chooses the engine's moves; each engine subclasses it with its own search.

    The adapter tells the generator how the game goes on: set_position() when
    the game or the position changes otherwise than by a move (a new game,
    komi, undo, a colour told to move out of turn), played() after each move
    of either side. A generator that keeps nothing between moves can ignore
    both.
    """

    def __call__(self, game: BoardGame, state, *, cleanup: bool,
                 seconds: float | None) -> int | str:
        """An action of game for the player to move in state, or RESIGN.

        cleanup is set for kgs-genmove_cleanup (capture dead stones rather
        than pass); seconds is the clock's budget for this move, None when
        there is no clock.
        """
        raise NotImplementedError

    def budget(self, clock: Clock, game: BoardGame, state) -> float | None:
        """Seconds for the next move's search under clock (None: no limit); called before
        each genmove with the clock the controller last reported. Optional."""
        return clock.budget(game.empty_points(state))

    def set_position(self, game: BoardGame, state, plies: int) -> None:
        """The game is now game, at state, plies moves from its start; nothing before leads here."""

    def played(self, action: int) -> None:
        """action was played in the last position given; the game goes on after it."""

    def prepare(self, game: BoardGame, state) -> None:
        """A clock has been set: get ready to move now (build a searcher, load code), so
        that the clock doesn't pay for it at the first genmove. Optional."""


class GtpAdapter:
    """The game as the controller has told it to us, and the GTP commands that change it.

    new_game(size, komi) builds the game for a board size and komi (it may
    refuse a size with ValueError); sizes, when given, narrows the sizes the
    game accepts. The history holds one state per move the controller or we
    played (a pass forced on the other side goes with the move after it), so
    undo takes back one move.

    Public attributes:
      game     -- the BoardGame being played
      komi     -- as the controller set it (finite)
      history  -- states since the start, the last is current
      clocks   -- player (0 black, 1 white) -> Clock, once time_settings or time_left came;
                  each keeps its own account of what is left (Clock.spend), charged with
                  the seconds from receiving each of our genmoves to answering it, which
                  a time_left replaces; a new game (clear_board, boardsize) or new
                  settings start it afresh
      now      -- the clock genmoves are timed by (time.monotonic; tests give a fake)
    """

    def __init__(self, generate: MoveGenerator, new_game: GameFactory, *, size: int,
                 komi: float = 0.0, sizes: Collection[int] | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self.generate = generate
        self.new_game = new_game
        self.sizes = sizes
        self.komi = komi
        self.clocks: dict[int, Clock] = {}
        self.game = new_game(size, komi)
        self.clear()

    @property
    def state(self):
        return self.history[-1]

    def clear(self) -> None:
        """A new game at the same size and komi: both clocks start again, full."""
        self.history = [self.game.initial_state()]
        for clock in self.clocks.values():
            clock.restart()
        self._reposition(self.state)

    def set_size(self, size: int) -> None:
        """Start a new game on a size x size board. Raises ValueError for a size we don't play."""
        if size not in (self.sizes if self.sizes is not None else self.game.board_sizes):
            raise ValueError(size)
        self.game = self.new_game(size, self.komi)
        self.clear()

    def set_komi(self, komi: float) -> None:
        """Play on with another komi."""
        self.komi = komi
        self.game = self.new_game(self.game.size, komi)
        self._reposition(self.state)

    def play(self, colour: str, vertex: str) -> None:
        """Play the controller's move. Raises GtpError if it is invalid or illegal."""
        game = self.game
        action = self._action(vertex)
        if not game.can_continue(self.state):
            raise GtpError("illegal move: the game is over")
        forced, state = self._turn_for(colour)
        if not game.is_legal(state, action):
            raise GtpError("illegal move")
        self._record(state, action)

    def genmove(self, colour: str, cleanup: bool = False) -> str:
        """Choose, play and return our move: a vertex, 'pass' or 'resign'; colour's clock
        (if it has one) is charged with the seconds this took."""
        started = self.now()
        answer = self._genmove(colour, cleanup)
        clock = self.clocks.get("bw".index(colour))
        if clock is not None:
            clock.spend(self.now() - started)
        return answer

    def _genmove(self, colour: str, cleanup: bool) -> str:
        game = self.game
        if not game.can_continue(self.state):
            return "pass"
        forced, state = self._turn_for(colour)
        player = game.to_play(state)
        clock = self.clocks.get(player)
        seconds = None if clock is None else self.generate.budget(clock, game, state)
        choice = self.generate(game, state, cleanup=cleanup, seconds=seconds)
        if choice == RESIGN:
            self._reposition(self.state)
            return RESIGN
        self._record(state, choice)
        return common.format_vertex(game.action_to_move(choice))

    def undo(self) -> None:
        """Take back the last move. Raises GtpError at the start of the game."""
        if len(self.history) <= 1:
            raise GtpError("cannot undo")
        self.history.pop()
        self._reposition(self.state)

    def final_score(self) -> str:
        return self.game.final_score(self.state, self.komi)

    def final_status_list(self, status: str) -> str:
        """final_status_list (Go): our engines count by Tromp-Taylor's rules, under which every
        stone on the board is alive, as final_score counts it; so none is dead or in seki."""
        if status not in ("alive", "dead", "seki"):
            raise GtpError("invalid status")
        if status != "alive":
            return ""
        game, state = self.game, self.state
        return " ".join(common.format_vertex(game.action_to_move(action))
                        for action in range(game.size * game.size)
                        if game.colour_at(state, action) is not None)

    def showboard(self) -> str:
        return "\n" + self.game.render(self.state)

    def set_time(self, main_time: float, byo_yomi_time: float, byo_yomi_stones: int) -> None:
        """time_settings: both colours start a new clock."""
        self.set_clock(Clock(main_time, byo_yomi_time, byo_yomi_stones))

    def set_clock(self, clock: Clock) -> None:
        """Both colours start a new clock like this one (kgs-/kata-time_settings); the
        generator gets ready to move (MoveGenerator.prepare)."""
        self.clocks = {player: Clock(**clock.__dict__) for player in (0, 1)}
        for own in self.clocks.values():
            own.restart()
        self.generate.prepare(self.game, self.state)
        self._load_game_code()

    def _load_game_code(self) -> None:
        """Play a legal move on a copy of the position and throw it away: the game's own code
        (Go's board is compiled by numba) loads now, not in the first timed genmove, which
        records its move with it (a search in worker processes loads it only there)."""
        if self.game.is_terminal(self.state):
            return
        actions = self.game.legal_actions(self.state)
        if actions:
            self.game.apply(self.state, actions[0])

    def place_handicap(self, points: list[tuple[int, int]]) -> None:
        """Black's handicap stones on the empty board; White is to move.

        Raises GtpError unless the board is empty and the points are distinct and on it.
        """
        game = self.game
        if len(self.history) > 1 or game.empty_points(self.state) != game.size * game.size:
            raise GtpError("board not empty")
        if len(points) < 2 or len(set(points)) != len(points):
            raise GtpError("bad handicap")
        actions = [game.move_to_action(point) for point in points]
        try:
            state = game.with_handicap(self.state, actions)
        except ValueError as exc:
            raise GtpError(f"bad handicap: {exc}") from None
        self.history = [state]
        self._reposition(state)

    def free_handicap_points(self, stones: int) -> list[tuple[int, int]]:
        """Where we put free handicap stones: GTP's fixed layout as far as it goes, then each
        further stone on the third line or above (the second below 9x9), as far as can be from the
        stones so far; on the first line only once those lines are full."""
        size = self.game.size
        limit = fixed_handicap_limit(size)
        if not 2 <= stones < size * size:
            raise GtpError("invalid number of stones")
        points = fixed_handicap_points(min(stones, limit), size) if limit >= 2 else []
        edge = 2 if size >= 9 else 1
        candidates = [(row, col) for row in range(edge, size - edge)
                      for col in range(edge, size - edge)] or \
            [(row, col) for row in range(size) for col in range(size)]
        while len(points) < stones:
            free = [p for p in candidates if p not in points] or \
                [(r, c) for r in range(size) for c in range(size) if (r, c) not in points]
            points.append(max(free, key=lambda p: (min((abs(p[0] - q[0]) + abs(p[1] - q[1])
                                                         for q in points), default=0),
                                                    -abs(p[0] - size // 2) - abs(p[1] - size // 2))))
        return points

    def set_time_left(self, colour: str, seconds: float, stones: int) -> None:
        """time_left: what is left on colour's clock; it replaces our own account."""
        clock = self.clocks.setdefault("bw".index(colour), Clock())
        clock.time_left = seconds
        clock.stones_left = stones
        clock.told = True

    def _action(self, vertex: str) -> int:
        try:
            move = parse_vertex(vertex, self.game.size)
        except ValueError:
            raise GtpError("invalid vertex") from None
        return self.game.move_to_action(move)

    def _turn_for(self, colour: str) -> tuple[list[int], object]:
        """The moves forced on the other side, and the state with colour to move.

        Tells the generator of both.
        """
        before = self.state
        try:
            forced, state = self.game.turn_for(before, "bw".index(colour))
        except ValueError as exc:
            raise GtpError(f"illegal move: {exc}") from None
        if forced:
            for action in forced:
                self.generate.played(action)
        elif state is not before:
            self._reposition(state)
        return forced, state

    def _reposition(self, state) -> None:
        self.generate.set_position(self.game, state, len(self.history) - 1)

    def _record(self, state, action: int) -> None:
        self.history.append(self.game.apply(state, action))
        self.generate.played(action)

    def commands(self) -> dict[str, Callable[[list[str]], str | None]]:
        """The game commands' handlers, GTP's argument checks included."""
        handlers = board_game_commands(set_size=self.set_size, clear=self.clear,
                                       set_komi=self.set_komi, play=self.play,
                                       genmove=self.genmove)

        def genmove_cleanup(args: list[str]) -> str:
            if len(args) != 1:
                raise GtpError("kgs-genmove_cleanup needs a colour")
            return self.genmove(parse_colour(args[0]), cleanup=True)

        def time_settings(args: list[str]) -> None:
            if len(args) != 3:
                raise GtpError("time_settings needs three numbers")
            main = _number(args[0], float, "main time")
            byo = _number(args[1], float, "byo-yomi time")
            stones = _number(args[2], int, "byo-yomi stones")
            if main < 0 or byo < 0 or stones < 0:
                raise GtpError("time settings must not be negative")
            self.set_time(main, byo, stones)

        def kgs_time_settings(args: list[str], fischer: bool = False) -> None:
            try:
                self.set_clock(clock_from_settings(args, fischer=fischer))
            except ValueError as exc:
                raise GtpError(str(exc)) from None

        def time_left(args: list[str]) -> None:
            if len(args) != 3:
                raise GtpError("time_left needs a colour, a time and a stone count")
            colour = parse_colour(args[0])
            seconds = _number(args[1], float, "time")
            stones = _number(args[2], int, "stones")
            if seconds < 0 or stones < 0:
                raise GtpError("time left must not be negative")
            self.set_time_left(colour, seconds, stones)

        handlers.update({
            "kgs-genmove_cleanup": genmove_cleanup,
            "undo": lambda args: self.undo(),
            "final_score": lambda args: self.final_score(),
            "showboard": lambda args: self.showboard(),
            "time_settings": time_settings,
            "kgs-time_settings": kgs_time_settings,
            "kata-time_settings": lambda args: kgs_time_settings(args, fischer=True),
            "time_left": time_left,
        })
        if self.game.supports_handicap:
            handlers.update(self._handicap_commands())
        if self.game.kind in ("go", "go-light"):
            handlers["final_status_list"] = lambda args: self.final_status_list(
                args[0] if len(args) == 1 else "")
        return handlers

    def _handicap_commands(self) -> dict[str, Callable[[list[str]], str | None]]:
        """fixed_handicap, place_free_handicap and set_free_handicap (Go)."""
        def count(args: list[str]) -> int:
            if len(args) != 1:
                raise GtpError("needs a number of stones")
            return _number(args[0], int, "number of stones")

        def vertices(points: list[tuple[int, int]]) -> str:
            return " ".join(common.format_vertex(point) for point in points)

        def fixed(args: list[str]) -> str:
            try:
                points = fixed_handicap_points(count(args), self.game.size)
            except ValueError:
                raise GtpError("invalid number of stones") from None
            self.place_handicap(points)
            return vertices(points)

        def place_free(args: list[str]) -> str:
            points = self.free_handicap_points(count(args))
            self.place_handicap(points)
            return vertices(points)

        def set_free(args: list[str]) -> None:
            try:
                points = [parse_vertex(word, self.game.size) for word in args]
            except ValueError:
                raise GtpError("invalid vertex") from None
            if None in points:
                raise GtpError("invalid vertex: pass")
            self.place_handicap(points)

        return {"fixed_handicap": fixed, "place_free_handicap": place_free,
                "set_free_handicap": set_free}


def _number(word: str, kind: Callable, what: str):
    try:
        value = kind(word)
    except ValueError:
        raise GtpError(f"{what} needs a number") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise GtpError(f"{what} needs a finite number")
    return value


class ChanceGameAdapter:
    """A chance game with no board (Pig) as the referee tells it: moves are words, dice thrown by the referee.

    The game must offer parse_move(words) -> [actions] (a decision and the
    chance outcome that followed it) and format_action(action) -> word.
    reg_genmove chooses a decision without playing it; the referee then
    tells both engines, ours included, what happened with play. new_game()
    builds the game; set_game() replaces it (a new target) and starts over.

    Public attributes:
      game, history (states since clear_board; the last is current)
    """

    def __init__(self, generate: MoveGenerator, game: Game) -> None:
        self.generate = generate
        self.game = game
        self.clear()

    @property
    def state(self):
        return self.history[-1]

    def clear(self) -> None:
        """clear_board: a new game, scores 0, black to move."""
        self.history = [self.game.initial_state()]
        self.generate.set_position(self.game, self.state, 0)

    def set_game(self, game: Game) -> None:
        self.game = game
        self.clear()

    def play(self, colour: str, words: list[str]) -> None:
        """Play the referee's move for colour. Raises GtpError if it is malformed or illegal."""
        game = self.game
        try:
            actions = game.parse_move(words)
        except ValueError as exc:
            raise GtpError(f"invalid move: {exc}") from None
        state = self.state
        if game.is_terminal(state):
            raise GtpError("illegal move: the game is over")
        if game.to_play(state) != "bw".index(colour):
            raise GtpError("illegal move: it is the other colour's turn")
        if actions[0] not in game.legal_actions(state):
            raise GtpError("illegal move")
        for action in actions:
            state = game.apply(state, action)
            self.generate.played(action)
        self.history.append(state)

    def reg_genmove(self, colour: str) -> str:
        """Choose colour's decision without playing it. Raises GtpError out of turn or after the end."""
        game, state = self.game, self.state
        if game.is_terminal(state):
            raise GtpError("the game is over")
        if game.to_play(state) != "bw".index(colour):
            raise GtpError("it is the other colour's turn")
        choice = self.generate(game, state, cleanup=False, seconds=None)
        return game.format_action(choice)

    def commands(self) -> dict[str, Callable[[list[str]], str | None]]:
        """clear_board, play COLOUR WORDS..., reg_genmove COLOUR and showboard."""
        def play(args: list[str]) -> None:
            if len(args) < 2:
                raise GtpError("play needs a colour and a move")
            self.play(parse_colour(args[0]), args[1:])

        def reg_genmove(args: list[str]) -> str:
            if len(args) != 1:
                raise GtpError("reg_genmove needs a colour")
            return self.reg_genmove(parse_colour(args[0]))

        return {"clear_board": lambda args: self.clear(), "play": play,
                "reg_genmove": reg_genmove,
                "showboard": lambda args: "\n" + self.game.describe(self.state)}


def make_engine(name: str, version: str, generate: MoveGenerator, new_game: GameFactory, *,
                size: int, komi: float = 0.0,
                sizes: Collection[int] | None = None) -> tuple[GtpEngine, GtpAdapter]:
    """A GTP engine playing new_game's game with generate; returns it and its adapter.

    See GtpAdapter for new_game, size, komi and sizes.
    """
    adapter = GtpAdapter(generate, new_game, size=size, komi=komi, sizes=sizes)
    engine = GtpEngine(name, version)
    engine.add_commands(adapter.commands())
    return engine, adapter


class _DefaultsFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Adds '(default: X)' to each option's help, unless it has none or the help speaks of it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default is None:
            return text
        return super()._get_help_string(action)


def budget_refusal(playouts: int | None, seconds: float | None) -> str | None:
    """What is wrong with a search budget of --playouts and --seconds (None: unset), or None."""
    if playouts is not None and playouts < 1:
        return f"--playouts must be at least 1, not {playouts}"
    if seconds is not None and not 0 < seconds < math.inf:
        return f"--seconds must be a positive number of seconds, not {seconds:g}"
    return None


def engine_parser(name: str, description: str,
                  example: str = "boardsize 9, genmove b, quit") -> argparse.ArgumentParser:
    """The command line of `python -m players NAME`: --help shows every default and says GTP."""
    return argparse.ArgumentParser(
        prog=f"python -m players {name}", description=description,
        formatter_class=_DefaultsFormatter,
        epilog="It speaks GTP version 2 on stdin and stdout: run it under a GTP controller, "
               f"such as ringmaster's Player([PYTHON, '-m', 'players', '{name}', ...]), "
               f"or type GTP commands ({example}).")
