"""The openings setting: a suite of SGF openings, checked before the first game; each game's opening."""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass
from typing import Any

from sgfmill import sgf, sgf_grammar
from sgfmill.common import opponent_of

from ringmaster.errors import ControlFileError
from ringmaster.game.opening import Opening
from ringmaster.rules import get_rules, get_rules_class
from ringmaster.rules.base import Colour, Rules
from ringmaster.rules.symmetry import fingerprint
from ringmaster.settings import ControlFileObject, interpret_enum, interpret_int, interpret_positive_int

ORDERS = ("sequential", "random")
MAX_OPENING_BYTES = 10_000_000
"""The largest SGF file a suite may hold (a collection of thousands of games is smaller)."""


class Openings(ControlFileObject):
    """A control file's Openings(path, moves=None, order='sequential', seed=None)."""

    kind = "Openings"
    positional = ("path",)
    allowed_arguments = ("path", "moves", "order", "seed")


def interpret_openings(value: Any) -> Openings:
    """The openings setting: an Openings object (read by load_suite)."""
    if not isinstance(value, Openings):
        raise ValueError("must be Openings('DIRECTORY or FILE.sgf', ...)")
    return value


def opening_index(number: int, count: int, order: str, seed: int) -> int:
    """The opening of game number `number` of a matchup, in a suite of count openings.

    Games 2k and 2k+1 (a colour-swapped pair) play opening k: in file order
    ('sequential'), or ('random') in the order of a shuffle drawn from seed for
    each pass through the suite, so that no opening repeats until all have been
    played. A pure function of its arguments: a resumed run, -j and Dask give a
    game the same opening.
    """
    pair = number // 2
    if order == "sequential":
        return pair % count
    passes, place = divmod(pair, count)
    permutation = list(range(count))
    random.Random(f"ringmaster-openings:{seed}:{passes}").shuffle(permutation)   # seeded by sha512
    return permutation[place]


@dataclass(frozen=True)
class OpeningSuite:
    """The openings of a suite, checked, in order.

    Public attributes:
      path, moves, order, seed -- as the control file gave them (seed 0 if None)
      openings -- (Opening, ...) in file-name order (a collection: in the file's order)
      digest   -- a hash of every opening's stones and moves, the order and the seed
    """

    path: str
    openings: tuple[Opening, ...]
    moves: int | None
    order: str
    seed: int
    digest: str

    def opening_for_game(self, number: int) -> Opening:
        return self.openings[opening_index(number, len(self.openings), self.order, self.seed)]

    def index_for_game(self, number: int) -> int:
        return opening_index(number, len(self.openings), self.order, self.seed)

    @property
    def needs_setup(self) -> bool:
        """Some opening has set-up stones (the engines need set_free_handicap)."""
        return any(o.setup for o in self.openings)

    def describe(self) -> str:
        """'openings/go9 (24 openings, 8 moves, sequential; digest 1a2b3c4d5e6f)': what the state
        keeps, so that a changed suite is refused."""
        words = [f"{len(self.openings)} openings"]
        if self.moves is not None:
            words.append(f"cut to {self.moves} moves")
        words.append(self.order + (f" seed {self.seed}" if self.order == "random" else ""))
        return f"{self.path} ({', '.join(words)}; digest {self.digest})"


class SuiteError(ValueError):
    """Why a suite can't be used: a one-line message naming the opening."""


def _sgf_games(path: str, name: str) -> list[tuple[str, sgf.Sgf_game]]:
    """The games of an SGF file, named by the file (a collection's: FILE#1, FILE#2...)."""
    try:
        if os.path.getsize(path) > MAX_OPENING_BYTES:
            raise SuiteError(f"{name}: larger than {MAX_OPENING_BYTES // 1_000_000} MB")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise SuiteError(f"{name}: can't read it: {exc.strerror}") from None
    try:
        coarse = sgf_grammar.parse_sgf_collection(data)
        games = [sgf.Sgf_game.from_coarse_game_tree(c) for c in coarse]
    except ValueError as exc:
        raise SuiteError(f"{name}: not an SGF file: {exc}") from None
    if len(games) == 1:
        return [(name, games[0])]
    return [(f"{name}#{i}", game) for i, game in enumerate(games, 1)]


def _standard_start(rules: Rules) -> dict[Colour, set[tuple[int, int]]]:
    stones: dict[Colour, set[tuple[int, int]]] = {"b": set(), "w": set()}
    for r, row in enumerate(rules.board_rows()):
        for c, colour in enumerate(row):
            if colour is not None:
                stones[colour].add((r, c))
    return stones


def read_opening(name: str, game: sgf.Sgf_game, index: int, game_name: str, board_size: int,
                 moves: int | None) -> Opening:
    """One opening: its set-up stones and main line (cut to `moves`), each move checked
    on the referee's board. Raises SuiteError naming the opening and what is wrong."""
    rules = get_rules(game_name, board_size)
    sgf_number = get_rules_class(game_name).sgf_game_number
    root = game.get_root()
    try:
        number = int(root.get("GM")) if root.has_property("GM") else 1
    except ValueError:
        number = -1
    if number != sgf_number:
        raise SuiteError(f"{name}: GM[{number}] is not {game_name} (GM[{sgf_number}])")
    if game.get_size() != board_size:
        raise SuiteError(f"{name}: board size {game.get_size()}, but the games are played on "
                         f"{board_size}x{board_size}")
    try:
        black, white, empty = root.get_setup_stones()
        nodes = game.get_main_sequence()
        raw = [node.get_move() for node in nodes]
        if any(node.has_setup_stones() for node in nodes[1:]):
            raise SuiteError(f"{name}: set-up stones after the first node")
    except ValueError as exc:
        raise SuiteError(f"{name}: {exc}") from None
    setup: tuple[tuple[int, int], ...] = ()
    if black or white or empty:
        if rules.supports_handicap and len(black) >= 2 and not white and not empty:
            setup = tuple(sorted(black))
            rules.set_handicap(list(setup))
        elif {"b": black, "w": white} != _standard_start(rules) or empty:
            raise SuiteError(f"{name}: set-up stones (AB/AW/AE) can be sent to the engines only "
                             "as Black's handicap-style stones: two or more AB, no AW or AE, "
                             f"White to move{'' if rules.supports_handicap else ' (Go only)'}")
    played: list[tuple[Colour, tuple[int, int] | None]] = []
    expected: Colour = "w" if setup else rules.first_player()
    for colour, move in [(c, m) for c, m in raw if c is not None]:
        if moves is not None and len(played) >= moves:
            break
        if colour != expected and rules.pass_is_forced(expected):
            played.append((expected, None))   # a pass the rules force, left out of the SGF
            rules.play(expected, None)
            expected = colour
        if colour != expected:
            raise SuiteError(f"{name}: move {len(played) + 1} is {colour.upper()}'s, but "
                             f"{expected.upper()} is to play")
        if rules.is_over():
            raise SuiteError(f"{name}: move {len(played) + 1} comes after the end of the game")
        reason = rules.check_move(colour, move)
        if reason is not None:
            raise SuiteError(f"{name}: move {len(played) + 1} is illegal: {reason}")
        rules.play(colour, move)
        played.append((colour, move))
        expected = opponent_of(colour)
    if moves is not None:
        played = played[:moves]
    if not played and not setup:
        raise SuiteError(f"{name}: no move and no set-up stone")
    if played and _ends_game(game_name, board_size, setup, played):
        raise SuiteError(f"{name}: the opening ends the game")
    return Opening(name, index, setup, tuple(played))


def _ends_game(game_name: str, board_size: int, setup: tuple, played: list) -> bool:
    rules = get_rules(game_name, board_size)
    if setup:
        rules.set_handicap(list(setup))
    for colour, move in played:
        rules.play(colour, move)
    return rules.is_over()


def _opening_fingerprint(opening: Opening, start: list, board_size: int) -> str:
    return fingerprint(board_size, start + [("b", p) for p in opening.setup], list(opening.moves))


def read_suite(path: str, shown: str, game_name: str, board_size: int, moves: int | None,
               order: str, seed: int) -> OpeningSuite:
    """Every opening of a directory of .sgf files (sorted by name) or of one SGF file (each
    game of a collection), checked: board size, set-up stones, every move legal, and no two
    the same under the board's symmetries. shown is the path as the control file gave it.
    Raises SuiteError."""
    if os.path.isdir(path):
        try:
            names = sorted(n for n in os.listdir(path) if n.lower().endswith(".sgf"))
        except OSError as exc:
            raise SuiteError(f"can't list {shown}: {exc.strerror}") from None
        files = [(os.path.join(path, n), n) for n in names]
        if not files:
            raise SuiteError(f"{shown} holds no .sgf file")
    elif os.path.exists(path):
        files = [(path, os.path.basename(path))]
    else:
        raise SuiteError(f"{shown}: no such file or directory")
    games = [named for file, name in files for named in _sgf_games(file, name)]
    openings = tuple(read_opening(name, g, index, game_name, board_size, moves)
                     for index, (name, g) in enumerate(games))
    start = [(colour, (r, c)) for r, row in enumerate(get_rules(game_name, board_size).board_rows())
             for c, colour in enumerate(row) if colour is not None]
    seen: dict[str, str] = {}
    for opening in openings:
        key = _opening_fingerprint(opening, start, board_size)
        if key in seen:
            raise SuiteError(f"{opening.name} is the same opening as {seen[key]} "
                             "(under a symmetry of the board): remove one"
                             + ("" if moves is None else ", or cut them to more moves"))
        seen[key] = opening.name
    content = json.dumps([[o.name, o.setup, o.moves] for o in openings] + [order, seed])
    digest = hashlib.sha256(content.encode()).hexdigest()[:12]
    return OpeningSuite(shown, openings, moves, order, seed, digest)


def load_suite(openings: Openings, base_directory: str, game_name: str, board_size: int,
               context: str = "", cache: dict[tuple, OpeningSuite] | None = None) -> OpeningSuite:
    """The suite an Openings object names, read and checked (see read_suite); paths are
    relative to the control file's directory. cache holds the suites read so far for one
    control file (a playoff's matchups share its top-level suite).

    Raises ControlFileError naming the setting, the opening and the line of the Openings.
    """
    cache = {} if cache is None else cache
    where = f"{context}'openings'"
    args = openings.settings

    def bad(message: str) -> ControlFileError:
        return ControlFileError(f"{where}: {message}", openings.line,
                                setting=None if context else "openings")
    shown = args.get("path")
    if not isinstance(shown, str) or not shown:
        raise bad("the path must be a string: a directory of .sgf files or an SGF file")
    values = {}
    for name, interpret, default in (("moves", interpret_positive_int, None),
                                     ("order", interpret_enum(*ORDERS), "sequential"),
                                     ("seed", interpret_int, 0)):
        value = args.get(name)
        try:
            values[name] = default if value is None else interpret(value)
        except ValueError as exc:
            raise bad(f"'{name}': {exc}") from None
    moves, order, seed = values["moves"], values["order"], values["seed"]
    if not get_rules_class(game_name).uses_board:
        raise bad(f"{game_name} has no board to play openings on")
    path = os.path.normpath(os.path.join(base_directory, os.path.expanduser(shown)))
    key = (path, game_name, board_size, moves, order, seed)
    if key not in cache:
        try:
            cache[key] = read_suite(path, shown, game_name, board_size, moves, order, seed)
        except SuiteError as exc:
            raise bad(str(exc)) from None
    return cache[key]
