"""The mc_tuner's UCT tree over the optimiser-parameter cube: geometry, selection, update, best path."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ringmaster.tuning.scales import EXPLICIT, distinct_values, value_count

Path = tuple[int, ...]


@dataclass
class Node:
    """A candidate: one cell of parameter space.

    visits and wins include the initial values the node was created with
    (so changing initial_visits later only affects nodes created later).
    games counts the games with a result; won counts a jigo (a draw) as half a win, so it may be
    fractional (a state from before jigos counted half has whole numbers, and keeps them).
    in_flight counts games started through this node but not yet finished;
    it is not part of the saved state (those games are replayed).
    """

    prior_visits: int
    prior_wins: int
    games: int = 0
    won: float = 0
    children: list[Node] | None = None
    in_flight: int = field(default=0, compare=False)

    @property
    def visits(self) -> int:
        return self.prior_visits + self.games

    @property
    def wins(self) -> float:
        return self.prior_wins + self.won

    @property
    def value(self) -> float:
        return self.wins / self.visits

    def count_nodes(self) -> int:
        if self.children is None:
            return 1
        return 1 + sum(child.count_nodes() for child in self.children)

    def to_json(self) -> list[Any]:
        children = None if self.children is None else [c.to_json() for c in self.children]
        return [self.prior_visits, self.prior_wins, self.games, _plain(self.won), children]

    @classmethod
    def from_json(cls, data: list[Any]) -> Node:
        prior_visits, prior_wins, games, won, children = data
        won = float(won)
        if not math.isfinite(won):
            raise ValueError("wins")
        node = cls(int(prior_visits), int(prior_wins), int(games), _plain(won))
        if children is not None:
            node.children = [cls.from_json(c) for c in children]
        return node


def _plain(count: float) -> float:
    """A count of wins as the state keeps it: a whole number as an int (as every older state has it)."""
    return int(count) if count == int(count) else count


REFIT_BUDGET = 25_000
"""The most changes of parameters' splitting Tree.refits tries (about 0.2 seconds)."""


def _widths(root: Node) -> list[int] | None:
    """The number of children of every node with children at each depth, from the root's; None
    if two nodes at one depth have different numbers (no shape gives that)."""
    width: list[int] = []
    level = [root]
    while parents := [node for node in level if node.children is not None]:
        counts = {len(node.children or ()) for node in parents}
        if len(counts) != 1:
            return None
        width.append(counts.pop())
        level = [child for node in parents for child in node.children or ()]
    return width


def cube_coordinates(splits: list[int]) -> list[tuple[int, ...]]:
    """Child index -> coordinates in its parent's cell; the first dimension changes slowest."""
    return list(_cube_coordinates(tuple(splits)))


@functools.lru_cache(maxsize=64)
def _cube_coordinates(splits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    result = []
    for index in range(math.prod(splits)):
        coords = []
        for split in reversed(splits):
            index, coord = divmod(index, split)
            coords.append(coord)
        result.append(tuple(reversed(coords)))
    return tuple(result)


def _cell(splits: list[int], path: Path,
          levels: list[list[int]] | None) -> tuple[list[float], list[float]]:
    """(low corner, breadth) of the cell a path leads to; levels: the splits at each step of the
    path (by default splits at every step)."""
    low = [0.0] * len(splits)
    breadth = [1.0] * len(splits)
    for depth, index in enumerate(path):
        level = splits if levels is None else levels[depth]
        coordinates = _cube_coordinates(tuple(level))[index]
        breadth = [b / s for b, s in zip(breadth, level)]
        low = [lo + b * c for lo, b, c in zip(low, breadth, coordinates)]
    return low, breadth


def parameters_for_path(splits: list[int], path: Path,
                        levels: list[list[int]] | None = None) -> list[float]:
    """The optimiser parameters at the centre of the cell a path from the root leads to (levels:
    the splits at each step, by default splits)."""
    low, breadth = _cell(splits, path, levels)
    return [lo + 0.5 * b for lo, b in zip(low, breadth)]


def cell_bounds(splits: list[int], path: Path,
                levels: list[list[int]] | None = None) -> tuple[list[float], list[float]]:
    """The (low, high) corners, in optimiser parameters, of the cell a path leads to."""
    low, breadth = _cell(splits, path, levels)
    return low, [lo + b for lo, b in zip(low, breadth)]


class AxisCentres(Sequence[float]):
    """The centres, in increasing order, of the split ** levels cells one parameter's range [0, 1] has
    when split into split divisions at each of levels levels: the very floats parameters_for_path gives
    candidates (so that a scale gives each the value a candidate has). Computed when asked for."""

    def __init__(self, split: int, levels: int) -> None:
        self.split = split
        self.levels = levels

    def __len__(self) -> int:
        return self.split ** self.levels

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < len(self):
            raise IndexError(index)
        digits = []
        for _ in range(self.levels):
            index, digit = divmod(index, self.split)
            digits.append(digit)
        low, breadth = 0.0, 1.0
        for digit in reversed(digits):   # as _cell does, for one parameter
            breadth = breadth / self.split
            low = low + breadth * digit
        return low + 0.5 * breadth

    def __iter__(self) -> Iterator[float]:
        lows, breadth = [0.0], 1.0
        for _ in range(self.levels):   # as __getitem__ does, a level at a time
            breadth = breadth / self.split
            lows = [low + breadth * digit for low in lows for digit in range(self.split)]
        return (low + 0.5 * breadth for low in lows)


def edges_touched(splits: list[int], path: Path,
                  levels: list[list[int]] | None = None) -> list[tuple[int, str]]:
    """(parameter index, 'low' or 'high') for each end of a range the path's cell touches.

    Parameters with split 1 are not tuned and never count.
    """
    if not path:
        return []
    low, high = cell_bounds(splits, path, levels)
    result = []
    for i, split in enumerate(splits):
        if split <= 1:
            continue
        if low[i] <= 1e-12:
            result.append((i, "low"))
        if high[i] >= 1.0 - 1e-12:
            result.append((i, "high"))
    return result


def describe_choice(coordinates: tuple[int, ...]) -> str:
    """'3' for a child of a one-parameter tree, '0,1' for two parameters."""
    return ",".join(str(c) for c in coordinates)


BEST_RULE = ("the recommended candidate is, at each level of the tree, the one with the most games "
             "(the tuner gives most games to what it believes best), ties going to the higher win "
             "rate; there is none while that candidate's estimate, (wins + initial_wins) / (games + "
             "initial_visits), is below that of a candidate not yet tried")

IN_FLIGHT_RULES = ("ignore", "loss", "mean")
DEFAULT_IN_FLIGHT_RULE = "mean"   # the most even in bench/bench_parallel_tuning.py


def in_flight_rule(setting: bool | str) -> str:
    """The rule for a count_in_flight value: True is the default rule, False is 'ignore'."""
    if setting is True:
        return DEFAULT_IN_FLIGHT_RULE
    if setting is False:
        return "ignore"
    if setting not in IN_FLIGHT_RULES:
        raise ValueError(f"unknown rule for games in flight: {setting!r}")
    return setting


def urgency(wins: float, played: int, visits: int, exploration: float, as_loss: bool) -> float:
    """A child's urgency: its win rate plus exploration / sqrt(visits).

    played counts its finished games (initial visits included), visits adds those in flight
    where the tree counts them; the win rate is wins / visits if games in flight count as
    losses, else wins / played. exploration is E * sqrt(log(parent's visits)).
    """
    return wins / (visits if as_loss else played) + exploration / math.sqrt(visits)


class Tree:
    """A tree of candidates; the root's children are the first generation.

    count_in_flight -- how games started but not finished count when choosing:
      'mean' (or True): each as a visit at the candidate's current win rate
              (virtual visits: only the exploration term shrinks)
      'loss': each as a lost game (virtual loss): more visits, same wins
      'ignore' (or False): not at all; this is Gomill's behaviour.
      When counted, a node already chosen once is expanded when chosen again
      even if its game hasn't finished (the manual's rule).
    scales -- for each parameter, its scale (what gives its values), or None: where a scale has
      few values (an EXPLICIT list, an integer scale) the tree stops splitting the parameter
      before its cells give two of them one value (twin_free_splits).
    shape -- how the tree splits: 'twin-free'; or, for a tree grown by an older ringmaster,
      'lists' (one that stopped splitting EXPLICIT lists only) or 'uniform' (one that split every
      parameter at every level). set_root keeps an older tree's shape, and it grows so.
    """

    SHAPES = ("twin-free", "lists", "uniform")

    def __init__(self, splits: list[int], max_depth: int, exploration_coefficient: float,
                 initial_visits: int, initial_wins: int,
                 count_in_flight: bool | str = True,
                 scales: Sequence[Any] | None = None) -> None:
        self.splits = list(splits)
        self.scales = [None] * len(self.splits) if scales is None else list(scales)
        self.branching_factor = math.prod(splits)   # the root's children: the first generation
        self.max_depth = max_depth
        self.exploration_coefficient = exploration_coefficient
        self.initial_visits = initial_visits
        self.initial_wins = initial_wins
        self.in_flight_rule = in_flight_rule(count_in_flight)
        self.count_in_flight = self.in_flight_rule != "ignore"
        self._levels: dict[tuple[str, int], list[int]] = {}
        self._distinct: dict[tuple[int, int], bool] = {}
        self.changes = 0   # counts the nodes' changes of place: expansions, a new root
        self.reset()

    def reset(self) -> None:
        """An unplayed tree: the root and the first generation."""
        self.shape = "twin-free"
        self.root = self.new_node()
        self.expand(self.root, 0)

    def new_node(self) -> Node:
        return Node(self.initial_visits, self.initial_wins)

    def twin_free_splits(self, depth: int) -> list[int]:
        """The splits dividing a cell at this depth (0: the root) into its children.

        Below the root a parameter whose scale has few values (an EXPLICIT list, an integer scale)
        is split only while the split ** (depth + 1) cells it would have at the children's depth
        all give different values: further on, candidates differing only in it would be twins,
        the same engine playing as two. For an EXPLICIT list that is while split ** (depth + 1) is
        at most its length. Once not split it never is again, and the children keep their parent's
        value. The first level is split as given (a split that makes twins there is refused).
        """
        return self._splits("twin-free", depth)

    def splits_at(self, depth: int) -> list[int]:
        """The splits dividing a cell at this depth into its children, by the tree's shape."""
        return self._splits(self.shape, depth)

    def _guarded(self, shape: str, index: int) -> bool:
        """Whether a tree of this shape stops splitting the parameter before it makes twins."""
        scale = self.scales[index]
        if shape == "twin-free":
            return value_count(scale) is not None
        return shape == "lists" and isinstance(scale, EXPLICIT)

    def _splits(self, shape: str, depth: int) -> list[int]:
        if depth == 0 or shape == "uniform":
            return self.splits
        if (shape, depth) not in self._levels:
            above = self._splits(shape, depth - 1)
            self._levels[shape, depth] = [
                split if not self._guarded(shape, i) or (above[i] == split and self._all_differ(i, depth + 1))
                else 1 for i, split in enumerate(self.splits)]
        return self._levels[shape, depth]

    def _all_differ(self, index: int, levels: int) -> bool:
        """Whether the parameter's cells, split at each of levels levels, all give different values."""
        if (index, levels) not in self._distinct:
            self._distinct[index, levels] = distinct_values(
                self.scales[index], AxisCentres(self.splits[index], levels))
        return self._distinct[index, levels]

    def can_expand(self, depth: int) -> bool:
        """False where nothing is left to split: every parameter split 1 at this depth though
        not at the root (the one child would be its parent again)."""
        splits = self.splits_at(depth)
        return math.prod(splits) > 1 or splits == self.splits

    def expand(self, node: Node, depth: int) -> None:
        """Give a node at this depth its children."""
        self.changes += 1
        node.children = [self.new_node() for _ in range(math.prod(self.splits_at(depth)))]

    def set_root(self, root: Node) -> None:
        """Raises ValueError if a node hasn't the right number of children for its depth.

        A tree that fits only an older shape, which an older ringmaster grew (it split a
        parameter again once its values were used up), is kept so: self.shape becomes the
        first of SHAPES it fits.
        """
        for shape in self.SHAPES:
            self.shape = shape
            if self._fits(root, 0):
                self.root = root
                self.changes += 1
                return
        self.shape = "twin-free"
        raise ValueError("wrong number of candidates")

    def refits(self, root: Node, most: int = 3) -> list[tuple[tuple[int, ...], list[list[int]]]]:
        """For a root that fits no shape (set_root): each smallest set of parameters (indices, at most
        `most`) whose splitting below the first level, changed from what a shape gives, makes it fit,
        with the splits at each depth it then has. A changed scale does that: an EXPLICIT list's or
        an integer scale's values decide how deep it is split. [] if none does (or the search would
        take too long): a tree no scales give."""
        width = _widths(root)
        if width is None or len(width) < 2 or width[0] != self.branching_factor:
            return []
        deepest = len(width) - 1
        tuned = [i for i, split in enumerate(self.splits) if split > 1]
        budget = REFIT_BUDGET
        for size in range(1, min(most, len(tuned)) + 1):
            found: dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], None] = {}
            for shape in self.SHAPES:
                # Each parameter's first depth that doesn't split it (deepest + 1: none does).
                stops = {i: next((d for d in range(1, deepest + 1) if self._splits(shape, d)[i] == 1),
                                 deepest + 1) for i in tuned}
                for chosen in itertools.combinations(tuned, size):
                    for new in itertools.product(range(1, deepest + 2), repeat=size):
                        budget -= 1
                        if budget < 0:
                            return []
                        if all(stop != stops[i] for i, stop in zip(chosen, new)):
                            levels = self._levels_stopping({**stops, **dict(zip(chosen, new))}, deepest)
                            if all(math.prod(splits) == n and (n > 1 or splits == self.splits)
                                   for splits, n in zip(levels[1:], width[1:])):
                                found[chosen, tuple(map(tuple, levels))] = None
            if found:
                return [(chosen, [list(splits) for splits in levels]) for chosen, levels in found]
        return []

    def _levels_stopping(self, stops: dict[int, int], deepest: int) -> list[list[int]]:
        """The splits at each depth to deepest of a tree that splits each parameter i only above depth
        stops[i] (at every depth where stops has no i)."""
        return [[split if stops.get(i, deepest + 1) > depth else 1 for i, split in enumerate(self.splits)]
                for depth in range(deepest + 1)]

    def _fits(self, node: Node, depth: int) -> bool:
        if node.children is None:
            return depth > 0
        if not self.can_expand(depth) or len(node.children) != math.prod(self.splits_at(depth)):
            return False
        return all(self._fits(child, depth + 1) for child in node.children)

    @staticmethod
    def walk_nodes(node: Node) -> Iterator[Node]:
        yield node
        for child in node.children or ():
            yield from Tree.walk_nodes(child)

    def height(self) -> int:
        """The depth of the deepest candidate."""
        def below(node: Node) -> int:
            return 1 + max(map(below, node.children)) if node.children else 0
        return below(self.root)

    def twinned(self) -> list[int]:
        """The parameters (indices) a tree of an older shape splits where twin_free_splits would
        not, at a depth it reaches (max_depth, or deeper nodes grown before max_depth was lowered)."""
        deepest = max(self.max_depth, self.height())
        return sorted({i for depth in range(1, deepest)
                       for i, (split, older) in enumerate(zip(self.twin_free_splits(depth),
                                                              self.splits_at(depth)))
                       if split != older})

    # Geometry

    def path_levels(self, path: Path) -> list[list[int]]:
        """The splits at each step of a path."""
        return [self.splits_at(depth) for depth in range(len(path))]

    def parameters_for_path(self, path: Path) -> list[float]:
        return parameters_for_path(self.splits, path, self.path_levels(path))

    def edges_touched(self, path: Path) -> list[tuple[int, str]]:
        """edges_touched for a path of this tree."""
        return edges_touched(self.splits, path, self.path_levels(path))

    def describe_path(self, path: Path) -> str:
        """'3' at depth 1, '3 > 1' at depth 2 (the division chosen at each level)."""
        return " > ".join(self.describe_step(depth, i) for depth, i in enumerate(path))

    def describe_step(self, depth: int, index: int) -> str:
        """The division a child (index) of a cell at this depth takes: '0,1' for two parameters."""
        return describe_choice(_cube_coordinates(tuple(self.splits_at(depth)))[index])

    def node_for_path(self, path: Path) -> Node:
        node = self.root
        for index in path:
            assert node.children is not None
            node = node.children[index]
        return node

    # Selection

    def _effective_visits(self, node: Node) -> int:
        return node.visits + (node.in_flight if self.count_in_flight else 0)

    def _exploration(self, parent: Node) -> float:
        """E * sqrt(log(parent visits)), with games in flight counted by the tree's rule."""
        return self.exploration_coefficient * math.sqrt(math.log(self._effective_visits(parent)))

    def urgency(self, parent: Node, child: Node) -> float:
        """wins/visits + E * sqrt(log(parent visits)) / sqrt(visits), with games in flight
        counted by the tree's rule."""
        return urgency(child.wins, child.visits, self._effective_visits(child),
                       self._exploration(parent), self.in_flight_rule == "loss")

    def choose_child(self, node: Node, rng: random.Random) -> int:
        """The index of the most urgent child (as urgency() computes it); ties broken at random."""
        assert node.children is not None
        counted = self.count_in_flight
        as_loss = self.in_flight_rule == "loss"
        exploration = self._exploration(node)
        best = -math.inf
        tied: list[int] = []
        for i, child in enumerate(node.children):
            played = child.prior_visits + child.games
            value = urgency(child.prior_wins + child.won, played,
                            played + (child.in_flight if counted else 0), exploration, as_loss)
            if value > best:
                best = value
                tied = [i]
            elif value == best:
                tied.append(i)
        return tied[0] if len(tied) == 1 else rng.choice(tied)

    def is_ripe(self, node: Node) -> bool:
        """True if the node has been chosen before (so choosing it again expands it)."""
        return node.games > 0 or (self.count_in_flight and node.in_flight > 0)

    def select(self, rng: random.Random) -> Path:
        """Walk down choosing the most urgent child; expand a ripe leaf above max_depth."""
        path: list[int] = []
        node = self.root
        while node.children is not None:
            index = self.choose_child(node, rng)
            path.append(index)
            node = node.children[index]
        if len(path) < self.max_depth and self.is_ripe(node) and self.can_expand(len(path)):
            self.expand(node, len(path))
            index = self.choose_child(node, rng)
            path.append(index)
        return tuple(path)

    def _path_nodes(self, path: Path) -> list[Node]:
        nodes = [self.root]
        for index in path:
            children = nodes[-1].children
            assert children is not None
            nodes.append(children[index])
        return nodes

    def start_game(self, path: Path) -> None:
        """Note a game in flight through every node on the path (the root included)."""
        for node in self._path_nodes(path):
            node.in_flight += 1

    def abandon_game(self, path: Path) -> None:
        """Forget a game in flight that will never report (a void game)."""
        for node in self._path_nodes(path):
            node.in_flight = max(0, node.in_flight - 1)

    def record_result(self, path: Path, score: float) -> None:
        """Count a finished game at every node on the path (the root included): the candidate's
        score, 1 a win, 0 a loss, 0.5 a jigo. A game with no result is not counted (abandon_game)."""
        for node in self._path_nodes(path):
            node.in_flight = max(0, node.in_flight - 1)
            node.games += 1
            node.won += score

    def clear_in_flight(self) -> None:
        for node in self.walk_nodes(self.root):
            node.in_flight = 0

    # Results

    def best_path(self) -> Path:
        """The candidate to recommend, walking down from the root (BEST_RULE).

        At each level: the child with the most games (the bandit gives most
        games to what it believes best), ties to the higher win rate, then to
        the first. The walk stops above a level where that child has no games,
        or where its estimate (wins + initial wins) / (games + initial visits)
        is below that of a child with no games yet (which would look better):
        so one lost game recommends nothing.
        """
        path: list[int] = []
        node = self.root
        while node.children is not None:
            children = node.children
            index = max(range(len(children)),
                        key=lambda i: (children[i].games,
                                       children[i].won / max(children[i].games, 1), -i))
            chosen = children[index]
            untried = [c.value for c in children if c.games == 0]
            if chosen.games == 0 or (untried and chosen.value < max(untried)):
                break
            path.append(index)
            node = chosen
        return tuple(path)

    def generations(self, depth: int) -> list[tuple[Path, Node]]:
        """Every (path, node) at the given depth (1: the first generation)."""
        return generations(self.root, depth)


def generations(root: Node, depth: int) -> list[tuple[Path, Node]]:
    """Every (path, node) at the given depth below root."""
    level: list[tuple[Path, Node]] = [((), root)]
    for _ in range(depth):
        level = [(path + (i,), child) for path, node in level
                 for i, child in enumerate(node.children or ())]
    return level
