"""Time management under a clock: a move's soft and hard budgets, the measured lag, when to stop.

Three pieces, each switched on alone by an engine option:
  plan_move     -- spends the clock as Pachi's timeinfo.c does: the moves still to
                   play from the empty points, the lag measured from the clock
                   (LagMeter) rather than a fixed 0.1 s, a small reserve at the end;
  StopRule      -- with extend_ratio, thinks past the soft budget (up to the hard
                   one) while the move is unclear (unclear());
                -- with early, stops as soon as the runner-up can't catch the
                   leader's visits in the playouts the time left allows (can_change()).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from players.engines.clock import LAG, LEAST_SEARCH, SMALLEST, Clock

FINAL_EMPTY = 0.2
"""The share of the board still empty when a game ends (Pachi's EXPECTED_FINAL_EMPTY_PERCENT)."""

LEAST_MOVES = 10.0
"""Moves to go never fewer: each move spends at most a tenth of what is left."""

RESERVE_MOVES = 20.0
"""Absolute time: the cost of this many quickest moves (lag and SMALLEST) is kept back."""

CEILING = 0.25
"""A move never plans more than this share of the main time left."""

VALUE_SHARE = 0.2
"""unclear(): moves with at least this share of the leader's visits compete on value."""


@dataclass(frozen=True)
class MovePlan:
    """Seconds for one move's search: soft (the normal budget) and hard (never past it)."""

    soft: float
    hard: float


def moves_to_go(empty_points: int, points: int, *, final_empty: float = FINAL_EMPTY,
                least: float = LEAST_MOVES) -> float:
    """Our moves still to play: half the empty points above those expected empty at the end."""
    return max(least, (empty_points - final_empty * points) / 2.0)


def in_main_time(clock: Clock) -> bool:
    """Whether the clock is in a main time that plan_move spreads (not a period, not byo-yomi)."""
    left = clock.left
    return clock.kind in ("canadian", "fischer") and clock.stones_left == 0 and left > 0


def soft_budget(clock: Clock, empty_points: int, points: int, lag: float, *,
                least: float = LEAST_MOVES, reserve_moves: float = RESERVE_MOVES) -> float | None:
    """Seconds for the next move's search, or None with no clock.

    Main time (absolute, canadian before its periods, fischer) is spread over
    moves_to_go(); absolute time keeps reserve_moves quickest moves (lag and
    SMALLEST each) back, and once into that reserve spends a reserve_moves-th of
    what is left a move, down to LEAST_SEARCH: a long game costs little more
    than the lag a move. lag is what each move costs beyond its search. Periods
    and byo-yomi are as Clock.budget says them, with this lag.
    """
    base = clock.budget(empty_points, lag=lag)
    if base is None or not in_main_time(clock):
        return base
    left = clock.left
    to_go = moves_to_go(empty_points, points, least=least)
    if clock.kind == "fischer":
        share = min(left / to_go + clock.increment, left / 2)
    elif clock.byo_yomi_stones > 0:
        share = left / to_go + clock.byo_yomi_time / clock.byo_yomi_stones
    else:
        share = max(0.0, left - reserve_moves * (lag + SMALLEST)) / to_go
        if share - lag < SMALLEST:    # into the reserve: a tenth of it a move, or the least
            return max(LEAST_SEARCH, min(SMALLEST, left / reserve_moves - lag))
    return max(SMALLEST, share - lag)


def hard_budget(clock: Clock, soft: float, lag: float, ratio: float) -> float:
    """The most the move may take when it extends: ratio soft budgets, at most CEILING of the
    main time left (less lag); in a period, no more than the soft budget."""
    if ratio <= 1.0 or not (in_main_time(clock) or clock.kind == "byoyomi"):
        return soft
    left = clock.left
    if clock.kind == "byoyomi" and clock.stones_left > 0:
        return soft        # a period: the clock's budget is all of it that is safe
    return max(soft, min(ratio * soft, CEILING * left - lag))


def plan_move(clock: Clock, empty_points: int, points: int, lag: float, *, manage: bool,
              extend_ratio: float) -> MovePlan | None:
    """The move's plan: the mature soft budget (manage) or the clock's own with its fixed lag,
    and its hard budget when extend_ratio > 1 (else the soft one); None with no clock."""
    if manage:
        soft = soft_budget(clock, empty_points, points, lag)
    else:
        lag = LAG
        soft = clock.budget(empty_points)
    if soft is None:
        return None
    return MovePlan(soft, hard_budget(clock, soft, lag, extend_ratio))


class LagMeter:
    """Measures what a move costs beyond its search, from the clock the controller reports.

    Before each genmove, observe() the clock: the drop of its time left since
    the last genmove (plus any increment) is what the controller charged for
    our last move; less the search's own seconds (searched()) it is the lag.
    Only main-time drops count; samples outside [0, 1] s (a new game, an undo)
    are dropped. lag() is the mean of the last samples, LAG until there is one.
    """

    def __init__(self, keep: int = 10) -> None:
        self.samples: deque[float] = deque(maxlen=keep)
        self._left: float | None = None
        self._searched: float | None = None

    def reset(self) -> None:
        """A new clock: what was left before no longer compares."""
        self._left = self._searched = None

    def observe(self, clock: Clock) -> None:
        """The clock before our genmove. Only a time_left the controller sent measures lag: our
        own account falls by just what our genmove took, and would make the lag look nil."""
        left = clock.time_left if in_main_time(clock) and clock.told else None
        if left is not None and self._left is not None and self._searched is not None:
            sample = self._left - left + (clock.increment if clock.kind == "fischer" else 0.0) \
                - self._searched
            if 0.0 <= sample <= 1.0:
                self.samples.append(sample)
        self._left = left
        self._searched = None

    def searched(self, seconds: float) -> None:
        """The search of the move just chosen took seconds."""
        self._searched = seconds

    def lag(self) -> float:
        if not self.samples:
            return LAG
        return max(0.005, sum(self.samples) / len(self.samples))


def top_two(visits: np.ndarray) -> tuple[int, float, float]:
    """(the leader's index, its visits, the runner-up's visits)."""
    if len(visits) == 1:
        return 0, float(visits[0]), 0.0
    order = np.argpartition(-visits, 1)[:2]
    first, second = (order[0], order[1]) if visits[order[0]] >= visits[order[1]] else \
        (order[1], order[0])
    return int(first), float(visits[first]), float(visits[second])


def can_change(visits: np.ndarray, playouts_left: float) -> bool:
    """Whether the runner-up by visits could still overtake the leader in playouts_left more."""
    _, first, second = top_two(visits)
    return second + playouts_left >= first


def unclear(visits: np.ndarray, wins: np.ndarray, lead_ratio: float) -> bool:
    """Whether the choice is unclear: the leader by visits has fewer than lead_ratio times
    the runner-up's, or another move with VALUE_SHARE of its visits has a better winning rate."""
    leader, first, second = top_two(visits)
    if first <= 0:
        return True
    if second * lead_ratio > first:
        return True
    rates = np.where(visits > 0, wins / np.maximum(visits, 1e-9), -1.0)
    contenders = visits >= VALUE_SHARE * first
    return bool(np.max(np.where(contenders, rates, -1.0)) > rates[leader])


@dataclass(frozen=True)
class StopRule:
    """When a search stops; called after each chunk of playouts.

    Public attributes:
      soft, hard    -- seconds (None: no time limit); hard >= soft
      playouts      -- the most playouts
      extend_ratio  -- > 1: go on past soft, up to hard, while unclear(visits, wins, this)
      early         -- stop when the runner-up can't catch the leader in the time left
      lookahead     -- stop when the next chunk would end past the limit, not after it
      chunk         -- playouts between two calls
      least         -- playouts before an early stop is considered
    """

    soft: float | None
    hard: float | None
    playouts: int
    extend_ratio: float = 0.0
    early: bool = False
    lookahead: bool = False
    chunk: int = 250
    least: int = 100

    def __call__(self, elapsed: float, played: int, visits: np.ndarray,
                 wins: np.ndarray) -> bool:
        """Whether to stop after played playouts in elapsed seconds, the root's edges as given."""
        if played >= self.playouts:
            return True
        step = elapsed / played * self.chunk if self.lookahead and played > 0 else 0.0
        extend = self.extend_ratio > 1.0
        limit = self.hard if extend else self.soft
        if limit is not None and elapsed + step >= limit:
            return True
        if self.early and played >= self.least:
            left = self.playouts - played
            if limit is not None and elapsed > 0:
                left = min(left, (limit - elapsed) * played / elapsed)
            if not can_change(visits, left):
                return True
        if self.soft is None or elapsed + step < self.soft:
            return False
        return not (extend and unclear(visits, wins, self.extend_ratio))
